/**
 * One vertex type's table: dense row ids (never reused while the process runs), the primary-id index,
 * one column per attribute, and per-row version stamps for snapshot reads.
 *
 * Visibility: row r exists for a reader at version v when created[r] <= v and (deleted[r] is 0 or
 * deleted[r] > v). A vertex deleted and inserted again gets a new row whose `prev` points at the old
 * one, so a reader pinned before the re-insert still finds the old row through the index.
 *
 * The id index keeps its own record of deletions, independent of the table's `deleted` stamps: the
 * entry of a deleted id holds ~row (negative) instead of row. The deleted-vertex check compares the
 * two.
 *
 * Segments: rows are grouped in segments of SEGMENT_SIZE (2^16) consecutive rows, the unit the rebuild
 * summary and the deleted-vertex check report on.
 */
import type { VertexType } from '../catalog/types.js';
import { type Column, makeColumn } from './columns.js';
import { type Counter, newCounter } from './counter.js';
import { IdIndex } from './id-index.js';

export type IdKey = number | bigint | string;

export const SEGMENT_BITS = 16;
export const SEGMENT_SIZE = 1 << SEGMENT_BITS;

/** The version a writer reads at: it sees everything, staged writes included. */
export const WRITER_VERSION = 0xffffffff;

export class VertexTable {
  readonly idColumn: Column;
  readonly columns = new Map<string, Column>();
  /** Primary id -> newest row (~row when that row was deleted). */
  readonly index = new IdIndex();
  created: Uint32Array = new Uint32Array(16);
  deleted: Uint32Array = new Uint32Array(16);
  prev: Int32Array = new Int32Array(16);
  /** Rows allocated so far (live or not). */
  count = 0;
  readonly live: Counter;
  /** Ids deleted permanently: they can never be inserted again until the graph store is cleared. */
  readonly permanentlyDeleted = new Set<IdKey>();
  /** Segments with changes since the last rebuild. */
  readonly dirtySegments = new Set<number>();

  constructor(
    readonly type: VertexType,
    version: number,
  ) {
    const idType =
      type.keyKind === 'composite' ? ({ kind: 'STRING', compress: false } as const) : type.primaryId.type;
    this.idColumn = makeColumn(idType);
    for (const a of type.attributes) this.columns.set(a.name, makeColumn(a.type));
    this.live = newCounter(version);
  }

  /** Capacity for n rows in every per-row array. */
  ensure(n: number): void {
    if (n > this.created.length) {
      let cap = this.created.length;
      while (cap < n) cap *= 2;
      const c = new Uint32Array(cap);
      c.set(this.created);
      this.created = c;
      const d = new Uint32Array(cap);
      d.set(this.deleted);
      this.deleted = d;
      const p = new Int32Array(cap);
      p.set(this.prev);
      this.prev = p;
    }
    this.idColumn.ensure(n);
    for (const c of this.columns.values()) c.ensure(n);
  }

  /** Appends a row for `key` created at `version`; the caller initialises its columns. */
  allocRow(key: IdKey, version: number): number {
    const row = this.count;
    this.ensure(row + 1);
    this.count = row + 1;
    this.created[row] = version;
    this.deleted[row] = 0;
    const old = this.index.get(key);
    this.prev[row] = old === undefined ? -1 : old < 0 ? ~old : old;
    this.index.set(key, row);
    this.dirtySegments.add(row >>> SEGMENT_BITS);
    return row;
  }

  isVisible(row: number, version: number): boolean {
    if (row >= this.count || this.created[row] > version) return false;
    const d = this.deleted[row];
    return d === 0 || d > version;
  }

  /** The row of `key` that a reader at `version` sees, if any. */
  lookup(key: IdKey, version: number): number | undefined {
    let row = this.index.get(key);
    if (row === undefined) return undefined;
    if (row < 0) row = ~row;
    // The writer sees every row: only the deleted stamp matters (one array read, not two).
    else if (version === WRITER_VERSION) return row < this.count && this.deleted[row] === 0 ? row : undefined;
    while (row >= 0 && this.created[row] > version) row = this.prev[row];
    return row >= 0 && this.isVisible(row, version) ? row : undefined;
  }

  /** Marks a row deleted at `version` in the table and in the id index. */
  markDeleted(key: IdKey, row: number, version: number): void {
    this.deleted[row] = version;
    if (this.index.get(key) === row) this.index.set(key, ~row);
    this.dirtySegments.add(row >>> SEGMENT_BITS);
  }

  /** Undoes markDeleted (transaction abort). */
  unmarkDeleted(key: IdKey, row: number): void {
    this.deleted[row] = 0;
    if (this.index.get(key) === ~row) this.index.set(key, row);
  }

  /** Live rows at `version`, ascending. */
  rowsAt(version: number): Uint32Array {
    const out = new Uint32Array(this.count);
    let n = 0;
    for (let r = 0; r < this.count; r++) if (this.isVisible(r, version)) out[n++] = r;
    return out.subarray(0, n);
  }
}
