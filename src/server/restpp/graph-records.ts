/**
 * Vertex and edge records in TigerGraph's JSON form (spec §2.2): ids as strings, attribute values
 * in the JSON forms of §2.3 (DATETIME text, MAP/tuple objects, exact 64-bit integers).
 */
import type { AttrType, Catalog, VertexType } from '../../catalog/types.js';
import { toJsonValue } from '../../catalog/json-value.js';
import type { Value } from '../../catalog/value.js';
import type { EdgeRecord, ReadTx, VertexRecord } from '../../engine/api.js';
import { formatDatetime } from '../../util/datetime.js';
import { jsonString, stringifyJson, type JsonValue } from '../../util/json.js';
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

/** Kinds whose JSON text is ASCII whatever the value: numbers, booleans and DATETIME text. */
const ASCII_KINDS: ReadonlySet<AttrType['kind']> = new Set([
  'INT',
  'UINT',
  'FLOAT',
  'DOUBLE',
  'BOOL',
  'DATETIME',
]);

// eslint-disable-next-line no-control-regex
const ASCII_ONLY = /^[\x00-\x7f]*$/;

/** Whether a type's ids are numbers or DATETIME texts: nothing to escape, written between quotes as they are. */
export function plainIdsOf(vt: VertexType): boolean {
  return vt.keyKind === 'primary_id' && ['INT', 'UINT', 'DATETIME'].includes(vt.primaryId.type.kind);
}

/** The parts of a vertex type's row texts that do not depend on the row. */
interface TypeHead {
  /** `,"v_type":…,"attributes":{` */
  head: string;
  /** After the id of a row without attributes: the rest of the row. */
  bareEnd: string;
  /** Ids are numbers or DATETIME texts: nothing to escape, and ASCII. */
  plainIds: boolean;
  /** The head is ASCII. */
  ascii: boolean;
}

/** Per vertex type (catalogs are replaced, never changed in place). */
const typeHeads = new WeakMap<VertexType, TypeHead>();

function typeHead(vt: VertexType): TypeHead {
  let t = typeHeads.get(vt);
  if (t === undefined) {
    const head = `,"v_type":${jsonString(vt.name)},"attributes":{`;
    const plainIds = plainIdsOf(vt);
    t = { head, bareEnd: `${plainIds ? '"' : ''}${head}}}`, plainIds, ascii: ASCII_ONLY.test(head) };
    typeHeads.set(vt, t);
  }
  return t;
}

/** Attribute kinds whose values are always written through toJsonValue (never as they are). */
export const CONVERTED_KINDS: ReadonlySet<AttrType['kind']> = new Set([
  'LIST',
  'SET',
  'MAP',
  'UDT',
  'VERTEX',
  'FIXED_BINARY',
]);

/** An attribute value of this type as JSON text: `stringifyJson(toJsonValue(v, type, catalog))`. */
function valueWriter(type: AttrType, catalog: Catalog): (v: Value) => string {
  const general = (v: Value): string => stringifyJson(toJsonValue(v, type, catalog));
  if (CONVERTED_KINDS.has(type.kind)) return general;
  switch (type.kind) {
    case 'DATETIME':
      return (v) => (typeof v === 'number' ? jsonString(formatDatetime(v)) : general(v));
    default:
      // Scalars print as they are (toJsonValue's plain form).
      return (v) => (typeof v === 'object' || v === undefined ? general(v) : stringifyJson(v));
  }
}

/**
 * A vertex row's text, `stringifyJson(vertexJson(tx.vertex(vt.name, row, attrs), types, tx.catalog))`,
 * written from the type's columns without a record object (the point read), and whether it is
 * ASCII: the values in the order tx.vertex lists them (the primary id when it is an attribute,
 * then the type's attributes; `attrs` selects, it does not reorder). The vertex list writes the
 * same texts as bytes (vertex-bytes.ts).
 */
export function vertexRowText(
  tx: ReadTx,
  vt: VertexType,
  row: number,
  attrs: readonly string[] | undefined,
  types: AttrTypes,
): { json: string; ascii: boolean } {
  const want = (n: string): boolean => attrs === undefined || attrs.includes(n);
  const { head, bareEnd, plainIds, ascii: asciiHead } = typeHead(vt);
  const idText = tx.vertexId(vt.name, row);
  let json = plainIds ? `{"v_id":"${idText}` : `{"v_id":${jsonString(idText)}`;
  let ascii = plainIds && asciiHead;
  let first = true;
  const add = (name: string, value: Value): void => {
    const type = types.get(name) ?? PLAIN;
    ascii &&= ASCII_KINDS.has(type.kind) && ASCII_ONLY.test(name);
    json += `${first ? `${plainIds ? '"' : ''}${head}` : ','}${jsonString(name)}:${valueWriter(type, tx.catalog)(value)}`;
    first = false;
  };
  if (vt.keyKind === 'primary_id' && vt.primaryIdAsAttribute && want(vt.primaryId.name)) {
    add(vt.primaryId.name, tx.vertexIdValue(vt.name, row));
  }
  for (const a of vt.attributes) if (want(a.name)) add(a.name, tx.attr(vt.name, row, a.name));
  return { json: first ? json + bareEnd : `${json}}}`, ascii };
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
