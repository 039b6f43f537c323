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
 *
 * The stamps live in shared memory (shared.ts), read by worker threads as they are: `created` and
 * `prev` are written only for new rows (past every pinned reader's count) and `deleted` only with a
 * version newer than every pinned reader's, so no write changes what a pinned reader sees. Growing
 * replaces the three arrays together (`gen` counts it).
 */
import type { VertexType } from '../catalog/types.js';
import { type Column, makeColumn, newUid, ValueColumn } from './columns.js';
import { type Counter, newCounter } from './counter.js';
import { IdIndex } from './id-index.js';
import { grownShared, sharedI32, sharedU32 } from './shared.js';

export type IdKey = number | bigint | string;

export const SEGMENT_BITS = 16;
export const SEGMENT_SIZE = 1 << SEGMENT_BITS;

/** The version a writer reads at: it sees everything, staged writes included. */
export const WRITER_VERSION = 0xffffffff;

export class VertexTable {
  readonly uid = newUid();
  readonly idColumn: Column;
  readonly columns = new Map<string, Column>();
  /** Primary id -> newest row (~row when that row was deleted). */
  readonly index = new IdIndex();
  created: Uint32Array = sharedU32(16);
  deleted: Uint32Array = sharedU32(16);
  prev: Int32Array = sharedI32(16);
  /** Replacements of the three stamp arrays (for workers' mirrors). */
  gen = 0;
  /** Rows allocated so far (live or not). */
  count = 0;
  /**
   * Times an aborted transaction took back rows it had allocated (their numbers go to other ids
   * next): rows remembered before (engine/row-cache.ts) are forgotten.
   */
  rowsTakenBack = 0;
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
      this.created = grownShared(this.created, n);
      this.deleted = grownShared(this.deleted, n);
      this.prev = grownShared(this.prev, n);
      this.gen++;
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
    this.index.setAfterGet(key, row, old);
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
    if (row < this.count && this.created[row] <= version)
      return this.isVisible(row, version) ? row : undefined;
    if (this.mirrored) return this.mirroredLookup(key, row, version);
    while (row >= 0 && this.created[row] > version) row = this.prev[row];
    return row >= 0 && this.isVisible(row, version) ? row : undefined;
  }

  /**
   * Set on a worker's mirror of the table (store/mirror.ts): the writer keeps writing the shared
   * index and stamps while it reads, so an entry may name a row newer than the mirror's arrays.
   */
  mirrored = false;

  /**
   * A lookup in a mirror whose index entry names a row newer than the reader's version (the id was
   * deleted and inserted again since): follows the chain of older rows while the mirror's arrays
   * hold them, checking the key of the row found (an aborted write may have reused a row), and
   * otherwise searches the rows the version can see.
   */
  private mirroredLookup(key: IdKey, row: number, version: number): number | undefined {
    while (row >= 0 && row < this.created.length && this.created[row] > version) row = this.prev[row];
    if (row >= 0 && row < this.count && this.isVisible(row, version) && this.hasKey(row, key)) return row;
    for (let r = 0; r < this.count; r++) if (this.isVisible(r, version) && this.hasKey(r, key)) return r;
    return undefined;
  }

  private hasKey(row: number, key: IdKey): boolean {
    const v = this.idColumn.get(row);
    return v === key || (typeof v !== typeof key && String(v) === String(key));
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

  /**
   * Folds what was written since the last rebuild into the shared bases: the value columns' heaps
   * and the id index's keyed part. What any reader sees does not change.
   */
  rebase(): void {
    for (const c of [this.idColumn, ...this.columns.values()])
      if (c instanceof ValueColumn) c.rebase(this.count);
    this.index.rebase();
  }

  /** The last rowsAt answer for a reader's version (never the writer's: its view still changes). */
  private liveRows: { version: number; rows: Uint32Array } | undefined;

  /**
   * Live rows at `version`, ascending; not to be written. What a pinned reader sees never changes
   * (see the stamps above), so the answer for the last version asked is kept: every query of a
   * snapshot that starts from a whole type (`{T.*}`) reads it.
   */
  rowsAt(version: number): Uint32Array {
    const last = this.liveRows;
    if (last !== undefined && last.version === version) return last.rows;
    const count = this.count;
    const created = this.created;
    const deleted = this.deleted;
    const out = new Uint32Array(count);
    let n = 0;
    for (let r = 0; r < count; r++) {
      const d = deleted[r];
      if (created[r] <= version && (d === 0 || d > version)) out[n++] = r;
    }
    const rows = out.subarray(0, n);
    if (version !== WRITER_VERSION) this.liveRows = { version, rows };
    return rows;
  }
}
