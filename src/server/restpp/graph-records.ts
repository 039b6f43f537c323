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
const ASCII_KINDS: ReadonlySet<AttrType['kind']> = new Set(['INT', 'UINT', 'FLOAT', 'DOUBLE', 'BOOL', 'DATETIME']);

// eslint-disable-next-line no-control-regex
const ASCII_ONLY = /^[\x00-\x7f]*$/;

const ROW_END = '}}';
const rowStart = (plainIds: boolean): string => (plainIds ? '{"v_id":"' : '{"v_id":');

/** The parts of a vertex type's row texts that do not depend on the row. */
interface TypeHead {
  /** `,"v_type":…,"attributes":{` */
  head: string;
  /** After the id of a row without attributes: its end, or its end and the next row's start. */
  bareEnd: string;
  bareMore: string;
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
    const plainIds = vt.keyKind === 'primary_id' && ['INT', 'UINT', 'DATETIME'].includes(vt.primaryId.type.kind);
    const bareEnd = `${plainIds ? '"' : ''}${head}${ROW_END}`;
    t = { head, bareEnd, bareMore: `${bareEnd},${rowStart(plainIds)}`, plainIds, ascii: ASCII_ONLY.test(head) };
    typeHeads.set(vt, t);
  }
  return t;
}

/** An attribute value of this type as JSON text: `stringifyJson(toJsonValue(v, type, catalog))`. */
function valueWriter(type: AttrType, catalog: Catalog): (v: Value) => string {
  const general = (v: Value): string => stringifyJson(toJsonValue(v, type, catalog));
  switch (type.kind) {
    case 'DATETIME':
      return (v) => (typeof v === 'number' ? jsonString(formatDatetime(v)) : general(v));
    case 'LIST':
    case 'SET':
    case 'MAP':
    case 'UDT':
    case 'VERTEX':
    case 'FIXED_BINARY':
      return general;
    default:
      // Scalars print as they are (toJsonValue's plain form).
      return (v) => (typeof v === 'object' || v === undefined ? general(v) : stringifyJson(v));
  }
}

interface RowAppender {
  /** What every row's text starts with (`{"v_id":` and, for a plain id, its quote). */
  start: string;
  /**
   * `text` (which ends with `start`) followed by the rest of the row's text, then, unless it is
   * the last row, `,` and the next row's `start`.
   */
  append: (text: string, row: number, last: boolean) => string;
  /** Every row text it writes is ASCII. */
  ascii: boolean;
}

/**
 * Appends the text `stringifyJson(vertexJson(tx.vertex(vt.name, row, attrs), types, tx.catalog))`
 * of a row to a text, without a record object per row (the vertex read and list paths): the
 * attributes' columns, keys and value writers are looked up once per call, in the order tx.vertex
 * lists them (the primary id when it is an attribute, then the type's attributes; `attrs` selects,
 * it does not reorder). A list is one string appended to (a rope, flattened once as it is sent),
 * and the texts between two values are joined ahead, so a row adds two pieces plus two per
 * attribute (a rope of many small pieces is slow to flatten).
 */
function vertexRowAppender(
  tx: ReadTx,
  vt: VertexType,
  attrs: readonly string[] | undefined,
  types: AttrTypes,
): RowAppender {
  const want = (n: string): boolean => attrs === undefined || attrs.includes(n);
  const { head, bareEnd, bareMore, plainIds, ascii: asciiHead } = typeHead(vt);
  const names: string[] = [];
  const fields: { text: (v: Value) => string; read: (row: number) => Value }[] = [];
  let ascii = plainIds && asciiHead;
  const add = (name: string, read: (row: number) => Value): void => {
    const type = types.get(name) ?? PLAIN;
    names.push(jsonString(name));
    ascii &&= ASCII_KINDS.has(type.kind) && ASCII_ONLY.test(name);
    fields.push({ text: valueWriter(type, tx.catalog), read });
  };
  if (vt.keyKind === 'primary_id' && vt.primaryIdAsAttribute && want(vt.primaryId.name)) {
    add(vt.primaryId.name, (row) => tx.vertexIdValue(vt.name, row));
  }
  for (const a of vt.attributes) if (want(a.name)) add(a.name, tx.column(vt.name, a.name).get);
  const ids = tx.vertexRows(vt.name);
  const start = rowStart(plainIds);
  const id = plainIds ? (row: number) => ids.idText(row) : (row: number) => jsonString(ids.idText(row));
  if (fields.length === 0) {
    return { start, append: (text, row, last) => text + id(row) + (last ? bareEnd : bareMore), ascii };
  }
  // The pieces after the id and after each value: the next attribute's key, or the row's end
  // (`more`: the end, a comma and the next row's start).
  const keys = names.map((n, i) => `${i === 0 ? '' : ','}${n}:`);
  const end = ROW_END;
  const more = `${end},${start}`;
  const afterId = `${plainIds ? '"' : ''}${head}${keys[0]}`;
  const append = (text: string, row: number, last: boolean): string => {
    text += id(row) + afterId;
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i];
      text += f.text(f.read(row)) + (i + 1 < fields.length ? keys[i + 1] : last ? end : more);
    }
    return text;
  };
  return { start, append, ascii };
}

/** A vertex row's text (see vertexRowAppender), and whether it is ASCII. */
export function vertexRowText(
  tx: ReadTx,
  vt: VertexType,
  row: number,
  attrs: readonly string[] | undefined,
  types: AttrTypes,
): { json: string; ascii: boolean } {
  const { start, append, ascii } = vertexRowAppender(tx, vt, attrs, types);
  return { json: append(start, row, true), ascii };
}

/** The JSON array of the texts of `rows` (see vertexRowAppender) as one string, and whether it is ASCII. */
export function vertexRowsJson(
  tx: ReadTx,
  vt: VertexType,
  rows: readonly number[],
  attrs: readonly string[] | undefined,
  types: AttrTypes,
): { json: string; ascii: boolean } {
  const { start, append, ascii } = vertexRowAppender(tx, vt, attrs, types);
  if (rows.length === 0) return { json: '[]', ascii };
  let text = `[${start}`;
  for (let i = 0; i < rows.length; i++) text = append(text, rows[i], i === rows.length - 1);
  return { json: `${text}]`, ascii };
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
