/**
 * Vertex and edge records in TigerGraph's JSON form (spec §2.2): ids as strings, attribute values
 * in the JSON forms of §2.3 (DATETIME text, MAP/tuple objects, exact 64-bit integers).
 */
import type { AttrType, Catalog, VertexType } from '../../catalog/types.js';
import { toJsonValue } from '../../catalog/json-value.js';
import type { Value } from '../../catalog/value.js';
import type { EdgeRecord, ReadTx, VertexRecord } from '../../engine/api.js';
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

/**
 * The texts `vertexJsonText(tx.vertex(vt.name, row, attrs), types, tx.catalog)` writes for each of
 * `rows`, without a record object per row (the vertex list's hot path): the attributes' columns,
 * keys and types are looked up once, in the order tx.vertex lists them (the primary id when it is
 * an attribute, then the type's attributes; `attrs` selects, it does not reorder).
 */
export function vertexRowTexts(
  tx: ReadTx,
  vt: VertexType,
  rows: readonly number[],
  attrs: readonly string[] | undefined,
  types: AttrTypes,
): string[] {
  const want = (n: string): boolean => attrs === undefined || attrs.includes(n);
  const fields: { prefix: string; type: AttrType; read: (row: number) => Value }[] = [];
  const add = (name: string, read: (row: number) => Value): void => {
    const prefix = `${fields.length === 0 ? '' : ','}${JSON.stringify(name)}:`;
    fields.push({ prefix, type: types.get(name) ?? PLAIN, read });
  };
  if (vt.keyKind === 'primary_id' && vt.primaryIdAsAttribute && want(vt.primaryId.name)) {
    add(vt.primaryId.name, (row) => tx.vertexIdValue(vt.name, row));
  }
  for (const a of vt.attributes) if (want(a.name)) add(a.name, tx.column(vt.name, a.name).get);
  const head = `,"v_type":${JSON.stringify(vt.name)},"attributes":{`;
  const catalog = tx.catalog;
  return rows.map((row) => {
    let attrs = '';
    for (const f of fields) attrs += f.prefix + stringifyJson(toJsonValue(f.read(row), f.type, catalog));
    return `{"v_id":${JSON.stringify(tx.vertexId(vt.name, row))}${head}${attrs}}}`;
  });
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
