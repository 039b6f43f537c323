/**
 * `ocelot serve --graphql-graph G` (or OCELOT_GRAPHQL_GRAPH) starts the one-graph GraphQL listener
 * on --graphql-port and announces it; without a graph there is no such listener.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { resolveServeConfig } from '../../../src/cli/serve-config.js';
import { SERVE_HELP } from '../../../src/cli/serve-help.js';
import { runServe } from '../../../src/cli/serve.js';
import { DEFAULT_LIMITS } from '../../../src/graphql/index.js';
import type { RunningServers } from '../../../src/server/start.js';
import { scaled } from '../../timing.js';

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
  { timeout: scaled(60_000) },
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

test('GraphQL limits, role limits, introspection, allow-list and CORS flags, with OCELOT_* variables', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ocelot-graphql-flags-'));
  try {
    const list = join(dir, 'allow.json');
    await writeFile(
      list,
      JSON.stringify({
        format: 'apollo-persisted-query-manifest',
        version: 1,
        operations: [{ id: 'op1', name: 'A', type: 'query', body: '{ Social { __typename } }' }],
      }),
    );
    const c = resolveServeConfig(
      [
        '--graphql-max-cost',
        '5000',
        '--graphql-max-depth=9',
        '--graphql-role-limits',
        'superuser:cost=0',
        '--graphql-introspection',
        'false',
        '--graphql-allow-list',
        list,
        '--cors-origin',
        'https://a.example, http://localhost:3000',
      ],
      { OCELOT_GRAPHQL_MAX_ROWS: '77', OCELOT_GRAPHQL_MAX_COST: '1' },
    );
    assert.ok(c !== 'help');
    assert.deepEqual(c.graphql.limits, { maxCost: 5000, maxDepth: 9, maxRows: 77 });
    assert.deepEqual([...(c.graphql.roleLimits ?? [])], [['superuser', { maxCost: 0 }]]);
    assert.equal(c.graphql.introspection, false);
    assert.deepEqual(
      [...(c.graphql.allowList?.values() ?? [])],
      ['{ Social { __typename } }', '{ Social { __typename } }'],
    );
    assert.ok(c.graphql.allowList?.has('op1'));
    assert.deepEqual(c.corsOrigins, ['https://a.example', 'http://localhost:3000']);
    const defaults = resolveServeConfig([], {});
    assert.ok(defaults !== 'help');
    assert.deepEqual(defaults.graphql.limits, DEFAULT_LIMITS);
    for (const [argv, message] of [
      [['--graphql-max-depth', '-1'], /--graphql-max-depth must be a whole number from 0 to 1000, not '-1'/],
      [['--graphql-role-limits', 'x:speed=1'], /--graphql-role-limits: unknown limit 'speed' for role x/],
      [['--graphql-introspection', 'maybe'], /--graphql-introspection must be true or false, not 'maybe'/],
      [['--graphql-allow-list', join(dir, 'none.json')], /--graphql-allow-list .*none\.json: ENOENT/],
      [
        ['--cors-origin', 'example.com'],
        /--cors-origin: 'example.com' is not an origin like https:\/\/app\.example\.com \(or \*\)/,
      ],
    ] as const) {
      assert.throws(() => resolveServeConfig(argv, {}), message);
    }
    assert.match(SERVE_HELP, /\n {2}--graphql-max-cost N {8}refuse GraphQL requests whose estimated cost/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
