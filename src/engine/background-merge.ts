/**
 * The background merge: merges deltas into new bases on the merge threads and folds vertex tables a
 * slice at a time (fresh-merge.ts), after a load, after recovery, and once writes have been quiet
 * for a while (the idle merge); then switches readers to the merged store in one short pause of
 * writes.
 */
import { availableParallelism } from 'node:os';
import type { BuiltBase } from '../store/base-builder.js';
import { type BaseBuild, buildOnThread } from '../store/base-thread.js';
import type { EdgeBlock } from '../store/edge-block.js';
import type { GraphStore } from '../store/graph-store.js';
import type { DatabaseOptions } from './database-options.js';
import {
  installMerged,
  installTables,
  type MergeJob,
  type MergePolicy,
  planMerge,
  planTables,
  prepareMerged,
  prepareTables,
  type TableFold,
} from './fresh-merge.js';
import type { ReadTxImpl } from './read-tx.js';

const FRESH_MERGE_MIN_EDGES = 16_384;
const IDLE_MERGE_MS = 1000;
/** An idle merge starts at least this many times its predecessor's duration after it ended. */
const IDLE_MERGE_SPACING = 4;
/** What an idle merge takes on: any delta of at least a 32nd of its base (see MergePolicy). */
const IDLE_MERGE: MergePolicy = { minDelta: 1, share: 32, idle: true };
/**
 * An idle merge that finds more writes made meanwhile (edges, tombstones, vertex rows) is dropped
 * rather than re-apply them while writes wait: writes did not pause after all (a load).
 */
const IDLE_MERGE_MAX_LATER = 16_384;

/** What the merge needs of its Database. */
export interface MergeHost {
  /** The store, when writes and new readers share it (not while a schema change or clear waits). */
  settledStore(): GraphStore | undefined;
  /** Makes `next` the store of writes and of new readers. */
  install(next: GraphStore): void;
  /** The last published version. */
  published(): number;
  /** A reader pinned at the last published version. */
  pin(): ReadTxImpl;
  /** Runs `fn` while no write runs. */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  /** Whether writes stopped for good (a fatal error). */
  failed(): boolean;
}

export class BackgroundMerge {
  /** Merges run one after another; this settles when the last one queued has. */
  private merging: Promise<void> = Promise.resolve();
  /** The thread of the merge running. */
  private building: BaseBuild | undefined;
  /** The idle merge's timer, the last write's time and the earliest next idle merge (performance.now()). */
  private idleTimer: NodeJS.Timeout | undefined;
  private lastWriteAt = 0;
  private idleMergeAfter = 0;
  /** Set by stop(): no merge starts or reports after it. */
  private stopping = false;

  constructor(
    private readonly opts: DatabaseOptions,
    private readonly host: MergeHost,
  ) {}

  /** See Database.mergeFresh. */
  mergeFresh(policy: MergePolicy = this.loadPolicy()): Promise<void> {
    const run = this.merging.then(() => this.mergeOnce(policy));
    this.merging = run.catch((err: unknown) => {
      if (!this.stopping) this.opts.logger?.error(`background merge failed: ${String(err)}`);
    });
    return this.merging;
  }

  /** No merge starts or reports any more; resolves once the one running stopped. */
  stop(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.stopping = true;
    this.building?.cancel();
    return this.merging;
  }

  /** After a load: the large deltas (see planMerge). */
  private loadPolicy(): MergePolicy {
    return { minDelta: this.opts.freshMergeMinEdges ?? FRESH_MERGE_MIN_EDGES, share: 8 };
  }

  /**
   * Merges whatever delta is left once writes have been quiet for `idleMergeMs` (each write moves
   * the moment on), no sooner than IDLE_MERGE_SPACING times the last idle merge's duration after
   * it, so the merge threads and the slices on the event loop take a bounded share of the time.
   */
  scheduleIdleMerge(): void {
    const quiet = this.opts.idleMergeMs ?? IDLE_MERGE_MS;
    if (quiet <= 0 || this.stopping) return;
    this.lastWriteAt = performance.now();
    if (this.idleTimer) return;
    const arm = (ms: number): void => {
      this.idleTimer = setTimeout(fire, ms);
      this.idleTimer.unref();
    };
    const fire = (): void => {
      this.idleTimer = undefined;
      const wait = Math.max(this.lastWriteAt + quiet, this.idleMergeAfter) - performance.now();
      if (wait > 0) return arm(wait);
      if (this.stopping || this.host.failed()) return;
      const t0 = performance.now();
      void this.mergeFresh(IDLE_MERGE).then(() => {
        const t1 = performance.now();
        this.idleMergeAfter = t1 + IDLE_MERGE_SPACING * (t1 - t0);
      });
    };
    arm(quiet);
  }

  private async mergeOnce(policy: MergePolicy): Promise<void> {
    const store = this.host.settledStore();
    if (this.stopping || this.host.failed() || !store) return;
    // Pinned for the merge: the columns keep the history of values changed after `version`,
    // which the switch re-copies.
    const pin = this.host.pin();
    try {
      const version = pin.version;
      const jobs = planMerge(store, version, policy);
      const folds = planTables(store, policy);
      if (jobs.length === 0 && folds.length === 0) return;
      const written = (): number => {
        let n = 0;
        for (const j of jobs) n += j.block.dCount + j.block.tombLog.length / 2;
        for (const t of store.tables.values()) n += t.count;
        return n;
      };
      const before = written();
      // An idle merge stops as soon as writes turn out not to have paused (see IDLE_MERGE_MAX_LATER).
      const busy = (): boolean => policy.idle === true && written() - before > IDLE_MERGE_MAX_LATER;
      const dropped = (): void =>
        this.opts.logger?.info(`background merge at version ${version} dropped: writes went on meanwhile`);
      const t0 = performance.now();
      const merged = await this.buildMerge(jobs, folds, version, busy);
      if (!merged) return dropped();
      const { built, prepared } = merged;
      const t1 = performance.now();
      await this.host.exclusive(() => {
        // The current store: a catalog change that kept the stored schema shares the blocks.
        const current = this.host.settledStore();
        if (this.stopping || !current) return Promise.resolve();
        if (busy()) return Promise.resolve(dropped());
        installTables(current, folds);
        const next =
          jobs.length > 0
            ? installMerged(current, version, this.host.published(), jobs, built, prepared)
            : undefined;
        if (next) this.host.install(next);
        this.opts.logger?.info(
          `background merge: ${next ? jobs.length : 0} block(s) at version ${version}, ${built.reduce((n, b) => n + b.n, 0)} edges, ` +
            `${folds.length} vertex table(s); built in ${(t1 - t0).toFixed(0)} ms, switched in ${(performance.now() - t1).toFixed(0)} ms`,
        );
        return Promise.resolve();
      });
    } finally {
      pin.release();
    }
  }

  /**
   * The merge's new bases: blocks built on the merge threads (their attribute columns carried
   * after) while the vertex folds are built on the event loop; undefined when `busy` stopped it.
   */
  private async buildMerge(
    jobs: MergeJob[],
    folds: TableFold[],
    version: number,
    busy: () => boolean,
  ): Promise<{ built: BuiltBase[]; prepared: EdgeBlock[] } | undefined> {
    if (jobs.length === 0)
      return (await prepareTables(folds, busy)) ? { built: [], prepared: [] } : undefined;
    const sources = jobs.map((j) => j.source);
    const build = buildOnThread(sources, { threads: this.opts.mergeThreads ?? availableParallelism() });
    this.building = build;
    const watch = setInterval(() => {
      if (busy()) build.cancel();
    }, 50);
    const folding = prepareTables(folds, busy);
    let built: BuiltBase[];
    try {
      built = await build.done;
    } catch (err) {
      if (busy()) return undefined;
      throw err;
    } finally {
      clearInterval(watch);
      this.building = undefined;
      await folding;
    }
    if (busy()) return undefined;
    return { built, prepared: await prepareMerged(jobs, built, version) };
  }
}
