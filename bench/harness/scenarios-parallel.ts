/**
 * Parallel execution (docs/performance.md, "Parallel execution"):
 * - scaling: PageRank, WCC and exact-distance 3-hop reach with the server at each of
 *   `--thread-list` query threads, pinned by taskset to that many cores, against Kùzu pinned to the
 *   same cores with the same thread count (a child process, kuzu-child.ts); the answers must be
 *   the same at every thread count;
 * - isolation: the latency of /echo and of REST++ point reads while PageRank runs back to back,
 *   with the server's query workers and with queries on the event loop (`--threads 0`).
 * Both restart the server with other flags and put the run's own back when they end.
 */
import { availableParallelism } from 'node:os';
import { Agent, get } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context } from './context.js';
import { RMAT_GRAPH } from './gsql-text.js';
import { queryClient, type QueryClient } from './query-client.js';
import { OcelotServer, pinPrefix, runPinnedChild } from './server.js';
import { median, percentile, unavailable, warmRepeat, type Outcome, type Row } from './stats.js';

const KUZU_CHILD = fileURLToPath(new URL('./kuzu-child.js', import.meta.url));

/** Restarts the server with `threads` query threads, pinned to `cores` cores when given. */
async function restart(ctx: Context, threads: number | undefined, cores?: number): Promise<QueryClient> {
  await ctx.server.stop();
  ctx.server = await OcelotServer.start(ctx.server.dataDir, {
    ...(threads === undefined ? {} : { threads }),
    ...(cores === undefined ? {} : { cores }),
  });
  return queryClient(ctx.server, RMAT_GRAPH, 'khop');
}

async function seconds(f: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await f();
  return (performance.now() - t0) / 1000;
}

/** The server's CPU during one run: all its threads together, and its busiest thread (ms). */
interface RunCpu {
  all: number;
  busiest: number;
}

/**
 * `seconds(f)`, also pushing the server's CPU during the run onto `cpu`: the wall clock against
 * the busiest thread tells waiting from work, and all threads against one thread's CPU tells how
 * much work the split added.
 */
async function secondsWithCpu(server: OcelotServer, cpu: RunCpu[], f: () => Promise<unknown>): Promise<number> {
  const before = server.threadCpuMs();
  const s = await seconds(f);
  let all = 0;
  let busiest = 0;
  for (const [tid, ms] of server.threadCpuMs()) {
    const d = ms - (before.get(tid) ?? 0);
    all += d;
    busiest = Math.max(busiest, d);
  }
  cpu.push({ all, busiest });
  return s;
}

/** The medians of runs' CPU (the warm-up run, the first, left out), as a row note. */
function cpuNote(runs: RunCpu[]): string {
  const measured = runs.slice(1);
  if (measured.length === 0) return '';
  const all = median(measured.map((r) => r.all));
  const busiest = median(measured.map((r) => r.busiest));
  return `server CPU per run: all threads ${all.toFixed(0)} ms, busiest thread ${busiest.toFixed(0)} ms`;
}

interface KuzuTimes {
  pagerank: { s: number[]; answer: number };
  wcc: { s: number[]; answer: number };
  khop: { s: number[]; answer: number };
}

/** Kùzu pinned to `threads` cores, `threads` execution threads (kuzu-child.ts). */
function kuzuAt(ctx: Context, threads: number): Promise<KuzuTimes | string> {
  const spec = {
    dir: join(ctx.dir, 'kuzu-scaling'),
    nodesCsv: ctx.data.nodesCsv,
    edgesCsv: ctx.data.edgesCsv,
    threads,
    runs: ctx.opts.runs,
    seeds: ctx.data.seeds,
  };
  return runPinnedChild<KuzuTimes>(KUZU_CHILD, spec, threads, 'kuzu child');
}

/** How a thread count's rows say where the server ran. */
function pinNote(threads: number, cores: number): string {
  if (threads > cores) return ' (not pinned: too few cores)';
  if (pinPrefix(threads).length === 0) return ' (not pinned: no working taskset)';
  return ` on ${threads} pinned core${threads > 1 ? 's' : ''}`;
}

export async function scaling(ctx: Context): Promise<void> {
  const cores = availableParallelism();
  const list = ctx.opts.threadList;
  const measures = ['PageRank, 10 iterations', 'WCC', `3-hop distinct reach, ${ctx.data.seeds.length} seeds`];
  const ocelot: Outcome[][] = measures.map(() => []);
  const kuzu: Outcome[][] = measures.map(() => []);
  const answers: string[] = [];
  const kuzuAnswers: string[] = [];
  // cpu[m][i]: measure m's runs at the i-th thread count.
  const cpu: RunCpu[][][] = measures.map(() => []);
  try {
    for (const threads of list) {
      const q = await restart(ctx, threads, threads <= cores ? threads : undefined);
      let pr = 0;
      let cc = 0;
      let reach = 0;
      const runs = cpu.map((c) => c[c.push([]) - 1]);
      const timed = (m: number, f: () => Promise<unknown>): Promise<number> =>
        secondsWithCpu(ctx.server, runs[m], f);
      ocelot[0].push(
        await warmRepeat(ctx.opts.runs, () =>
          timed(0, async () => {
            pr = Number((await q.run('page_rank', { iterations: 10, damping: 0.85 }))[0]['@@total']);
          }),
        ),
      );
      ocelot[1].push(
        await warmRepeat(ctx.opts.runs, () =>
          timed(1, async () => {
            cc = Number((await q.run('wcc', {}))[0]['@@components']);
          }),
        ),
      );
      ocelot[2].push(
        await warmRepeat(ctx.opts.runs, () =>
          timed(2, async () => {
            reach = 0;
            for (const s of ctx.data.seeds)
              reach += Number((await q.run('khop', { s, k: 3 }))[0]['@@reached']);
          }),
        ),
      );
      answers.push(`PageRank total ${pr}, ${cc} components, reach ${reach}`);
      const k = typeof ctx.kuzu === 'string' ? ctx.kuzu : await kuzuAt(ctx, threads);
      const parts = typeof k === 'string' ? undefined : [k.pagerank, k.wcc, k.khop];
      for (let m = 0; m < measures.length; m++)
        kuzu[m].push(parts ? { samples: parts[m].s } : unavailable(k as string));
      if (parts) kuzuAnswers.push(`${parts[0].answer}, ${parts[1].answer}, ${parts[2].answer}`);
      // Each thread count as it ends, so a run stopped early still shows what it measured.
      const med = (o: Outcome): string =>
        'samples' in o ? `${median(o.samples).toFixed(3)} s` : o.unavailable;
      ctx.log(
        `scaling: ${threads} threads: Ocelot ${measures.map((m, i) => `${m} ${med(ocelot[i][ocelot[i].length - 1])}`).join('; ')}; ` +
          `Kùzu ${kuzu.map((k) => med(k[k.length - 1])).join(', ')}; ${answers[answers.length - 1]}`,
      );
    }
  } finally {
    await restart(ctx, ctx.opts.threads);
  }
  const same = answers.every((a) => a === answers[0]);
  const kuzuSame = kuzuAnswers.every((a) => a === kuzuAnswers[0]);
  const one = (o: Outcome): number | undefined => ('samples' in o ? median(o.samples) : undefined);
  for (let m = 0; m < measures.length; m++) {
    list.forEach((threads, i) => {
      ctx.rows.push({
        scenario: 'scaling',
        what: `${measures[m]}, ${threads} thread${threads > 1 ? 's' : ''}${pinNote(threads, cores)}`,
        unit: 's',
        better: 'lower',
        ocelot: ocelot[m][i],
        peers: { kuzu: kuzu[m][i] },
        note: [
          i === 0 ? answers[0] : same ? 'same answers as 1 thread' : `ANSWERS DIFFER: ${answers[i]}`,
          cpuNote(cpu[m][i] ?? []),
        ]
          .filter((n) => n !== '')
          .join('; '),
      });
    });
    // Speedup over the first thread count, Ocelot's and Kùzu's.
    const base = one(ocelot[m][0]);
    const kbase = one(kuzu[m][0]);
    list.forEach((threads, i) => {
      if (i === 0) return;
      const mine = one(ocelot[m][i]);
      const theirs = one(kuzu[m][i]);
      const speedup = (b: number | undefined, x: number | undefined): Outcome =>
        b !== undefined && x !== undefined && x > 0 ? { samples: [b / x] } : unavailable('no time');
      const row: Row = {
        scenario: 'scaling',
        what: `${measures[m]}: speedup, ${threads} vs ${list[0]} threads`,
        unit: 'x',
        better: 'higher',
        ocelot: speedup(base, mine),
        peers: { kuzu: speedup(kbase, theirs) },
        note: kuzuSame ? '' : 'Kùzu answers differ between thread counts',
      };
      if (threads === 2 && list[0] === 1) row.target = 1.6;
      ctx.rows.push(row);
    });
  }
  ctx.log(`scaling: ${cores} cores; answers ${same ? 'identical' : 'DIFFER'} at every thread count`);
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
