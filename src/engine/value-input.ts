/**
 * Conversion of JSON input (REST payloads, query parameters, loaded JSON) into typed Values, with
 * the forms TigerGraph accepts: numeric strings for INT/UINT/FLOAT/DOUBLE, "YYYY-MM-DD HH:MM:SS" or
 * epoch seconds for DATETIME, "true"/"false" for BOOL, arrays for LIST/SET, {keylist, valuelist}
 * (also keyList/valueList, or a plain object) for MAP and tuples, {id, type} for VERTEX.
 * The JSON may come from util/json-parse, so integers beyond ±2^53 arrive as bigint.
 */
import type { AttrType, Catalog } from '../catalog/types.js';
import { type Primitive, Tuple, type Value, VertexRef, canonicalInt } from '../catalog/value.js';
import { parseDatetime } from '../util/datetime.js';
import { EngineError } from './api.js';
import { checkValue, typeName } from './values.js';

type Json = unknown;

function isObject(j: Json): j is Record<string, Json> {
  return typeof j === 'object' && j !== null && !Array.isArray(j);
}

/** The key and value lists of a {keylist, valuelist} object (either spelling), or undefined. */
function keyValueLists(j: Record<string, Json>): [Json[], Json[]] | undefined {
  const keys = j.keylist ?? j.keyList;
  const values = j.valuelist ?? j.valueList;
  if (Array.isArray(keys) && Array.isArray(values) && keys.length === values.length) return [keys, values];
  return undefined;
}

function primitive(type: AttrType, j: Json): Value | undefined {
  switch (type.kind) {
    case 'INT':
    case 'UINT':
      if (typeof j === 'string') {
        const s = j.trim();
        return /^[-+]?\d+$/.test(s) ? canonicalInt(BigInt(s)) : undefined;
      }
      return typeof j === 'number' || typeof j === 'bigint' ? j : undefined;
    case 'FLOAT':
    case 'DOUBLE':
      if (typeof j === 'string') {
        const n = Number(j.trim());
        return j.trim() !== '' && !Number.isNaN(n) ? n : undefined;
      }
      return typeof j === 'number' || typeof j === 'bigint' ? Number(j) : undefined;
    case 'BOOL':
      if (typeof j === 'boolean') return j;
      if (typeof j === 'string') return /^true$/i.test(j) ? true : /^false$/i.test(j) ? false : undefined;
      if (j === 0 || j === 1) return j === 1;
      return undefined;
    case 'STRING':
      if (typeof j === 'string') return j;
      return typeof j === 'number' || typeof j === 'bigint' || typeof j === 'boolean' ? String(j) : undefined;
    case 'DATETIME':
      if (typeof j === 'string') return parseDatetime(j);
      if (typeof j === 'number' && Number.isFinite(j)) return Math.trunc(j);
      return undefined;
    case 'FIXED_BINARY':
      if (typeof j === 'string') return new TextEncoder().encode(j);
      if (
        Array.isArray(j) &&
        j.every((b) => typeof b === 'number' && Number.isInteger(b) && b >= 0 && b < 256)
      ) {
        return Uint8Array.from(j as number[]);
      }
      return undefined;
    default:
      return undefined;
  }
}

function convert(type: AttrType, j: Json, catalog: Pick<Catalog, 'tuples'>): Value | undefined {
  switch (type.kind) {
    case 'LIST':
    case 'SET': {
      if (!Array.isArray(j)) return undefined;
      const out: Value[] = [];
      for (const e of j) {
        const v = convert(type.element, e, catalog);
        if (v === undefined) return undefined;
        out.push(v);
      }
      return out;
    }
    case 'MAP': {
      if (!isObject(j)) return undefined;
      const lists = keyValueLists(j);
      const entries: [Json, Json][] = lists ? lists[0].map((k, i) => [k, lists[1][i]]) : Object.entries(j);
      const m = new Map<Primitive, Value>();
      for (const [k, e] of entries) {
        const kv = convert(type.key, k, catalog);
        const ev = convert(type.value, e, catalog);
        if (kv === undefined || ev === undefined) return undefined;
        m.set(kv as Primitive, ev);
      }
      return m;
    }
    case 'UDT': {
      const t = catalog.tuples.find((x) => x.name === type.name);
      if (!t || !isObject(j)) return undefined;
      const lists = keyValueLists(j);
      const byName = new Map<string, Json>(
        lists ? lists[0].map((k, i) => [String(k), lists[1][i]] as [string, Json]) : Object.entries(j),
      );
      const vals: Value[] = [];
      for (const f of t.fields) {
        if (!byName.has(f.name)) return undefined;
        const v = convert(f.type, byName.get(f.name), catalog);
        if (v === undefined) return undefined;
        vals.push(v);
      }
      return new Tuple(t.name, vals);
    }
    case 'VERTEX': {
      if (isObject(j)) {
        const id = j.id;
        const vtype = typeof j.type === 'string' ? j.type : type.vertexType;
        if (
          vtype === undefined ||
          (typeof id !== 'string' && typeof id !== 'number' && typeof id !== 'bigint')
        ) {
          return undefined;
        }
        return new VertexRef(vtype, String(id));
      }
      if (type.vertexType !== undefined && (typeof j === 'string' || typeof j === 'number')) {
        return new VertexRef(type.vertexType, String(j));
      }
      return undefined;
    }
    default:
      return primitive(type, j);
  }
}

/** The typed Value of a JSON input for an attribute type, or undefined when it does not fit. */
export function valueFromJson(
  type: AttrType,
  json: Json,
  catalog: Pick<Catalog, 'tuples'>,
): Value | undefined {
  const v = convert(type, json, catalog);
  return v === undefined ? undefined : checkValue(type, v, catalog);
}

/** Like valueFromJson, but throws REST-30200 naming `where` (e.g. "attribute 'age' of vertex 'Person' id 'x'"). */
export function valueFromJsonOrThrow(
  type: AttrType,
  json: Json,
  catalog: Pick<Catalog, 'tuples'>,
  where: string,
): Value {
  const v = valueFromJson(type, json, catalog);
  if (v === undefined) {
    throw new EngineError('REST-30200', `Invalid value for ${where}: expected ${typeName(type)}.`);
  }
  return v;
}

/**
 * valueFromJson for one attribute type, compiled once: the JSON forms that need no conversion (a
 * string for STRING, a number for FLOAT/DOUBLE, a safe integer for a 64-bit INT/UINT, a boolean for
 * BOOL) are taken as they are, the same values valueFromJson gives; every other form goes through it.
 */
export function jsonValueReader(
  type: AttrType,
  catalog: Pick<Catalog, 'tuples'>,
): (json: Json) => Value | undefined {
  const general = (j: Json): Value | undefined => valueFromJson(type, j, catalog);
  switch (type.kind) {
    case 'STRING':
      if (type.maxLength !== undefined) return general;
      return (j) => (typeof j === 'string' ? j : general(j));
    case 'FLOAT':
    case 'DOUBLE':
      return (j) => (typeof j === 'number' ? j : general(j));
    case 'INT':
    case 'UINT': {
      if (type.bytes !== 8) return general;
      const signed = type.kind === 'INT';
      return (j) => (typeof j === 'number' && Number.isSafeInteger(j) && (signed || j >= 0) ? j : general(j));
    }
    case 'BOOL':
      return (j) => (typeof j === 'boolean' ? j : general(j));
    default:
      return general;
  }
}
