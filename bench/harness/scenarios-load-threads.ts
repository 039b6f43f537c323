/**
 * Loading at each of `--thread-list` server threads (loading/parallel-runner.ts: at 2 or more the
 * input is parsed and converted on that many parse workers, at 1 on the event loop): the RMAT CSV
 * and then the social CSV loaded with RUN LOADING JOB into a fresh server per thread count and
 * round, pinned by taskset to that many cores (the social load finds the parse threads started).
 * After each server, Kùzu COPYs the same files in a child process pinned to the same cores with
 * as many execution threads (kuzu-load-child.ts), so each ratio compares equal cores. The thread
 * counts alternate (1,2 then 2,1), two rounds (one with --quick), so a change in the machine's
 * load hits them alike; rows give the medians. The server's CPU seconds per million lines (all its
 * threads, and its main thread alone, from /proc) are reported beside each rate.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { readFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Context } from './context.js';
import { RMAT_GRAPH, RMAT_SCHEMA, SOCIAL_GRAPH, SOCIAL_SCHEMA } from './gsql-text.js';
import { OcelotServer, runPinnedChild } from './server.js';
import { unavailable, type Outcome, type Row } from './stats.js';

const KUZU_LOAD_CHILD = fileURLToPath(new URL('./kuzu-load-child.js', import.meta.url));

/** Seconds Kùzu's COPY took for each load, or why it could not run. */
type KuzuLoads = { rmat: number; social: number } | string;

/** Kùzu pinned to `threads` cores with `threads` execution threads, into a fresh database. */
async function kuzuLoadsAt(
  ctx: Context,
  threads: number,
  persons: string,
  knows: string,
): Promise<KuzuLoads> {
  if (typeof ctx.kuzu === 'string') return ctx.kuzu;
  const dir = join(ctx.dir, `kuzu-load-${threads}`);
  await rm(dir, { recursive: true, force: true });
  const spec = { dir, threads, nodesCsv: ctx.data.nodesCsv, edgesCsv: ctx.data.edgesCsv, persons, knows };
  try {
    const cores = threads <= availableParallelism() ? threads : undefined;
    return await runPinnedChild<KuzuLoads>(KUZU_LOAD_CHILD, spec, cores, 'kuzu load child');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** One timed load: wall seconds, the server's CPU seconds (all its threads, /proc) and its main thread's. */
interface Timed {
  seconds: number;
  cpuSeconds: number;
  mainCpuSeconds: number;
}

/** A fresh server at `threads`, pinned to that many cores: each loading job run in turn, timed. */
async function timedLoads(
  ctx: Context,
  threads: number,
  jobs: { schema: string; run: string }[],
): Promise<Timed[]> {
  const cores = availableParallelism();
  const dataDir = join(ctx.dir, `load-threads-${threads}`);
  await rm(dataDir, { recursive: true, force: true });
  const server = await OcelotServer.start(dataDir, {
    threads,
    ...(threads <= cores ? { cores: threads } : {}),
  });
  try {
    const timed: Timed[] = [];
    for (const job of jobs) {
      await server.gsql(job.schema);
      const cpu0 = server.cpuMs();
      const main0 = server.mainThreadCpuMs();
      const t0 = performance.now();
      await server.gsql(job.run);
      timed.push({
        seconds: (performance.now() - t0) / 1000,
        cpuSeconds: (server.cpuMs() - cpu0) / 1000,
        mainCpuSeconds: (server.mainThreadCpuMs() - main0) / 1000,
      });
    }
    return timed;
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function loadThreads(ctx: Context): Promise<void> {
  const list = ctx.opts.threadList;
  // One round for the test suite's smoke run.
  const rounds = ctx.opts.quick ? 1 : 2;
  const cores = availableParallelism();
  const rmatRun = `USE GRAPH ${RMAT_GRAPH}\nRUN LOADING JOB load_rmat USING f="${ctx.data.edgesCsv}"`;
  const persons = join(ctx.dir, 'person.csv');
  const knows = join(ctx.dir, 'knows.csv');
  const socialRun = `USE GRAPH ${SOCIAL_GRAPH}\nRUN LOADING JOB load_social USING persons="${persons}", friends="${knows}"`;
  const rmat = new Map<number, number[]>();
  const social = new Map<number, number[]>();
  const rmatCpu = new Map<number, number[]>();
  const socialCpu = new Map<number, number[]>();
  const rmatMain = new Map<number, number[]>();
  const socialMain = new Map<number, number[]>();
  const kuzuRmat = new Map<number, number[]>();
  const kuzuSocial = new Map<number, number[]>();
  const kuzuWhy = new Map<number, string>();
  const add = (m: Map<number, number[]>, threads: number, v: number): void => {
    m.set(threads, [...(m.get(threads) ?? []), v]);
  };
  const socialLines = (await lineCount(persons)) + (await lineCount(knows));
  for (let round = 0; round < rounds; round++) {
    for (const threads of round % 2 === 0 ? list : [...list].reverse()) {
      const [r, t] = await timedLoads(ctx, threads, [
        { schema: RMAT_SCHEMA, run: rmatRun },
        { schema: SOCIAL_SCHEMA, run: socialRun },
      ]);
      add(rmat, threads, ctx.data.edgeLines / r.seconds);
      add(social, threads, 1 / t.seconds);
      add(rmatCpu, threads, (r.cpuSeconds / ctx.data.edgeLines) * 1e6);
      add(socialCpu, threads, (t.cpuSeconds / socialLines) * 1e6);
      add(rmatMain, threads, (r.mainCpuSeconds / ctx.data.edgeLines) * 1e6);
      add(socialMain, threads, (t.mainCpuSeconds / socialLines) * 1e6);
      const k = await kuzuLoadsAt(ctx, threads, persons, knows);
      if (typeof k === 'string') kuzuWhy.set(threads, k);
      else {
        add(kuzuRmat, threads, ctx.data.edgeLines / k.rmat);
        add(kuzuSocial, threads, socialLines / k.social);
      }
      ctx.log(
        `load at --threads ${threads}: RMAT ${(ctx.data.edgeLines / r.seconds / 1e6).toFixed(2)}M edges/s (server CPU ${r.cpuSeconds.toFixed(2)} s), social ${t.seconds.toFixed(2)} s (server CPU ${t.cpuSeconds.toFixed(2)} s)` +
          (typeof k === 'string'
            ? `; ${k}`
            : `; Kùzu RMAT ${k.rmat.toFixed(2)} s, social ${k.social.toFixed(2)} s`),
      );
    }
  }
  const rmatWhat = `RMAT 2^${ctx.opts.scale} CSV`;
  const socialRow = ctx.rows.find((r) => r.scenario === 'load' && r.what.startsWith('social CSV'));
  for (const threads of list) {
    const pinned = threads <= cores ? `on ${threads} pinned core${threads > 1 ? 's' : ''}` : 'not pinned';
    const note = `median of ${rounds} alternating runs; fresh server per run, --threads ${threads} ${pinned}; Kùzu with ${threads} thread${threads > 1 ? 's' : ''} in a child process ${pinned}`;
    const peer = (m: Map<number, number[]>): Outcome => {
      const samples = m.get(threads);
      return samples ? { samples } : unavailable(kuzuWhy.get(threads) ?? 'Kùzu not measured');
    };
    const rows: Row[] = [
      {
        scenario: 'load',
        what: `${rmatWhat}, --threads ${threads}`,
        unit: 'edges/s',
        better: 'higher',
        ocelot: { samples: rmat.get(threads) ?? [] },
        peers: { kuzu: peer(kuzuRmat) },
        note,
      },
    ];
    rows.push(cpuRow(`${rmatWhat}, --threads ${threads}`, rmatCpu.get(threads) ?? [], note));
    rows.push(cpuRow(`${rmatWhat}, --threads ${threads}`, rmatMain.get(threads) ?? [], note, true));
    if (socialRow) {
      rows.push({
        scenario: 'load',
        what: `${socialRow.what}, --threads ${threads}`,
        unit: 'lines/s',
        better: 'higher',
        ocelot: { samples: (social.get(threads) ?? []).map((perS) => perS * socialLines) },
        peers: { kuzu: peer(kuzuSocial) },
        note,
      });
    }
    if (socialRow) {
      rows.push(cpuRow(`${socialRow.what}, --threads ${threads}`, socialCpu.get(threads) ?? [], note));
      rows.push(cpuRow(`${socialRow.what}, --threads ${threads}`, socialMain.get(threads) ?? [], note, true));
    }
    ctx.rows.push(...rows);
  }
}

/**
 * Server CPU per million lines of a load, all threads or the main thread alone (the one writer, the
 * load's serial part): on a shared machine they vary far less than the rate.
 */
function cpuRow(what: string, samples: number[], note: string, main = false): Row {
  return {
    scenario: 'load',
    what,
    unit: main ? 'main-thread CPU s per M lines' : 'server CPU s per M lines',
    better: 'lower',
    ocelot: { samples },
    peers: {},
    note: main
      ? `${note}; the server's main thread (/proc schedstat)`
      : `${note}; user + system, all threads (/proc, 10 ms ticks), the merge after the load included`,
  };
}

async function lineCount(path: string): Promise<number> {
  const bytes = await readFile(path);
  let n = 0;
  for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) n++;
  return n;
}
