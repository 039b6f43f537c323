/**
 * A 3-node cluster on a real 3-server JetStream cluster, under concurrent writers sent to every
 * node, survives repeated SIGKILLs of its leader: every acknowledged write is on every node, the
 * nodes hold identical graphs, a write acknowledged through a node is readable there at once, and
 * a new leader is in place within the bound (each fail-over time is reported).
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { explained, startTestCluster, type TestCluster } from './cluster-harness.js';
import { NATS_MISSING, natsServerPath } from './nats-servers.js';
import { killAllChildren } from './reaper.js';
import { dumpNode, gsqlText, SCHEMA, startWriters } from './workload.js';

const KILLS = Number(process.env.OCELOT_CLUSTER_KILLS ?? 3);
/** Generous: the lease is 4 s; a loaded 2-core machine adds scheduling delays. */
const FAILOVER_BOUND_MS = 30_000;

let cluster: TestCluster | undefined;
after(async () => {
  await cluster?.stop();
  killAllChildren();
});

test(
  'repeated kill -9 of the leader under load loses no acknowledged write and leaves no divergence',
  { skip: natsServerPath() ? false : NATS_MISSING, timeout: 180_000 },
  async (t) => {
    cluster = await startTestCluster(3, 3);
    const c = cluster;
    const first = await c.leader();
    const follower = c.nodes.find((n) => n !== first)!;
    assert.match(await gsqlText(follower, SCHEMA), /The graph g is created/);

    const writers = startWriters(() => c.nodes, 6, { probeEvery: 3 });
    const failovers: number[] = [];
    try {
      for (let k = 0; k < KILLS; k++) {
        const leader = await c.leader();
        // Writes flow under this leader before it dies.
        await explained(c.nodes, writers.acknowledged(20));
        const killedAt = performance.now();
        await leader.kill();
        const next = await c.leader(FAILOVER_BOUND_MS);
        failovers.push(performance.now() - killedAt);
        assert.notEqual(next.id, leader.id);
        await leader.restart();
      }
      await explained(c.nodes, writers.acknowledged(20));
    } finally {
      const report = await writers.stop();
      t.diagnostic(
        `acknowledged ${report.acked.length}, unknown outcome ${report.unknown.length}; ` +
          `fail-over times (kill to a leader every node names): ${failovers.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(', ')}`,
      );
      const statuses = await c.waitFor(
        'every node caught up at one version',
        (s) =>
          s.length === 3 && s.every((x) => x.caughtUp && x.version === s[0].version && x.leader !== null),
        60_000,
      );
      t.diagnostic(`final version ${statuses[0].version}, leader ${statuses[0].leader}`);
      const dumps = await Promise.all(c.nodes.map((n) => dumpNode(n)));
      for (const d of dumps.slice(1)) assert.deepEqual(d, dumps[0], 'every node holds the same graph');
      const present = new Set(dumps[0].map((line) => line.split(':')[0]));
      const lost = report.acked.filter((id) => !present.has(id));
      assert.deepEqual(lost, [], 'no acknowledged write is lost');
      // Nothing appears that was never sent.
      const sent = new Set([...report.acked, ...report.unknown]);
      assert.deepEqual(
        [...present].filter((id) => !sent.has(id)),
        [],
      );
      assert.deepEqual(
        report.readYourWritesMisses,
        [],
        'a write acknowledged by a node is readable there at once',
      );
      assert.ok(report.acked.length > 0);
    }
    for (const ms of failovers) assert.ok(ms < FAILOVER_BOUND_MS, `fail-over took ${ms} ms`);
  },
);
