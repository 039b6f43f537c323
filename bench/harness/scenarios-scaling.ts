/**
 * Scaling (docs/performance.md, "Parallel execution"): PageRank, WCC and exact-distance 3-hop
 * reach with the server at each of `--thread-list` query threads, pinned by taskset to that many
 * cores, against Kùzu pinned to the same cores with the same thread count (a child process,
 * kuzu-child.ts); the answers must be the same at every thread count.
 *
 * One server per thread count runs at once, each on its own copy of the data directory, and the
 * thread counts take turns query by query: each round runs a measure at every thread count before
 * the next measure, so a slow spell of a shared host falls on both sides of a speedup instead of
 * on one thread count's whole phase. A speedup is the median of the rounds' paired ratios.
 * A server on fewer cores than the machine has moves to the next cores each round, so that a core
 * slowed by its host (a busy hyperthread sibling) weighs on every thread count alike, not only on
 * those that include it.
 */
import { cpSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCK_FILE } from '../../src/durability/index.js';
import type { Context } from './context.js';
import { RMAT_GRAPH } from './gsql-text.js';
import { queryClient, type QueryClient } from './query-client.js';
import { hostStealMs, OcelotServer, pinPrefix, repin, runPinnedChild } from './server.js';
import { median, unavailable, type Outcome, type Row } from './stats.js';

const KUZU_CHILD = fileURLToPath(new URL('./kuzu-child.js', import.meta.url));

/**
 * The server's CPU during one run: all its threads together, its busiest thread, and the CPU the
 * hypervisor took from the machine's cores meanwhile (steal, ms).
 */
interface RunCpu {
  all: number;
  busiest: number;
  steal: number;
}

/** One thread count's server, its client, and what its runs measured. */
interface Side {
  threads: number;
  server: OcelotServer;
  q: QueryClient;
  /** Seconds per round, by measure. */
  s: number[][];
  cpu: RunCpu[][];
  answers: number[];
}

interface KuzuTimes {
  pagerank: { s: number[]; answer: number };
  wcc: { s: number[]; answer: number };
  khop: { s: number[]; answer: number };
}

/** One measure: its name and one run of it against a client, giving its answer. */
interface Measure {
  name: string;
  run: (q: QueryClient) => Promise<number>;
}

function measuresFor(ctx: Context): Measure[] {
  return [
    {
      name: 'PageRank, 10 iterations',
      run: async (q) => Number((await q.run('page_rank', { iterations: 10, damping: 0.85 }))[0]['@@total']),
    },
    { name: 'WCC', run: async (q) => Number((await q.run('wcc', {}))[0]['@@components']) },
    {
      name: `3-hop distinct reach, ${ctx.data.seeds.length} seeds`,
      run: async (q) => {
        let reach = 0;
        for (const s of ctx.data.seeds) reach += Number((await q.run('khop', { s, k: 3 }))[0]['@@reached']);
        return reach;
      },
    },
  ];
}

/**
 * Runs measure `m` once on `side`, recording its seconds, the server's CPU (the wall clock against
 * the busiest thread tells waiting from work; all threads against one thread's CPU tells how much
 * work the split added) and its answer.
 */
async function timedRun(side: Side, m: number, measure: Measure): Promise<void> {
  const before = side.server.threadCpuMs();
  const steal0 = hostStealMs();
  const t0 = performance.now();
  side.answers[m] = await measure.run(side.q);
  side.s[m].push((performance.now() - t0) / 1000);
  let all = 0;
  let busiest = 0;
  for (const [tid, ms] of side.server.threadCpuMs()) {
    const d = ms - (before.get(tid) ?? 0);
    all += d;
    busiest = Math.max(busiest, d);
  }
  side.cpu[m].push({ all, busiest, steal: hostStealMs() - steal0 });
}

/**
 * Stops the run's server and starts one per thread count, pinned, onto `sides` in list order (so
 * that the caller stops those started even when a later one fails); the first uses the run's data
 * directory, the others copies of it (a data directory has one server).
 */
async function startSides(ctx: Context, sides: Side[], measures: number, cores: number): Promise<void> {
  const dataDir = ctx.server.dataDir;
  await ctx.server.stop();
  for (const [i, threads] of ctx.opts.threadList.entries()) {
    const dir = i === 0 ? dataDir : copyDir(dataDir, threads);
    const server = await OcelotServer.start(dir, {
      threads,
      ...(threads <= cores ? { cores: threads } : {}),
    });
    sides.push({
      threads,
      server,
      q: await queryClient(server, RMAT_GRAPH, 'khop'),
      s: Array.from({ length: measures }, () => []),
      cpu: Array.from({ length: measures }, () => []),
      answers: [],
    });
  }
}

/** A copy of `dataDir` beside it for a `threads`-thread server (without the lock file). */
function copyDir(dataDir: string, threads: number): string {
  const dir = join(dataDir, '..', `${basename(dataDir)}-scaling-${threads}`);
  rmSync(dir, { recursive: true, force: true });
  cpSync(dataDir, dir, { recursive: true, filter: (src) => basename(src) !== LOCK_FILE });
  return dir;
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

/** The cores a `threads`-thread server runs on in round `r`: `threads` of them from core r. */
function coresFor(threads: number, r: number, cores: number): number[] {
  return Array.from({ length: threads }, (_, i) => (r + i) % cores);
}

/** How a thread count's rows say where the server ran. */
function pinNote(threads: number, cores: number): string {
  if (threads > cores) return ' (not pinned: too few cores)';
  if (pinPrefix(threads).length === 0) return ' (not pinned: no working taskset)';
  const turns = threads < cores ? ', the cores taken in turn round by round' : '';
  return ` on ${threads} pinned core${threads > 1 ? 's' : ''}${turns}`;
}

/** The medians of the runs' CPU, as a row note. */
function cpuNote(runs: RunCpu[]): string {
  if (runs.length === 0) return '';
  const all = median(runs.map((r) => r.all));
  const busiest = median(runs.map((r) => r.busiest));
  const steal = runs.map((r) => r.steal);
  const stolen = steal.some((x) => x > 0)
    ? `; host steal per run ${steal.map((x) => x.toFixed(0)).join('/')} ms`
    : '';
  return `server CPU per run: all threads ${all.toFixed(0)} ms, busiest thread ${busiest.toFixed(0)} ms${stolen}`;
}

/** Each round's ratio of the first side's seconds to `side`'s, for measure `m`. */
function pairedSpeedups(base: Side, side: Side, m: number): Outcome {
  const ratios = side.s[m].map((x, r) => base.s[m][r] / x).filter((x) => Number.isFinite(x));
  return ratios.length > 0 ? { samples: ratios } : unavailable('no time');
}

/** Kùzu's speedup: its runs are not paired with the base's, so medians over medians. */
function kuzuSpeedup(base: Outcome, x: Outcome): Outcome {
  if (!('samples' in base) || !('samples' in x)) return unavailable('no time');
  const r = median(base.samples) / median(x.samples);
  return Number.isFinite(r) && r > 0 ? { samples: [r] } : unavailable('no time');
}

/**
 * The rounds: every measure at every thread count, the order of the thread counts reversed each
 * round. Each timed run follows an untimed run of the same measure on the same server, so that it
 * finds the caches as a repeated query does, not filled with the other server's data.
 */
async function rounds(ctx: Context, sides: Side[], measures: Measure[], cores: number): Promise<void> {
  for (let r = 0; r < ctx.opts.runs; r++) {
    for (const side of sides)
      if (side.threads < cores && r > 0) repin(side.server.child.pid, coresFor(side.threads, r, cores));
    const order = r % 2 === 0 ? sides : [...sides].reverse();
    for (const [m, measure] of measures.entries())
      for (const side of order) {
        await measure.run(side.q);
        await timedRun(side, m, measure);
      }
    ctx.log(
      `scaling: round ${r + 1}: ` +
        sides
          .map((s) => `${s.threads} threads ${s.s.map((x) => `${x[r].toFixed(3)} s`).join(', ')}`)
          .join('; '),
    );
  }
}

function pushRows(
  ctx: Context,
  sides: Side[],
  measures: Measure[],
  kuzu: Outcome[][],
  kuzuSame: boolean,
  cores: number,
): void {
  const answer = (s: Side): string =>
    `PageRank total ${s.answers[0]}, ${s.answers[1]} components, reach ${s.answers[2]}`;
  const first = answer(sides[0]);
  for (const [m, measure] of measures.entries()) {
    sides.forEach((side, i) => {
      const a = answer(side);
      ctx.rows.push({
        scenario: 'scaling',
        what: `${measure.name}, ${side.threads} thread${side.threads > 1 ? 's' : ''}${pinNote(side.threads, cores)}`,
        unit: 's',
        better: 'lower',
        ocelot: { samples: side.s[m] },
        peers: { kuzu: kuzu[m][i] },
        note: [
          i === 0 ? first : a === first ? 'same answers as 1 thread' : `ANSWERS DIFFER: ${a}`,
          cpuNote(side.cpu[m]),
        ]
          .filter((n) => n !== '')
          .join('; '),
      });
    });
    sides.forEach((side, i) => {
      if (i === 0) return;
      const row: Row = {
        scenario: 'scaling',
        what: `${measure.name}: speedup, ${side.threads} vs ${sides[0].threads} threads`,
        unit: 'x',
        better: 'higher',
        ocelot: pairedSpeedups(sides[0], side, m),
        peers: { kuzu: kuzuSpeedup(kuzu[m][0], kuzu[m][i]) },
        note: `Ocelot: median of ${side.s[m].length} rounds' paired ratios${kuzuSame ? '' : '; Kùzu answers differ between thread counts'}`,
      };
      if (side.threads === 2 && sides[0].threads === 1) row.target = 1.6;
      ctx.rows.push(row);
    });
  }
}

export async function scaling(ctx: Context): Promise<void> {
  const cores = availableParallelism();
  const list = ctx.opts.threadList;
  const measures = measuresFor(ctx);
  const dataDir = ctx.server.dataDir;
  const sides: Side[] = [];
  try {
    await startSides(ctx, sides, measures.length, cores);
    await rounds(ctx, sides, measures, cores);
  } finally {
    for (const side of sides) await side.server.stop();
    for (const side of sides.slice(1)) rmSync(side.server.dataDir, { recursive: true, force: true });
    ctx.server = await OcelotServer.start(
      dataDir,
      ctx.opts.threads === undefined ? {} : { threads: ctx.opts.threads },
    );
  }
  // Kùzu after the servers stopped: its child has the cores and the memory to itself.
  const kuzu: Outcome[][] = measures.map(() => []);
  const kuzuAnswers: string[] = [];
  for (const threads of list) {
    const k = typeof ctx.kuzu === 'string' ? ctx.kuzu : await kuzuAt(ctx, threads);
    const parts = typeof k === 'string' ? undefined : [k.pagerank, k.wcc, k.khop];
    for (let m = 0; m < measures.length; m++)
      kuzu[m].push(parts ? { samples: parts[m].s } : unavailable(k as string));
    if (parts) kuzuAnswers.push(`${parts[0].answer}, ${parts[1].answer}, ${parts[2].answer}`);
    ctx.log(
      `scaling: Kùzu at ${threads} threads: ${typeof k === 'string' ? k : kuzuAnswers[kuzuAnswers.length - 1]}`,
    );
  }
  pushRows(
    ctx,
    sides,
    measures,
    kuzu,
    kuzuAnswers.every((a) => a === kuzuAnswers[0]),
    cores,
  );
  const same = sides.every((s) => s.answers.join() === sides[0].answers.join());
  ctx.log(`scaling: ${cores} cores; answers ${same ? 'identical' : 'DIFFER'} at every thread count`);
}
