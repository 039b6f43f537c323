/**
 * Vertex and edge records in TigerGraph's JSON form (spec §2.2): ids as strings, attribute values
 * in the JSON forms of §2.3 (DATETIME text, MAP/tuple objects, exact 64-bit integers).
 */
import type { AttrType, Catalog } from '../../catalog/types.js';
import { toJsonValue } from '../../catalog/json-value.js';
import type { Value } from '../../catalog/value.js';
import type { EdgeRecord, VertexRecord } from '../../engine/api.js';
import { stringifyJson, type JsonValue } from '../../util/json.js';
import type { AttrTypes } from './graph-filter.js';

const PLAIN: AttrType = { kind: 'STRING', compress: false };

export interface VertexJson {
  v_id: string;
  v_type: string;
  attributes: { [name: string]: JsonValue };
}

export interface EdgeJson {
  e_type: string;
  directed: boolean;
  from_id: string;
  from_type: string;
  to_id: string;
  to_type: string;
  attributes: { [name: string]: JsonValue };
}

export function attributesJson(
  attrs: Record<string, Value>,
  types: AttrTypes,
  catalog: Catalog,
): { [name: string]: JsonValue } {
  const out: { [name: string]: JsonValue } = {};
  for (const [name, value] of Object.entries(attrs)) {
    // Every attribute of a record is in its type's map; the STRING form prints any value plainly.
    out[name] = toJsonValue(value, types.get(name) ?? PLAIN, catalog);
  }
  return out;
}

export function vertexJson(rec: VertexRecord, types: AttrTypes, catalog: Catalog): VertexJson {
  return { v_id: rec.v_id, v_type: rec.v_type, attributes: attributesJson(rec.attributes, types, catalog) };
}

/**
 * `stringifyJson(vertexJson(rec, types, catalog))`, written directly (the hot read paths):
 * attributes in the record's order, each value in its JSON form. `typeText` is the vertex type
 * name already written as JSON, when the caller writes many records of one type.
 */
export function vertexJsonText(
  rec: VertexRecord,
  types: AttrTypes,
  catalog: Catalog,
  typeText = JSON.stringify(rec.v_type),
): string {
  let attrs = '';
  for (const name of Object.keys(rec.attributes)) {
    const value = toJsonValue(rec.attributes[name], types.get(name) ?? PLAIN, catalog);
    attrs += `${attrs === '' ? '' : ','}${JSON.stringify(name)}:${stringifyJson(value)}`;
  }
  return `{"v_id":${JSON.stringify(rec.v_id)},"v_type":${typeText},"attributes":{${attrs}}}`;
}

export function edgeJson(rec: EdgeRecord, types: AttrTypes, catalog: Catalog): EdgeJson {
  return {
    e_type: rec.e_type,
    directed: rec.directed,
    from_id: rec.from_id,
    from_type: rec.from_type,
    to_id: rec.to_id,
    to_type: rec.to_type,
    attributes: attributesJson(rec.attributes, types, catalog),
  };
}
