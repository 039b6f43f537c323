/**
 * The durability layer: moves opaque byte records to disk and back. It knows nothing about graphs.
 *
 * Typical use by the engine:
 *   const dd = await DataDir.open({ path, syncMode: 'always', onFatal: (e) => stop(e) });
 *   const { checkpoint, records, wal, report } = await dd.recover();
 *   load(checkpoint?.bytes); for await (const r of records) apply(r.payload);
 *   const lsn = await wal.append(encode(tx));           // acknowledged once durable
 *   await dd.writeCheckpoint(lsnCoveredBySnapshot, snapshotChunks());   // rebuild
 *   await dd.close();
 *
 * Group commit needs appends to overlap: call wal.append() in commit order and await its promise
 * only to acknowledge that write, not before starting the next one. A rejected append (fatal error)
 * has an unknown outcome: the record may or may not be found by recovery.
 */
export { makeDirDurable, writeFileAtomic, TEMP_SUFFIX } from './durable-ops.js';
export {
  CheckpointStore,
  checkpointName,
  decodeCheckpoint,
  CHECKPOINT_FORMAT_VERSION,
  type CheckpointChunks,
  type CheckpointInfo,
  type CheckpointReadReport,
  type LoadedCheckpoint,
} from './checkpoint.js';
export {
  DataDir,
  DATA_FORMAT_VERSION,
  FORMAT_FILE,
  type DataDirOptions,
  type Recovery,
  type RecoveryReport,
} from './datadir.js';
export { DataDirError, DurabilityFatalError, WalDamageError, type DataDirErrorCode } from './errors.js';
export {
  realFileLayer,
  errorCode,
  fsError,
  type FileHandle,
  type FileLayer,
  type FileStat,
  type OpenMode,
} from './file-layer.js';
export {
  FaultyFileLayer,
  type CrashOptions,
  type FileOp,
  type FileOpCounts,
  type FileOpKind,
  type PendingWrite,
} from './faulty-file-layer.js';
export { acquireLock, LOCK_FILE, type DirLock } from './lock.js';
export {
  WriteAheadLog,
  type SyncMode,
  type WalOptions,
  type WalRecord,
  type WalRecoveryReport,
  type WalStats,
} from './wal.js';
export { type WalTailCut } from './wal-segments.js';
export { segmentName, parseSegmentName, MAX_PAYLOAD, crc32Update } from './wal-format.js';
