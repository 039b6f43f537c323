/**
 * Database: the embedded entry point. Catalog + store + transactions + durability behind one API.
 * (Skeleton with the final signatures; the implementation lands in the following commits.)
 */
import type { Catalog } from '../catalog/types.js';
import type {
  CatalogStore,
  DeletedVertexCheckOptions,
  DeletedVertexCheckResult,
  ReadTx,
  RebuildOptions,
  RebuildResult,
  SyncMode,
  WriteTx,
} from './api.js';

export interface DatabaseOptions {
  dataDir: string;
  sync?: SyncMode;
  /** Automatic rebuild period when there is new data; 0 disables it. Default 30 000. */
  rebuildIntervalMs?: number;
  log?: (line: string) => void;
  /** Called once when a write to disk fails; the Database then refuses writes. */
  onFatal?: (err: Error) => void;
}

export class Database implements CatalogStore {
  private constructor(readonly catalog: Catalog) {}

  static open(_opts: DatabaseOptions): Promise<Database> {
    return Promise.reject(new Error('Database.open: not implemented yet'));
  }
  changeCatalog(_next: Catalog): Promise<void> {
    return Promise.reject(new Error('not implemented yet'));
  }
  clearGraphStore(): Promise<void> {
    return Promise.reject(new Error('not implemented yet'));
  }
  read(): ReadTx {
    throw new Error('not implemented yet');
  }
  write<T>(_fn: (tx: WriteTx) => T): Promise<T> {
    return Promise.reject(new Error('not implemented yet'));
  }
  rebuild(_opts?: RebuildOptions): Promise<RebuildResult> {
    return Promise.reject(new Error('not implemented yet'));
  }
  deletedVertexCheck(_opts?: DeletedVertexCheckOptions): DeletedVertexCheckResult {
    throw new Error('not implemented yet');
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}
