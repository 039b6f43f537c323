/** Errors of the durability layer. Each says what was found and where, so an operator can act. */

/**
 * A write or fsync failed. After such an error the state of the un-synced data is unknown (Linux
 * may have dropped the dirty pages and will not report it again), so nothing more is written: the
 * process must stop and recover from the log on restart.
 */
export class DurabilityFatalError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DurabilityFatalError';
  }
}

/**
 * The log is damaged where damage cannot come from a crash: a bad record in a segment that was
 * completed (fsynced) before the next one was started, a missing segment, or a log that does not
 * reach back to the checkpoint. Recovery refuses to guess.
 */
export class WalDamageError extends Error {
  constructor(
    message: string,
    /** The segment file name, when the damage is inside one. */
    readonly segment?: string,
    /** Byte offset inside the segment. */
    readonly offset?: number,
    /** The LSN expected at that point. */
    readonly lsn?: number,
  ) {
    super(message);
    this.name = 'WalDamageError';
  }
}

export type DataDirErrorCode = 'FORMAT_NEWER' | 'FORMAT_OLDER' | 'NOT_A_DATA_DIR' | 'DAMAGED' | 'LOCKED';

/** A data directory that cannot be opened: wrong format version, not ours, damaged, or in use. */
export class DataDirError extends Error {
  constructor(
    readonly code: DataDirErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DataDirError';
  }
}
