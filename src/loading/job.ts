/**
 * Loading jobs as a whole: parse the stored text, compile it for the current catalog, and run it on
 * server-local files (RUN LOADING JOB) or on posted data for one filename variable (POST /ddl).
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { FileRootError, resolveReadable, type FileRoot } from '../auth/file-roots.js';
import { compileLoadingJob, type CompiledJob, type InputPlan } from './compiler.js';
import { LoadingJobError } from './expressions.js';
import { parseLoadingJob } from './job-text.js';

export { parseLoadingJob };
import { decodeSpecial } from './format.js';
import { edgeFileItems, WORKER_MIN_BYTES, workerFormat } from './edge-file-reader.js';
import type { IdSegment } from './edge-lines.js';
import {
  bufferChunks,
  CHUNK_BYTES,
  DEFAULT_BATCH_SIZE,
  DEFAULT_MAX_LINE_BYTES,
  DEFAULT_MAX_TOKEN_BYTES,
  fileChunks,
  loadInput,
  type LoadingDatabase,
  type RunOptions,
} from './runner.js';
import { parallelLoad, withoutMerge } from './load-options.js';
import { ParseAhead } from './parallel-runner.js';
import { LoadStatistics } from './statistics.js';

/** Parses and compiles a stored job for the catalog as it is now. */
export function prepareJob(text: string, graph: string, db: Pick<LoadingDatabase, 'catalog'>): CompiledJob {
  const ast = parseLoadingJob(text);
  const job = compileLoadingJob(ast, ast.graph ?? graph, { catalog: db.catalog });
  job.source = { text, graph };
  return job;
}

export interface FileResult {
  /** The filename variable (or literal path) and the file actually read. */
  key: string;
  path: string;
  stats: LoadStatistics;
  elapsedMs: number;
}

/**
 * Strips TigerGraph's machine prefixes (`ALL:`, `ANY:`, `m1:`, `m1|m2:`) from a file path: this is
 * a single machine, so every prefix means "here".
 */
export function localPath(path: string): string {
  return path.replace(/^(?:all|any|m\d+(?:\|m\d+)*):/i, '');
}

/** A path of the job, resolved under the import directories before anything is loaded. */
function confined(roots: readonly FileRoot[], path: string): string {
  try {
    return resolveReadable(roots, path);
  } catch (e) {
    if (e instanceof FileRootError) throw new LoadingJobError(`Cannot load ${e.message}.`);
    throw e;
  }
}

/**
 * The files behind a path: the file itself, or every regular file of a directory in name order
 * (entries that are links are skipped, so none leads out of the directory).
 */
async function filesOf(path: string): Promise<string[]> {
  let st;
  try {
    st = await stat(path);
  } catch {
    throw new LoadingJobError(`File "${path}" does not exist or cannot be read.`);
  }
  if (!st.isDirectory()) return [path];
  const names = (await readdir(path, { withFileTypes: true })).filter((d) => d.isFile()).map((d) => d.name);
  return names.sort().map((n) => join(path, n));
}

export interface RunFilesOptions extends RunOptions {
  /** Where files may be read (`--import-dir`): every path is resolved under these (auth/file-roots.ts). */
  roots: readonly FileRoot[];
  /** `USING f="path"` of RUN LOADING JOB, by variable name. */
  paths?: ReadonlyMap<string, string>;
  /** Called before each file starts. */
  onFile?: (key: string, path: string) => void;
  /**
   * Read an edge file of integer ids on a worker thread (edge-file-reader.ts): always, never, or
   * (the default) for files of WORKER_MIN_BYTES and more.
   */
  edgeWorker?: boolean;
  /** Bytes read from a file at a time (runner.ts FILE_READ_BYTES by default). */
  readBytes?: number;
}

/**
 * The files a run of the job reads, in order: each used input's file (from `USING` or DEFINE
 * FILENAME, resolved under `roots`), a directory standing for every file in it. Throws a
 * LoadingJobError naming what is missing or refused before anything is read.
 */
export async function planFiles(
  job: CompiledJob,
  roots: readonly FileRoot[],
  given: ReadonlyMap<string, string> = new Map(),
): Promise<{ plan: InputPlan; path: string }[]> {
  for (const name of given.keys()) {
    if (!job.inputs.some((i) => i.kind === 'filevar' && i.key === name)) {
      throw new LoadingJobError(`"${name}" is not a filename variable of loading job "${job.name}".`);
    }
  }
  const work: { plan: InputPlan; path: string }[] = [];
  for (const plan of job.inputs) {
    if (!plan.used) continue;
    const path = (plan.kind === 'filevar' ? given.get(plan.key) : undefined) ?? plan.defaultPath;
    if (path === undefined || path === '') {
      throw new LoadingJobError(
        `Filename variable "${plan.key}" has no file: give one with USING ${plan.key}="path" or in DEFINE FILENAME.`,
      );
    }
    work.push({ plan, path: confined(roots, localPath(path)) });
  }
  const files: { plan: InputPlan; path: string }[] = [];
  for (const { plan, path } of work) for (const file of await filesOf(path)) files.push({ plan, path: file });
  return files;
}

/** RUN LOADING JOB without a job id (tests, benchmarks): loads every file, one after another. */
export async function runJobOnFiles(
  db: LoadingDatabase,
  job: CompiledJob,
  opts: RunFilesOptions,
): Promise<FileResult[]> {
  const results: FileResult[] = [];
  const files = await planFiles(job, opts.roots, opts.paths);
  const sized = async (path: string): Promise<RunFilesOptions> => ({
    ...opts,
    source: job.source,
    sizeHint: await sizeOf(path),
  });
  let ahead: ParseAhead | undefined;
  try {
    for (const [k, { plan, path }] of files.entries()) {
      opts.onFile?.(plan.key, path);
      const started = Date.now();
      const mine = ahead;
      const load = await sized(path);
      const chunks = mine ? [] : await chunksOf(plan, path, load);
      const next = files[k + 1];
      ahead = next && readAhead(db, plan, load, next.plan, next.path, await sized(next.path));
      const into = k === files.length - 1 ? db : withoutMerge(db);
      const stats = await loadInput(into, plan, chunks, load, mine);
      results.push({ key: plan.key, path, stats, elapsedMs: Date.now() - started });
    }
  } finally {
    await ahead?.cancel();
  }
  return results;
}

/**
 * Starts parsing the next file (ParseAhead) when this one is loaded on the event loop and the next
 * one on parse workers, so that the parse threads, idle during this file, have a head start: at
 * `--threads 2` a vertex file before an edge file (load-options.ts parallelLoad). Nothing of the
 * next file is applied or counted before its own load starts.
 */
export function readAhead(
  db: LoadingDatabase,
  plan: InputPlan,
  opts: RunFilesOptions,
  nextPlan: InputPlan,
  nextPath: string,
  nextOpts: RunFilesOptions,
): ParseAhead | undefined {
  if (parallelLoad(plan.targets, opts) || !parallelLoad(nextPlan.targets, nextOpts)) return undefined;
  return new ParseAhead(db, nextPlan, fileChunks(nextPath, 0, nextOpts.readBytes), nextOpts);
}

/** A file's size, or 0 when it cannot be read (reading it then reports why). */
export function sizeOf(file: string): Promise<number> {
  return stat(file).then(
    (s) => s.size,
    () => 0,
  );
}

/**
 * The file's bytes, or its lines split on a worker thread when the input allows it and it pays
 * (a load on parse workers splits them there: parallel-runner.ts).
 */
export async function chunksOf(
  plan: InputPlan,
  file: string,
  opts: Pick<
    RunFilesOptions,
    | 'format'
    | 'edgeWorker'
    | 'maxTokenBytes'
    | 'maxLineBytes'
    | 'batchSize'
    | 'readBytes'
    | 'threads'
    | 'sizeHint'
    | 'parallelMinBytes'
    | 'source'
  >,
): Promise<AsyncIterable<Buffer | IdSegment>> {
  const format = { ...plan.format, ...opts.format };
  if (
    plan.intEdge === undefined ||
    !workerFormat(format) ||
    opts.edgeWorker === false ||
    parallelLoad(plan.targets, opts)
  )
    return fileChunks(file, 0, opts.readBytes);
  if (opts.edgeWorker === undefined && (await sizeOf(file)) < WORKER_MIN_BYTES)
    return fileChunks(file, 0, opts.readBytes);
  return edgeFileItems(file, plan.intEdge, format, {
    needed: plan.needs.maxPosition,
    maxTokenBytes: opts.maxTokenBytes ?? DEFAULT_MAX_TOKEN_BYTES,
    maxLineBytes: opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
    segmentLines: opts.batchSize ?? DEFAULT_BATCH_SIZE,
  });
}

/**
 * Finds the input a POST /ddl `filename` names: a filename variable, a literal path of a LOAD
 * statement, or `__GSQL_FILENAME_n__` (the n-th literal path, counting from 0).
 */
export function inputNamed(job: CompiledJob, filename: string): InputPlan {
  const byVar = job.inputs.find((i) => i.kind === 'filevar' && i.key === filename);
  if (byVar) return byVar;
  const paths = job.inputs.filter((i) => i.kind === 'path');
  const m = /^__GSQL_FILENAME_(\d+)__$/.exec(filename);
  if (m && Number(m[1]) < paths.length) return paths[Number(m[1])];
  const byPath = paths.find((i) => i.key === filename);
  if (byPath) return byPath;
  const known = job.inputs.filter((i) => i.kind === 'filevar').map((i) => i.key);
  throw new LoadingJobError(
    `"${filename}" is not a filename variable of loading job "${job.name}"` +
      (known.length > 0 ? ` (its filename variables: ${known.join(', ')}).` : '.'),
  );
}

export interface DataOptions extends RunOptions {
  /** POST /ddl `sep` and `eol` (already percent-decoded). */
  sep?: string;
  eol?: string;
}

/** POST /ddl: loads posted bytes as the data of one filename variable. */
export async function runJobOnData(
  db: LoadingDatabase,
  job: CompiledJob,
  filename: string,
  data: Buffer,
  opts: DataOptions = {},
): Promise<LoadStatistics> {
  return runJobOnChunks(db, job, filename, bufferChunks(data), { sizeHint: data.length, ...opts });
}

/**
 * POST /ddl with a body still arriving: the bytes are loaded as they come (gathered into blocks of
 * about CHUNK_BYTES so per-block work stays as for a buffered body), so memory does not grow with
 * the body. The job, filename and options are checked before the first byte is read.
 */
export async function runJobOnStream(
  db: LoadingDatabase,
  job: CompiledJob,
  filename: string,
  data: AsyncIterable<Uint8Array>,
  opts: DataOptions = {},
): Promise<LoadStatistics> {
  return runJobOnChunks(db, job, filename, gatherChunks(data), opts);
}

function runJobOnChunks(
  db: LoadingDatabase,
  job: CompiledJob,
  filename: string,
  chunks: AsyncIterable<Buffer> | Iterable<Buffer>,
  opts: DataOptions,
): Promise<LoadStatistics> {
  const plan = inputNamed(job, filename);
  const format: RunOptions['format'] = {};
  if (opts.sep !== undefined && opts.sep !== '') format.separator = decodeSpecial(opts.sep, 'SEPARATOR');
  if (opts.eol !== undefined && opts.eol !== '') format.eol = decodeSpecial(opts.eol, 'EOL');
  return loadInput(db, plan, chunks, { source: job.source, ...opts, format });
}

/** Socket-sized pieces joined into blocks of at least CHUNK_BYTES (the last one shorter). */
async function* gatherChunks(data: AsyncIterable<Uint8Array>): AsyncIterable<Buffer> {
  let parts: Uint8Array[] = [];
  let size = 0;
  for await (const piece of data) {
    parts.push(piece);
    size += piece.length;
    if (size >= CHUNK_BYTES) {
      yield Buffer.concat(parts, size);
      parts = [];
      size = 0;
    }
  }
  if (size > 0) yield Buffer.concat(parts, size);
}
