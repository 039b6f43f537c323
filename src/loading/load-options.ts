/**
 * What a load is given: the database it writes to, and the options of one run (limits, format
 * overrides, progress and commit callbacks, threads).
 */
import type { Catalog } from '../catalog/types.js';
import type { WriteTx } from '../engine/api.js';
import type { FileFormat } from './format.js';
import type { LoadStatistics, ObjectKind } from './statistics.js';

/** What loading needs from the Database. */
export interface LoadingDatabase {
  readonly catalog: Catalog;
  write<T>(fn: (tx: WriteTx) => T): Promise<T>;
  /** Merges what a load wrote into the read-optimised base (Database.mergeFresh); never rejects. */
  mergeFresh?(): Promise<void>;
}

/**
 * The database without its merge, for every file of a job but the last: a job's files are merged
 * once, after the last one, not a merge (a thread start, folds of the same tables) per file.
 */
export function withoutMerge(db: LoadingDatabase): LoadingDatabase {
  return {
    get catalog() {
      return db.catalog;
    },
    write: (fn) => db.write(fn),
  };
}

export interface RunOptions {
  /** Operations per write transaction (default 65 536). */
  batchSize?: number;
  /** Lines longer than this are counted as oversizeToken and skipped (default 64 MiB). */
  maxLineBytes?: number;
  /** A token longer than this makes its line an oversizeToken line (default 16 MiB). */
  maxTokenBytes?: number;
  /** Overrides of the job's format (POST /ddl `sep` and `eol`). */
  format?: Partial<Pick<FileFormat, 'separator' | 'eol'>>;
  /** Called after every chunk with the statistics so far. */
  onProgress?: (stats: LoadStatistics) => void;
  /** Stops the load between chunks (what is committed stays). */
  signal?: AbortSignal;
  /** Statistics to add to (several files of one variable share one set). */
  stats?: LoadStatistics;
  /**
   * Called, in order, as each batch becomes durable, with the statistics of the input up to the end
   * of the batch's last line (`bytes` is where a resumed load continues), and once more at the end.
   */
  onCommitted?: (stats: LoadStatistics) => void;
  /**
   * Threads that parse and convert lines (the server's `--threads`): 2 or more reads the input on
   * parse workers (parallel-runner.ts) when it has at least `parallelMinBytes`; 1 (the default) or
   * 0 reads it here.
   */
  threads?: number;
  /** The input's size in bytes when known beforehand (a file's size, a body's Content-Length). */
  sizeHint?: number;
  /** The smallest input read on parse workers (default PARALLEL_MIN_BYTES; tests lower it). */
  parallelMinBytes?: number;
  /** Bytes of whole lines per piece handed to a parse worker (default CHUNK_BYTES; tests lower it). */
  pieceBytes?: number;
  /** The stored job's text and graph, which parse workers compile again (CompiledJob.source). */
  source?: { text: string; graph: string };
}

/** Inputs smaller than this are read on the event loop: a worker round trip would cost more. */
export const PARALLEL_MIN_BYTES = 4 << 20;

/**
 * Whether a load with these options reads an input whose statements make `targets` on parse
 * workers. With one parse thread (`threads` 2), an input that upserts vertices stays on the event
 * loop unless `parallelMinBytes` is given: its attribute maps cross the thread value by value
 * (batch-image.ts), which cost more than the main thread saved (the social load's 100,000 persons,
 * 7 MB: 0.6 s more CPU of the whole process at `--threads 2`, the wall time no shorter). Several
 * parse threads share that cost, and an edge input's values cross as numbers and coded ids.
 */
export function parallelLoad(
  targets: readonly { kind: ObjectKind }[],
  opts: RunOptions,
): opts is RunOptions & { threads: number; source: { text: string; graph: string } } {
  const threads = opts.threads ?? 1;
  const min =
    opts.parallelMinBytes ??
    (threads === 2 && targets.some((t) => t.kind === 'vertex') ? Infinity : PARALLEL_MIN_BYTES);
  return opts.source !== undefined && threads >= 2 && (opts.sizeHint ?? 0) >= min;
}

export const CHUNK_BYTES = 1 << 20;
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;
export const DEFAULT_MAX_TOKEN_BYTES = 16 * 1024 * 1024;
export const DEFAULT_BATCH_SIZE = 65536;

/** The longest stretch a load runs without giving the event loop a turn. */
export const YIELD_MS = 20;
