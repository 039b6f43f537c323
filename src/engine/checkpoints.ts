/**
 * Rebuilds and checkpoints: the automatic rebuild when there is new data, the rebuild's merge of
 * every delta under a short pause of writes, checkpoint files written one at a time outside that
 * pause, and the whole-store image an online backup takes.
 */
import { join } from 'node:path';
import type { DataDir } from '../durability/index.js';
import type { GraphStore } from '../store/graph-store.js';
import type { RebuildOptions, RebuildResult } from './api.js';
import { encodeSnapshot } from './checkpoint-codec.js';
import type { CommitPipeline } from './commit-pipeline.js';
import type { DatabaseOptions } from './database-options.js';
import { mergeAll, rebuildSummary, writeSummaryFile } from './rebuild.js';

export const DEFAULT_REBUILD_PATH = '/tmp/rebuildnow';

/** What rebuilds need of their Database. */
export interface CheckpointHost {
  readonly log: CommitPipeline;
  /** The store receiving writes. */
  store(): GraphStore;
  /** Makes `next` the store of writes and of new readers. */
  install(next: GraphStore): void;
  /** The background merge of large deltas (Database.mergeFresh). */
  mergeFresh(): Promise<void>;
  /** Throws unless writes are possible (`local`: also refused on a cluster follower). */
  checkWritable(local: boolean): void;
  /** Whether writes can still happen (not stopped by a fatal error, not closed). */
  running(): boolean;
}

export class Checkpoints {
  private timer: NodeJS.Timeout | undefined;
  /** Checkpoint files are written one at a time, outside the writers' pause. */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private dir: DataDir,
    /** The LSN the newest checkpoint covers. */
    private checkpointLsn: number,
    private readonly opts: DatabaseOptions,
    private readonly host: CheckpointHost,
  ) {}

  /** Rebuilds every `rebuildIntervalMs` when the log holds records the checkpoint does not. */
  startTimer(): void {
    const ms = this.opts.rebuildIntervalMs ?? 30_000;
    if (ms <= 0) return;
    this.timer = setInterval(() => {
      if (this.host.log.lastLsn > this.checkpointLsn && this.host.running()) {
        this.rebuild({}, false).catch((err: unknown) =>
          this.opts.logger?.error(`automatic rebuild failed: ${String(err)}`),
        );
      }
    }, ms);
    this.timer.unref();
  }

  stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Settles once no checkpoint file is being written. */
  written(): Promise<void> {
    return this.writing;
  }

  /** Continues on a re-recovered data directory. */
  reopen(dir: DataDir, checkpointLsn: number): void {
    this.dir = dir;
    this.checkpointLsn = checkpointLsn;
  }

  /** See Database.rebuild; `writeSummary` is false for the automatic rebuild. */
  async rebuild(opts: RebuildOptions, writeSummary: boolean): Promise<RebuildResult> {
    this.host.checkWritable(false);
    // Large deltas are merged first off the event loop (the merge threads), so the pause below merges only the rest.
    await this.host.mergeFresh();
    // Writes pause only for the in-memory merge and the snapshot encoding. The snapshot's big
    // arrays are immutable base arrays; values a later write changes in place may reach the file,
    // which is harmless: the WAL after the checkpoint re-applies every such write's final value.
    const log = this.host.log;
    const staged = await log.exclusive(() => {
      const t0 = performance.now();
      const version = log.published;
      const store = this.host.store();
      const summary = rebuildSummary(store, opts, version, log.lastLsn);
      const merged = mergeAll(store, version, opts.force === true);
      this.host.install(merged);
      const lsn = log.lastLsn;
      const chunks = lsn > this.checkpointLsn ? encodeSnapshot(merged, version) : undefined;
      return Promise.resolve({ version, summary, lsn, chunks, mergeMs: performance.now() - t0 });
    });
    const { version, summary, lsn, chunks, mergeMs } = staged;
    const t1 = performance.now();
    if (chunks) {
      const write = this.writing.then(async () => {
        if (lsn <= this.checkpointLsn) return;
        await this.dir.writeCheckpoint(lsn, chunks);
        this.checkpointLsn = lsn;
      });
      this.writing = write.catch(() => undefined);
      await write;
    }
    const path = opts.path ?? DEFAULT_REBUILD_PATH;
    const now = (this.opts.clock ?? Date.now)();
    const summaryFile = writeSummary
      ? await writeSummaryFile(path, summary.text, now)
      : join(path, `rebuild_summary_${now}.txt`);
    this.opts.logger?.info(
      `rebuild: version ${version}, ${summary.selected} segments selected, ${summary.skipped} skipped; ` +
        `merge ${mergeMs.toFixed(0)} ms, checkpoint ${chunks ? `${(performance.now() - t1).toFixed(0)} ms` : 'not needed'}`,
    );
    return { path, summaryFile, selected: summary.selected, skipped: summary.skipped, version };
  }

  /** See Database.snapshot (the caller checked that writes are possible). */
  snapshot(): Promise<{ version: number; chunks: Uint8Array[] }> {
    const log = this.host.log;
    return log.exclusive(() => {
      const version = log.published;
      const merged = mergeAll(this.host.store(), version, false);
      this.host.install(merged);
      return Promise.resolve({ version, chunks: encodeSnapshot(merged, version).map((c) => c.slice()) });
    });
  }
}
