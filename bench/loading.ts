/**
 * Loading throughput: `ocelot bench loading [--scale 20] [--edge-factor 16] [--sync always|batch|none]
 * [--social 200000] [--ddl-mb 64] [--threads 1,2] [--rounds 1] [--keep]`.
 *
 * 1. An RMAT graph (bench/generators/rmat.ts: 2^scale vertices, edge-factor·2^scale edges,
 *    tab-separated INT ids, TigerGraph's benchmark job `LOAD f TO EDGE e VALUES ($0, $1)`)
 *    loaded with RUN LOADING JOB, then again through POST /ddl in requests of --ddl-mb MB.
 * 2. A social-network-shaped graph with STRING ids and INT, DOUBLE, BOOL, DATETIME, STRING and
 *    SET<STRING> attributes (persons, posts, knows and likes edges) loaded with RUN LOADING JOB.
 * Reports lines/s, edges/s, MB/s, CPU seconds (all threads, and the main thread alone: the one
 * writer) and the process's memory after each load. Every load runs at each of `--threads` parse
 * threads (loading/parallel-runner.ts; 1 reads on the event loop), the counts alternating,
 * `--rounds` times, and the median of each count is reported last.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SyncMode } from '../src/engine/api.js';
import { Database } from '../src/engine/database.js';
import { importRoots } from '../src/auth/file-roots.js';
import { prepareJob, runJobOnFiles } from '../src/loading/job.js';
import { startServers } from '../src/server/start.js';
import { runScript } from '../src/shell/run-script.js';
import { Rng, rmat } from './generators/rmat.js';
import { writeLines } from './harness/data.js';

interface Args {
  scale: number;
  edgeFactor: number;
  sync: SyncMode;
  social: number;
  ddlMb: number;
  threads: number[];
  rounds: number;
  keep: boolean;
}

function parseArgs(argv: string[]): Args {
  const a: Args = {
    scale: 20,
    edgeFactor: 16,
    sync: 'always',
    social: 200_000,
    ddlMb: 64,
    threads: [1, 2],
    rounds: 1,
    keep: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = argv[i + 1];
    if (k === '--keep') a.keep = true;
    else if (k === '--scale') a.scale = Number(v);
    else if (k === '--edge-factor') a.edgeFactor = Number(v);
    else if (k === '--social') a.social = Number(v);
    else if (k === '--ddl-mb') a.ddlMb = Number(v);
    else if (k === '--sync') a.sync = v as SyncMode;
    else if (k === '--threads') a.threads = v.split(',').map(Number);
    else if (k === '--rounds') a.rounds = Number(v);
    else throw new Error(`unknown argument ${k}`);
    if (k !== '--keep') i++;
  }
  return a;
}

/** Graph500 RMAT edges (bench/generators/rmat.ts) as a tab-separated file of INT ids. */
async function writeRmat(path: string, scale: number, edgeFactor: number): Promise<number> {
  const g = rmat(scale, edgeFactor, 42);
  return writeLines(path, g.src.length, (i) => `${g.src[i]}\t${g.dst[i]}\n`);
}

/** Memory now, and the process's peak RSS so far (the scenarios run one after another). */
function mem(): string {
  const m = process.memoryUsage();
  const peak = process.resourceUsage().maxRSS / 1024;
  return `rss ${(m.rss / 1048576).toFixed(0)} MB, heap ${(m.heapUsed / 1048576).toFixed(0)} MB, peak rss so far ${peak.toFixed(0)} MB`;
}

let cpuMark = process.cpuUsage();
let mainMark = mainThreadCpu();

/** CPU seconds of the main thread alone (Linux /proc; 0 elsewhere): the load's one writer. */
function mainThreadCpu(): number {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e9;
  } catch {
    return 0;
  }
}

/** Starts a measured section: wall time is taken by the caller, CPU time here. */
function startCpu(): void {
  cpuMark = process.cpuUsage();
  mainMark = mainThreadCpu();
}

/** A measured load: what, and its rates. */
interface Measure {
  what: string;
  threads: number;
  linesPerS: number;
  edgesPerS: number;
}

const measures: Measure[] = [];

/**
 * Prints a load's throughput. CPU seconds are reported too: on a shared machine the wall clock
 * also counts other processes' time, the CPU time only this one's.
 */
function report(
  what: string,
  threads: number,
  lines: number,
  edges: number,
  bytes: number,
  ms: number,
): void {
  const s = ms / 1000;
  const c = process.cpuUsage(cpuMark);
  const cpu = (c.user + c.system) / 1e6;
  const main = mainThreadCpu() - mainMark;
  measures.push({ what, threads, linesPerS: lines / s, edgesPerS: edges / s });
  console.log(
    `${what}, ${threads} thread${threads > 1 ? 's' : ''}: ${lines.toLocaleString()} lines in ${s.toFixed(2)} s = ${Math.round(lines / s).toLocaleString()} lines/s, ` +
      `${Math.round(edges / s).toLocaleString()} edges/s, ${(bytes / 1048576 / s).toFixed(1)} MB/s; ` +
      `CPU ${cpu.toFixed(2)} s (main thread ${main.toFixed(2)} s) = ${((cpu / lines) * 1e6).toFixed(2)} CPU s per M lines, ` +
      `${Math.round(edges / cpu).toLocaleString()} edges per CPU-second (${mem()})`,
  );
}

async function gsql(db: Database, text: string): Promise<void> {
  let out = '';
  const code = await runScript(db, text, { user: 'tigergraph' }, (t) => (out += t));
  if (code !== 0) throw new Error(out);
}

const RMAT_SCHEMA = `CREATE VERTEX MyNode (PRIMARY_ID id INT)
CREATE DIRECTED EDGE MyEdge (FROM MyNode, TO MyNode)
CREATE GRAPH rmat (MyNode, MyEdge)
CREATE LOADING JOB load_rmat FOR GRAPH rmat {
  DEFINE FILENAME f;
  LOAD f TO EDGE MyEdge VALUES ($0, $1) USING SEPARATOR="\\t";
}`;

interface Inputs {
  rmat: string;
  rmatBytes: number;
  social?: SocialFiles;
}

/** A fresh database with a schema, in a directory of its own (removed by the caller's cleanup). */
async function freshDb(a: Args, dir: string, name: string, schema: string): Promise<Database> {
  await rm(join(dir, name), { recursive: true, force: true });
  const db = await Database.open({ dataDir: join(dir, name), sync: a.sync, rebuildIntervalMs: 0 });
  await gsql(db, schema);
  return db;
}

async function rmatRun(a: Args, dir: string, input: Inputs, threads: number): Promise<void> {
  const db = await freshDb(a, dir, 'rmat-run', RMAT_SCHEMA);
  try {
    const stored = db.catalog.jobs.find((j) => j.name === 'load_rmat');
    if (!stored) throw new Error('job not stored');
    const job = prepareJob(stored.text, 'rmat', db);
    const t0 = Date.now();
    startCpu();
    const [res] = await runJobOnFiles(db, job, {
      roots: importRoots([dir]),
      paths: new Map([['f', input.rmat]]),
      threads,
    });
    const edges = res.stats.toJSON().edge[0].validObject;
    report(
      `RUN LOADING JOB (sync ${a.sync})`,
      threads,
      res.stats.validLine,
      edges,
      input.rmatBytes,
      Date.now() - t0,
    );
  } finally {
    await db.close();
  }
}

async function rmatDdl(a: Args, dir: string, input: Inputs, threads: number): Promise<void> {
  const db = await freshDb(a, dir, 'rmat-ddl', RMAT_SCHEMA);
  const servers = await startServers({
    database: db,
    restppPort: 0,
    gsqlPort: 0,
    adminPort: 0,
    threads,
    log: () => {},
  });
  try {
    const { open } = await import('node:fs/promises');
    const fh = await open(input.rmat, 'r');
    const chunk = Buffer.allocUnsafe(a.ddlMb * 1048576);
    let carry = Buffer.alloc(0);
    let lines = 0;
    let loaded = 0;
    const t0 = Date.now();
    startCpu();
    for (;;) {
      carry.copy(chunk, 0);
      const { bytesRead } = await fh.read(chunk, carry.length, chunk.length - carry.length, null);
      const have = carry.length + bytesRead;
      if (have === 0) break;
      // Send whole lines; keep the partial last line for the next request.
      const end = bytesRead === 0 ? have : chunk.lastIndexOf(0x0a, have - 1) + 1;
      const body = chunk.subarray(0, end);
      carry = Buffer.from(chunk.subarray(end, have));
      const res = await fetch(`${servers.urls.restpp}/ddl/rmat?tag=load_rmat&filename=f&sep=%09&eol=%0A`, {
        method: 'POST',
        body,
      });
      const json = (await res.json()) as {
        results: { statistics: { validLine: number; edge: { validObject: number }[] } }[];
      };
      lines += json.results[0].statistics.validLine;
      loaded += json.results[0].statistics.edge[0].validObject;
      if (bytesRead === 0) break;
    }
    await fh.close();
    report(
      `POST /ddl ${a.ddlMb} MB requests (sync ${a.sync})`,
      threads,
      lines,
      loaded,
      input.rmatBytes,
      Date.now() - t0,
    );
  } finally {
    await servers.close();
    await db.close();
  }
}

interface SocialFiles {
  persons: number;
  pf: string;
  qf: string;
  kf: string;
  lf: string;
  bytes: number;
}

async function writeSocialFiles(a: Args, dir: string): Promise<SocialFiles> {
  const persons = a.social;
  const posts = persons * 2;
  const knows = persons * 10;
  const likes = persons * 10;
  const gen = new Rng(7);
  const rand = (): number => gen.next();
  const states = ['ca', 'ny', 'tx', 'az', 'ky', 'fl', 'ut'];
  const pf = join(dir, 'person.csv');
  const qf = join(dir, 'post.csv');
  const kf = join(dir, 'knows.csv');
  const lf = join(dir, 'likes.csv');
  let bytes = 0;
  bytes += await writeLines(pf, persons + 1, (i) =>
    i === 0
      ? 'id,name,age,score,active,joined,interests\n'
      : `p${i},Person ${i},${18 + (i % 60)},${(rand() * 100).toFixed(3)},${i % 3 === 0 ? 'true' : 'false'},20${10 + (i % 14)}-0${1 + (i % 9)}-1${i % 10} 12:00:00,${states[i % 7]}|${states[(i * 3) % 7]}\n`,
  );
  bytes += await writeLines(
    qf,
    posts,
    (i) => `post${i}|p${1 + (i % persons)}|Text of post ${i} about ${states[i % 7]}|${1600000000 + i}\n`,
  );
  bytes += await writeLines(
    kf,
    knows,
    () =>
      `p${1 + Math.floor(rand() * persons)},p${1 + Math.floor(rand() * persons)},20${10 + Math.floor(rand() * 14)}-01-01\n`,
  );
  bytes += await writeLines(
    lf,
    likes,
    () =>
      `p${1 + Math.floor(rand() * persons)},post${Math.floor(rand() * posts)},${Math.floor(rand() * 5)}\n`,
  );
  return { persons, pf, qf, kf, lf, bytes };
}

const SOCIAL_SCHEMA = `CREATE VERTEX Person (PRIMARY_ID id STRING, name STRING, age INT, score DOUBLE, active BOOL, joined DATETIME, interests SET<STRING>) WITH primary_id_as_attribute="true"
CREATE VERTEX Post (PRIMARY_ID id STRING, content STRING, created DATETIME)
CREATE UNDIRECTED EDGE knows (FROM Person, TO Person, since DATETIME)
CREATE DIRECTED EDGE created_post (FROM Person, TO Post)
CREATE DIRECTED EDGE likes (FROM Person, TO Post, stars INT)
CREATE GRAPH social (*)
CREATE LOADING JOB load_social FOR GRAPH social {
  DEFINE FILENAME persons, posts, knows, likes;
  LOAD persons TO VERTEX Person VALUES ($"id", $"name", $"age", $"score", $"active", $"joined", SPLIT($"interests", "|")) USING HEADER="true";
  LOAD posts TO VERTEX Post VALUES ($0, $2, $3), TO EDGE created_post VALUES ($1, $0) USING SEPARATOR="|";
  LOAD knows TO EDGE knows VALUES ($0, $1, $2);
  LOAD likes TO EDGE likes VALUES ($0, $1, $2);
}`;

async function socialRun(a: Args, dir: string, f: SocialFiles, threads: number): Promise<void> {
  const db = await freshDb(a, dir, 'social', SOCIAL_SCHEMA);
  try {
    const stored = db.catalog.jobs.find((j) => j.name === 'load_social');
    if (!stored) throw new Error('job not stored');
    const job = prepareJob(stored.text, 'social', db);
    const t0 = Date.now();
    startCpu();
    const results = await runJobOnFiles(db, job, {
      roots: importRoots([dir]),
      paths: new Map([
        ['persons', f.pf],
        ['posts', f.qf],
        ['knows', f.kf],
        ['likes', f.lf],
      ]),
      threads,
    });
    let lines = 0;
    let edges = 0;
    for (const r of results) {
      lines += r.stats.validLine;
      for (const e of r.stats.toJSON().edge) edges += e.validObject;
    }
    report(
      `social graph RUN LOADING JOB (sync ${a.sync}, ${f.persons.toLocaleString()} persons)`,
      threads,
      lines,
      edges,
      f.bytes,
      Date.now() - t0,
    );
  } finally {
    await db.close();
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** The median of each load at each thread count, and the ratio to the first count. */
function summary(a: Args): void {
  console.log(
    `\nmedians of ${a.rounds} round(s), thread counts alternating (${availableParallelism()} cores):`,
  );
  for (const what of [...new Set(measures.map((m) => m.what))]) {
    const base = median(
      measures.filter((m) => m.what === what && m.threads === a.threads[0]).map((m) => m.linesPerS),
    );
    for (const threads of a.threads) {
      const ms = measures.filter((m) => m.what === what && m.threads === threads);
      const lines = median(ms.map((m) => m.linesPerS));
      console.log(
        `  ${what}, ${threads} thread(s): ${Math.round(lines).toLocaleString()} lines/s, ` +
          `${Math.round(median(ms.map((m) => m.edgesPerS))).toLocaleString()} edges/s (${(lines / base).toFixed(2)}x of ${a.threads[0]} thread(s))`,
      );
    }
  }
}

export async function run(argv: string[]): Promise<void> {
  const a = parseArgs(argv);
  const dir = await mkdtemp(join(tmpdir(), 'ocelot-bench-loading-'));
  try {
    const rmatFile = join(dir, 'rmat.tsv');
    const edges = (1 << a.scale) * a.edgeFactor;
    const t0 = Date.now();
    const input: Inputs = { rmat: rmatFile, rmatBytes: await writeRmat(rmatFile, a.scale, a.edgeFactor) };
    console.log(
      `RMAT scale ${a.scale}: ${edges.toLocaleString()} edges, ${(input.rmatBytes / 1048576).toFixed(0)} MB generated in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
    if (a.social > 0) input.social = await writeSocialFiles(a, dir);
    for (let round = 0; round < a.rounds; round++) {
      // Alternate the thread counts (and their order between rounds), so load changes hit all alike.
      const order = round % 2 === 0 ? a.threads : [...a.threads].reverse();
      for (const threads of order) {
        await rmatRun(a, dir, input, threads);
        if (a.ddlMb > 0) await rmatDdl(a, dir, input, threads);
        if (input.social) await socialRun(a, dir, input.social, threads);
      }
    }
    summary(a);
  } finally {
    if (a.keep) console.log(`kept ${dir}`);
    else await rm(dir, { recursive: true, force: true });
  }
}
