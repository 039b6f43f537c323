/**
 * Commits a load's batches in order through Database.write (one durable commit each). Two batches
 * alternate: one fills while the other is applied; a batch can be refilled once its operations are
 * applied, while its commit may still wait for the fsync, which the next commit's fsync then follows
 * (or shares). At most MAX_IN_FLIGHT commits wait at a time, so memory does not grow with the input.
 */
import type { Catalog } from '../catalog/types.js';
import { giveBatch, takeBatch } from './batch.js';
import type { InputPlan } from './compiler.js';
import type { FileFormat } from './format.js';
import type { LoadingDatabase, RunOptions } from './load-options.js';
import { LoadStatistics } from './statistics.js';
import type { TokenWords } from './token-words.js';

/** Commits of one load that may wait for their fsync at the same time. */
const MAX_IN_FLIGHT = 2;

export class BatchCommitter {
  /** The batch being filled. */
  batch = takeBatch();
  private spare = takeBatch();
  private spareApplied: Promise<void> = Promise.resolve();
  /** Commits applied in memory and waiting to be durable, oldest first. */
  private readonly inFlight: Promise<void>[] = [];
  /** Where the input started in the statistics' bytes, and the operations batched since. */
  private readonly startBytes: number;
  private weightSoFar = 0;

  constructor(
    private readonly db: LoadingDatabase,
    /** The load's statistics, which applying a batch counts into (validObject and failures). */
    private readonly live: LoadStatistics,
    private readonly createMissing: boolean,
    /** Called, in order, as each commit becomes durable, with the statistics it covers. */
    private readonly onCommitted?: (stats: LoadStatistics) => void,
    /**
     * The input's size in bytes, given when all its edges go to one block: each batch then tells
     * the engine how many more edges to expect (expectEdges), from the operations per byte so far.
     */
    private readonly edgeInputBytes?: number,
  ) {
    this.startBytes = live.bytes;
  }

  /** The dictionary the batches' edge ends are coded in (Batch.words). */
  codeWords(words: TokenWords): void {
    this.batch.words = words;
    this.spare.words = words;
  }

  /** The operations expected from the batch being filled on (0: no estimate). */
  private expected(): number {
    const w = this.batch.weight;
    this.weightSoFar += w;
    const read = this.live.bytes - this.startBytes;
    if (this.edgeInputBytes === undefined || read <= 0) return 0;
    const left = Math.max(0, this.edgeInputBytes - read);
    return w + Math.ceil((this.weightSoFar / read) * left);
  }

  /**
   * Commits the batch being filled (if it holds anything); `covered` gives the statistics up to its
   * last line, asked only when someone listens for commits.
   */
  async flush(covered: () => LoadStatistics): Promise<void> {
    if (this.batch.size === 0) return;
    const stats = this.onCommitted ? covered() : undefined;
    const expectEdges = this.expected();
    await this.spareApplied;
    while (this.inFlight.length >= MAX_IN_FLIGHT) await this.inFlight.shift();
    const b = this.batch;
    this.batch = this.spare;
    this.batch.clear();
    this.spare = b;
    let applied!: () => void;
    this.spareApplied = new Promise<void>((resolve) => (applied = resolve));
    const commit = this.db.write((tx) => {
      try {
        // What applying counts belongs to the statistics this commit covers too.
        const before = stats && this.live.toJSON();
        b.applyTo(tx, this.createMissing, expectEdges);
        if (stats && before) stats.addObjectCounts(before, this.live.toJSON());
      } finally {
        applied();
      }
    });
    // A refused write never runs the function; its failure surfaces where the commit is awaited.
    commit.catch(applied);
    const onCommitted = this.onCommitted;
    // A commit is acknowledged only once every earlier one is: a failed commit stops the reports.
    const prev = this.inFlight.at(-1);
    const durable = prev ? Promise.all([prev, commit]) : commit;
    const done = stats && onCommitted ? durable.then(() => onCommitted(stats)) : durable.then(() => {});
    // Awaited later (flush, drain, settle); a failure meanwhile is not an unhandled rejection.
    done.catch(() => {});
    this.inFlight.push(done);
  }

  /** Waits until every commit is durable (throws the first failure). */
  async drain(): Promise<void> {
    while (this.inFlight.length > 0) await this.inFlight.shift();
  }

  /** Gives the batches back to the pool (after drain: nothing is applied from them any more). */
  release(): void {
    giveBatch(this.batch);
    giveBatch(this.spare);
  }

  /** Lets every commit in flight settle (after a failure: no write outlives the load). */
  async settle(): Promise<void> {
    await Promise.allSettled(this.inFlight);
  }
}

/**
 * The input's size when every operation it makes is an upsert into one edge block (its only target
 * is an edge type with one FROM/TO pair), for BatchCommitter's estimate of the edges to come.
 */
export function oneBlockBytes(
  plan: InputPlan,
  catalog: Catalog,
  size: number | undefined,
): number | undefined {
  if (size === undefined || plan.targets.length !== 1 || plan.targets[0].kind !== 'edge') return undefined;
  const et = catalog.edgeTypes.find((e) => e.name === plan.targets[0].typeName);
  return et !== undefined && et.pairs.length === 1 ? size : undefined;
}

/** How both runners start on an input: its statistics (every target listed), its format and its committer. */
export function startInput(
  db: LoadingDatabase,
  plan: InputPlan,
  opts: RunOptions,
): { stats: LoadStatistics; format: FileFormat; committer: BatchCommitter } {
  const stats = opts.stats ?? new LoadStatistics();
  for (const t of plan.targets) stats.object(t.kind, t.typeName);
  const format: FileFormat = { ...plan.format, ...opts.format };
  const committer = new BatchCommitter(
    db,
    stats,
    !format.vertexMustExist,
    opts.onCommitted,
    oneBlockBytes(plan, db.catalog, opts.sizeHint),
  );
  return { stats, format, committer };
}
