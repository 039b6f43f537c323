/**
 * The write-ahead log: opaque byte records, each with a log sequence number (LSN) one greater than
 * the last, in segment files under one directory.
 *
 * Sync modes, and what each risks on power loss or an OS crash (a plain process crash loses nothing
 * that append() acknowledged in any mode, since the data is already in the kernel):
 * - 'always' (default): append() resolves after an fsync that covers the record. Nothing
 *   acknowledged is ever lost. Concurrent appends share one fsync (group commit): while one
 *   write+fsync is in flight, new records queue, and the next write+fsync covers all of them.
 * - 'batch': fsyncs at most every `batchIntervalMs` (default 10 ms); append() still resolves only
 *   after the fsync that covers it, so nothing acknowledged is lost either. It trades up to one
 *   interval of latency per write for fewer fsyncs under moderate load.
 * - 'none': never fsyncs for appends; append() resolves after the write() reaches the kernel.
 *   A power loss or kernel crash can lose any record written since the OS last flushed (typically
 *   up to ~30 s); recovery still cuts the torn tail, so the log stays a clean prefix.
 *
 * Any write or fsync error is fatal (see DurabilityFatalError): the log stops, every pending and
 * later append rejects, and `onFatal` lets the owner stop the process. Restart recovers.
 *
 * A segment is fsynced completely before the next one is created (in every mode), so damage inside
 * an earlier segment can only be real corruption and is refused; only the last segment may have a
 * torn tail, which is cut off and reported.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { makeDirDurable } from './durable-ops.js';
import { DurabilityFatalError } from './errors.js';
import { type FileHandle, type FileLayer, realFileLayer } from './file-layer.js';
import {
  FRAME_HEADER_SIZE,
  MAX_PAYLOAD,
  SEGMENT_HEADER_SIZE,
  encodeFrameHeader,
  scanFrames,
  segmentName,
} from './wal-format.js';
import { type Segment, type WalTailCut, createSegment, scanSegments } from './wal-segments.js';

export type SyncMode = 'always' | 'batch' | 'none';

export interface WalOptions {
  /** Directory holding the segment files (created if missing). */
  dir: string;
  fs?: FileLayer;
  syncMode?: SyncMode;
  /** 'batch' mode: minimum time between two fsyncs. Default 10 ms. */
  batchIntervalMs?: number;
  /** A new segment is started once the current one would exceed this size. Default 64 MiB. */
  segmentSize?: number;
  /**
   * Records up to and including this LSN are covered by a checkpoint and not needed: segments that
   * hold only such records are deleted unread, and the log must reach back to `afterLsn + 1`.
   */
  afterLsn?: number;
  /** Called once when the log enters the failed state. */
  onFatal?: (err: DurabilityFatalError) => void;
}

export interface WalRecord {
  lsn: number;
  /** A view into a buffer read from disk; valid indefinitely, never reused. */
  payload: Uint8Array;
}

export interface WalRecoveryReport {
  /** Segments validated and replayed from, oldest first. */
  segments: string[];
  /** Older segments holding only records up to `afterLsn`: kept unread until truncateBefore drops them. */
  staleSegments: string[];
  /** A last segment deleted because its creation was torn (header never completed). */
  removedSegments: string[];
  /** LSN of the first record kept in the log (the next LSN when empty). */
  firstLsn: number;
  /** LSN of the last valid record (afterLsn when the log has none after it). */
  lastLsn: number;
  /** Present when a torn or corrupt tail was cut off. */
  tailCut?: WalTailCut;
}

export interface WalStats {
  appends: number;
  /** write() calls made for records (one per batch, or more when a segment fills). */
  writes: number;
  /** fsyncs of segment files. */
  syncs: number;
  /** Segments started. */
  rolls: number;
}

interface Pending {
  lsn: number;
  header: Buffer;
  payload: Uint8Array;
  resolve: (lsn: number) => void;
  reject: (err: Error) => void;
}

interface Waiter {
  resolve: () => void;
  reject: (err: Error) => void;
}

/** Payloads up to this size are copied into one batch buffer; larger ones go out as their own iovec. */
const COPY_LIMIT = 64 * 1024;

export class WriteAheadLog {
  readonly stats: WalStats = { appends: 0, writes: 0, syncs: 0, rolls: 0 };
  private queue: Pending[] = [];
  private syncWaiters: Waiter[] = [];
  private flushing: Promise<void> | undefined;
  private failed: DurabilityFatalError | undefined;
  private closed = false;
  /** Monotonic time (performance.now) of the last fsync start: a wall-clock jump must not stall 'batch'. */
  private lastSyncAt = -Infinity;
  private assigned: number;
  private durable: number;

  private constructor(
    private readonly fs: FileLayer,
    private readonly dir: string,
    private readonly mode: SyncMode,
    private readonly batchIntervalMs: number,
    private readonly segmentSize: number,
    private readonly onFatal: ((err: DurabilityFatalError) => void) | undefined,
    private readonly segments: Segment[],
    private active: FileHandle,
    private activeSize: number,
    lastLsn: number,
    /** What open() found and repaired. */
    readonly recovery: WalRecoveryReport,
  ) {
    this.assigned = lastLsn;
    this.durable = lastLsn;
  }

  /**
   * Opens (or creates) the log in `dir`: validates every needed segment, cuts a torn tail of the
   * last one (truncate + fsync), and refuses damage anywhere else with a WalDamageError.
   */
  static async open(options: WalOptions): Promise<WriteAheadLog> {
    const fs = options.fs ?? realFileLayer;
    const dir = options.dir;
    const afterLsn = options.afterLsn ?? 0;
    const segmentSize = options.segmentSize ?? 64 * 1024 * 1024;
    await makeDirDurable(fs, dir);
    const scanned = await scanSegments(fs, dir, afterLsn);
    const { stale, segments, removedSegments, tailCut } = scanned;
    let lastSize = scanned.lastSize;

    let lastLsn = scanned.nextLsn - 1;
    let active: FileHandle;
    let rolls = 0;
    if (segments.length === 0 || lastLsn < afterLsn) {
      // A fresh log, or one whose end never reached the checkpoint (possible with 'none'): new
      // records must carry LSNs above the checkpoint, so they start a segment of their own.
      lastLsn = Math.max(lastLsn, afterLsn);
      const seg = { name: segmentName(lastLsn + 1), firstLsn: lastLsn + 1 };
      active = await createSegment(fs, dir, seg);
      segments.push(seg);
      lastSize = SEGMENT_HEADER_SIZE;
      rolls = 1;
    } else {
      active = await fs.open(join(dir, segments[segments.length - 1]!.name), 'write');
    }

    const report: WalRecoveryReport = {
      segments: segments.map((s) => s.name),
      staleSegments: stale.map((s) => s.name),
      removedSegments,
      firstLsn: segments[0]!.firstLsn,
      lastLsn,
      ...(tailCut ? { tailCut } : {}),
    };
    const wal = new WriteAheadLog(
      fs,
      dir,
      options.syncMode ?? 'always',
      options.batchIntervalMs ?? 10,
      segmentSize,
      options.onFatal,
      [...stale, ...segments],
      active,
      lastSize,
      lastLsn,
      report,
    );
    wal.stats.rolls = rolls;
    return wal;
  }

  /** LSN of the last record appended (acknowledged or not). */
  get lastLsn(): number {
    return this.assigned;
  }

  /** LSN up to which records are durable per the sync mode (written, for 'none'). */
  get durableLsn(): number {
    return this.durable;
  }

  /** The fatal error, once the log has failed. */
  get failure(): DurabilityFatalError | undefined {
    return this.failed;
  }

  get syncMode(): SyncMode {
    return this.mode;
  }

  /**
   * Appends one record; resolves with its LSN once it is durable per the sync mode. LSNs are given
   * in call order. The payload is not copied: do not modify it until the promise settles.
   */
  append(payload: Uint8Array): Promise<number> {
    if (this.failed) return Promise.reject(this.failed);
    if (this.closed) return Promise.reject(new Error('the write-ahead log is closed'));
    if (payload.byteLength > MAX_PAYLOAD) {
      // Recovery would take such a frame for garbage: refuse it before it gets an LSN.
      return Promise.reject(
        new RangeError(`a WAL record is limited to ${MAX_PAYLOAD} bytes (got ${payload.byteLength})`),
      );
    }
    const lsn = ++this.assigned;
    this.stats.appends++;
    const header = encodeFrameHeader(lsn, payload);
    return new Promise<number>((resolve, reject) => {
      this.queue.push({ lsn, header, payload, resolve, reject });
      this.kick();
    });
  }

  /** Resolves once every record appended so far is fsynced, whatever the sync mode. */
  sync(): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    if (this.closed) return Promise.reject(new Error('the write-ahead log is closed'));
    return new Promise<void>((resolve, reject) => {
      this.syncWaiters.push({ resolve, reject });
      this.kick();
    });
  }

  /**
   * The records with LSN > afterLsn, in order, read segment by segment (one read per segment).
   * Meant for recovery, before appending; it sees what had been written when each segment is read.
   */
  records(afterLsn = 0): AsyncIterable<WalRecord> {
    const segments = this.segments.filter(
      (_, i, all) => !(all[i + 1] && all[i + 1]!.firstLsn <= afterLsn + 1),
    );
    return {
      [Symbol.asyncIterator]: () => {
        let batch: WalRecord[] = [];
        let at = 0;
        let seg = 0;
        // Hand-written rather than an async generator: records within a segment are handed out
        // without a generator suspension each, which makes replay several times faster.
        const next = async (): Promise<IteratorResult<WalRecord>> => {
          while (at >= batch.length) {
            if (seg >= segments.length) return { done: true, value: undefined };
            const s = segments[seg++]!;
            const buf = await this.fs.readFile(join(this.dir, s.name));
            batch = scanFrames(buf, SEGMENT_HEADER_SIZE, s.firstLsn, true).records;
            at = 0;
            while (at < batch.length && batch[at]!.lsn <= afterLsn) at++;
          }
          return { done: false, value: batch[at++]! };
        };
        return { next };
      },
    };
  }

  /**
   * Deletes whole segments whose records all have LSN < `lsn` (never the segment being written).
   * After a checkpoint that covers LSN c, call truncateBefore(c + 1). Returns how many were deleted.
   */
  async truncateBefore(lsn: number): Promise<number> {
    let n = 0;
    while (this.segments.length > 1 && this.segments[1]!.firstLsn <= lsn) {
      const seg = this.segments.shift()!;
      await this.fs.unlink(join(this.dir, seg.name));
      n++;
    }
    if (n > 0) await this.fs.syncDir(this.dir);
    return n;
  }

  /** Segment file names, oldest first. */
  segmentNames(): string[] {
    return this.segments.map((s) => s.name);
  }

  /** Writes and fsyncs everything queued, then closes the file. Later appends reject. */
  async close(): Promise<void> {
    if (this.closed) return;
    if (!this.failed) {
      try {
        await this.sync();
      } catch {
        // The failure is already reported through onFatal and the rejected appends.
      }
    }
    this.closed = true;
    await this.flushing;
    await this.active.close();
  }

  private kick(): void {
    this.flushing ??= this.flushLoop();
  }

  private async flushLoop(): Promise<void> {
    // Let every append made in the same tick join the first batch.
    await Promise.resolve();
    let batch: Pending[] = [];
    let waiters: Waiter[] = [];
    try {
      while (!this.failed && (this.queue.length > 0 || this.syncWaiters.length > 0)) {
        if (this.mode === 'batch' && this.syncWaiters.length === 0) {
          const wait = this.lastSyncAt + this.batchIntervalMs - performance.now();
          if (wait > 0) await sleep(wait);
        }
        batch = this.queue;
        this.queue = [];
        waiters = this.syncWaiters;
        this.syncWaiters = [];
        const sync = this.mode !== 'none' || waiters.length > 0;
        if (sync) this.lastSyncAt = performance.now();
        // The batch's last write and the fsync after it go out as one call (one thread-pool trip).
        const synced = batch.length > 0 && (await this.writeBatch(batch, sync));
        if (sync && !synced) await this.syncActive();
        if (batch.length > 0) this.durable = batch[batch.length - 1]!.lsn;
        for (const p of batch) p.resolve(p.lsn);
        for (const w of waiters) w.resolve();
        batch = [];
        waiters = [];
      }
    } catch (err) {
      this.fail(err, batch, waiters);
    } finally {
      this.flushing = undefined;
    }
  }

  /**
   * Writes a batch with as few write() calls as segment boundaries allow; with `sync`, the last
   * write is made together with the fsync that covers the whole batch. Returns whether it synced.
   */
  private async writeBatch(batch: Pending[], sync: boolean): Promise<boolean> {
    let chunks: Uint8Array[] = [];
    let small: Uint8Array[] = [];
    let bytes = 0;
    const flushSmall = (): void => {
      if (small.length > 0) chunks.push(small.length === 1 ? small[0]! : Buffer.concat(small));
      small = [];
    };
    const writeOut = async (last: boolean): Promise<boolean> => {
      flushSmall();
      if (bytes === 0) return false;
      const withSync = last && sync;
      if (withSync) await this.active.writeAndSync(chunks, this.activeSize);
      else await this.active.write(chunks, this.activeSize);
      this.stats.writes++;
      if (withSync) this.stats.syncs++;
      this.activeSize += bytes;
      chunks = [];
      bytes = 0;
      return withSync;
    };
    for (const p of batch) {
      const size = FRAME_HEADER_SIZE + p.payload.byteLength;
      const used = this.activeSize + bytes;
      if (used > SEGMENT_HEADER_SIZE && used + size > this.segmentSize) {
        await writeOut(false);
        await this.roll(p.lsn);
      }
      small.push(p.header);
      if (p.payload.byteLength <= COPY_LIMIT) {
        small.push(p.payload);
      } else {
        flushSmall();
        chunks.push(p.payload);
      }
      bytes += size;
    }
    return writeOut(true);
  }

  /** Completes the current segment (fsync, in every mode) and starts a new one at `firstLsn`. */
  private async roll(firstLsn: number): Promise<void> {
    await this.syncActive();
    await this.active.close();
    const seg = { name: segmentName(firstLsn), firstLsn };
    this.active = await createSegment(this.fs, this.dir, seg);
    this.activeSize = SEGMENT_HEADER_SIZE;
    this.segments.push(seg);
    this.stats.rolls++;
  }

  private async syncActive(): Promise<void> {
    await this.active.sync();
    this.stats.syncs++;
  }

  /**
   * Enters the failed state. Records of the failed batch may or may not be on disk (a batch spans
   * segments, and a write may be partial): their appends reject, and recovery decides.
   */
  private fail(cause: unknown, batch: Pending[], waiters: Waiter[]): void {
    const first = !this.failed;
    if (!this.failed) {
      const msg = cause instanceof Error ? cause.message : String(cause);
      this.failed = new DurabilityFatalError(
        `write-ahead log failed: ${msg}; no further writes are accepted`,
        {
          cause,
        },
      );
    }
    const err = this.failed;
    const all = [...batch, ...this.queue];
    const allWaiters = [...waiters, ...this.syncWaiters];
    this.queue = [];
    this.syncWaiters = [];
    for (const p of all) p.reject(err);
    for (const w of allWaiters) w.reject(err);
    if (first) this.onFatal?.(err);
  }
}
