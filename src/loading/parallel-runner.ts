/**
 * Loads one input with parse workers (`--threads` 2 or more, inputs of PARALLEL_MIN_BYTES and
 * more): the main thread cuts the input into pieces of whole lines (line-chunks.ts) and reads the
 * header line; the workers tokenize and convert the pieces (parse-piece.ts); the main thread takes
 * their answers in input order, adds their statistics and commits their operations in batches
 * through the same committer as the single-threaded runner. So the graph, the statistics and the
 * commit points are those of a load on the main thread. At most four pieces per worker are in hand
 * at a time, so memory does not grow with the input, and the main thread waits for answers, so
 * other requests are served meanwhile.
 */
import type { Catalog } from '../catalog/types.js';
import { startInput } from './committer.js';
import type { InputPlan } from './compiler.js';
import { LineChunker, type Piece } from './line-chunks.js';
import { LineLoader } from './line-loader.js';
import {
  CHUNK_BYTES,
  DEFAULT_BATCH_SIZE,
  DEFAULT_MAX_LINE_BYTES,
  DEFAULT_MAX_TOKEN_BYTES,
  YIELD_MS,
  type LoadingDatabase,
  type RunOptions,
} from './load-options.js';
import type { ParsedPiece } from './parse-piece.js';
import { ParseWorkers } from './parse-workers.js';
import { LoadStatistics } from './statistics.js';

/**
 * Pieces each worker may have in hand (one parsing, the others waiting). Two were too few: a batch
 * holds about two pieces of edge lines, and while the main thread applied it the worker finished
 * its two and waited (a social load at `--threads 2`: the parse thread idle 330–370 ms with two,
 * 165–200 ms with four, and eight no better).
 */
const AHEAD_PER_WORKER = 4;

interface Pending {
  piece: Piece;
  parsed?: Promise<ParsedPiece>;
}

export async function loadInputParallel(
  db: LoadingDatabase,
  plan: InputPlan,
  chunks: AsyncIterable<Buffer> | Iterable<Buffer>,
  opts: RunOptions & { source: { text: string; graph: string }; threads: number },
): Promise<LoadStatistics> {
  const { stats, format, committer } = startInput(db, plan, opts);
  const batchSize = opts.batchSize ?? DEFAULT_BATCH_SIZE;
  const maxTokenBytes = opts.maxTokenBytes ?? DEFAULT_MAX_TOKEN_BYTES;
  const maxLineBytes = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  // Reads the header line here: the workers are sent the column positions it resolves.
  const headerReader = new LineLoader(plan, format, () => committer.batch, stats, maxTokenBytes);
  const lineFormat = format.json ? { ...format, quote: 0 } : format;
  const chunker = new LineChunker(lineFormat, {
    header: format.header && !format.json,
    maxLineBytes,
    pieceBytes: opts.pieceBytes ?? CHUNK_BYTES,
  });
  // The writer (this thread) is one of the --threads: the others parse.
  const parsers = Math.max(1, opts.threads - 1);
  const workers = new ParseWorkers(parsers);
  const pending: Pending[] = [];
  let lastYield = Date.now();

  /** Takes the oldest piece's answer into the batch; commits a full batch. */
  const takeOldest = async (): Promise<void> => {
    const { piece, parsed } = pending.shift() as Pending;
    if (parsed) {
      const p = await parsed;
      stats.add({ ...p.stats, bytes: piece.consumed });
      committer.batch.append(p.image, stats);
    } else {
      if (piece.kind === 'oversize') stats.oversizeToken++;
      stats.bytes += piece.consumed;
    }
    if (committer.batch.weight >= batchSize) await committer.flush(() => stats.clone());
    opts.onProgress?.(stats);
    // Merging and applying never wait on I/O: let other requests in regularly.
    if (Date.now() - lastYield > YIELD_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      lastYield = Date.now();
    }
  };

  const hand = async (piece: Piece): Promise<void> => {
    const item: Pending = { piece };
    if (piece.kind === 'header') {
      const t = headerReader.tokenizer({ maxLineBytes });
      t.push(Buffer.from(piece.line.buffer, piece.line.byteOffset, piece.line.length));
      t.finish();
    } else if (piece.kind === 'lines') {
      workers.setup({
        jobText: opts.source.text,
        graph: opts.source.graph,
        catalog: loadingCatalog(db.catalog),
        input: { key: plan.key, kind: plan.kind },
        format,
        positions: plan.slots.positions,
        maxTokenBytes,
      });
      item.parsed = workers.parse(piece.bytes);
      // Settled here too, so a failure met while earlier pieces are merged is not left unhandled.
      item.parsed.catch(() => {});
    }
    pending.push(item);
    while (pending.length > AHEAD_PER_WORKER * parsers) await takeOldest();
  };

  try {
    for await (const chunk of chunks) {
      if (opts.signal?.aborted) break;
      for (const piece of chunker.push(chunk)) await hand(piece);
    }
    if (!opts.signal?.aborted) for (const piece of chunker.finish()) await hand(piece);
    while (pending.length > 0) await takeOldest();
    await committer.flush(() => stats.clone());
    await committer.drain();
    committer.release();
    opts.onCommitted?.(stats.clone());
    await db.mergeFresh?.();
  } catch (e) {
    // Let a commit in flight settle before reporting, so no write outlives the load.
    await committer.settle();
    throw e;
  } finally {
    await workers.close();
  }
  return stats;
}

/** What compiling a job reads of the catalog (not its users, secrets, queries or jobs). */
function loadingCatalog(c: Catalog): Catalog {
  const { security: _security, queries: _queries, functions: _functions, ...rest } = c;
  return { ...rest, jobs: [] };
}
