/**
 * Attribute columns, indexed by dense row id (vertex row or edge id). Fixed-width types live in typed
 * arrays; everything else in plain arrays. Values arriving here are already validated and canonical
 * (see engine/value-check.ts).
 *
 * Multi-version reads: a write to an existing row records the previous value in `history` tagged with
 * the writing version, so a reader pinned at an older version still sees the old value. Entries are
 * dropped once no reader can need them (see Column.trimHistory).
 */
import type { AttrType } from '../catalog/types.js';
import type { Value } from '../catalog/value.js';

interface HistoryEntry {
  /** The version whose write replaced `old`. */
  version: number;
  old: Value;
}

function grownLength(current: number, needed: number): number {
  let n = Math.max(current, 16);
  while (n < needed) n *= 2;
  return n;
}

export abstract class Column {
  history: Map<number, HistoryEntry[]> | null = null;

  constructor(readonly type: AttrType) {}

  abstract get(row: number): Value;
  protected abstract put(row: number, v: Value): void;
  /** Makes room for rows [0, n). */
  abstract ensure(n: number): void;
  /** The typed array with numeric values, if this column has one. */
  numbers(): Float64Array | Uint8Array | null {
    return null;
  }
  /** True when some row holds a value the numeric array cannot hold exactly. */
  hasInexact(): boolean {
    return false;
  }

  /** Writes a new row's value: nobody can have seen the row yet, so no history. */
  init(row: number, v: Value): void {
    this.put(row, v);
  }

  /** Overwrites an existing row's value at `version`, remembering the old value for older readers. */
  update(row: number, v: Value, version: number): HistoryEntry {
    const entry: HistoryEntry = { version, old: this.get(row) };
    this.history ??= new Map();
    const list = this.history.get(row);
    if (list) list.push(entry);
    else this.history.set(row, [entry]);
    this.put(row, v);
    return entry;
  }

  /** Undoes `update` (transaction abort): restores the old value and forgets the entry. */
  revert(row: number, entry: HistoryEntry): void {
    this.put(row, entry.old);
    const list = this.history?.get(row);
    if (!list) return;
    const i = list.lastIndexOf(entry);
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

/** INT, UINT, FLOAT, DOUBLE, DATETIME: float64 values; INT/UINT beyond ±2^53 kept exact on the side. */
export class NumberColumn extends Column {
  data: Float64Array = new Float64Array(16);
  /** Exact values of rows whose `data` slot is NaN (only for INT/UINT beyond ±2^53). */
  big: Map<number, bigint> | null = null;

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
      this.data[row] = NaN;
    } else {
      if (this.big !== null) this.big.delete(row);
      this.data[row] = v as number;
    }
  }
  ensure(n: number): void {
    if (n > this.data.length) {
      const d = new Float64Array(grownLength(this.data.length, n));
      d.set(this.data);
      this.data = d;
    }
  }
  override numbers(): Float64Array {
    return this.data;
  }
  override hasInexact(): boolean {
    return this.big !== null && this.big.size > 0;
  }
}

export class BoolColumn extends Column {
  data: Uint8Array = new Uint8Array(16);
  get(row: number): Value {
    return this.data[row] === 1;
  }
  protected put(row: number, v: Value): void {
    this.data[row] = v === true ? 1 : 0;
  }
  ensure(n: number): void {
    if (n > this.data.length) {
      const d = new Uint8Array(grownLength(this.data.length, n));
      d.set(this.data);
      this.data = d;
    }
  }
  override numbers(): Uint8Array {
    return this.data;
  }
}

/** STRING COMPRESS: dictionary codes in a Uint32Array. */
export class DictStringColumn extends Column {
  codes: Uint32Array = new Uint32Array(16);
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
  }
  ensure(n: number): void {
    if (n > this.codes.length) {
      const d = new Uint32Array(grownLength(this.codes.length, n));
      d.set(this.codes);
      this.codes = d;
    }
  }
}

/** STRING, FIXED_BINARY, collections, tuples, vertex references. */
export class ValueColumn extends Column {
  data: Value[] = [];
  get(row: number): Value {
    return this.data[row];
  }
  protected put(row: number, v: Value): void {
    this.data[row] = v;
  }
  ensure(n: number): void {
    while (this.data.length < n) this.data.push('');
  }
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
