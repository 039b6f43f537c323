/**
 * Sorting and pagination. `order_by` is published as a list of `<T>OrderBy` objects, so both
 * TigerGraph's single object `{age: desc}` and the list `[{age: desc}, {name: asc}]` validate
 * (GraphQL coerces a single value into a one-item list), literally and as variables. Within one
 * object the keys sort in the order the client wrote them: graphql-js coerces input objects in the
 * type's field order, so the order is read from the query text or the raw variables.
 */
import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  Kind,
  type GraphQLInputFieldConfigMap,
  type ValueNode,
} from 'graphql';
import type { Attribute } from '../catalog/types.js';
import type { Value } from '../catalog/value.js';
import { GraphQLRequestError } from './filter.js';
import { isSortable } from './scalars.js';

export const OrderDirection = new GraphQLEnumType({
  name: 'OrderDirection',
  values: { asc: { value: 'asc' }, desc: { value: 'desc' } },
});

/**
 * The `<name>` order input type over the sortable attributes (and `_id` for a vertex type), or
 * undefined when there is nothing to sort by.
 */
export function orderType(
  name: string,
  attributes: readonly Attribute[],
  withId: boolean,
): GraphQLInputObjectType | undefined {
  const fields: GraphQLInputFieldConfigMap = {};
  if (withId) fields._id = { type: OrderDirection };
  for (const a of attributes) if (isSortable(a.type)) fields[a.name] = { type: OrderDirection };
  if (Object.keys(fields).length === 0) return undefined;
  return new GraphQLInputObjectType({ name, fields });
}

export interface SortKey {
  attribute: string;
  desc: boolean;
}

type Obj = Record<string, unknown>;

/** Keys of one written order object: from the literal, or from the raw variable value. */
function writtenKeys(node: ValueNode | undefined, raw: Record<string, unknown>): string[][] {
  if (!node) return [];
  if (node.kind === Kind.OBJECT) return [node.fields.map((f) => f.name.value)];
  if (node.kind === Kind.LIST) return node.values.flatMap((v) => writtenKeys(v, raw));
  if (node.kind === Kind.VARIABLE) {
    const r = raw[node.name.value];
    const items = Array.isArray(r) ? r : [r];
    return items.map((x) => (typeof x === 'object' && x !== null ? Object.keys(x) : []));
  }
  return [];
}

/**
 * The sort keys of an `order_by` argument in written order: `node` is the argument as written,
 * `coerced` its value after coercion (one object or a list), `raw` the request's variables. A key
 * repeated later keeps its first place.
 */
export function sortKeys(
  node: ValueNode | undefined,
  coerced: unknown,
  raw: Record<string, unknown>,
): SortKey[] {
  if (coerced === null || coerced === undefined) return [];
  const items = (Array.isArray(coerced) ? coerced : [coerced]) as (Obj | null)[];
  const written = writtenKeys(node, raw);
  const keys: SortKey[] = [];
  items.forEach((item, i) => {
    if (!item) return;
    const names = written[i]?.filter((n) => n in item) ?? Object.keys(item);
    for (const n of [...names, ...Object.keys(item)]) {
      const d = item[n];
      if ((d === 'asc' || d === 'desc') && !keys.some((k) => k.attribute === n))
        keys.push({ attribute: n, desc: d === 'desc' });
    }
  });
  return keys;
}

function compareValues(a: Value, b: Value): number {
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  const x = a as number | bigint;
  const y = b as number | bigint;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** A key read over item positions, and its direction. */
export interface SortColumn {
  read: (item: number) => Value;
  desc: boolean;
}

/** A comparator of item positions by the columns (values read once per item), ties by position. */
export function comparator(n: number, columns: readonly SortColumn[]): (i: number, j: number) => number {
  const cols = columns.map((c) => {
    const values = new Array<Value>(n);
    for (let i = 0; i < n; i++) values[i] = c.read(i);
    return { values, sign: c.desc ? -1 : 1 };
  });
  return (i, j) => {
    for (const c of cols) {
      const d = compareValues(c.values[i], c.values[j]);
      if (d !== 0) return d * c.sign;
    }
    return i - j;
  };
}

/** Item positions 0..n-1 sorted (stably) by the columns. */
export function sortedPositions(n: number, columns: readonly SortColumn[]): Uint32Array {
  const idx = new Uint32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  if (columns.length === 0 || n < 2) return idx;
  return idx.sort(comparator(n, columns));
}

/** A checked `limit`/`offset` pair; `offset` together with `limit` needs an order (TigerGraph's rule). */
export interface Page {
  limit: number | undefined;
  offset: number;
}

export function pageOf(limit: unknown, offset: unknown, ordered: boolean, where: string): Page {
  const lim = limit === null || limit === undefined ? undefined : Number(limit);
  const off = offset === null || offset === undefined ? 0 : Number(offset);
  if (lim !== undefined && lim < 0) throw new GraphQLRequestError(`limit on ${where} must not be negative.`);
  if (off < 0) throw new GraphQLRequestError(`offset on ${where} must not be negative.`);
  if (lim !== undefined && offset !== null && offset !== undefined && !ordered) {
    throw new GraphQLRequestError(`offset with limit on ${where} needs order_by.`);
  }
  return { limit: lim, offset: off };
}
