/**
 * Recovery: opens a data directory and rebuilds the store it holds, the newest valid checkpoint
 * plus a replay of the WAL after it (the same replay a cluster follower applies its leader's
 * records with).
 */
import { EMPTY_CATALOG } from '../catalog/types.js';
import { DataDir, type WriteAheadLog } from '../durability/index.js';
import { publishCount } from '../store/counter.js';
import { GraphStore } from '../store/graph-store.js';
import { silentLogger } from '../util/logger.js';
import { decodeSnapshot } from './checkpoint-codec.js';
import type { DatabaseOptions } from './database-options.js';
import { replayRecord } from './replay.js';
import { decodeRecord } from './wal-record.js';

/** What recovery did when the Database was opened (for the server's startup log and status). */
export interface RecoverySummary {
  /** LSN covered by the checkpoint loaded (0: none). */
  checkpointLsn: number;
  /** WAL records replayed after it. */
  replayedRecords: number;
  /** Version the database opened at. */
  version: number;
  /** A torn or corrupt WAL tail that was cut off: where and why. */
  tailCut?: { segment: string; offset: number; bytes: number; reason: string };
  /** Damaged checkpoints skipped (file: reason). */
  skippedCheckpoints: string[];
}

/** What recovering a data directory produced. */
export interface Recovered {
  dir: DataDir;
  wal: WriteAheadLog;
  store: GraphStore;
  version: number;
  lsn: number;
  summary: RecoverySummary;
}

/** Opens (creating if needed) the data directory of `opts` and recovers it; closes it on failure. */
export async function recoverDataDir(
  opts: DatabaseOptions,
  onFatal: (err: Error) => void,
): Promise<Recovered> {
  const log = opts.logger ?? silentLogger;
  const dir = await DataDir.open({
    path: opts.dataDir,
    ...(opts.fileLayer ? { fs: opts.fileLayer } : {}),
    syncMode: opts.sync ?? 'always',
    onFatal,
  });
  try {
    const rec = await dir.recover();
    let store: GraphStore;
    let version = 0;
    let lsn = 0;
    if (rec.checkpoint) {
      const snap = decodeSnapshot(rec.checkpoint.bytes);
      store = snap.store;
      version = snap.version;
      lsn = rec.checkpoint.lsn;
    } else {
      store = new GraphStore(EMPTY_CATALOG, 0);
    }
    const checkpointLsn = lsn;
    let replayed = 0;
    for await (const r of rec.records) {
      const d = decodeRecord(r.payload);
      const applied = replayRecord(store, d);
      store = applied.store;
      if (applied.tx) {
        for (const c of applied.tx.touchedCounters) publishCount(c, d.version);
        for (const c of applied.tx.historyColumns) c.history = null;
      }
      version = d.version;
      lsn = r.lsn;
      replayed++;
    }
    const cut = rec.report.wal.tailCut;
    if (cut)
      log.warn(
        `recovery: cut a torn WAL tail in ${cut.segment} at offset ${cut.offset} (${cut.bytes} bytes): ${cut.reason}`,
      );
    for (const s of rec.report.skippedCheckpoints)
      log.warn(`recovery: skipped damaged checkpoint ${s.file}: ${s.reason}`);
    log.info(
      `recovery: checkpoint LSN ${checkpointLsn}, replayed ${replayed} WAL records, version ${version}`,
    );
    const summary: RecoverySummary = {
      checkpointLsn,
      replayedRecords: replayed,
      version,
      skippedCheckpoints: rec.report.skippedCheckpoints.map((c) => `${c.file}: ${c.reason}`),
      ...(cut
        ? { tailCut: { segment: cut.segment, offset: cut.offset, bytes: cut.bytes, reason: cut.reason } }
        : {}),
    };
    return { dir, wal: rec.wal, store, version, lsn, summary };
  } catch (err) {
    await dir.close();
    throw err;
  }
}
