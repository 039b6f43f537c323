/**
 * A data directory: a FORMAT file naming the format version, an exclusive LOCK, the write-ahead log
 * in `wal/` and checkpoints in `checkpoints/`.
 *
 * Recovery = newest valid checkpoint + replay of the WAL records after its LSN. The WAL is kept back
 * to the PREVIOUS checkpoint, so that if the newest checkpoint turns out damaged, the previous one
 * plus the log still give every acknowledged record.
 */
import { join } from 'node:path';
import { TEMP_SUFFIX, makeDirDurable, writeFileAtomic } from './durable-ops.js';
import { type CheckpointChunks, type CheckpointInfo, CheckpointStore } from './checkpoint.js';
import { DataDirError, WalDamageError } from './errors.js';
import { type FileLayer, realFileLayer } from './file-layer.js';
import { type DirLock, LOCK_FILE, acquireLock } from './lock.js';
import { type SyncMode, type WalRecord, type WalRecoveryReport, WriteAheadLog } from './wal.js';
import type { DurabilityFatalError } from './errors.js';

/** The data directory format this code writes and reads. */
export const DATA_FORMAT_VERSION = 1;
export const FORMAT_FILE = 'FORMAT';
const FORMAT_TITLE = 'ocelot-data-directory';
const WAL_DIR = 'wal';
const CHECKPOINT_DIR = 'checkpoints';

export interface DataDirOptions {
  path: string;
  fs?: FileLayer;
  syncMode?: SyncMode;
  batchIntervalMs?: number;
  segmentSize?: number;
  /** Called once if the WAL fails (write or fsync error): the server should stop. */
  onFatal?: (err: DurabilityFatalError) => void;
}

export interface RecoveryReport {
  /** True when the directory was created (or initialised) by this open. */
  created: boolean;
  /** The checkpoint recovery starts from, if any. */
  checkpoint?: CheckpointInfo;
  /** Newer checkpoints that were damaged and skipped, with reasons. */
  skippedCheckpoints: Array<CheckpointInfo & { reason: string }>;
  wal: WalRecoveryReport;
}

export interface Recovery {
  checkpoint?: { lsn: number; bytes: Buffer };
  /** WAL records after the checkpoint's LSN, in order: replay them all, then start appending. */
  records: AsyncIterable<WalRecord>;
  report: RecoveryReport;
  /** The log, opened for appending after the recovered tail. */
  wal: WriteAheadLog;
}

function formatText(version: number): string {
  return `${FORMAT_TITLE}\nformat-version: ${version}\n`;
}

/** The version in a FORMAT file, or undefined if the text is not one. */
function parseFormat(text: string): number | undefined {
  const lines = text.split('\n');
  const m = /^format-version: (\d+)$/.exec(lines[1] ?? '');
  if (lines[0] !== FORMAT_TITLE || !m) return undefined;
  return Number(m[1]);
}

export class DataDir {
  private walLog: WriteAheadLog | undefined;
  private closed = false;
  private checkpointing: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly path: string,
    private readonly fs: FileLayer,
    private readonly options: DataDirOptions,
    private readonly lock: DirLock,
    readonly checkpoints: CheckpointStore,
    /** True when this open created the directory's FORMAT. */
    readonly created: boolean,
  ) {}

  /**
   * Opens a data directory, creating it if missing. Refuses (DataDirError) a directory of a newer
   * or unknown format, a non-empty directory that is not a data directory, and one locked by a
   * live process.
   */
  static async open(options: DataDirOptions): Promise<DataDir> {
    const fs = options.fs ?? realFileLayer;
    const path = options.path;
    const st = await fs.stat(path);
    if (st && !st.isDirectory)
      throw new DataDirError('NOT_A_DATA_DIR', `${path} exists and is not a directory`);
    await makeDirDurable(fs, path);
    await checkFormat(fs, path);
    const lock = await acquireLock(fs, path);
    try {
      // Checked again under the lock: another process may have initialised it meanwhile.
      const created = !(await checkFormat(fs, path));
      if (created) {
        await writeFileAtomic(fs, join(path, FORMAT_FILE), Buffer.from(formatText(DATA_FORMAT_VERSION)));
      }
      const checkpoints = new CheckpointStore(join(path, CHECKPOINT_DIR), fs);
      return new DataDir(path, fs, options, lock, checkpoints, created);
    } catch (err) {
      await lock.release();
      throw err;
    }
  }

  /**
   * Loads the newest valid checkpoint and opens the WAL after it (cutting a torn tail). Call once,
   * replay `records` completely, then append through `wal`.
   */
  async recover(): Promise<Recovery> {
    if (this.walLog) throw new Error('recover() was already called');
    const { checkpoint, report: ckReport } = await this.checkpoints.readNewest();
    const afterLsn = checkpoint?.lsn ?? 0;
    let wal: WriteAheadLog;
    try {
      wal = await WriteAheadLog.open({
        dir: join(this.path, WAL_DIR),
        fs: this.fs,
        afterLsn,
        ...(this.options.syncMode ? { syncMode: this.options.syncMode } : {}),
        ...(this.options.batchIntervalMs !== undefined
          ? { batchIntervalMs: this.options.batchIntervalMs }
          : {}),
        ...(this.options.segmentSize !== undefined ? { segmentSize: this.options.segmentSize } : {}),
        ...(this.options.onFatal ? { onFatal: this.options.onFatal } : {}),
      });
    } catch (err) {
      if (err instanceof WalDamageError && ckReport.skipped.length > 0) {
        const names = ckReport.skipped.map((s) => `${s.file} (${s.reason})`).join(', ');
        throw new WalDamageError(
          `${err.message}; damaged checkpoints were skipped: ${names}`,
          err.segment,
          err.offset,
          err.lsn,
        );
      }
      throw err;
    }
    this.walLog = wal;
    const report: RecoveryReport = {
      created: this.created,
      skippedCheckpoints: ckReport.skipped,
      wal: wal.recovery,
      ...(ckReport.used ? { checkpoint: ckReport.used } : {}),
    };
    return {
      ...(checkpoint ? { checkpoint: { lsn: checkpoint.lsn, bytes: checkpoint.bytes } } : {}),
      records: wal.records(afterLsn),
      report,
      wal,
    };
  }

  /** The WAL, once recover() has run. */
  get wal(): WriteAheadLog {
    if (!this.walLog) throw new Error('call recover() before using the WAL');
    return this.walLog;
  }

  /**
   * Writes a checkpoint covering every record up to and including `lsn` (atomically, durably),
   * then deletes checkpoints older than the previous one and the WAL segments only they needed.
   */
  writeCheckpoint(lsn: number, chunks: CheckpointChunks): Promise<CheckpointInfo> {
    // One at a time: pruning and WAL truncation must see the checkpoints in the order written.
    const run = this.checkpointing.then(() => this.writeCheckpointNow(lsn, chunks));
    this.checkpointing = run.catch(() => undefined);
    return run;
  }

  private async writeCheckpointNow(lsn: number, chunks: CheckpointChunks): Promise<CheckpointInfo> {
    const wal = this.wal;
    // After a fatal log error the in-memory state may hold writes that are not in the log.
    if (wal.failure) throw wal.failure;
    if (lsn > wal.lastLsn)
      throw new Error(`checkpoint LSN ${lsn} is beyond the last WAL record ${wal.lastLsn}`);
    // The log must be durable through the checkpoint's LSN so that LSNs stay continuous after it.
    if (wal.durableLsn < lsn || wal.syncMode === 'none') await wal.sync();
    const info = await this.checkpoints.write(lsn, chunks);
    const kept = await this.checkpoints.prune(2);
    const previous = kept[1];
    if (previous) await wal.truncateBefore(previous.lsn + 1);
    return info;
  }

  /** Closes the WAL (flushing it) and releases the lock. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.walLog?.close();
    } finally {
      await this.lock.release();
    }
  }
}

/**
 * Validates the FORMAT file. Returns true if present and current, false if the directory is empty
 * (to be initialised); throws DataDirError otherwise.
 */
async function checkFormat(fs: FileLayer, path: string): Promise<boolean> {
  const formatPath = join(path, FORMAT_FILE);
  if (!(await fs.stat(formatPath))) {
    const foreign = (await fs.list(path)).filter((f) => f !== LOCK_FILE && f !== FORMAT_FILE + TEMP_SUFFIX);
    if (foreign.includes(WAL_DIR) || foreign.includes(CHECKPOINT_DIR)) {
      // Our own layout without its FORMAT file: refusing to guess which format the data has.
      throw new DataDirError(
        'DAMAGED',
        `${path} holds Ocelot data but its ${FORMAT_FILE} file is missing; restore it or use another directory`,
      );
    }
    if (foreign.length > 0) {
      throw new DataDirError(
        'NOT_A_DATA_DIR',
        `${path} is not an Ocelot data directory (no ${FORMAT_FILE} file, but it contains ${foreign.slice(0, 3).join(', ')}` +
          `${foreign.length > 3 ? ', ...' : ''}); use an empty or new directory`,
      );
    }
    return false;
  }
  const version = parseFormat((await fs.readFile(formatPath)).toString('utf8'));
  if (version === undefined) {
    throw new DataDirError('DAMAGED', `${formatPath} is damaged or not an Ocelot format file`);
  }
  if (version > DATA_FORMAT_VERSION) {
    throw new DataDirError(
      'FORMAT_NEWER',
      `data directory ${path} has format version ${version}, newer than this Ocelot supports ` +
        `(${DATA_FORMAT_VERSION}); use a newer Ocelot`,
    );
  }
  if (version < DATA_FORMAT_VERSION) {
    throw new DataDirError(
      'FORMAT_OLDER',
      `data directory ${path} has format version ${version}, older than this Ocelot supports (${DATA_FORMAT_VERSION})`,
    );
  }
  return true;
}
