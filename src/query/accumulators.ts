/**
 * Accumulators: one small class per kind. `add` is GSQL's `+=`, `set` is `=`, `value()` the value
 * the accumulator reads as in an expression. Nested accumulators (MapAccum<K, SumAccum<INT>>,
 * GroupByAccum) create their inner accumulators through the same factory.
 */
import {
  AvgAccum,
  BitwiseAccum,
  BoolAccum,
  MinMaxAccum,
  OverwriteAccum,
  SumFloatAccum,
  SumIntAccum,
  SumStringAccum,
  zeroOf,
} from './accum-scalar.js';
import { ArrayAccum } from './accum-array.js';
import type { AccumT, QType, TupleT } from './types.js';
import { compareValues, keyOf, TupleVal, valuesEqual } from './values.js';

export interface Accum {
  add(v: unknown): void;
  set(v: unknown): void;
  value(): unknown;
  /** A fresh accumulator of the same type and initial state. */
  fresh(): Accum;
}
function isCollection(t: QType): boolean {
  return t.kind === 'LIST' || t.kind === 'SET' || t.kind === 'BAG';
}

/**
 * Several elements added at once to a collection accumulator whose elements are themselves
 * collections (`ListAccum<ListAccum<INT>> += [[1, 2], [3]]` adds two lists).
 */
export class Spread {
  constructor(readonly items: unknown[]) {}
}

/** ListAccum and BagAccum: `+=` appends an element or, given a list, all its elements. */
export class ListAccum implements Accum {
  items: unknown[] = [];
  constructor(readonly t: AccumT) {}
  add(x: unknown): void {
    if (x instanceof Spread) this.items.push(...x.items);
    else if (Array.isArray(x) && !isCollection(this.t.elem)) this.items.push(...x);
    else this.items.push(x);
  }
  /** Removes the first element equal to x (BagAccum.remove), or every one (removeAll). */
  remove(x: unknown, all: boolean): void {
    const k = keyOf(x);
    if (all) this.items = this.items.filter((y) => keyOf(y) !== k);
    else {
      const i = this.items.findIndex((y) => keyOf(y) === k);
      if (i >= 0) this.items.splice(i, 1);
    }
  }
  /** Replaces the element at index i; false when i is out of range (ListAccum.update). */
  update(i: number, x: unknown): boolean {
    if (!Number.isInteger(i) || i < 0 || i >= this.items.length) return false;
    this.items[i] = x;
    return true;
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
    if (x instanceof Spread) for (const e of x.items) this.items.set(keyOf(e), e);
    else if (Array.isArray(x) && !isCollection(this.t.elem)) for (const e of x) this.items.set(keyOf(e), e);
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

/**
 * A plain value inside a MapAccum behaves like an accumulator whose `+=` is the type's `+`; other
 * values (DATETIME among them, as TigerGraph documents since 2022) are overwritten by the latest.
 */
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
  /** top() and pop() of an empty heap give a tuple of default values, as TigerGraph does. */
  top(): unknown {
    return this.items.length === 0 ? this.emptyTuple() : this.items[0];
  }
  pop(): unknown {
    return this.items.shift() ?? this.emptyTuple();
  }
  private emptyTuple(): TupleVal {
    const tt = this.t.elem as TupleT;
    return new TupleVal(
      tt,
      tt.fields.map((f) => zeroOf(f.type)),
    );
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
    case 'BitwiseAndAccum':
      return new BitwiseAccum(true);
    case 'BitwiseOrAccum':
      return new BitwiseAccum(false);
    case 'ArrayAccum':
      // Sized where declared (see compile-decl); here an empty array of the cell type.
      return new ArrayAccum(() => makeAccum(t.elem as AccumT), []);
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
