/**
 * Runs of loading jobs on server-local files (RUN LOADING JOB, POST /gsql/v1/loading-jobs/run), each
 * with a job id, so that they can be watched (SHOW LOADING STATUS, /loading-jobs/status), aborted
 * or paused (ABORT LOADING JOB, /loading-jobs/abort) and resumed (RESUME LOADING JOB,
 * /loading-jobs/resume). A run loads its files one after another; for each file it remembers how
 * far the lines are committed, and a resumed run continues from there, so no line is loaded twice.
 * Runs live in memory: a server restart forgets them (what they committed stays).
 */
import { open, stat } from 'node:fs/promises';
import { silentLogger, type Logger } from '../util/logger.js';
import type { CompiledJob, InputPlan } from './compiler.js';
import { LoadingJobError } from './expressions.js';
import type { FileRoot } from '../auth/file-roots.js';
import { chunksOf, planFiles, prepareJob, readAhead, type RunFilesOptions } from './job.js';
import type { IdSegment } from './edge-lines.js';
import type { ParseAhead } from './parallel-runner.js';
import { fileChunks, loadInput, type LoadingDatabase } from './runner.js';
import { withoutMerge } from './load-options.js';
import { LoadStatistics } from './statistics.js';

export type RunState = 'RUNNING' | 'FINISHED' | 'ABORTED' | 'PAUSED' | 'FAILED';

/** One file of a run. */
export interface FileTask {
  /** The filename variable (or literal path) the file is read for. */
  key: string;
  path: string;
  size: number;
  /** Statistics so far; `bytes` is how far the file is read. */
  stats: LoadStatistics;
  /** Statistics up to the last committed line; `bytes` is where a resumed run continues. */
  committed: LoadStatistics;
  done: boolean;
  /** Milliseconds spent loading the file, over every attempt. */
  elapsedMs: number;
}

export interface RunProgress {
  bytesDone: number;
  bytesTotal: number;
  /** 0 to 100. */
  percent: number;
  lines: number;
  /** Since the run (or its last resume) started. */
  linesPerSecond: number;
  bytesPerSecond: number;
  /** Seconds left at the current speed; undefined when it cannot be told yet. */
  etaSeconds: number | undefined;
  filesDone: number;
  filesTotal: number;
}

export interface StartOptions {
  graph: string;
  jobName: string;
  /** The stored CREATE LOADING JOB text (re-compiled on resume for the schema of then). */
  jobText: string;
  /** `USING f="path"` by filename variable. */
  paths: ReadonlyMap<string, string>;
  /** Where the files may be read (`--import-dir`, auth/file-roots.ts). */
  roots: readonly FileRoot[];
  user?: string;
  /** Loader options for every attempt. */
  load?: Pick<RunFilesOptions, 'batchSize' | 'edgeWorker' | 'readBytes' | 'parallelMinBytes'>;
}

/** At most this many runs that have ended are remembered (the oldest are forgotten first). */
const KEEP_ENDED = 64;

export class LoadingJobRun {
  state: RunState = 'RUNNING';
  readonly startedAt: number;
  endedAt: number | undefined;
  /** Why the run failed (state FAILED). */
  failure: unknown;
  /** The file being (or next to be) loaded. */
  current = 0;
  /** Settles when the run stops (finished, aborted, paused or failed); never rejects. */
  done: Promise<void> = Promise.resolve();
  private controller = new AbortController();
  private pauseRequested = false;
  /** Where the current attempt started, for speeds: clock time and bytes done. */
  private attemptAt: number;
  private attemptBytes = 0;
  private attemptLines = 0;

  constructor(
    readonly id: string,
    readonly options: StartOptions,
    readonly tasks: FileTask[],
    private readonly runs: LoadingJobRuns,
  ) {
    this.startedAt = runs.clock();
    this.attemptAt = this.startedAt;
  }

  /** The failure's message (state FAILED). */
  get error(): string | undefined {
    if (this.state !== 'FAILED') return undefined;
    return this.failure instanceof Error ? this.failure.message : String(this.failure);
  }

  get graph(): string {
    return this.options.graph;
  }

  get jobName(): string {
    return this.options.jobName;
  }

  /** Milliseconds from the start to the end (or to now, while it runs). */
  elapsedMs(): number {
    return (this.endedAt ?? this.runs.clock()) - this.startedAt;
  }

  /** Statistics of every file together. */
  totals(): LoadStatistics {
    const all = new LoadStatistics();
    for (const t of this.tasks) all.add(t.stats);
    return all;
  }

  progress(): RunProgress {
    const now = this.endedAt ?? this.runs.clock();
    const bytesTotal = this.tasks.reduce((n, t) => n + t.size, 0);
    const bytesDone = this.tasks.reduce((n, t) => n + (t.done ? t.size : Math.min(t.stats.bytes, t.size)), 0);
    const lines = this.tasks.reduce((n, t) => n + t.stats.totalLines, 0);
    const seconds = Math.max(0.001, (now - this.attemptAt) / 1000);
    const bytesPerSecond = (bytesDone - this.attemptBytes) / seconds;
    const linesPerSecond = (lines - this.attemptLines) / seconds;
    const left = bytesTotal - bytesDone;
    return {
      bytesDone,
      bytesTotal,
      percent: bytesTotal === 0 ? (this.state === 'FINISHED' ? 100 : 0) : (100 * bytesDone) / bytesTotal,
      lines,
      linesPerSecond,
      bytesPerSecond,
      etaSeconds: left === 0 ? 0 : bytesPerSecond > 0 ? left / bytesPerSecond : undefined,
      filesDone: this.tasks.filter((t) => t.done).length,
      filesTotal: this.tasks.length,
    };
  }

  /** True from an abort or pause request until the run has stopped. */
  get stopping(): boolean {
    return this.state === 'RUNNING' && this.controller.signal.aborted;
  }

  /** Stops the run between two chunks; what is committed stays, and RESUME continues from there. */
  stop(pause: boolean): boolean {
    if (this.state !== 'RUNNING') return false;
    this.pauseRequested = pause;
    this.controller.abort();
    return true;
  }

  /** Starts (or continues) loading in the background; `done` settles when it stops. */
  launch(db: LoadingDatabase, job: CompiledJob): void {
    this.state = 'RUNNING';
    this.endedAt = undefined;
    this.failure = undefined;
    this.controller = new AbortController();
    this.pauseRequested = false;
    this.attemptAt = this.runs.clock();
    const p = this.progress();
    this.attemptBytes = p.bytesDone;
    this.attemptLines = p.lines;
    this.done = this.loadAll(db, job);
  }

  private async loadAll(db: LoadingDatabase, job: CompiledJob): Promise<void> {
    const log = this.runs.logger.child({ component: 'loader', jobId: this.id });
    log.info({ job: this.jobName, graph: this.graph, files: this.tasks.length }, 'loading job running');
    try {
      // The files are merged once, after the last one (or the stop), not after each.
      const unmerged = withoutMerge(db);
      let ahead: { task: FileTask; parse: ParseAhead } | undefined;
      try {
        for (; this.current < this.tasks.length; this.current++) {
          const task = this.tasks[this.current];
          if (task.done) continue;
          const mine = ahead?.task === task ? ahead.parse : undefined;
          if (!mine) await ahead?.parse.cancel();
          ahead = await this.loadFile(unmerged, job, task, mine, this.tasks[this.current + 1]);
          if (this.controller.signal.aborted) break;
          task.done = true;
        }
      } finally {
        await ahead?.parse.cancel();
      }
      await db.mergeFresh?.();
      this.state = this.controller.signal.aborted ? (this.pauseRequested ? 'PAUSED' : 'ABORTED') : 'FINISHED';
    } catch (e) {
      this.state = 'FAILED';
      this.failure = e;
    }
    this.endedAt = this.runs.clock();
    const totals = this.totals();
    const fields = { state: this.state, lines: totals.totalLines, validLines: totals.validLine };
    if (this.state === 'FAILED') log.error({ ...fields, err: this.error }, 'loading job failed');
    else log.info(fields, `loading job ${this.state.toLowerCase()}`);
    this.runs.forgetOld();
  }

  /** The options a file of this run is loaded with. */
  private loadOptions(job: CompiledJob, task: FileTask): RunFilesOptions {
    return {
      roots: this.options.roots,
      ...this.options.load,
      threads: this.runs.threads,
      sizeHint: task.size - task.committed.bytes,
      source: job.source,
    };
  }

  /**
   * Loads a file (`ahead`: its pieces already being parsed); the next file, when not yet started,
   * may be read ahead meanwhile (job.ts readAhead): that is returned for it.
   */
  private async loadFile(
    db: LoadingDatabase,
    job: CompiledJob,
    task: FileTask,
    ahead: ParseAhead | undefined,
    next: FileTask | undefined,
  ): Promise<{ task: FileTask; parse: ParseAhead } | undefined> {
    const plan = planOf(job, task.key);
    const from = task.committed.bytes;
    // Lines before `from` are committed: continue from there with their statistics.
    task.stats = task.committed.clone();
    const load = this.loadOptions(job, task);
    let chunks: AsyncIterable<Buffer | IdSegment> | Buffer[];
    if (ahead) {
      chunks = [];
    } else if (from === 0) {
      chunks = await chunksOf(plan, task.path, load);
    } else {
      const header = plan.format.header && !plan.format.json ? await headerLine(task.path, plan) : undefined;
      // The header line is read again (for its column names) but is not part of the progress.
      if (header) task.stats.bytes -= header.length;
      chunks = withHeader(header, fileChunks(task.path, from, this.options.load?.readBytes));
    }
    const parse =
      next && !next.done && next.committed.bytes === 0
        ? readAhead(db, plan, load, planOf(job, next.key), next.path, this.loadOptions(job, next))
        : undefined;
    const started = this.runs.clock();
    try {
      await loadInput(
        db,
        plan,
        chunks,
        {
          ...load,
          stats: task.stats,
          signal: this.controller.signal,
          onCommitted: (s) => (task.committed = s),
        },
        ahead,
      );
    } catch (e) {
      await parse?.cancel();
      throw e;
    } finally {
      task.elapsedMs += this.runs.clock() - started;
    }
    return parse && next && { task: next, parse };
  }
}

function planOf(job: CompiledJob, key: string): InputPlan {
  const plan = job.inputs.find((i) => i.key === key && i.used);
  if (!plan) throw new LoadingJobError(`The loading job "${job.name}" no longer reads "${key}".`);
  return plan;
}

/** The first line of a file, end of line included (a resumed run reads its column names again). */
async function headerLine(path: string, plan: InputPlan): Promise<Buffer> {
  const eol = plan.format.eol;
  const fh = await open(path, 'r');
  try {
    const parts: Buffer[] = [];
    const buf = Buffer.allocUnsafe(64 * 1024);
    for (let at = 0; ;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, at);
      if (bytesRead === 0) return Buffer.concat(parts);
      const piece = Buffer.from(buf.subarray(0, bytesRead));
      const joined = Buffer.concat([...parts, piece]);
      const end = joined.indexOf(eol);
      if (end >= 0) return joined.subarray(0, end + eol.length);
      parts.push(piece);
      at += bytesRead;
    }
  } finally {
    await fh.close();
  }
}

async function* withHeader(header: Buffer | undefined, rest: AsyncIterable<Buffer>): AsyncIterable<Buffer> {
  if (header && header.length > 0) yield header;
  yield* rest;
}

/** The runs of one database. */
export class LoadingJobRuns {
  private static readonly byDb = new WeakMap<object, LoadingJobRuns>();
  /** Where runs log (the server sets its logger). */
  logger: Logger = silentLogger;
  /** Milliseconds now (tests make time explicit). */
  clock: () => number = Date.now;
  /** Threads that parse loading input (the server's `--threads`; 1 parses on the event loop). */
  threads = 1;
  private readonly runs = new Map<string, LoadingJobRun>();

  static for(db: object): LoadingJobRuns {
    let r = LoadingJobRuns.byDb.get(db);
    if (!r) LoadingJobRuns.byDb.set(db, (r = new LoadingJobRuns()));
    return r;
  }

  /**
   * Checks the job and its files (every file must exist before anything loads), registers the run
   * under a new job id and starts it in the background.
   */
  async start(db: LoadingDatabase, options: StartOptions): Promise<LoadingJobRun> {
    const job = prepareJob(options.jobText, options.graph, db);
    const tasks: FileTask[] = [];
    for (const { plan, path } of await planFiles(job, options.roots, options.paths)) {
      const size = (await stat(path)).size;
      tasks.push({
        key: plan.key,
        path,
        size,
        stats: new LoadStatistics(),
        committed: new LoadStatistics(),
        done: false,
        elapsedMs: 0,
      });
    }
    const run = new LoadingJobRun(this.newId(options), options, tasks, this);
    this.runs.set(run.id, run);
    run.launch(db, job);
    return run;
  }

  /** Continues an aborted, paused or failed run from its last committed line. */
  resume(db: LoadingDatabase, run: LoadingJobRun): void {
    if (run.state === 'RUNNING' || run.state === 'FINISHED') return;
    run.launch(db, prepareJob(run.options.jobText, run.graph, db));
  }

  get(id: string): LoadingJobRun | undefined {
    return this.runs.get(id);
  }

  /** Every remembered run (of one graph), oldest first. */
  list(graph?: string): LoadingJobRun[] {
    return [...this.runs.values()].filter((r) => graph === undefined || r.graph === graph);
  }

  /** TigerGraph's job id form, `<graph>.<job>.file.m1.<epoch ms>`, unique within the process. */
  private newId(o: StartOptions): string {
    let ms = this.clock();
    const id = () => `${o.graph}.${o.jobName}.file.m1.${ms}`;
    while (this.runs.has(id())) ms++;
    return id();
  }

  forgetOld(): void {
    const ended = [...this.runs.values()].filter((r) => r.state !== 'RUNNING');
    for (const r of ended.slice(0, Math.max(0, ended.length - KEEP_ENDED))) this.runs.delete(r.id);
  }
}
