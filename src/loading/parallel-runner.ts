/**
 * Loads one input with parse workers (`--threads` 2 or more, inputs of PARALLEL_MIN_BYTES and
 * more): the main thread cuts the input into pieces of whole lines (line-chunks.ts) and reads the
 * header line; the workers tokenize and convert the pieces (parse-piece.ts); the main thread takes
 * their answers in input order, adds their statistics and commits their operations in batches
 * through the same committer as the single-threaded runner. So the graph, the statistics and the
 * commit points are those of a load on the main thread. At most four pieces per worker are in hand
 * at a time, so memory does not grow with the input, and the main thread waits for answers, so
 * other requests are served meanwhile. An input can be read ahead (ParseAhead) while the input
 * before it still loads on the event loop: only its parsing starts early.
 */
import type { Catalog } from '../catalog/types.js';
import { startInput } from './committer.js';
import type { InputPlan } from './compiler.js';
import type { FileFormat } from './format.js';
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

/**
 * Pieces parsed ahead of their load (ParseAhead) in all, or four per worker when that is more: the
 * input before is loaded on the event loop meanwhile, so its time on the main thread is the parse
 * threads' head start (a social load's 100,000 persons take about as long on the main thread as
 * one parse thread takes for 20 pieces of its knows file). A piece of edge lines parses to an image
 * of about its own size, so memory stays bounded as without reading ahead.
 */
const AHEAD_OF_LOAD = 24;

interface Pending {
  piece: Piece;
  parsed?: Promise<ParsedPiece>;
}

type LoadOptions = RunOptions & { source: { text: string; graph: string }; threads: number };

/**
 * The reading half of a load on parse workers: the input's chunks cut into pieces, the header line
 * read here, the other pieces sent to the workers, their answers pending in input order.
 */
class PieceFeed {
  readonly pending: Pending[] = [];
  readonly workers: ParseWorkers;
  readonly parsers: number;
  /** A failure met while reading ahead, thrown where the load reads on (step). */
  failure: unknown = undefined;
  /** Whether the input's last piece was handed on. */
  ended = false;
  private readonly format: FileFormat;
  private readonly chunker: LineChunker;
  private readonly headerReader: LineLoader;
  private readonly source: AsyncIterator<Buffer> | Iterator<Buffer>;
  private readonly maxLineBytes: number;

  constructor(
    private readonly db: LoadingDatabase,
    private readonly plan: InputPlan,
    chunks: AsyncIterable<Buffer> | Iterable<Buffer>,
    private readonly opts: LoadOptions,
  ) {
    const format: FileFormat = { ...plan.format, ...opts.format };
    this.format = format;
    this.maxLineBytes = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    // Reads the header line only (the workers are sent the column positions it resolves): no batch
    // and no statistics are touched by it (its bytes count when its piece is taken).
    this.headerReader = new LineLoader(
      plan,
      format,
      () => {
        throw new Error('the header reader loads no line');
      },
      new LoadStatistics(),
      opts.maxTokenBytes ?? DEFAULT_MAX_TOKEN_BYTES,
    );
    this.chunker = new LineChunker(format.json ? { ...format, quote: 0 } : format, {
      header: format.header && !format.json,
      maxLineBytes: this.maxLineBytes,
      pieceBytes: opts.pieceBytes ?? CHUNK_BYTES,
    });
    // The writer (the main thread) is one of the --threads: the others parse.
    this.parsers = Math.max(1, opts.threads - 1);
    this.workers = new ParseWorkers(this.parsers);
    this.source = Symbol.asyncIterator in chunks ? chunks[Symbol.asyncIterator]() : chunks[Symbol.iterator]();
  }

  /** Reads the next chunk and hands on its pieces (at the end of the input, the last piece). */
  async step(): Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    const next = await this.source.next();
    const pieces = next.done === true ? this.chunker.finish() : this.chunker.push(next.value);
    this.ended = next.done === true;
    for (const piece of pieces) this.hand(piece);
  }

  private hand(piece: Piece): void {
    const item: Pending = { piece };
    if (piece.kind === 'header') {
      const t = this.headerReader.tokenizer({ maxLineBytes: this.maxLineBytes });
      t.push(Buffer.from(piece.line.buffer, piece.line.byteOffset, piece.line.length));
      t.finish();
    } else if (piece.kind === 'lines') {
      const { db, plan, opts } = this;
      this.workers.setup({
        jobText: opts.source.text,
        graph: opts.source.graph,
        catalog: loadingCatalog(db.catalog),
        input: { key: plan.key, kind: plan.kind },
        format: this.format,
        positions: plan.slots.positions,
        maxTokenBytes: opts.maxTokenBytes ?? DEFAULT_MAX_TOKEN_BYTES,
      });
      item.parsed = this.workers.parse(piece.bytes);
      // Settled here too, so a failure met while earlier pieces are merged is not left unhandled.
      item.parsed.catch(() => {});
    }
    this.pending.push(item);
  }

  /** Ends the reading: the file is closed, the workers go back (ended if a piece is in hand). */
  async close(): Promise<void> {
    try {
      await this.source.return?.();
    } finally {
      await this.workers.close();
    }
  }
}

/**
 * An input whose pieces are parsed while the input before it is still loading on the event loop
 * (at `--threads 2` a vertex input stays there: load-options.ts parallelLoad), up to AHEAD_OF_LOAD
 * pieces. Only parsing happens ahead: nothing is applied, counted or committed before the load of
 * this input starts (`RunOptions.ahead`), in input order after the one before.
 */
export class ParseAhead {
  /** Inputs read ahead in this process (tests check that a load did). */
  static started = 0;
  private readonly feed: PieceFeed;
  private readonly reading: Promise<void>;
  private stopped = false;
  private taken = false;

  constructor(
    db: LoadingDatabase,
    readonly plan: InputPlan,
    chunks: AsyncIterable<Buffer> | Iterable<Buffer>,
    opts: LoadOptions,
  ) {
    this.feed = new PieceFeed(db, plan, chunks, opts);
    this.reading = this.read();
    ParseAhead.started++;
  }

  private async read(): Promise<void> {
    try {
      const feed = this.feed;
      const most = Math.max(AHEAD_OF_LOAD, AHEAD_PER_WORKER * feed.parsers);
      while (!this.stopped && !feed.ended && feed.pending.length < most) await feed.step();
    } catch (e) {
      this.feed.failure = e;
    }
  }

  /** The feed, for the input's load to go on with (once; the read in progress ends first). */
  async take(): Promise<PieceFeed> {
    if (this.taken) throw new Error('an input read ahead is loaded once');
    this.taken = true;
    this.stopped = true;
    await this.reading;
    return this.feed;
  }

  /** Drops what was read ahead (the input before failed or the run was stopped). */
  async cancel(): Promise<void> {
    if (this.taken) return;
    this.taken = true;
    this.stopped = true;
    await this.reading;
    await this.feed.close();
  }
}

export async function loadInputParallel(
  db: LoadingDatabase,
  plan: InputPlan,
  chunks: AsyncIterable<Buffer> | Iterable<Buffer>,
  opts: LoadOptions,
  /** The input's pieces already being parsed (its chunks are then the ahead's, not `chunks`). */
  ahead?: ParseAhead,
): Promise<LoadStatistics> {
  const feed = ahead ? await ahead.take() : new PieceFeed(db, plan, chunks, opts);
  const { stats, committer } = startInput(db, plan, opts);
  const batchSize = opts.batchSize ?? DEFAULT_BATCH_SIZE;
  const pending = feed.pending;
  // A run stopped before this input's load started loads nothing of what was read ahead.
  if (opts.signal?.aborted) pending.length = 0;
  const inHand = AHEAD_PER_WORKER * feed.parsers;
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

  try {
    while (pending.length > inHand) await takeOldest();
    while (!feed.ended && !opts.signal?.aborted) {
      await feed.step();
      while (pending.length > inHand) await takeOldest();
    }
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
    await feed.close();
  }
  return stats;
}

/** What compiling a job reads of the catalog (not its users, secrets, queries or jobs). */
function loadingCatalog(c: Catalog): Catalog {
  const { security: _security, queries: _queries, functions: _functions, ...rest } = c;
  return { ...rest, jobs: [] };
}
