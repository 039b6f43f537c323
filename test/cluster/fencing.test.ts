/**
 * Fencing and NATS failures: a publisher of an older term is refused by the log once a newer one
 * appended; a leader cut off from NATS (its connections go through proxies the test cuts)
 * acknowledges nothing sent to it after the cut, is replaced, and rejoins as a follower with no
 * divergence; the cluster keeps acknowledging writes while one NATS server is down.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { connect } from 'nats';
import { LogPublisher } from '../../src/cluster/log-publisher.js';
import { connectCluster } from '../../src/cluster/nats.js';
import { LOG_STREAM } from '../../src/cluster/log-format.js';
import {
  clusterView,
  explained,
  request,
  startOcelotNode,
  startTestCluster,
  type OcelotNode,
  type TestCluster,
} from './cluster-harness.js';
import {
  NATS_MISSING,
  natsServerPath,
  startNatsCluster,
  type NatsCluster,
  type NatsServer,
} from './nats-servers.js';
import { killAllChildren } from './reaper.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';
import { dumpNode, gsqlText, SCHEMA, startWriters, type WriterReport } from './workload.js';

const skip = natsServerPath() ? false : NATS_MISSING;
const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
  killAllChildren();
});

test(
  'the log refuses a publisher of an older term once a newer one appended',
  { skip, timeout: 60_000 },
  async () => {
    const nats = await startNatsCluster(3);
    cleanups.push(() => nats.stop());
    const abort = new AbortController();
    const conn = await connectCluster({
      servers: nats.urls.split(','),
      nodeId: 'probe',
      replicas: 3,
      leaseTtlMs: 4000,
      log: () => undefined,
      signal: abort.signal,
    });
    cleanups.push(() => conn.nc.close());
    const last = (await conn.jsm.streams.info(LOG_STREAM)).state.last_seq;
    const failures: string[] = [];
    const publisher = (term: number) =>
      new LogPublisher(conn, {
        lastSeq: last,
        term,
        timeoutMs: 4000,
        holdsLease: () => true,
        onFailure: (e) => failures.push(`${term}: ${e.message}`),
        onConfirmed: () => undefined,
      });
    const old = publisher(1);
    const current = publisher(2);
    await current.replicate(new Uint8Array([1, 2, 3]), 1);
    await assert.rejects(old.replicate(new Uint8Array([9]), 1), /wrong last sequence/);
    await assert.rejects(
      old.replicate(new Uint8Array([9]), 2),
      /wrong last sequence/,
      'and it stays refused',
    );
    await current.replicate(new Uint8Array([4]), 2);
    assert.deepEqual(failures.length, 1);
    const info = await conn.jsm.streams.info(LOG_STREAM);
    assert.equal(info.state.last_seq, last + 2, 'only the current term’s records are in the log');
  },
);

interface ProxiedNode {
  node: OcelotNode;
  proxies: TcpProxy[];
}

async function proxiedCluster(nats: NatsCluster, root: string): Promise<ProxiedNode[]> {
  const out: ProxiedNode[] = [];
  for (let i = 1; i <= 3; i++) {
    const proxies = await Promise.all(nats.servers.map((s) => startTcpProxy(s.port)));
    cleanups.push(async () => {
      await Promise.all(proxies.map((p) => p.close()));
    });
    const urls = proxies.map((p) => `nats://127.0.0.1:${p.port}`).join(',');
    const node = await startOcelotNode(`n${i}`, urls, join(root, `n${i}`));
    cleanups.push(() => node.kill());
    out.push({ node, proxies });
  }
  return out;
}

async function checkConverged(
  c: Pick<TestCluster, 'waitFor'>,
  nodes: OcelotNode[],
  report: WriterReport,
): Promise<void> {
  await c.waitFor(
    'every node caught up at one version, with a leader',
    (s) =>
      s.length === nodes.length &&
      s.every((x) => x.caughtUp && x.version === s[0].version && x.leader !== null),
    60_000,
  );
  const dumps = await Promise.all(nodes.map((n) => dumpNode(n)));
  for (const d of dumps.slice(1)) assert.deepEqual(d, dumps[0], 'every node holds the same graph');
  const present = new Set(dumps[0].map((line) => line.split(':')[0]));
  assert.deepEqual(
    report.acked.filter((id) => !present.has(id)),
    [],
    'no acknowledged write is lost',
  );
}

test(
  'a leader cut off from NATS acknowledges nothing, is replaced, and rejoins as a follower',
  { skip, timeout: 180_000 },
  async (t) => {
    const nats = await startNatsCluster(3);
    cleanups.push(() => nats.stop());
    const root = mkdtempSync(join(tmpdir(), 'ocelot-fencing-'));
    cleanups.push(async () => rmSync(root, { recursive: true, force: true }));
    const members = await proxiedCluster(nats, root);
    const nodes = members.map((m) => m.node);
    const view = clusterView(() => nodes);
    const leader = await view.leader();
    const cutOff = members.find((m) => m.node === leader)!;
    const others = nodes.filter((n) => n !== leader);
    assert.match(await gsqlText(others[0], SCHEMA), /The graph g is created/);
    const writers = startWriters(() => others, 4);
    cleanups.push(async () => void (await writers.stop()));
    await explained(nodes, writers.acknowledged(10));

    for (const p of cutOff.proxies) p.cut();
    const cutAt = performance.now();
    const replaced = view.leaderAmong(others).then((n) => ({ n, after: performance.now() - cutAt }));
    // Writes sent to the cut-off leader from now on, before and after its lease lapses: none may be
    // acknowledged.
    const sentToOld = await Promise.all(
      Array.from({ length: 4 }, async (_, k) => {
        await new Promise((r) => setTimeout(r, k * 1_500));
        const r = await request(`${leader.restpp}/graph/g`, {
          method: 'POST',
          body: JSON.stringify({
            vertices: { P: { [`fenced${k}`]: { w: { value: -1 }, i: { value: k } } } },
          }),
          signal: AbortSignal.timeout(40_000),
        }).catch((e: Error) => ({ status: 0, text: e.message }));
        return r;
      }),
    );
    for (const r of sentToOld)
      assert.notEqual(r.status, 200, `the deposed leader acknowledged a write: ${r.text}`);
    const next = await replaced;
    t.diagnostic(`new leader ${next.n.id} ${(next.after / 1000).toFixed(2)} s after the cut`);
    // The cut-off node stops acting as leader once its lease lapses by its own clock, and says it
    // is not in sync.
    await view.waitFor('the cut-off node to step down', (s) =>
      s.some((x) => x.nodeId === leader.id && x.role === 'follower' && !x.connected && !x.inSync),
    );

    for (const p of cutOff.proxies) p.heal();
    await explained(nodes, writers.acknowledged(10));
    const report = await writers.stop();
    t.diagnostic(
      `writes through the other nodes: ${report.acked.length} acknowledged, ${report.unknown.length} unknown`,
    );
    await checkConverged(view, nodes, report);
    // The writes sent to it had no acknowledgement: their outcome is unknown, so either is fine.
    await view.waitFor(
      'the old leader follows',
      (s) => s.find((x) => x.nodeId === leader.id)?.role === 'follower',
    );
  },
);

test('writes go on while one NATS server is down', { skip, timeout: 180_000 }, async (t) => {
  const c = await startTestCluster(3, 3);
  cleanups.push(() => c.stop());
  const first = await c.leader();
  const follower = c.nodes.find((n) => n !== first)!;
  assert.match(await gsqlText(follower, SCHEMA), /The graph g is created/);
  const writers = startWriters(() => c.nodes, 4);
  cleanups.push(async () => void (await writers.stop()));
  await explained(c.nodes, writers.acknowledged(10));
  // The server that leads the log's Raft group: publishes must wait for a new one to be elected.
  const down = await logStreamLeader(c.nats);
  await down.kill();
  const killedAt = performance.now();
  // Raft groups that had their leader there elect another, and the Ocelot leader may change too
  // (its lease or publishes failing meanwhile): while the server stays down, writes sent after its
  // death are acknowledged, every node reconnects to another server, and every follower (also one
  // whose log consumer lived there) applies them.
  await explained(c.nodes, writers.acknowledged(50));
  const flowing = performance.now() - killedAt;
  const statuses = await c.waitFor('three nodes', (s) => s.length === 3);
  const target = Math.max(...statuses.map((x) => x.version));
  await c.waitFor('every node in sync and applying the writes made while a NATS server is down', (s) =>
    s.every((x) => x.inSync && x.version >= target),
  );
  const applied = performance.now() - killedAt;
  assert.equal(down.running(), false);
  await down.restart();
  await explained(c.nodes, writers.acknowledged(10));
  const report = await writers.stop();
  t.diagnostic(
    `acknowledged ${report.acked.length}, unknown ${report.unknown.length}; with ${down.name} (the log's leader) down: ` +
      `50 writes sent after its death acknowledged ${(flowing / 1000).toFixed(1)} s after it, ` +
      `applied on every node ${(applied / 1000).toFixed(1)} s after it`,
  );
  await checkConverged(c, c.nodes, report);
});

/** The NATS server leading the cluster log stream's Raft group. */
async function logStreamLeader(nats: NatsCluster): Promise<NatsServer> {
  const nc = await connect({ servers: nats.urls.split(',') });
  try {
    const jsm = await nc.jetstreamManager();
    const name = (await jsm.streams.info(LOG_STREAM)).cluster?.leader;
    const server = nats.servers.find((s) => s.name === name);
    assert.ok(server, `the log stream's leader is ${name}`);
    return server;
  } finally {
    await nc.close();
  }
}
