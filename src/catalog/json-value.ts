/**
 * Converts stored Values to the JSON forms TigerGraph prints for attributes (REST++ records and
 * PRINT): DATETIME as "YYYY-MM-DD HH:MM:SS", MAP and tuples as objects, LIST/SET as arrays,
 * 64-bit integers kept exact as bigint (util/json prints them as digits).
 */
import type { JsonValue } from '../util/json.js';
import { formatDatetime } from '../util/datetime.js';
import type { AttrType, Catalog } from './types.js';
import { Tuple, VertexRef, type Value } from './value.js';

/** Only the tuple definitions are needed, to name the fields of UDT values. */
export type TupleLookup = Pick<Catalog, 'tuples'>;

export function toJsonValue(value: Value, type: AttrType, catalog?: TupleLookup): JsonValue {
  switch (type.kind) {
    case 'DATETIME':
      return typeof value === 'number' ? formatDatetime(value) : String(value);
    case 'LIST':
    case 'SET':
      return Array.isArray(value) ? value.map((v) => toJsonValue(v, type.element, catalog)) : [];
    case 'MAP': {
      const obj: { [key: string]: JsonValue } = {};
      if (value instanceof Map) {
        for (const [k, v] of value) obj[keyText(k, type.key)] = toJsonValue(v, type.value, catalog);
      }
      return obj;
    }
    case 'UDT':
      return value instanceof Tuple ? tupleJson(value, catalog) : null;
    case 'VERTEX':
      return value instanceof VertexRef ? value.id : null;
    case 'FIXED_BINARY':
      return value instanceof Uint8Array ? Buffer.from(value).toString('hex') : String(value);
    default:
      return plain(value);
  }
}

/** A tuple prints as an object of its fields in declared order (positional names if unknown). */
function tupleJson(t: Tuple, catalog?: TupleLookup): JsonValue {
  const def = catalog?.tuples.find((u) => u.name === t.typeName);
  const obj: { [key: string]: JsonValue } = {};
  t.values.forEach((v, i) => {
    const field = def?.fields[i];
    obj[field ? field.name : String(i)] = field ? toJsonValue(v, field.type, catalog) : plain(v);
  });
  return obj;
}

function keyText(k: unknown, type: AttrType): string {
  if (type.kind === 'DATETIME' && typeof k === 'number') return formatDatetime(k);
  return String(k);
}

function plain(value: Value): JsonValue {
  if (value === null || value === undefined) return null;
  if (
    typeof value === 'number' ||
    typeof value === 'bigint' ||
    typeof value === 'string' ||
    typeof value === 'boolean'
  )
    return value;
  if (Array.isArray(value)) return value.map(plain);
  if (value instanceof Map) {
    const obj: { [key: string]: JsonValue } = {};
    for (const [k, v] of value) obj[String(k)] = plain(v);
    return obj;
  }
  if (value instanceof Tuple) return tupleJson(value);
  if (value instanceof VertexRef) return value.id;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
  return null;
}
