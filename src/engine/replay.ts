/**
 * Re-applying one logged record to a store: recovery replays the local WAL with it, and a cluster
 * follower applies the leader's records with it, so both reach the same state from the same bytes.
 */
import { GraphStore } from '../store/graph-store.js';
import { migrateStore } from './migrate.js';
import type { DecodedRecord } from './wal-record.js';
import { replayData } from './wal-record.js';
import { WriteTxImpl } from './write-tx.js';

export interface Replayed {
  /** The store to use from now on (a new one after a schema change or a clear). */
  store: GraphStore;
  /** The transaction a data record was applied through (its counters and history still to settle). */
  tx?: WriteTxImpl;
}

export function replayRecord(store: GraphStore, d: DecodedRecord): Replayed {
  if (d.kind === 'catalog') return { store: migrateStore(store, d.catalog, d.version) };
  if (d.kind === 'clear') return { store: new GraphStore(store.catalog, d.version) };
  const tx = new WriteTxImpl(store, d.version);
  try {
    replayData(d.reader, tx);
  } catch (e) {
    tx.abort();
    throw e;
  }
  return { store, tx };
}
