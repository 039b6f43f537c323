/**
 * Commits a load's batches in order through Database.write (one durable commit each). Two batches
 * alternate: one fills while the other is applied; a batch can be refilled once its operations are
 * applied, while its commit may still wait for the fsync, which the next commit's fsync then follows
 * (or shares). At most MAX_IN_FLIGHT commits wait at a time, so memory does not grow with the input.
 */
import { Batch } from './batch.js';
import type { LoadingDatabase } from './load-options.js';
import type { LoadStatistics } from './statistics.js';

/** Commits of one load that may wait for their fsync at the same time. */
const MAX_IN_FLIGHT = 2;

export class BatchCommitter {
  /** The batch being filled. */
  batch = new Batch();
  private spare = new Batch();
  private spareApplied: Promise<void> = Promise.resolve();
  /** Commits applied in memory and waiting to be durable, oldest first. */
  private readonly inFlight: Promise<void>[] = [];

  constructor(
    private readonly db: LoadingDatabase,
    /** The load's statistics, which applying a batch counts into (validObject and failures). */
    private readonly live: LoadStatistics,
    private readonly createMissing: boolean,
    /** Called, in order, as each commit becomes durable, with the statistics it covers. */
    private readonly onCommitted?: (stats: LoadStatistics) => void,
  ) {}

  /**
   * Commits the batch being filled (if it holds anything); `covered` gives the statistics up to its
   * last line, asked only when someone listens for commits.
   */
  async flush(covered: () => LoadStatistics): Promise<void> {
    if (this.batch.size === 0) return;
    const stats = this.onCommitted ? covered() : undefined;
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
        b.applyTo(tx, this.createMissing);
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

  /** Lets every commit in flight settle (after a failure: no write outlives the load). */
  async settle(): Promise<void> {
    await Promise.allSettled(this.inFlight);
  }
}
