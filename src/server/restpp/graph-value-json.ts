/**
 * Attribute values in the JSON forms of spec §2.3, read into engine Values: numbers (64-bit
 * integers as bigint), DATETIME as "YYYY-MM-DD HH:MM:SS" or epoch seconds, LIST/SET as arrays, MAP
 * and tuples as {"keylist": [...], "valuelist": [...]} (also spelled keyList/valueList, or a plain
 * object), VERTEX as {"id", "type"}. The engine's checkValue then enforces ranges and lengths.
 */
import type { AttrType, Catalog } from '../../catalog/types.js';
import { Tuple, VertexRef, type Primitive, type Value } from '../../catalog/value.js';
import { checkValue } from '../../engine/values.js';
import { parseDatetime } from '../../util/datetime.js';
import { RepeatedKey, type ParsedJson } from '../../util/json-parse.js';

type JsonObject = { [key: string]: ParsedJson };

function isObject(v: ParsedJson): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof RepeatedKey);
}

/** The keylist/valuelist pair of an object, in either spelling; undefined when it has neither. */
function keyValueLists(obj: JsonObject): [ParsedJson[], ParsedJson[]] | undefined {
  const keys = obj.keylist ?? obj.keyList;
  const values = obj.valuelist ?? obj.valueList;
  if (keys === undefined && values === undefined) return undefined;
  if (!Array.isArray(keys) || !Array.isArray(values) || keys.length !== values.length) return undefined;
  return [keys, values];
}

function numeric(json: ParsedJson): number | bigint | undefined {
  if (typeof json === 'number' || typeof json === 'bigint') return json;
  if (typeof json === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(json)) {
    const t = json.trim();
    return /^[-+]?\d+$/.test(t) ? BigInt(t) : Number(t);
  }
  return undefined;
}

/** Structural conversion; undefined when the JSON shape cannot be a value of the type. */
function convert(json: ParsedJson, type: AttrType, catalog: Catalog): Value | undefined {
  if (json === null || json instanceof RepeatedKey) return undefined;
  switch (type.kind) {
    case 'INT':
    case 'UINT':
    case 'FLOAT':
    case 'DOUBLE':
      return numeric(json);
    case 'BOOL':
      if (typeof json === 'boolean') return json;
      if (json === 0 || json === 1) return json === 1;
      if (typeof json === 'string' && /^(true|false)$/i.test(json.trim()))
        return json.trim().toLowerCase() === 'true';
      return undefined;
    case 'STRING':
      return typeof json === 'string' ? json : undefined;
    case 'DATETIME':
      if (typeof json === 'string') return parseDatetime(json);
      if (typeof json === 'number' && Number.isInteger(json)) return json;
      return undefined;
    case 'FIXED_BINARY': {
      if (typeof json !== 'string') return undefined;
      const bytes = Buffer.from(json, 'utf8');
      if (bytes.length > type.length) return undefined;
      const out = new Uint8Array(type.length);
      out.set(bytes);
      return out;
    }
    case 'LIST':
    case 'SET': {
      if (!Array.isArray(json)) return undefined;
      const out: Value[] = [];
      for (const e of json) {
        const v = convert(e, type.element, catalog);
        if (v === undefined) return undefined;
        out.push(v);
      }
      return out;
    }
    case 'MAP': {
      if (!isObject(json)) return undefined;
      const lists = keyValueLists(json);
      const pairs: [ParsedJson, ParsedJson][] = lists
        ? lists[0].map((k, i) => [k, lists[1][i]])
        : Object.entries(json).map(([k, v]) => [k, v]);
      const out = new Map<Primitive, Value>();
      for (const [k, v] of pairs) {
        // Keys of a plain object are strings: read numeric keys from their text.
        const key = convert(k, type.key, catalog);
        const val = convert(v, type.value, catalog);
        if (key === undefined || val === undefined) return undefined;
        out.set(key as Primitive, val);
      }
      return out;
    }
    case 'UDT': {
      const def = catalog.tuples.find((t) => t.name === type.name);
      if (!def || !isObject(json)) return undefined;
      const lists = keyValueLists(json);
      const byName = new Map<string, ParsedJson>();
      if (lists) {
        for (let i = 0; i < lists[0].length; i++) {
          const k = lists[0][i];
          if (typeof k !== 'string') return undefined;
          byName.set(k, lists[1][i]);
        }
      } else for (const [k, v] of Object.entries(json)) byName.set(k, v);
      for (const k of byName.keys()) if (!def.fields.some((f) => f.name === k)) return undefined;
      const values: Value[] = [];
      for (const f of def.fields) {
        const raw = byName.get(f.name);
        if (raw === undefined) return undefined;
        const v = convert(raw, f.type, catalog);
        if (v === undefined) return undefined;
        values.push(v);
      }
      return new Tuple(def.name, values);
    }
    case 'VERTEX': {
      if (!isObject(json)) return undefined;
      const id = json.id;
      const vtype = json.type ?? type.vertexType;
      if (typeof vtype !== 'string' || !catalog.vertexTypes.some((v) => v.name === vtype)) return undefined;
      if (typeof id !== 'string' && typeof id !== 'number' && typeof id !== 'bigint') return undefined;
      return new VertexRef(vtype, String(id));
    }
  }
}

/** Reads a JSON attribute value as `type`; undefined when it is not a valid value of the type. */
export function readJsonValue(json: ParsedJson, type: AttrType, catalog: Catalog): Value | undefined {
  const v = convert(json, type, catalog);
  return v === undefined ? undefined : checkValue(type, v, catalog);
}
