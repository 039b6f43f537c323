/**
 * Accumulators: one small class per kind. `add` is GSQL's `+=`, `set` is `=`, `value()` the value
 * the accumulator reads as in an expression. Nested accumulators (MapAccum<K, SumAccum<INT>>,
 * GroupByAccum) create their inner accumulators through the same factory.
 */
import type { AccumT, QType } from './types.js';
import {
  compareValues,
  intArith,
  keyOf,
  QueryRuntimeError,
  toNumber,
  TupleVal,
  valuesEqual,
} from './values.js';

export interface Accum {
  add(v: unknown): void;
  set(v: unknown): void;
  value(): unknown;
  /** A fresh accumulator of the same type and initial state. */
  fresh(): Accum;
}

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;
const FLOAT_MAX = 3.4028234663852886e38;

/** The zero of a type: what SumAccum starts from and what a declared variable holds. */
export function zeroOf(t: QType): unknown {
  switch (t.kind) {
    case 'INT':
    case 'UINT':
    case 'FLOAT':
    case 'DOUBLE':
    case 'DATETIME':
      return 0;
    case 'STRING':
      return '';
    case 'BOOL':
      return false;
    case 'LIST':
    case 'BAG':
    case 'SET':
      return [];
    case 'MAP':
      return new Map();
    default:
      return null;
  }
}

function extreme(t: QType, max: boolean): unknown {
  switch (t.kind) {
    case 'INT':
      return max ? INT64_MAX : INT64_MIN;
    case 'UINT':
      return max ? UINT64_MAX : 0;
    case 'FLOAT':
      return max ? FLOAT_MAX : -FLOAT_MAX;
    case 'DOUBLE':
      return max ? Number.MAX_VALUE : -Number.MAX_VALUE;
    case 'STRING':
      return '';
    default:
      return null;
  }
}

/** SumAccum<INT|UINT>: exact 64-bit sums. */
class SumIntAccum implements Accum {
  private v: number | bigint = 0;
  add(x: unknown): void {
    const y = typeof x === 'number' ? Math.trunc(x) : (x as bigint);
    if (typeof this.v === 'number' && typeof y === 'number') {
      const r = this.v + y;
      if (Number.isSafeInteger(r)) {
        this.v = r;
        return;
      }
    }
    this.v = intArith('+', this.v, y);
  }
  set(x: unknown): void {
    this.v = typeof x === 'number' ? Math.trunc(x) : (x as bigint);
  }
  value(): unknown {
    return this.v;
  }
  fresh(): Accum {
    return new SumIntAccum();
  }
}

/** SumAccum<FLOAT|DOUBLE>; FLOAT is single precision, as in TigerGraph. */
class SumFloatAccum implements Accum {
  private v = 0;
  constructor(private readonly single: boolean) {}
  add(x: unknown): void {
    const r = this.v + (typeof x === 'number' ? x : toNumber(x));
    this.v = this.single ? Math.fround(r) : r;
  }
  set(x: unknown): void {
    const r = typeof x === 'number' ? x : toNumber(x);
    this.v = this.single ? Math.fround(r) : r;
  }
  value(): unknown {
    return this.v;
  }
  fresh(): Accum {
    return new SumFloatAccum(this.single);
  }
}

class SumStringAccum implements Accum {
  private v = '';
  add(x: unknown): void {
    this.v += String(x);
  }
  set(x: unknown): void {
    this.v = String(x);
  }
  value(): unknown {
    return this.v;
  }
  fresh(): Accum {
    return new SumStringAccum();
  }
}

class MinMaxAccum implements Accum {
  private v: unknown;
  constructor(
    private readonly t: AccumT,
    private readonly max: boolean,
  ) {
    this.v = extreme(t.elem, !max);
  }
  add(x: unknown): void {
    if (this.v === null || this.v === undefined) {
      this.v = x;
      return;
    }
    const c = compareValues(x, this.v);
    if (this.max ? c > 0 : c < 0) this.v = x;
  }
  set(x: unknown): void {
    this.v = x;
  }
  value(): unknown {
    return this.v;
  }
  fresh(): Accum {
    return new MinMaxAccum(this.t, this.max);
  }
}

class AvgAccum implements Accum {
  private sum = 0;
  private count = 0;
  add(x: unknown): void {
    this.sum += toNumber(x);
    this.count++;
  }
  set(x: unknown): void {
    this.sum = toNumber(x);
    this.count = 1;
  }
  value(): unknown {
    return this.count === 0 ? 0 : this.sum / this.count;
  }
  fresh(): Accum {
    return new AvgAccum();
  }
}

class BoolAccum implements Accum {
  private v: boolean;
  constructor(private readonly and: boolean) {
    this.v = and;
  }
  add(x: unknown): void {
    this.v = this.and ? this.v && x === true : this.v || x === true;
  }
  set(x: unknown): void {
    this.v = x === true;
  }
  value(): unknown {
    return this.v;
  }
  fresh(): Accum {
    return new BoolAccum(this.and);
  }
}

function isCollection(t: QType): boolean {
  return t.kind === 'LIST' || t.kind === 'SET' || t.kind === 'BAG';
}

/** ListAccum and BagAccum: `+=` appends an element or, given a list, all its elements. */
export class ListAccum implements Accum {
  items: unknown[] = [];
  constructor(readonly t: AccumT) {}
  add(x: unknown): void {
    if (Array.isArray(x) && !isCollection(this.t.elem)) this.items.push(...x);
    else this.items.push(x);
  }
  set(x: unknown): void {
    this.items = Array.isArray(x) ? [...x] : [x];
  }
  value(): unknown {
    return this.items;
  }
  fresh(): Accum {
    return new ListAccum(this.t);
  }
}

export class SetAccum implements Accum {
  readonly items = new Map<unknown, unknown>();
  constructor(readonly t: AccumT) {}
  add(x: unknown): void {
    if (Array.isArray(x) && !isCollection(this.t.elem)) for (const e of x) this.items.set(keyOf(e), e);
    else this.items.set(keyOf(x), x);
  }
  set(x: unknown): void {
    this.items.clear();
    this.add(x);
  }
  /** Removes one element (SetAccum.remove). */
  remove(x: unknown): void {
    this.items.delete(keyOf(x));
  }
  value(): unknown {
    return Array.from(this.items.values());
  }
  fresh(): Accum {
    return new SetAccum(this.t);
  }
}

/** MapAccum: values are plain values or nested accumulators; `+=` with (k -> v) accumulates into k. */
export class MapAccum implements Accum {
  readonly entries = new Map<unknown, { key: unknown; acc: Accum }>();
  constructor(readonly t: AccumT) {}
  add(x: unknown): void {
    if (x instanceof MapAccum) {
      for (const { key, acc } of x.entries.values()) this.put(key, acc.value());
      return;
    }
    if (x instanceof Map) {
      for (const [k, v] of x) this.put(k, v);
      return;
    }
    const [k, v] = x as [unknown, unknown];
    this.put(k, v);
  }
  private put(k: unknown, v: unknown): void {
    this.slot(k).add(v);
  }
  /** The accumulator of key k, created with the initial value when absent. */
  slot(k: unknown): Accum {
    const key = keyOf(k);
    let e = this.entries.get(key);
    if (!e) {
      e = { key: k, acc: valueAccum(this.t.elem) };
      this.entries.set(key, e);
    }
    return e.acc;
  }
  get(k: unknown): unknown {
    const e = this.entries.get(keyOf(k));
    return e ? e.acc.value() : valueAccum(this.t.elem).value();
  }
  has(k: unknown): boolean {
    return this.entries.has(keyOf(k));
  }
  set(x: unknown): void {
    this.entries.clear();
    this.add(x);
  }
  value(): unknown {
    return this;
  }
  fresh(): Accum {
    return new MapAccum(this.t);
  }
}

/** A plain value inside a MapAccum behaves like an accumulator whose `+=` is the type's `+`. */
function valueAccum(t: QType): Accum {
  if (t.kind === 'ACCUM') return makeAccum(t);
  if (
    t.kind === 'INT' ||
    t.kind === 'UINT' ||
    t.kind === 'FLOAT' ||
    t.kind === 'DOUBLE' ||
    t.kind === 'STRING'
  ) {
    return makeAccum({ kind: 'ACCUM', accum: 'SumAccum', elem: t });
  }
  return new OverwriteAccum(t);
}

/** Values without a `+` (tuples, vertices, booleans): `+=` replaces. */
class OverwriteAccum implements Accum {
  private v: unknown;
  constructor(private readonly t: QType) {
    this.v = zeroOf(t);
  }
  add(x: unknown): void {
    this.v = x;
  }
  set(x: unknown): void {
    this.v = x;
  }
  value(): unknown {
    return this.v;
  }
  fresh(): Accum {
    return new OverwriteAccum(this.t);
  }
}

/** HeapAccum: keeps the `capacity` best tuples in the declared order. */
export class HeapAccum implements Accum {
  items: TupleVal[] = [];
  constructor(
    readonly t: AccumT,
    public capacity: number,
  ) {}
  private cmp = (a: TupleVal, b: TupleVal): number => {
    for (const o of this.t.heapOrder ?? []) {
      const c = compareValues(a.values[o.field], b.values[o.field]);
      if (c !== 0) return o.descending ? -c : c;
    }
    return 0;
  };
  add(x: unknown): void {
    if (Array.isArray(x)) {
      for (const e of x) this.add(e);
      return;
    }
    const tup = x as TupleVal;
    // Insert after equals so ties keep arrival order.
    let i = this.items.length;
    while (i > 0 && this.cmp(this.items[i - 1], tup) > 0) i--;
    this.items.splice(i, 0, tup);
    if (this.items.length > this.capacity) this.items.length = this.capacity;
  }
  set(x: unknown): void {
    this.items = [];
    this.add(x);
  }
  top(): unknown {
    if (this.items.length === 0) throw new QueryRuntimeError('Runtime Error: top() of an empty HeapAccum.');
    return this.items[0];
  }
  pop(): unknown {
    if (this.items.length === 0) throw new QueryRuntimeError('Runtime Error: pop() of an empty HeapAccum.');
    return this.items.shift();
  }
  resize(n: number): void {
    this.capacity = n;
    if (this.items.length > n) this.items.length = n;
  }
  value(): unknown {
    return this.items;
  }
  fresh(): Accum {
    return new HeapAccum(this.t, this.capacity);
  }
}

/** GroupByAccum: a map from the key fields to one accumulator per accumulator field. */
export class GroupByAccum implements Accum {
  readonly groups = new Map<unknown, { keys: unknown[]; accs: Accum[] }>();
  constructor(readonly t: AccumT) {}
  add(x: unknown): void {
    const [keys, vals] = x as [unknown[], unknown[]];
    const k = keyOf(keys);
    let g = this.groups.get(k);
    if (!g) {
      g = { keys, accs: (this.t.groupAccums ?? []).map((a) => makeAccum(a.type)) };
      this.groups.set(k, g);
    }
    vals.forEach((v, i) => g.accs[i].add(v));
  }
  get(keys: unknown[]): { keys: unknown[]; accs: Accum[] } | undefined {
    return this.groups.get(keyOf(keys));
  }
  set(x: unknown): void {
    this.groups.clear();
    if (x instanceof GroupByAccum) for (const g of x.groups.values()) this.groups.set(keyOf(g.keys), g);
  }
  value(): unknown {
    return this;
  }
  fresh(): Accum {
    return new GroupByAccum(this.t);
  }
}

/** Creates an accumulator of a type in its initial state. */
export function makeAccum(t: AccumT, heapCapacity = Number.MAX_SAFE_INTEGER): Accum {
  switch (t.accum) {
    case 'SumAccum':
      if (t.elem.kind === 'STRING') return new SumStringAccum();
      if (t.elem.kind === 'FLOAT' || t.elem.kind === 'DOUBLE')
        return new SumFloatAccum(t.elem.kind === 'FLOAT');
      return new SumIntAccum();
    case 'MinAccum':
      return new MinMaxAccum(t, false);
    case 'MaxAccum':
      return new MinMaxAccum(t, true);
    case 'AvgAccum':
      return new AvgAccum();
    case 'OrAccum':
      return new BoolAccum(false);
    case 'AndAccum':
      return new BoolAccum(true);
    case 'ListAccum':
    case 'BagAccum':
      return new ListAccum(t);
    case 'SetAccum':
      return new SetAccum(t);
    case 'MapAccum':
      return new MapAccum(t);
    case 'HeapAccum':
      return new HeapAccum(t, heapCapacity);
    case 'GroupByAccum':
      return new GroupByAccum(t);
  }
}

/** Whether a collection value (accumulator or list) contains x. */
export function collectionContains(coll: unknown, x: unknown): boolean {
  if (coll instanceof SetAccum) return coll.items.has(keyOf(x));
  if (coll instanceof MapAccum) return coll.has(x);
  const items = collectionItems(coll);
  return items.some((e) => valuesEqual(e, x));
}

/** The elements of a collection-like value, in order. */
export function collectionItems(coll: unknown): unknown[] {
  if (Array.isArray(coll)) return coll;
  if (coll instanceof SetAccum) return Array.from(coll.items.values());
  if (coll instanceof ListAccum) return coll.items;
  if (coll instanceof HeapAccum) return coll.items;
  if (coll instanceof MapAccum) return Array.from(coll.entries.values(), (e) => e.key);
  if (coll instanceof Map) return Array.from(coll.keys());
  return [];
}
