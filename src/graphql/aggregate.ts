/**
 * Aggregates (`<V>_aggregate`, `<edge field>_aggregate`): count, sum, avg, min and max of the
 * attributes a selection names, and degree statistics per edge field, computed in one pass over
 * the items and returned as an object whose leaves are JSON text (renderValues writes it). Integer
 * sums are exact (bigint past 2^53); an empty set has null sum, avg, min and max.
 */
import type { Attribute, Catalog } from '../catalog/types.js';
import type { Value } from '../catalog/value.js';
import type { AggregateSelection, ValueSelection } from './plan.js';
import { valueWriter } from './scalars.js';

/** A computed object, keyed by response key: JSON text leaves, nested objects, or null. */
export interface Computed {
  [name: string]: string | Computed | null;
}

/** Writes `obj` as its selection asks (`__typename` and other constants included). */
export function renderValues(fields: readonly ValueSelection[], obj: Computed | null): string {
  if (obj === null) return 'null';
  let s = '{';
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    const v = f.json ?? obj[f.key];
    s += `${i > 0 ? ',' : ''}${JSON.stringify(f.key)}:`;
    if (v === undefined || v === null) s += 'null';
    else if (typeof v === 'string') s += v;
    else s += renderValues(f.fields ?? [], v);
  }
  return `${s}}`;
}

type Num = number | bigint;

function add(a: Num, b: Value): Num {
  if (typeof a === 'number' && typeof b === 'number') {
    const s = a + b;
    if (Number.isSafeInteger(s) || !Number.isInteger(b)) return s;
    return BigInt(a) + BigInt(b);
  }
  return BigInt(a) + BigInt(b as Num);
}

function less(a: Value, b: Value): boolean {
  return (a as Num | string) < (b as Num | string);
}

/** Reads attribute `name` of item i. */
export type ItemReader = (name: string) => (i: number) => Value;

/** What an aggregate reads: its items, their attributes, and (for vertices) their degrees. */
export interface AggregateInput {
  n: number;
  attributes: readonly Attribute[];
  read: ItemReader;
  /** The degree of item i by an edge field. */
  degree?: (field: string) => (i: number) => number;
  catalog: Catalog;
}

function statsOf(sel: ValueSelection, input: AggregateInput, kind: string): Computed {
  const out: Computed = {};
  for (const { key, name, json } of sel.fields ?? []) {
    if (json !== undefined) continue;
    const a = input.attributes.find((x) => x.name === name) as Attribute;
    const read = input.read(name);
    if (input.n === 0) {
      out[key] = null;
      continue;
    }
    if (kind === 'sum' || kind === 'avg') {
      const float = a.type.kind === 'FLOAT' || a.type.kind === 'DOUBLE';
      let sum: Num = 0;
      for (let i = 0; i < input.n; i++)
        sum = float ? (sum as number) + (read(i) as number) : add(sum, read(i));
      if (kind === 'avg') out[key] = String(Number(sum) / input.n);
      else out[key] = float ? (Number.isFinite(sum) ? String(sum) : 'null') : String(sum);
      continue;
    }
    let best = read(0);
    for (let i = 1; i < input.n; i++) {
      const v = read(i);
      if (kind === 'min' ? less(v, best) : less(best, v)) best = v;
    }
    out[key] = valueWriter(a.type, input.catalog)(best);
  }
  return out;
}

function degreeStats(sel: ValueSelection, input: AggregateInput): Computed {
  const out: Computed = {};
  for (const field of sel.fields ?? []) {
    if (field.json !== undefined || !input.degree) continue;
    const deg = input.degree(field.name);
    let sum = 0;
    let min = Infinity;
    let max = -Infinity;
    for (let i = 0; i < input.n; i++) {
      const d = deg(i);
      sum += d;
      if (d < min) min = d;
      if (d > max) max = d;
    }
    const empty = input.n === 0;
    const stats: Computed = {
      sum: String(sum),
      min: empty ? null : String(min),
      max: empty ? null : String(max),
      avg: empty ? null : String(sum / input.n),
    };
    const inner: Computed = {};
    for (const g of field.fields ?? []) if (g.json === undefined) inner[g.key] = stats[g.name];
    out[field.key] = inner;
  }
  return out;
}

/** Computes what the selection asks of the items. */
export function aggregate(sel: AggregateSelection, input: AggregateInput): Computed {
  const out: Computed = {};
  for (const f of sel.fields) {
    if (f.json !== undefined) continue;
    if (f.name === 'count') out[f.key] = String(input.n);
    else if (f.name === 'degree') out[f.key] = degreeStats(f, input);
    else out[f.key] = statsOf(f, input, f.name);
  }
  return out;
}
