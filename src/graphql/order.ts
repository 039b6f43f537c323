/**
 * Sorting and pagination: the `<T>OrderBy` input types, reading `order_by` in the order the client
 * wrote its keys (graphql-js coerces input objects in the type's field order, so the keys are read
 * from the query text), and the document rewrite that lets `order_by` take a list of objects while
 * its declared type stays the single `<T>OrderBy` of TigerGraph's schema.
 */
import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  Kind,
  visit,
  type DocumentNode,
  type FieldNode,
  type GraphQLInputFieldConfigMap,
  type ObjectFieldNode,
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

/** The `<name>` order input type over the sortable attributes, or undefined when there are none. */
export function orderType(
  name: string,
  attributes: readonly Attribute[],
): GraphQLInputObjectType | undefined {
  const fields: GraphQLInputFieldConfigMap = {};
  for (const a of attributes) if (isSortable(a.type)) fields[a.name] = { type: OrderDirection };
  if (Object.keys(fields).length === 0) return undefined;
  return new GraphQLInputObjectType({ name, fields });
}

export interface SortKey {
  attribute: string;
  desc: boolean;
}

/**
 * Rewrites `order_by: [{a: asc}, {b: desc}]` into `order_by: {a: asc, b: desc}` (keys keep their
 * list order; a repeated key keeps its first place), so the document validates against the single
 * object type; `sortKeys` then reads the keys in written order.
 */
export function mergeOrderByLists(doc: DocumentNode): DocumentNode {
  return visit(doc, {
    Argument(node) {
      if (node.name.value !== 'order_by' || node.value.kind !== Kind.LIST) return undefined;
      if (!node.value.values.every((v) => v.kind === Kind.OBJECT)) return undefined;
      const fields: ObjectFieldNode[] = [];
      for (const item of node.value.values) {
        if (item.kind !== Kind.OBJECT) continue;
        for (const f of item.fields) if (!fields.some((g) => g.name.value === f.name.value)) fields.push(f);
      }
      return { ...node, value: { kind: Kind.OBJECT, fields, loc: node.value.loc } };
    },
  });
}

/**
 * The sort keys of a field's `order_by` in written order. `coerced` is the argument graphql-js
 * coerced (the directions); `raw` holds the request's variables before coercion (their key order).
 */
export function sortKeys(
  node: FieldNode,
  coerced: Record<string, unknown> | undefined,
  raw: Record<string, unknown>,
): SortKey[] {
  if (!coerced) return [];
  const arg = node.arguments?.find((a) => a.name.value === 'order_by');
  let names: string[] = Object.keys(coerced);
  const value: ValueNode | undefined = arg?.value;
  if (value?.kind === Kind.OBJECT) names = value.fields.map((f) => f.name.value);
  else if (value?.kind === Kind.VARIABLE) {
    const r = raw[value.name.value];
    if (typeof r === 'object' && r !== null && !Array.isArray(r)) names = Object.keys(r);
  }
  return names
    .filter((n) => coerced[n] === 'asc' || coerced[n] === 'desc')
    .map((attribute) => ({ attribute, desc: coerced[attribute] === 'desc' }));
}

function compare(a: Value, b: Value): number {
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  const x = a as number | bigint;
  const y = b as number | bigint;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Sorts items (stably) by the keys, reading each item's attribute through `read`. */
export function sortItems<T>(
  items: T[],
  keys: readonly SortKey[],
  read: (item: T, attribute: string) => Value,
): T[] {
  if (keys.length === 0) return items;
  const cols = keys.map((k) => items.map((it) => read(it, k.attribute)));
  const idx = items.map((_, i) => i);
  idx.sort((i, j) => {
    for (let k = 0; k < keys.length; k++) {
      const c = compare(cols[k][i], cols[k][j]);
      if (c !== 0) return keys[k].desc ? -c : c;
    }
    return i - j;
  });
  return idx.map((i) => items[i]);
}

/** Applies limit/offset; `offset` together with `limit` needs an order (TigerGraph's rule). */
export function paginate<T>(
  items: T[],
  limit: unknown,
  offset: unknown,
  ordered: boolean,
  where: string,
): T[] {
  const lim = limit === null || limit === undefined ? undefined : Number(limit);
  const off = offset === null || offset === undefined ? 0 : Number(offset);
  if (lim !== undefined && lim < 0) throw new GraphQLRequestError(`limit on ${where} must not be negative.`);
  if (off < 0) throw new GraphQLRequestError(`offset on ${where} must not be negative.`);
  if (lim !== undefined && offset !== null && offset !== undefined && !ordered) {
    throw new GraphQLRequestError(`offset with limit on ${where} needs order_by.`);
  }
  return items.slice(off, lim === undefined ? undefined : off + lim);
}
