/** The options a Database opens with (see database.ts). */
import type { FileLayer } from '../durability/index.js';
import type { Logger } from '../util/logger.js';
import type { SyncMode } from './api.js';

export interface DatabaseOptions {
  dataDir: string;
  sync?: SyncMode;
  /** Automatic rebuild period when there is new data; 0 disables it. Default 30 000. */
  rebuildIntervalMs?: number;
  /** Recovery, rebuild and fatal-error lines; none: nothing is logged. */
  logger?: Logger;
  /** Called once when a write to disk fails; the Database then refuses writes. */
  onFatal?: (err: Error) => void;
  /** The file layer (tests pass the durability layer's fault-injecting one). */
  fileLayer?: FileLayer;
  /** Fewest delta edges of a block that the background merge after a load merges. Default 16 384. */
  freshMergeMinEdges?: number;
  /**
   * Quiet time after the last write before any delta left (small loads, REST++ upserts,
   * deletions) is merged in the background; 0 disables it. Default 1 000.
   */
  idleMergeMs?: number;
  /**
   * Threads that build a background merge's new bases (the server's `--threads`, at least 1).
   * Default: the available cores.
   */
  mergeThreads?: number;
  /** Wall-clock milliseconds naming rebuild summary files (tests fix it). Default Date.now. */
  clock?: () => number;
}
