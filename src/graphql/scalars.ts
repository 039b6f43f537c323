/**
 * GraphQL scalars of Ocelot's schema and the mapping from attribute types to GraphQL types.
 *
 * Mapping (the one place it is defined):
 *   INT -> Int64, UINT -> Uint64 (64-bit exact: numbers, or JSON digits beyond ±2^53),
 *   FLOAT/DOUBLE -> Float, STRING -> String, BOOL -> Boolean,
 *   DATETIME -> Datetime ("YYYY-MM-DD HH:MM:SS"; input also epoch seconds or "YYYY-MM-DD"),
 *   FIXED_BINARY -> String (hex), VERTEX -> String (the referenced vertex's id),
 *   LIST<T>/SET<T> -> [T'] for a scalar element, MAP and tuples (and nested collections) -> Json
 *   (the JSON form REST++ prints: MAP as an object, a tuple as an object of its fields).
 */
import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLList,
  GraphQLScalarType,
  GraphQLString,
  Kind,
  type GraphQLOutputType,
  type GraphQLScalarType as Scalar,
  type ValueNode,
} from 'graphql';
import { toJsonValue, type TupleLookup } from '../catalog/json-value.js';
import type { AttrType } from '../catalog/types.js';
import { canonicalInt, type Value } from '../catalog/value.js';
import { formatDatetime, parseDatetime } from '../util/datetime.js';
import { stringifyJson } from '../util/json.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

function integer(name: string, min: bigint, max: bigint): GraphQLScalarType {
  const read = (v: unknown): number | bigint => {
    let b: bigint | undefined;
    if (typeof v === 'bigint') b = v;
    else if (typeof v === 'number' && Number.isInteger(v)) b = BigInt(v);
    else if (typeof v === 'string' && /^[-+]?\d+$/.test(v.trim())) b = BigInt(v.trim());
    if (b === undefined || b < min || b > max) {
      throw new TypeError(
        `${name} cannot represent ${JSON.stringify(String(v))}: expected an integer in range`,
      );
    }
    return canonicalInt(b);
  };
  return new GraphQLScalarType({
    name,
    description: `${max === UINT64_MAX ? 'An unsigned' : 'A signed'} 64-bit integer, exact (JSON digits beyond ±2^53).`,
    serialize: read,
    parseValue: read,
    parseLiteral: (ast: ValueNode) => {
      if (ast.kind === Kind.INT || ast.kind === Kind.STRING) return read(ast.value);
      throw new TypeError(`${name} needs an integer, not ${ast.kind}`);
    },
  });
}

export const Int64 = integer('Int64', INT64_MIN, INT64_MAX);
export const Uint64 = integer('Uint64', 0n, UINT64_MAX);

function datetimeInput(v: unknown): number {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string') {
    const t = parseDatetime(v.trim());
    if (t !== undefined) return t;
  }
  throw new TypeError(
    `Datetime cannot represent ${JSON.stringify(v)}: expected "YYYY-MM-DD HH:MM:SS", "YYYY-MM-DD" or epoch seconds`,
  );
}

export const Datetime = new GraphQLScalarType({
  name: 'Datetime',
  description: 'A date and time, written "YYYY-MM-DD HH:MM:SS" (UTC).',
  serialize: (v) => (typeof v === 'number' ? formatDatetime(v) : String(v)),
  parseValue: datetimeInput,
  parseLiteral: (ast) => {
    if (ast.kind === Kind.STRING) return datetimeInput(ast.value);
    if (ast.kind === Kind.INT) return datetimeInput(Number(ast.value));
    throw new TypeError(`Datetime needs a string, not ${ast.kind}`);
  },
});

/** Values resolvers hand to Json fields are already in their JSON form. */
export const Json = new GraphQLScalarType({
  name: 'Json',
  description: 'A MAP, tuple or nested collection attribute in the JSON form REST++ prints.',
  serialize: (v) => v,
  parseValue: (v) => v,
});

/** The GraphQL scalar of a scalar attribute type, or undefined for collections and tuples. */
export function scalarOf(t: AttrType): Scalar | undefined {
  switch (t.kind) {
    case 'INT':
      return Int64;
    case 'UINT':
      return Uint64;
    case 'FLOAT':
    case 'DOUBLE':
      return GraphQLFloat;
    case 'STRING':
    case 'FIXED_BINARY':
    case 'VERTEX':
      return GraphQLString;
    case 'BOOL':
      return GraphQLBoolean;
    case 'DATETIME':
      return Datetime;
    default:
      return undefined;
  }
}

/** The output type of an attribute field. */
export function outputTypeOf(t: AttrType): GraphQLOutputType {
  const s = scalarOf(t);
  if (s) return s;
  if (t.kind === 'LIST' || t.kind === 'SET') {
    const e = scalarOf(t.element);
    if (e) return new GraphQLList(e);
  }
  return Json;
}

/** Whether the JSON text of a value of this type is ASCII only. */
export function asciiText(t: AttrType): boolean {
  return ['INT', 'UINT', 'FLOAT', 'DOUBLE', 'BOOL', 'DATETIME'].includes(t.kind);
}

/**
 * The JSON text of a stored value as its field's GraphQL type serializes it (the plan executor
 * writes responses as text, without graphql-js's per-field serialization).
 */
export function valueWriter(t: AttrType, tuples: TupleLookup): (v: Value) => string {
  switch (t.kind) {
    case 'INT':
    case 'UINT':
      return (v) => String(v);
    case 'FLOAT':
    case 'DOUBLE':
      return (v) => (Number.isFinite(v) ? String(v) : 'null');
    case 'STRING':
      return (v) => JSON.stringify(v);
    case 'BOOL':
      return (v) => (v ? 'true' : 'false');
    case 'DATETIME':
      return (v) => `"${formatDatetime(v as number)}"`;
    case 'LIST':
    case 'SET': {
      if (!scalarOf(t.element) || t.element.kind === 'VERTEX' || t.element.kind === 'FIXED_BINARY') break;
      const element = valueWriter(t.element, tuples);
      return (v) => (Array.isArray(v) ? `[${v.map(element).join(',')}]` : '[]');
    }
    default:
      break;
  }
  return (v) => stringifyJson(toJsonValue(v, t, tuples));
}

/** Attribute types `where` filters and `order_by` accept (TigerGraph's sortable types plus BOOL for filters). */
export function isFilterable(t: AttrType): boolean {
  return ['INT', 'UINT', 'FLOAT', 'DOUBLE', 'STRING', 'BOOL', 'DATETIME'].includes(t.kind);
}

export function isSortable(t: AttrType): boolean {
  return ['INT', 'UINT', 'FLOAT', 'DOUBLE', 'STRING', 'DATETIME'].includes(t.kind);
}
