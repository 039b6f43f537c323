/**
 * `<V>_connection`: keyset pagination with stable cursors. Vertices are ordered by the `order_by`
 * keys and then by `_id`, a total order, so a cursor — the order's signature, the key values and
 * the id of the last vertex of a page — names a position that stays valid while vertices are
 * inserted or deleted: the next page starts after it whatever changed before it.
 */
import type { Value } from '../catalog/value.js';
import { GraphQLRequestError } from './filter.js';
import type { Cursor } from './plan.js';
import type { SortKey } from './order.js';

/** The signature of an order, carried by its cursors. */
export function orderSignature(keys: readonly SortKey[]): string {
  return keys.map((k) => `${k.attribute}:${k.desc ? 'desc' : 'asc'}`).join(',');
}

type Tagged = ['n', number] | ['b', string] | ['s', string] | ['x', boolean];

function tag(v: Value): Tagged {
  if (typeof v === 'bigint') return ['b', v.toString()];
  if (typeof v === 'number') return ['n', v];
  if (typeof v === 'boolean') return ['x', v];
  return ['s', String(v)];
}

function untag(t: unknown): Value {
  if (!Array.isArray(t) || t.length !== 2) throw new Error('bad value');
  const [k, v] = t as [unknown, unknown];
  if (k === 'n' && typeof v === 'number') return v;
  if (k === 'b' && typeof v === 'string' && /^-?\d+$/.test(v)) return BigInt(v);
  if (k === 's' && typeof v === 'string') return v;
  if (k === 'x' && typeof v === 'boolean') return v;
  throw new Error('bad value');
}

export function encodeCursor(sig: string, values: readonly Value[], id: Value): string {
  return Buffer.from(JSON.stringify([sig, values.map(tag), tag(id)])).toString('base64url');
}

/** Reads an `after` cursor; it must come from a connection with the same order. */
export function decodeCursor(text: string, sig: string, keys: number): Cursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const bad = (why: string) => new GraphQLRequestError(`The cursor ${JSON.stringify(text)} ${why}.`);
  if (!Array.isArray(parsed) || parsed.length !== 3 || !Array.isArray(parsed[1])) {
    throw bad('is not a cursor of this service');
  }
  const [s, values, id] = parsed as [unknown, unknown[], unknown];
  if (s !== sig)
    throw bad(`was made for another order_by (${JSON.stringify(s)}, not ${JSON.stringify(sig)})`);
  try {
    if (values.length !== keys) throw new Error('bad length');
    return { values: values.map(untag), id: untag(id) };
  } catch {
    throw bad('is not a cursor of this service');
  }
}

/** Compares two values of one key (numbers with bigints, strings with strings). */
export function compareKey(a: Value, b: Value): number {
  const x = a as number | bigint | string;
  const y = b as number | bigint | string;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Compares (values, id) tuples in the connection's order. */
export function compareTuples(
  keys: readonly SortKey[],
  av: readonly Value[],
  aid: Value,
  bv: readonly Value[],
  bid: Value,
): number {
  for (let k = 0; k < keys.length; k++) {
    const d = compareKey(av[k], bv[k]);
    if (d !== 0) return keys[k].desc ? -d : d;
  }
  return compareKey(aid, bid);
}
