/**
 * Isolation (docs/performance.md, "Parallel execution"): the latency of /echo and of REST++ point
 * reads while PageRank runs back to back, with the server's query workers and with queries on the
 * event loop (`--threads 0`). It restarts the server with other flags and puts the run's own back
 * when it ends. Scaling is in scenarios-scaling.ts.
 */
import { Agent, get } from 'node:http';
import type { Context } from './context.js';
import { RMAT_GRAPH } from './gsql-text.js';
import { queryClient, type QueryClient } from './query-client.js';
import { OcelotServer } from './server.js';
import { percentile } from './stats.js';

/** Restarts the server with `threads` query threads, pinned to `cores` cores when given. */
async function restart(ctx: Context, threads: number | undefined, cores?: number): Promise<QueryClient> {
  await ctx.server.stop();
  ctx.server = await OcelotServer.start(ctx.server.dataDir, {
    ...(threads === undefined ? {} : { threads }),
    ...(cores === undefined ? {} : { cores }),
  });
  return queryClient(ctx.server, RMAT_GRAPH, 'khop');
}

/** Milliseconds of each sequential GET of `paths` (in turn) until `stop()` says so. */
async function sample(base: string, paths: string[], stop: () => boolean): Promise<number[][]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const out: number[][] = paths.map(() => []);
  const one = (path: string): Promise<void> =>
    new Promise((resolve, reject) => {
      get(`${base}${path}`, { agent }, (res) => {
        res.resume();
        res.on('end', resolve);
        res.on('error', reject);
      }).on('error', reject);
    });
  for (let i = 0; !stop(); i++) {
    const p = i % paths.length;
    const t0 = performance.now();
    await one(paths[p]);
    out[p].push(performance.now() - t0);
  }
  agent.destroy();
  return out;
}

/** The latencies while PageRank runs back to back, for a server with `threads` query threads. */
async function underLoad(
  ctx: Context,
  threads: number | undefined,
): Promise<{ lat: number[][]; runs: number }> {
  const q = await restart(ctx, threads);
  const seed = ctx.data.seeds[0];
  const paths = ['/echo', `/graph/${RMAT_GRAPH}/vertices/MyNode/${seed}`];
  let stopping = false;
  let runs = 0;
  const loop = (async () => {
    while (!stopping) {
      await q.run('page_rank', { iterations: 10, damping: 0.85 });
      runs++;
    }
  })();
  // The first PageRank is running once its request left; then sample for the run's seconds × 2.
  await new Promise((r) => setTimeout(r, 200));
  const until = performance.now() + ctx.opts.seconds * 2000;
  const lat = await sample(ctx.server.urls.restpp, paths, () => performance.now() > until);
  stopping = true;
  await loop;
  return { lat, runs };
}

export async function isolation(ctx: Context): Promise<void> {
  let workers: { lat: number[][]; runs: number } | undefined;
  let loop: { lat: number[][]; runs: number } | undefined;
  try {
    workers = await underLoad(ctx, ctx.opts.threads);
    loop = await underLoad(ctx, 0);
  } finally {
    await restart(ctx, ctx.opts.threads);
  }
  const what = ['/echo', 'REST++ point read (GET /graph/…/vertices/MyNode/<id>)'];
  for (let i = 0; i < what.length; i++) {
    for (const [q, name] of [
      [0.5, 'p50'],
      [0.99, 'p99'],
    ] as const) {
      ctx.rows.push({
        scenario: 'isolation',
        what: `${what[i]} while PageRank runs back to back`,
        unit: `${name} ms`,
        better: 'lower',
        ocelot: { samples: [percentile(workers.lat[i], q)] },
        peers: { 'queries on the event loop (--threads 0)': { samples: [percentile(loop.lat[i], q)] } },
        note: `${workers.lat[i].length} requests, ${workers.runs} PageRanks (event loop: ${loop.lat[i].length}, ${loop.runs}); max ${Math.max(...workers.lat[i]).toFixed(0)} ms (event loop ${Math.max(...loop.lat[i]).toFixed(0)} ms)`,
        ...(name === 'p99' ? { target: 50 } : {}),
      });
    }
  }
}
