/**
 * Runs one input of a compiled loading job: bytes in, statistics out. Lines are tokenized straight
 * from the byte chunks, turned into write operations, and committed in batches through
 * Database.write (one durable commit per batch). While a batch commits, the next chunk is already
 * being tokenized, and the next batch is applied while the previous one waits for its fsync; at most
 * two batches and two commits exist at a time, so memory does not grow with the input.
 */
import { isUtf8 } from 'node:buffer';
import { open } from 'node:fs/promises';
import type { Catalog } from '../catalog/types.js';
import type { WriteTx } from '../engine/api.js';
import { JsonSyntaxError, parseJson, type ParsedJson } from '../util/json-parse.js';
import { Batch } from './batch.js';
import type { InputPlan, IntEdgeShape } from './compiler.js';
import type { IdSegment } from './edge-lines.js';
import { dig, jsonToken } from './json-tokens.js';
import { ArrayRow, LoadingJobError, type Row } from './expressions.js';
import type { FileFormat } from './format.js';
import { LoadStatistics } from './statistics.js';
import { CsvTokenizer, type Line } from './tokenizer.js';

/** What loading needs from the Database. */
export interface LoadingDatabase {
  readonly catalog: Catalog;
  write<T>(fn: (tx: WriteTx) => T): Promise<T>;
  /** Merges what a load wrote into the read-optimised base (Database.mergeFresh); never rejects. */
  mergeFresh?(): Promise<void>;
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
}

export const CHUNK_BYTES = 1 << 20;
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;
export const DEFAULT_MAX_TOKEN_BYTES = 16 * 1024 * 1024;
export const DEFAULT_BATCH_SIZE = 65536;

/** Commits of one load that may wait for their fsync at the same time. */
const MAX_IN_FLIGHT = 2;

/** The longest stretch a load runs without giving the event loop a turn. */
const YIELD_MS = 20;

export async function loadInput(
  db: LoadingDatabase,
  plan: InputPlan,
  chunks: AsyncIterable<Buffer | IdSegment> | Iterable<Buffer>,
  opts: RunOptions = {},
): Promise<LoadStatistics> {
  const stats = opts.stats ?? new LoadStatistics();
  for (const t of plan.targets) stats.object(t.kind, t.typeName);
  const format: FileFormat = { ...plan.format, ...opts.format };
  const batchSize = opts.batchSize ?? DEFAULT_BATCH_SIZE;
  const maxToken = opts.maxTokenBytes ?? DEFAULT_MAX_TOKEN_BYTES;
  const createMissing = !format.vertexMustExist;
  const execs = plan.execs;
  const slots = plan.slots;
  // Named columns count once their positions are known (header line or USER_DEFINED_HEADER).
  const neededNow = (): number => (format.json ? -1 : Math.max(plan.needs.maxPosition, ...slots.positions));
  let needed = neededNow();
  let headerPending = format.header && !format.json;
  let checkUtf8 = false;
  let prevBad = false;
  let batch = new Batch();
  /** Commits applied in memory and waiting to be durable, oldest first. */
  const inFlight: Promise<void>[] = [];
  const jsonRow = new ArrayRow([]);
  let lastYield = Date.now();

  const onLine = (line: Line): void => {
    if (headerPending) {
      headerPending = false;
      if (!format.userHeader) {
        const missing = slots.resolve(line.tokens());
        if (missing.length > 0) {
          throw new LoadingJobError(
            `Column "${missing[0]}" is not in the header line of the file for "${plan.key}".`,
          );
        }
        needed = neededNow();
      }
      return;
    }
    if (checkUtf8 && !isUtf8(line.bytes())) {
      stats.rejectLine++;
      return;
    }
    let row: Row = line;
    if (format.json) {
      const obj = parseJsonLine(line);
      if (obj === undefined) {
        stats.invalidJson++;
        return;
      }
      jsonRow.values = slots.names.map((path) => jsonToken(dig(obj, path)));
      row = jsonRow;
    } else if (line.count <= needed) {
      stats.notEnoughToken++;
      return;
    }
    if (line.maxTokenBytes > maxToken) {
      stats.oversizeToken++;
      return;
    }
    batch.conditionFailed = false;
    for (let i = 0; i < execs.length; i++) execs[i](row, batch, stats);
    if (batch.conditionFailed) stats.failedConditionLine++;
    stats.validLine++;
  };

  // Two batches alternate: one fills while the other is applied. A batch can be refilled once its
  // operations are applied; its commit may still be waiting for the fsync, which the next commit's
  // fsync then follows (or shares).
  let spare = new Batch();
  let spareApplied: Promise<void> = Promise.resolve();
  /** The statistics as of the last complete line read (what a commit now covers). */
  const upToLastLine = (): LoadStatistics => {
    const s = stats.clone();
    s.bytes -= tokenizer.pendingBytes;
    return s;
  };
  const flush = async (): Promise<void> => {
    if (batch.size === 0) return;
    const covered = opts.onCommitted ? upToLastLine() : undefined;
    await spareApplied;
    while (inFlight.length >= MAX_IN_FLIGHT) await inFlight.shift();
    const b = batch;
    batch = spare;
    batch.clear();
    spare = b;
    let applied!: () => void;
    spareApplied = new Promise<void>((resolve) => (applied = resolve));
    const commit = db.write((tx) => {
      try {
        b.applyTo(tx, createMissing);
      } finally {
        applied();
      }
    });
    // A refused write never runs the function; its failure surfaces where the commit is awaited.
    commit.catch(applied);
    inFlight.push(covered ? commit.then(() => opts.onCommitted?.(covered)) : commit);
  };

  const tokenizer = new CsvTokenizer(
    // A JSON line is parsed whole; quotes inside it must not be taken for CSV quoting.
    format.json ? { ...format, quote: 0 } : format,
    onLine,
    () => stats.oversizeToken++,
    { maxLineBytes: opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES },
  );
  try {
    for await (const chunk of chunks) {
      if (opts.signal?.aborted) break;
      if (chunk instanceof Uint8Array) {
        // A chunk that is valid UTF-8 as a whole needs no per-line check.
        // A line carried over from an invalid chunk ends in this one: check both chunks' lines.
        const bad = !isUtf8(chunk);
        checkUtf8 = bad || prevBad;
        prevBad = bad;
        tokenizer.push(chunk);
        stats.bytes += chunk.length;
      } else {
        // Whole lines already read as the ids of the input's one edge statement (edge-lines.ts).
        const e = plan.intEdge as IntEdgeShape;
        batch.upsertEdgeIds(e.edgeType, e.fromType, e.toType, chunk, e.counters(stats));
        stats.validLine += chunk.n;
        stats.bytes += chunk.bytes;
        prevBad = false;
      }
      if (batch.weight >= batchSize) await flush();
      opts.onProgress?.(stats);
      // In-memory input and unsynced commits never wait on I/O: let other requests in regularly.
      if (Date.now() - lastYield > YIELD_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        lastYield = Date.now();
      }
    }
    checkUtf8 = true;
    if (!opts.signal?.aborted) tokenizer.finish();
    await flush();
    while (inFlight.length > 0) await inFlight.shift();
    opts.onCommitted?.(upToLastLine());
    await db.mergeFresh?.();
  } catch (e) {
    // Let a commit in flight settle before reporting, so no write outlives the load.
    await Promise.allSettled(inFlight);
    throw e;
  }
  return stats;
}

function parseJsonLine(line: Line): ParsedJson | undefined {
  const text = line.bytes().toString('utf8');
  try {
    const v = parseJson(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? v : undefined;
  } catch (e) {
    if (e instanceof JsonSyntaxError) return undefined;
    throw e;
  }
}

/** A Buffer as chunks of at most CHUNK_BYTES (a POST /ddl body). */
export function* bufferChunks(buf: Buffer): Iterable<Buffer> {
  for (let at = 0; at < buf.length; at += CHUNK_BYTES)
    yield buf.subarray(at, Math.min(buf.length, at + CHUNK_BYTES));
}

/** Bytes read from a file at a time: an abort takes effect between two reads. */
export const FILE_READ_BYTES = CHUNK_BYTES * 4;

/** A file from byte `start` on, read in blocks of `readBytes` into one reused buffer. */
export async function* fileChunks(
  path: string,
  start = 0,
  readBytes = FILE_READ_BYTES,
): AsyncIterable<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(readBytes);
    // Reading from the current position (not at an offset) also serves pipes, which cannot seek.
    for (let at: number | null = start > 0 ? start : null; ;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, at);
      if (bytesRead === 0) break;
      if (at !== null) at += bytesRead;
      yield buf.subarray(0, bytesRead);
    }
  } finally {
    await fh.close();
  }
}
