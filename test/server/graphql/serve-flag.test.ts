/**
 * `ocelot serve --graphql-graph G` (or OCELOT_GRAPHQL_GRAPH) starts the one-graph GraphQL listener
 * on --graphql-port and announces it; without a graph there is no such listener.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { resolveServeConfig, runServe, SERVE_HELP } from '../../../src/cli/serve.js';
import type { RunningServers } from '../../../src/server/start.js';

test('--graphql-graph and OCELOT_GRAPHQL_GRAPH; the flag wins', () => {
  const flag = resolveServeConfig(['--graphql-graph', 'Social', '--graphql-port', '4100'], {
    OCELOT_GRAPHQL_GRAPH: 'x',
  });
  assert.ok(flag !== 'help');
  assert.equal(flag.graphqlGraph, 'Social');
  assert.equal(flag.graphqlPort, 4100);
  const env = resolveServeConfig([], { OCELOT_GRAPHQL_GRAPH: 'Other' });
  assert.ok(env !== 'help');
  assert.equal(env.graphqlGraph, 'Other');
  const none = resolveServeConfig([], {});
  assert.ok(none !== 'help');
  assert.equal('graphqlGraph' in none, false);
  assert.match(
    SERVE_HELP,
    /\n {2}--graphql-graph G {11}serve graph G's GraphQL service at :<graphql-port>\/graphql/,
  );
});

test(
  'ocelot serve starts the GraphQL listener of the graph and stops on SIGINT',
  { timeout: 20_000 },
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ocelot-graphql-serve-'));
    const stdout: string[] = [];
    let ready: (urls: RunningServers['urls']) => void = () => {};
    const urls = new Promise<RunningServers['urls']>((resolve) => (ready = resolve));
    const ports = ['--restpp-port', '0', '--gsql-port', '0', '--admin-port', '0', '--graphql-port', '0'];
    const done = runServe(['--data', dir, '--sync', 'none', '--graphql-graph', 'Social', ...ports], {
      stdout: (l) => stdout.push(l),
      stderr: () => {},
      env: {},
      onReady: ready,
    });
    try {
      const u = await urls;
      assert.ok(
        stdout.includes(`GraphQL (graph Social) at ${u.graphql}/graphql, GraphiQL at ${u.graphql}/`),
        stdout.join('\n'),
      );
      assert.match(stdout[stdout.length - 1], /^Admin listening on /);
      // The graph does not exist yet: the service answers, and will serve it once it is created.
      const res = await fetch(`${u.graphql}/graphql`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from('tigergraph:tigergraph').toString('base64')}` },
        body: JSON.stringify({ query: '{ Social { __typename } }' }),
      });
      assert.equal(res.status, 404);
      assert.equal(await res.text(), `{"errors":[{"message":"Graph 'Social' does not exist."}]}`);
    } finally {
      process.emit('SIGINT', 'SIGINT');
      assert.equal(await done, 0);
      await rm(dir, { recursive: true, force: true });
    }
  },
);
