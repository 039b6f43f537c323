/**
 * What a write transaction changed, kept so that abort() can undo it and commit can publish it:
 * per table and block the row / delta-slot count and live count at first touch (everything appended
 * after that mark is new in this transaction), undo actions for in-place changes, the columns that
 * got history entries and the counters to publish.
 */
import type { Value } from '../catalog/value.js';
import type { Column } from '../store/columns.js';
import { type Counter, restoreCountFrom } from '../store/counter.js';
import type { EdgeBlock } from '../store/edge-block.js';
import type { IdKey, VertexTable } from '../store/vertex-table.js';

/** The index key of a stored id value (the same key parseId gives). */
export function keyOfIdValue(v: Value): IdKey {
  return typeof v === 'number' || typeof v === 'bigint' || typeof v === 'string' ? v : String(v);
}

export interface TableMark {
  count: number;
  live: number;
}

export interface BlockMark {
  dCount: number;
  live: number;
  /** Duplicates settled edges had (EdgeBlock.dupCount): those settled later below dCount stay off live. */
  dups: number;
}

export class TxChanges {
  private undo: (() => void)[] = [];
  private tableMarks = new Map<VertexTable, TableMark>();
  private blockMarks = new Map<EdgeBlock, BlockMark>();
  private lastMarked: [EdgeBlock, BlockMark] | undefined;
  readonly historyColumns = new Set<Column>();
  readonly touchedCounters = new Set<Counter>();

  constructor(private readonly version: number) {}

  markTable(t: VertexTable): TableMark {
    let m = this.tableMarks.get(t);
    if (!m) {
      m = { count: t.count, live: t.live.current };
      this.tableMarks.set(t, m);
      this.touchedCounters.add(t.live);
    }
    return m;
  }

  markBlock(b: EdgeBlock): BlockMark {
    if (b === this.lastMarked?.[0]) return this.lastMarked[1];
    let m = this.blockMarks.get(b);
    if (!m) {
      m = { dCount: b.dCount, live: b.live.current, dups: b.dupCount };
      this.blockMarks.set(b, m);
      this.touchedCounters.add(b.live);
    }
    b.dirty = true;
    this.lastMarked = [b, m];
    return m;
  }

  /** Writes a value of a row or edge, keeping history unless it is new in this transaction. */
  writeCell(col: Column, row: number, v: Value, isNew: boolean): void {
    if (isNew) {
      col.init(row, v);
      return;
    }
    const entry = col.update(row, v, this.version);
    this.historyColumns.add(col);
    this.undo.push(() => col.revert(row, entry));
  }

  /** Registers how to undo an in-place change. */
  onAbort(fn: () => void): void {
    this.undo.push(fn);
  }

  /** Undoes every change: in-place ones in reverse order, then appended delta edges and rows. */
  abort(): void {
    for (let i = this.undo.length - 1; i >= 0; i--) this.undo[i]();
    this.undo = [];
    for (const [b, m] of this.blockMarks) {
      b.truncateDelta(m.dCount);
      b.live.current = m.live - (b.dupCount - m.dups);
      restoreCountFrom(b.live, this.version, b.live.current);
    }
    for (const [t, m] of this.tableMarks) {
      for (let row = t.count - 1; row >= m.count; row--) {
        const key = keyOfIdValue(t.idColumn.get(row));
        const p = t.prev[row];
        if (p < 0) t.index.delete(key);
        else t.index.set(key, t.deleted[p] !== 0 ? ~p : p);
      }
      if (t.count > m.count) t.rowsTakenBack++;
      t.count = m.count;
      t.live.current = m.live;
    }
  }
}
