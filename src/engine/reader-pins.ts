/**
 * Reader pins: the versions pinned readers hold, and the column and count history kept for them,
 * dropped once no pinned reader can need it.
 */
import type { Column } from '../store/columns.js';
import { type Counter, publishCount, trimCount } from '../store/counter.js';
import type { GraphStore } from '../store/graph-store.js';
import { ReadTxImpl } from './read-tx.js';
import type { WriteTxImpl } from './write-tx.js';

export class ReaderPins {
  /** Pinned version -> number of readers holding it. */
  private readers = new Map<number, number>();
  private historyColumns = new Set<Column>();
  private counters = new Set<Counter>();

  constructor(
    /** The last published version (what an unpinned reader would see). */
    private readonly published: () => number,
    /** The stores whose edge blocks may give columns history outside a transaction (EdgeBlock.settle). */
    private readonly stores: () => readonly GraphStore[] = () => [],
  ) {}

  /** A read transaction on `store` at `version`; its release may let history go. */
  pin(store: GraphStore, version: number): ReadTxImpl {
    const pinned = this.readers.get(version);
    // A version's count stays at 0 once its readers are gone (deleting and re-adding the newest
    // version's entry per read made the map shrink and grow, a new table each time); the first
    // reader of a version not in the map drops the entries at 0.
    if (pinned === undefined) for (const [v, n] of this.readers) if (n === 0) this.readers.delete(v);
    this.readers.set(version, (pinned ?? 0) + 1);
    return new ReadTxImpl(store, version, () => {
      this.readers.set(version, (this.readers.get(version) ?? 1) - 1);
      this.trim();
    });
  }

  /** Columns a transaction overwrote keep history until no reader needs it. */
  keepHistory(tx: Pick<WriteTxImpl, 'historyColumns'>): void {
    for (const c of tx.historyColumns) this.historyColumns.add(c);
  }

  /** Publishes a transaction's vertex and edge counts at `version`. */
  publishCounters(tx: Pick<WriteTxImpl, 'touchedCounters'>, version: number): void {
    for (const c of tx.touchedCounters) {
      publishCount(c, version);
      this.counters.add(c);
    }
  }

  /** Drops column history and count history no pinned reader can need any more. */
  trim(): void {
    for (const store of this.stores())
      for (const b of store.blocks)
        if (b.takeHistory()) for (const c of b.columns.values()) this.historyColumns.add(c);
    if (this.historyColumns.size === 0 && this.counters.size === 0) return;
    let min = this.published();
    for (const [v, n] of this.readers) if (n > 0 && v < min) min = v;
    for (const c of this.historyColumns) {
      c.trimHistory(min);
      if (c.history === null) this.historyColumns.delete(c);
    }
    for (const c of this.counters) trimCount(c, min);
    this.counters.clear();
  }

  /** Forgets the history of a store that was replaced by a fresh recovery; pinned readers stay. */
  forgetHistory(): void {
    this.historyColumns = new Set();
    this.counters = new Set();
  }
}
