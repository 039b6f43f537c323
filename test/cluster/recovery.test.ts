/**
 * A node recovers on its own from losing NATS: one that joins while cut off (before any lease
 * exists) says it is not in sync, and once its connection heals it finds the leader the others
 * elected, follows the log and serves what they wrote; cut off again while following, it catches up
 * with what was written meanwhile (its log consumer is replaced) without a restart.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { OCELOT } from '../reliability/server-process.js';
import {
  clusterView,
  request,
  startOcelotNode,
  type ClusterStatusBody,
  type OcelotNode,
} from './cluster-harness.js';
import { NATS_MISSING, natsServerPath, startNatsCluster } from './nats-servers.js';
import { killAllChildren } from './reaper.js';
import { startTcpProxy } from './tcp-proxy.js';
import { dumpNode, gsqlText, SCHEMA } from './workload.js';

const run = promisify(execFile);
const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
  killAllChildren();
});

async function upsert(node: OcelotNode, id: string): Promise<void> {
  const r = await request(`${node.restpp}/graph/g`, {
    method: 'POST',
    body: JSON.stringify({ vertices: { P: { [id]: { w: { value: 1 }, i: { value: 0 } } } } }),
    signal: AbortSignal.timeout(60_000),
  });
  assert.equal(r.status, 200, `${id} through ${node.id}: ${r.text}`);
}

test(
  'a node cut off from NATS while it joins, and again while it follows, recovers on its own',
  { skip: natsServerPath() ? false : NATS_MISSING, timeout: 180_000 },
  async () => {
    const nats = await startNatsCluster(3);
    cleanups.push(() => nats.stop());
    const root = mkdtempSync(join(tmpdir(), 'ocelot-recovery-'));
    cleanups.push(async () => rmSync(root, { recursive: true, force: true }));
    const proxies = await Promise.all(nats.servers.map((s) => startTcpProxy(s.port)));
    cleanups.push(async () => {
      await Promise.all(proxies.map((p) => p.close()));
    });
    for (const p of proxies) p.cut();
    const n1 = await startOcelotNode(
      'n1',
      proxies.map((p) => `nats://127.0.0.1:${p.port}`).join(','),
      join(root, 'n1'),
    );
    cleanups.push(() => n1.kill());
    const others: OcelotNode[] = [];
    for (const id of ['n2', 'n3']) {
      const n = await startOcelotNode(id, nats.urls, join(root, id));
      cleanups.push(() => n.kill());
      others.push(n);
    }
    const nodes = [n1, ...others];
    const view = clusterView(() => nodes);

    await view.leaderAmong(others);
    const cutOff = (s: ClusterStatusBody[]) => s.some((x) => x.nodeId === 'n1' && !x.connected && !x.inSync);
    await view.waitFor('n1 to say it is neither connected nor in sync', cutOff);
    const cli = await run(process.execPath, [OCELOT, 'cluster', 'status', '--url', n1.gsql]);
    assert.match(cli.stdout, /^node n1: follower \(not connected to NATS\), version 0/m);
    assert.match(await gsqlText(others[0], SCHEMA), /The graph g is created/);
    await upsert(others[1], 'before-join');

    for (const p of proxies) p.heal();
    const synced = (s: ClusterStatusBody[]) =>
      s.every(
        (x) =>
          x.inSync &&
          x.caughtUp &&
          x.leader !== null &&
          x.leader === s[0].leader &&
          x.members.length === 3 &&
          x.version === s[0].version,
      );
    await view.waitFor('every node in sync, naming one leader, with three members', synced);
    // n1 followed the log from its start: it holds what was written before it connected, and
    // forwards writes to the leader.
    await upsert(n1, 'through-n1');
    assert.deepEqual(await dumpNode(n1), ['before-join:1:0', 'through-n1:1:0']);

    for (const p of proxies) p.cut();
    await view.waitFor('n1 to notice the cut', cutOff);
    for (let i = 0; i < 5; i++) await upsert(others[i % 2], `while-cut-${i}`);
    for (const p of proxies) p.heal();
    await view.waitFor('n1 to catch up with what was written while it was cut off', synced);
    const dumps = await Promise.all(nodes.map((n) => dumpNode(n)));
    assert.equal(dumps[0].length, 7);
    for (const d of dumps.slice(1)) assert.deepEqual(d, dumps[0], 'every node holds the same graph');
  },
);
