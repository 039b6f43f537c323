/**
 * Attribute columns, indexed by dense row id (vertex row or edge id). Fixed-width types live in typed
 * arrays in shared memory (shared.ts); strings, collections, tuples and vertex references in a
 * shared value heap built at each rebuild (value-heap.ts) plus the values written since, kept as
 * JavaScript values. Values arriving here are already validated and canonical (engine/values.ts).
 *
 * Multi-version reads: a write to an existing row records the previous value in `history` tagged with
 * the writing version, so a reader pinned at an older version still sees the old value. Entries are
 * dropped once no reader can need them (see Column.trimHistory).
 *
 * Worker threads read the same arrays (store/mirror.ts). An overwrite of an array a running worker
 * task may read copies the array first (epochs.ts), so a worker's view never changes under it;
 * `gen` counts replacements of the arrays so that a worker's mirror knows when to take the new ones.
 */
import type { AttrType } from '../catalog/types.js';
import type { Value } from '../catalog/value.js';
import { epochs } from './epochs.js';
import { copyShared, grownShared, sharedF64, sharedU32, sharedU8 } from './shared.js';
import { HeapBuilder, ValueHeap } from './value-heap.js';

export interface HistoryEntry {
  /** The version whose write replaced `old`. */
  version: number;
  old: Value;
}

let nextUid = 1;
/** A process-wide identity for stored objects, by which workers' mirrors recognise them. */
export function newUid(): number {
  return nextUid++;
}

export abstract class Column {
  history: Map<number, HistoryEntry[]> | null = null;
  readonly uid = newUid();
  /** The epoch the shared arrays were created in (see epochs.ts). */
  born = epochs.current;
  /** How many times the shared arrays were replaced (grown, copied on write, rebuilt). */
  gen = 0;

  constructor(readonly type: AttrType) {}

  abstract get(row: number): Value;
  protected abstract put(row: number, v: Value): void;
  /** Makes room for rows [0, n). */
  abstract ensure(n: number): void;
  /** Copies the shared arrays whose values an overwrite changes (copy-on-write); false: none. */
  protected abstract copyArrays(): boolean;
  /** The typed array with numeric values, if this column has one. */
  numbers(): Float64Array | Uint8Array | null {
    return null;
  }
  /** True when some row holds a value the numeric array cannot hold exactly. */
  hasInexact(): boolean {
    return false;
  }

  /** Records that the shared arrays were replaced. */
  protected replaced(): void {
    this.born = epochs.current;
    this.gen++;
  }

  /** Before a value some pinned worker may read is overwritten: copy the arrays it is read from. */
  private beforeOverwrite(): void {
    if (epochs.exposed(this.born) && this.copyArrays()) this.replaced();
  }

  /** Writes a new row's value: nobody can have seen the row yet, so no history. */
  init(row: number, v: Value): void {
    this.put(row, v);
  }

  /** Overwrites an existing row's value at `version`, remembering the old value for older readers. */
  update(row: number, v: Value, version: number): HistoryEntry {
    this.beforeOverwrite();
    const entry: HistoryEntry = { version, old: this.get(row) };
    this.history ??= new Map();
    const list = this.history.get(row);
    if (list) list.push(entry);
    else this.history.set(row, [entry]);
    this.put(row, v);
    return entry;
  }

  /**
   * Undoes `update` (transaction abort): restores the old value and forgets the entry. Reverts of
   * one row's updates may come in any order (a transaction's own undo, then a settle's writes,
   * edge-block.ts): an entry with a later one still standing hands its old value to that one.
   */
  revert(row: number, entry: HistoryEntry): void {
    const list = this.history?.get(row);
    const i = list === undefined ? -1 : list.lastIndexOf(entry);
    if (list !== undefined && i >= 0 && i < list.length - 1) {
      list[i + 1].old = entry.old;
      list.splice(i, 1);
      return;
    }
    this.beforeOverwrite();
    this.put(row, entry.old);
    if (list === undefined) return;
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) this.history?.delete(row);
    if (this.history?.size === 0) this.history = null;
  }

  /** The value a reader pinned at `version` sees. */
  getAt(row: number, version: number): Value {
    const list = this.history?.get(row);
    if (list !== undefined) {
      for (const e of list) if (e.version > version) return e.old;
    }
    return this.get(row);
  }

  /** Sets rows [from, to) to `src`'s values of rows order[from..to) (a merge renumbering edges). */
  carry(src: Column, order: Uint32Array, from: number, to: number): void {
    for (let i = from; i < to; i++) this.put(i, src.get(order[i]));
  }

  /** Drops history no reader at `minVersion` or later can need. */
  trimHistory(minVersion: number): void {
    if (!this.history) return;
    for (const [row, list] of this.history) {
      let keep = 0;
      while (keep < list.length && list[keep].version <= minVersion) keep++;
      if (keep === list.length) this.history.delete(row);
      else if (keep > 0) list.splice(0, keep);
    }
    if (this.history.size === 0) this.history = null;
  }
}

/** A column whose values live in one shared typed array (`data`), grown and copied as a whole. */
abstract class TypedArrayColumn<A extends Float64Array | Uint8Array> extends Column {
  abstract data: A;
  ensure(n: number): void {
    const d = grownShared(this.data, n);
    if (d === this.data) return;
    this.data = d;
    this.replaced();
  }
  protected copyArrays(): boolean {
    this.data = copyShared(this.data);
    return true;
  }
  /** Replaces the values with loaded ones (a checkpoint). */
  load(data: A): void {
    this.data = data;
    this.replaced();
  }
  override numbers(): A {
    return this.data;
  }
}

/** INT, UINT, FLOAT, DOUBLE, DATETIME: float64 values; INT/UINT beyond ±2^53 kept exact on the side. */
export class NumberColumn extends TypedArrayColumn<Float64Array> {
  data: Float64Array = sharedF64(16);
  /** Exact values of rows whose `data` slot is NaN (only for INT/UINT beyond ±2^53). */
  big: Map<number, bigint> | null = null;
  /** Counts changes of `big` (a worker's mirror copies it whole when it changed: it is rare). */
  bigGen = 0;

  get(row: number): Value {
    const v = this.data[row];
    if (v !== v && this.big !== null) {
      const b = this.big.get(row);
      if (b !== undefined) return b;
    }
    return v;
  }
  protected put(row: number, v: Value): void {
    if (typeof v === 'bigint') {
      this.big ??= new Map();
      this.big.set(row, v);
      this.bigGen++;
      this.data[row] = NaN;
    } else {
      if (this.big !== null && this.big.delete(row)) this.bigGen++;
      this.data[row] = v as number;
    }
  }
  /** `init` of a number (no bigint), without it passing as a boxed Value. */
  initNumber(row: number, v: number): void {
    if (this.big !== null && this.big.delete(row)) this.bigGen++;
    this.data[row] = v;
  }
  override hasInexact(): boolean {
    return this.big !== null && this.big.size > 0;
  }
  override carry(src: Column, order: Uint32Array, from: number, to: number): void {
    if (!(src instanceof NumberColumn) || src.big !== null) return super.carry(src, order, from, to);
    const d = this.data;
    const s = src.data;
    for (let i = from; i < to; i++) d[i] = s[order[i]];
  }
}

export class BoolColumn extends TypedArrayColumn<Uint8Array> {
  data: Uint8Array = sharedU8(16);
  get(row: number): Value {
    return this.data[row] === 1;
  }
  protected put(row: number, v: Value): void {
    this.data[row] = v === true ? 1 : 0;
  }
  override carry(src: Column, order: Uint32Array, from: number, to: number): void {
    if (!(src instanceof BoolColumn)) return super.carry(src, order, from, to);
    const d = this.data;
    const s = src.data;
    for (let i = from; i < to; i++) d[i] = s[order[i]];
  }
}

/** STRING COMPRESS: dictionary codes in a Uint32Array; the dictionary only grows. */
export class DictStringColumn extends Column {
  codes: Uint32Array = sharedU32(16);
  dict: string[] = [''];
  private codeOf = new Map<string, number>([['', 0]]);

  get(row: number): Value {
    return this.dict[this.codes[row]];
  }
  protected put(row: number, v: Value): void {
    const s = v as string;
    let c = this.codeOf.get(s);
    if (c === undefined) {
      c = this.dict.length;
      this.dict.push(s);
      this.codeOf.set(s, c);
    }
    this.codes[row] = c;
  }
  /** Replaces the contents with a loaded dictionary and codes. */
  load(dict: string[], codes: Uint32Array): void {
    this.dict = dict;
    this.codes = codes;
    this.codeOf = new Map(dict.map((s, i) => [s, i]));
    this.replaced();
  }
  ensure(n: number): void {
    const d = grownShared(this.codes, n);
    if (d === this.codes) return;
    this.codes = d;
    this.replaced();
  }
  protected copyArrays(): boolean {
    this.codes = copyShared(this.codes);
    return true;
  }
}

/**
 * STRING, FIXED_BINARY, collections, tuples, vertex references. Rows below `heap.rows` are read from
 * the shared heap the last rebuild wrote, unless overwritten since (`over`); later rows are in
 * `tail`. Workers mirror `over` and `tail` from the overwrite log and the tail rows they have not
 * seen (store/mirror.ts); a rebuild folds both into a new heap.
 */
export class ValueColumn extends Column {
  heap: ValueHeap | null = null;
  readonly over = new Map<number, Value>();
  tail: Value[] = [];
  /** Overwrites since the heap was built, in order: rows, values and versions. */
  readonly logRows: number[] = [];
  readonly logValues: Value[] = [];
  readonly logVersions: number[] = [];
  /** A worker's mirror: it replays the main thread's log and keeps none of its own. */
  mirrored = false;

  /** Rows read from the heap. */
  get base(): number {
    return this.heap === null ? 0 : this.heap.rows;
  }

  get(row: number): Value {
    const b = this.base;
    if (row >= b) return this.tail[row - b];
    if (this.over.size > 0) {
      const v = this.over.get(row);
      if (v !== undefined) return v;
    }
    return (this.heap as ValueHeap).get(row);
  }
  protected put(row: number, v: Value): void {
    const b = this.base;
    if (row >= b) this.tail[row - b] = v;
    else this.over.set(row, v);
  }
  override update(row: number, v: Value, version: number): HistoryEntry {
    const e = super.update(row, v, version);
    this.logged(row, v, version);
    return e;
  }
  override revert(row: number, entry: HistoryEntry): void {
    super.revert(row, entry);
    this.logged(row, entry.old, entry.version);
  }
  private logged(row: number, v: Value, version: number): void {
    if (this.mirrored) return;
    this.logRows.push(row);
    this.logValues.push(v);
    this.logVersions.push(version);
  }
  ensure(n: number): void {
    const b = this.base;
    while (b + this.tail.length < n) this.tail.push('');
  }
  protected copyArrays(): boolean {
    // The heap never changes; overwrites go to `over`, which workers mirror from the log.
    return false;
  }

  /** Folds every value of rows [0, n) into a new heap (the rebuild; a checkpoint's load). */
  rebase(n: number): void {
    const p = this.beginRebase(n);
    if (!p) return;
    p.builder.step(n);
    this.finishRebase(p);
  }

  /** Rows written since the heap was built: overwrites below it and rows past it. */
  get overlay(): number {
    return this.over.size + this.tail.length;
  }

  /**
   * Starts folding rows [0, n) into a new heap; `builder` encodes them from the current values, a
   * step at a time, while writes go on (the background merge). undefined: nothing to fold.
   */
  beginRebase(n: number): PendingHeap | undefined {
    if (this.over.size === 0 && n <= this.base) return undefined;
    const old = this.heap;
    const builder = new HeapBuilder(
      n,
      (r) => this.get(r),
      old === null ? undefined : { heap: old, changed: (r) => this.over.has(r) },
    );
    return { column: this, builder, heap: old, logFrom: this.logRows.length };
  }

  /**
   * Installs a built heap (writes quiesced): rows overwritten since `beginRebase` stay overlaid
   * with their current values, and their log entries stay for workers' mirrors. Dropped when the
   * heap was replaced meanwhile (a rebuild, a checkpoint's load).
   */
  finishRebase(p: PendingHeap): void {
    if (this.heap !== p.heap) return;
    // The rows the slices left (all of them for the rebuild's rebase).
    p.builder.step(Infinity);
    const n = p.builder.n;
    const over = new Map<number, Value>();
    for (let i = p.logFrom; i < this.logRows.length; i++) {
      const r = this.logRows[i];
      if (r < n) over.set(r, this.get(r));
    }
    const rest: Value[] = [];
    for (let r = n; r < this.base + this.tail.length; r++) rest.push(this.get(r));
    this.heap = p.builder.finish();
    this.over.clear();
    for (const [r, v] of over) this.over.set(r, v);
    this.tail = rest;
    // The overwrites made since the start stay logged, at the front.
    this.logRows.splice(0, p.logFrom);
    this.logValues.splice(0, p.logFrom);
    this.logVersions.splice(0, p.logFrom);
    this.replaced();
  }

  /** Takes a loaded heap as rows [0, heap.rows) (a checkpoint). */
  loadHeap(heap: ValueHeap): void {
    this.heap = heap;
    this.over.clear();
    this.tail = [];
    this.replaced();
  }
}

/** A value column's heap being rebuilt (ValueColumn.beginRebase). */
export interface PendingHeap {
  column: ValueColumn;
  builder: HeapBuilder;
  /** The heap it replaces. */
  heap: ValueHeap | null;
  /** Where the overwrites made after the start begin in the column's log. */
  logFrom: number;
}

export function makeColumn(type: AttrType): Column {
  switch (type.kind) {
    case 'INT':
    case 'UINT':
    case 'FLOAT':
    case 'DOUBLE':
    case 'DATETIME':
      return new NumberColumn(type);
    case 'BOOL':
      return new BoolColumn(type);
    case 'STRING':
      return type.compress ? new DictStringColumn(type) : new ValueColumn(type);
    default:
      return new ValueColumn(type);
  }
}
