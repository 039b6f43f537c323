/**
 * `where` filters: the `<T>Filter` input types (one member per filterable attribute with its
 * comparison operators, plus `_and`, `_or`, `_not`) and their evaluation over one vertex's or edge's
 * attributes. Several members in one filter object must all hold. Beyond TigerGraph: `_in`, `_nin`,
 * `_is_null`, and `_like` (GSQL LIKE: `%` any run, `_` one character) for strings.
 */
import {
  GraphQLBoolean,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLString,
  type GraphQLInputFieldConfigMap,
  type GraphQLScalarType,
} from 'graphql';
import type { Attribute } from '../catalog/types.js';
import type { Value } from '../catalog/value.js';
import { isFilterable, scalarOf } from './scalars.js';

/** Reads one attribute of the vertex or edge being tested. */
export type AttrReader = (attribute: string) => Value;
export type Predicate = (read: AttrReader) => boolean;

/** A GraphQL request error raised while resolving (the message goes to the client as is). */
export class GraphQLRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GraphQLRequestError';
  }
}

const comparisonTypes = new Map<string, GraphQLInputObjectType>();

/** `<Scalar>_comparison_exp`: the operators of one scalar (shared by every filter using it). */
function comparisonType(s: GraphQLScalarType): GraphQLInputObjectType {
  let t = comparisonTypes.get(s.name);
  if (t) return t;
  const fields: GraphQLInputFieldConfigMap = {};
  // Booleans have no order: only equality for them.
  const ops = s === GraphQLBoolean ? ['_eq', '_neq'] : ['_eq', '_neq', '_lt', '_lte', '_gt', '_gte'];
  for (const op of ops) fields[op] = { type: s };
  fields._in = { type: new GraphQLList(new GraphQLNonNull(s)) };
  fields._nin = { type: new GraphQLList(new GraphQLNonNull(s)) };
  if (s === GraphQLString)
    fields._like = { type: GraphQLString, description: 'GSQL LIKE: % any run, _ one character.' };
  fields._is_null = { type: GraphQLBoolean };
  t = new GraphQLInputObjectType({ name: `${s.name}_comparison_exp`, fields });
  comparisonTypes.set(s.name, t);
  return t;
}

/** The `<name>` filter input type over these attributes (name is e.g. `personFilter`). */
export function filterType(name: string, attributes: readonly Attribute[]): GraphQLInputObjectType {
  const self: GraphQLInputObjectType = new GraphQLInputObjectType({
    name,
    fields: () => {
      const fields: GraphQLInputFieldConfigMap = {};
      for (const a of attributes) {
        const s = scalarOf(a.type);
        if (s && isFilterable(a.type)) fields[a.name] = { type: comparisonType(s) };
      }
      fields._and = { type: new GraphQLList(new GraphQLNonNull(self)) };
      fields._or = { type: new GraphQLList(new GraphQLNonNull(self)) };
      fields._not = { type: self };
      return fields;
    },
  });
  return self;
}

type Scalar = number | bigint | string | boolean;

function compare(a: Scalar, b: Scalar): number {
  if (typeof a === 'boolean' || typeof b === 'boolean') return Number(a) - Number(b);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** GSQL LIKE as a regular expression (`\` escapes the next character). */
export function likePattern(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\' && i + 1 < pattern.length) re += pattern[++i].replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (c === '%') re += '[\\s\\S]*';
    else if (c === '_') re += '[\\s\\S]';
    else re += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

function operator(op: string, arg: unknown): (v: Value) => boolean {
  switch (op) {
    case '_eq':
      return (v) => compare(v as Scalar, arg as Scalar) === 0;
    case '_neq':
      return (v) => compare(v as Scalar, arg as Scalar) !== 0;
    case '_lt':
      return (v) => compare(v as Scalar, arg as Scalar) < 0;
    case '_lte':
      return (v) => compare(v as Scalar, arg as Scalar) <= 0;
    case '_gt':
      return (v) => compare(v as Scalar, arg as Scalar) > 0;
    case '_gte':
      return (v) => compare(v as Scalar, arg as Scalar) >= 0;
    case '_in':
    case '_nin': {
      const items = arg as Scalar[];
      const want = op === '_in';
      return (v) => items.some((x) => compare(v as Scalar, x) === 0) === want;
    }
    case '_like': {
      const re = likePattern(arg as string);
      return (v) => typeof v === 'string' && re.test(v);
    }
    case '_is_null': {
      // Stored scalar attributes always hold a value (TigerGraph has no NULL attributes).
      const want = arg as boolean;
      return (v) => (v === null || v === undefined) === want;
    }
    default:
      throw new GraphQLRequestError(`Unknown filter operator '${op}'.`);
  }
}

/** Compiles a coerced filter object; null members and null operators impose nothing. */
export function compileFilter(filter: Record<string, unknown>): Predicate {
  const parts: Predicate[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (value === null || value === undefined) continue;
    if (key === '_and' || key === '_or') {
      const subs = (value as Record<string, unknown>[]).map(compileFilter);
      parts.push(key === '_and' ? (r) => subs.every((p) => p(r)) : (r) => subs.some((p) => p(r)));
    } else if (key === '_not') {
      const sub = compileFilter(value as Record<string, unknown>);
      parts.push((r) => !sub(r));
    } else {
      const tests = Object.entries(value as Record<string, unknown>)
        .filter(([, arg]) => arg !== null && arg !== undefined)
        .map(([op, arg]) => operator(op, arg));
      parts.push((r) => {
        const v = r(key);
        return tests.every((t) => t(v));
      });
    }
  }
  return (r) => parts.every((p) => p(r));
}
