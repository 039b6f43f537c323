/**
 * Runs one input of a compiled loading job: bytes in, statistics out. Lines are tokenized straight
 * from the byte chunks, turned into write operations, and committed in batches through
 * Database.write (one durable commit per batch). While a batch commits, the next chunk is already
 * being tokenized, and the next batch is applied while the previous one waits for its fsync; at most
 * two batches and two commits exist at a time, so memory does not grow with the input.
 */
import { isUtf8 } from 'node:buffer';
import { open } from 'node:fs/promises';
import { startInput } from './committer.js';
import type { InputPlan, IntEdgeShape } from './compiler.js';
import { addIdSegment } from './id-segments.js';
import type { IdSegment } from './edge-lines.js';
import { LineLoader } from './line-loader.js';
import {
  CHUNK_BYTES,
  DEFAULT_BATCH_SIZE,
  DEFAULT_MAX_LINE_BYTES,
  DEFAULT_MAX_TOKEN_BYTES,
  parallelLoad,
  YIELD_MS,
  type LoadingDatabase,
  type RunOptions,
} from './load-options.js';
import { loadInputParallel, type ParseAhead } from './parallel-runner.js';
import { LoadStatistics } from './statistics.js';
import { TokenWords } from './token-words.js';

export {
  CHUNK_BYTES,
  DEFAULT_BATCH_SIZE,
  DEFAULT_MAX_LINE_BYTES,
  DEFAULT_MAX_TOKEN_BYTES,
  type LoadingDatabase,
  type RunOptions,
} from './load-options.js';

export async function loadInput(
  db: LoadingDatabase,
  plan: InputPlan,
  chunks: AsyncIterable<Buffer | IdSegment> | Iterable<Buffer>,
  opts: RunOptions = {},
  /** The input's pieces parsed ahead (parallel-runner.ts ParseAhead), for a load on parse workers. */
  ahead?: ParseAhead,
): Promise<LoadStatistics> {
  if (parallelLoad(plan.targets, opts))
    return loadInputParallel(db, plan, chunks as AsyncIterable<Buffer>, opts, ahead);
  await ahead?.cancel();
  const { stats, format, committer } = startInput(db, plan, opts);
  const batchSize = opts.batchSize ?? DEFAULT_BATCH_SIZE;
  const loader = new LineLoader(
    plan,
    format,
    () => committer.batch,
    stats,
    opts.maxTokenBytes ?? DEFAULT_MAX_TOKEN_BYTES,
  );
  let prevBad = false;
  let lastYield = Date.now();
  // Edge ends of STRING ids are coded from the lines' bytes: one string per distinct id, and the
  // rows the writer found remembered by code (token-words.ts). The dictionary only grows (up to
  // its bound), so a code in a batch still being applied keeps its meaning.
  const words = new TokenWords();
  committer.codeWords(words);
  const tokenizer = loader.tokenizer({ maxLineBytes: opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES }, words);
  /** The statistics as of the last complete line read (what a commit now covers). */
  const upToLastLine = (): LoadStatistics => {
    const s = stats.clone();
    s.bytes -= tokenizer.pendingBytes;
    return s;
  };
  try {
    for await (const chunk of chunks) {
      if (opts.signal?.aborted) break;
      if (chunk instanceof Uint8Array) {
        // A chunk that is valid UTF-8 as a whole needs no per-line check.
        // A line carried over from an invalid chunk ends in this one: check both chunks' lines.
        const bad = !isUtf8(chunk);
        loader.checkUtf8 = bad || prevBad;
        prevBad = bad;
        tokenizer.push(chunk);
        stats.bytes += chunk.length;
      } else {
        // Whole lines already read as the ids of the input's one edge statement (edge-lines.ts).
        addIdSegment(committer.batch, plan.intEdge as IntEdgeShape, chunk, stats);
        prevBad = false;
      }
      if (committer.batch.weight >= batchSize) await committer.flush(upToLastLine);
      opts.onProgress?.(stats);
      // In-memory input and unsynced commits never wait on I/O: let other requests in regularly.
      if (Date.now() - lastYield > YIELD_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        lastYield = Date.now();
      }
    }
    loader.checkUtf8 = true;
    if (!opts.signal?.aborted) tokenizer.finish();
    await committer.flush(upToLastLine);
    await committer.drain();
    committer.release();
    opts.onCommitted?.(upToLastLine());
    await db.mergeFresh?.();
  } catch (e) {
    // Let a commit in flight settle before reporting, so no write outlives the load.
    await committer.settle();
    throw e;
  }
  return stats;
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
