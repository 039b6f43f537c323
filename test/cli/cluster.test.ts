import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCluster } from '../../src/cli/cluster.js';
import { resolveServeConfig } from '../../src/cli/serve-config.js';
import { UsageError } from '../../src/cli/args.js';
import { startServers } from '../../src/server/start.js';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: { stdout: (l: string) => out.push(l), stderr: (l: string) => err.push(l), env: {} },
  };
}

test('ocelot cluster: help, usage errors, and a server that is not a cluster node', async () => {
  const help = io();
  assert.equal(await runCluster(['--help'], help.io), 0);
  assert.match(help.out.join('\n'), /^Usage: ocelot cluster status/);
  const bad = io();
  assert.equal(await runCluster(['stat'], bad.io), 1);
  assert.match(bad.err[0], /unknown subcommand 'stat'/);

  const dir = mkdtempSync(join(tmpdir(), 'ocelot-cluster-cli-'));
  const servers = await startServers({
    dataDir: dir,
    restppPort: 0,
    gsqlPort: 0,
    adminPort: 0,
    log: () => {},
  });
  try {
    const alone = io();
    assert.equal(await runCluster(['status', '--url', servers.urls.gsql], alone.io), 2);
    assert.equal(
      alone.err[0],
      `ocelot cluster: ${servers.urls.gsql} is not a cluster node (it was started without --cluster)`,
    );
    const nobody = io();
    assert.equal(await runCluster(['status', '--url', 'http://127.0.0.1:1'], nobody.io), 2);
    assert.match(nobody.err[0], /^ocelot cluster: cannot reach http:\/\/127\.0\.0\.1:1/);
  } finally {
    await servers.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('serve: --cluster and --node-id are checked, with their environment variables', () => {
  const c = resolveServeConfig(['--cluster', 'nats://a:4222, nats://b:4222', '--node-id', 'n-1'], {});
  assert.ok(c !== 'help');
  assert.deepEqual(c.cluster, {
    servers: ['nats://a:4222', 'nats://b:4222'],
    nodeId: 'n-1',
    leaseTtlMs: 4000,
  });
  const e = resolveServeConfig([], {
    OCELOT_CLUSTER: 'nats://h:1',
    OCELOT_NODE_ID: 'x',
    OCELOT_CLUSTER_LEASE_MS: '2500',
  });
  assert.ok(e !== 'help');
  assert.equal(e.cluster?.leaseTtlMs, 2500);
  const alone = resolveServeConfig([], {});
  assert.ok(alone !== 'help');
  assert.equal(alone.cluster, undefined);
  const refused: [string[], RegExp][] = [
    [['--cluster', 'nats://h:1'], /--cluster needs --node-id/],
    [['--node-id', 'n1'], /--node-id is for cluster nodes/],
    [['--cluster', 'http://h:1', '--node-id', 'n1'], /'http:\/\/h:1' is not a NATS url/],
    [['--cluster', 'nats://h:1', '--node-id', 'n 1'], /--node-id 'n 1' is not valid/],
    [['--cluster', 'nats://h:1', '--node-id', 'n1', '--cluster-lease-ms', '10'], /from 1000 to 60000/],
  ];
  for (const [argv, message] of refused) {
    assert.throws(
      () => resolveServeConfig(argv, {}),
      (err: unknown) => err instanceof UsageError && message.test(err.message),
    );
  }
});
