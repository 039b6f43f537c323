/**
 * `ocelot bench cluster [--seconds S] [--connections C] [--vertices N]`: read throughput of a cluster
 * as nodes are added. A 3-server JetStream cluster and 3 Ocelot nodes run on loopback (child
 * processes); N vertices are written through the leader; then REST++ point reads (random ids) go
 * to 1, 2 and 3 nodes at once, C connections each, and the requests per second are summed.
 * Everything shares this machine's cores (printed with the results): the load generator, the NATS
 * servers and every node compete for them, so read throughput can only grow with nodes where there
 * are cores to spare.
 */
import { availableParallelism, cpus } from 'node:os';
import { load, type HttpLoad } from './harness/http-load.js';
import { request, startTestCluster } from '../test/cluster/cluster-harness.js';
import { natsServerPath, NATS_MISSING } from '../test/cluster/nats-servers.js';
import { killAllChildren } from '../test/cluster/reaper.js';
import { gsqlText } from '../test/cluster/workload.js';

function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const v = Number(args[i + 1]);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} needs a positive number`);
  return v;
}

export async function run(args: string[]): Promise<void> {
  if (!natsServerPath()) {
    console.log(NATS_MISSING);
    return;
  }
  const seconds = option(args, '--seconds', 10);
  const connections = option(args, '--connections', 16);
  const vertices = option(args, '--vertices', 20_000);
  const cluster = await startTestCluster(3, 3);
  try {
    const leader = await cluster.leader();
    await gsqlText(leader, 'CREATE VERTEX P (PRIMARY_ID id STRING, name STRING, n INT)\nCREATE GRAPH g (P)');
    for (let from = 0; from < vertices; from += 5_000) {
      const batch: Record<string, unknown> = {};
      for (let i = from; i < Math.min(vertices, from + 5_000); i++) {
        batch[`p${i}`] = { name: { value: `person ${i}` }, n: { value: i } };
      }
      const r = await request(`${leader.restpp}/graph/g`, {
        method: 'POST',
        body: JSON.stringify({ vertices: { P: batch } }),
      });
      if (r.status !== 200) throw new Error(`loading failed: ${r.text}`);
    }
    await cluster.waitFor(
      'every node has the data',
      (s) => s.length === 3 && s.every((x) => x.version === s[0].version),
    );
    const paths = Array.from(
      { length: 500 },
      () => `/graph/g/vertices/P/p${Math.floor(Math.random() * vertices)}`,
    );
    // Warm every node's connections and caches.
    await Promise.all(cluster.nodes.map((n) => load(n.restpp, paths, 4, 2)));
    const cores = availableParallelism();
    console.log(
      `cluster reads: ${cores} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${vertices} vertices,`,
    );
    console.log(
      `${connections} connections per node, ${seconds} s per run, REST++ GET /graph/g/vertices/P/{id}`,
    );
    console.log('nodes  total req/s  per node req/s                 p50 ms  p99 ms');
    let one = 0;
    for (let k = 1; k <= 3; k++) {
      const targets = cluster.nodes.slice(0, k);
      const runs: HttpLoad[] = await Promise.all(
        targets.map((n) => load(n.restpp, paths, connections, seconds)),
      );
      const total = runs.reduce((s, r) => s + r.rps, 0);
      if (k === 1) one = total;
      console.log(
        `${String(k).padEnd(5)}  ${total.toFixed(0).padStart(11)}  ${runs
          .map((r) => r.rps.toFixed(0))
          .join(' + ')
          .padEnd(29)}  ${Math.max(...runs.map((r) => r.p50))
          .toFixed(1)
          .padStart(6)}  ${Math.max(...runs.map((r) => r.p99))
          .toFixed(1)
          .padStart(6)}   (${(total / one).toFixed(2)}x of 1 node)`,
      );
    }
  } finally {
    await cluster.stop();
    killAllChildren();
  }
}
