/**
 * Vertex rows written as JSON bytes (the vertex list): for each row the UTF-8 bytes of
 * `stringifyJson(vertexJson(tx.vertex(vt.name, row, attrs), types, tx.catalog))`, the text that
 * graph-records.ts's vertexRowText builds, written straight into the body (json-writer.ts) with no
 * string per row or value: integer ids and numbers as digits, plain strings copied as they are,
 * the text between two values (a row's end, a comma, the next row's start; an attribute's key)
 * as constant bytes joined once per type and selection.
 */
import type { AttrType, Catalog, VertexType } from '../../catalog/types.js';
import { toJsonValue } from '../../catalog/json-value.js';
import type { Value } from '../../catalog/value.js';
import type { ReadTx, VertexRowsView } from '../../engine/api.js';
import { formatDatetime } from '../../util/datetime.js';
import { jsonString, stringifyJson } from '../../util/json.js';
import type { JsonWriter } from '../http/json-writer.js';
import type { AttrTypes } from './graph-filter.js';
import { CONVERTED_KINDS, plainIdsOf } from './graph-records.js';

const PLAIN: AttrType = { kind: 'STRING', compress: false };
const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
const NULL = Buffer.from('null');
const NUMBER_KINDS: ReadonlySet<AttrType['kind']> = new Set(['INT', 'UINT', 'FLOAT', 'DOUBLE']);

/** Writes one value of a row. */
type FieldWriter = (w: JsonWriter, row: number) => void;

/** `stringifyJson(v)` of a number: integers up to 2^53 as digits, others as String writes them. */
function writeNumber(w: JsonWriter, v: number): void {
  if (Number.isInteger(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER) w.int(v);
  else if (Number.isFinite(v)) w.ascii(String(v));
  else w.bytes(NULL);
}

/** The writer of an attribute's values: `stringifyJson(toJsonValue(v, type, catalog))`, as graph-records.ts's valueWriter. */
function fieldWriter(
  type: AttrType,
  catalog: Catalog,
  read: (row: number) => Value,
  numbers: Float64Array | undefined,
): FieldWriter {
  const general = (w: JsonWriter, v: Value): void => w.text(stringifyJson(toJsonValue(v, type, catalog)));
  if (CONVERTED_KINDS.has(type.kind)) return (w, row) => general(w, read(row));
  switch (type.kind) {
    case 'DATETIME':
      return (w, row) => {
        const v = read(row);
        if (typeof v === 'number') w.jsonString(formatDatetime(v));
        else general(w, v);
      };
    default:
      if (numbers !== undefined) return (w, row) => writeNumber(w, numbers[row]);
      // Scalars print as they are (toJsonValue's plain form).
      return (w, row) => {
        const v = read(row);
        switch (typeof v) {
          case 'number':
            return writeNumber(w, v);
          case 'string':
            return w.jsonString(v);
          case 'boolean':
            return w.bytes(v ? TRUE : FALSE);
          case 'bigint':
            return w.ascii(v.toString());
          default:
            return general(w, v);
        }
      };
  }
}

/** `String(v)` of a numeric INT or UINT id. */
function writeIntId(w: JsonWriter, v: number): void {
  if (Number.isSafeInteger(v)) w.int(v);
  else w.ascii(String(v));
}

/** The writer of a row's id (`"v_id"`'s value): digits or date text for plain ids, else a JSON string. */
function idWriter(vt: VertexType, ids: VertexRowsView, plainIds: boolean): FieldWriter {
  if (!plainIds) return (w, row) => w.jsonString(ids.idText(row));
  if (vt.primaryId.type.kind === 'DATETIME') return (w, row) => w.ascii(ids.idText(row));
  // INT and UINT ids: numbers, or bigints past 2^53 (idText is String of either).
  const numbers = ids.idNumbers;
  if (numbers !== null) return (w, row) => writeIntId(w, numbers[row]);
  return (w, row) => {
    const v = ids.idValue(row);
    if (typeof v === 'number') writeIntId(w, v);
    else w.ascii(String(v));
  };
}

/** The constant bytes of a type's rows for one selection of attributes. */
interface RowPieces {
  /** `{"v_id":` and the opening quote of a plain id. */
  start: Uint8Array;
  /** After the id: the rest of a row without attributes, or up to the first attribute's value. */
  afterId: Uint8Array;
  /** Without attributes: afterId, a comma and the next row's start. */
  bareMore: Uint8Array;
  /** After each value but the last: the next attribute's key. */
  keys: Uint8Array[];
  /** After the last value: the row's end, and with `more` a comma and the next row's start. */
  end: Uint8Array;
  more: Uint8Array;
}

function rowPieces(vt: VertexType, names: readonly string[]): RowPieces {
  const plainIds = plainIdsOf(vt);
  const quote = plainIds ? '"' : '';
  const start = `{"v_id":${quote}`;
  const head = `${quote},"v_type":${jsonString(vt.name)},"attributes":{`;
  const keys = names.map((n, i) => `${i === 0 ? '' : ','}${jsonString(n)}:`);
  const bytes = (s: string): Uint8Array => Buffer.from(s, 'utf8');
  return {
    start: bytes(start),
    afterId: bytes(names.length === 0 ? `${head}}}` : `${head}${keys[0]}`),
    bareMore: bytes(`${head}}},${start}`),
    keys: keys.map(bytes),
    end: bytes('}}'),
    more: bytes(`}},${start}`),
  };
}

/** The names a row lists, in tx.vertex's order: the primary id when it is an attribute, then the type's attributes. */
function listedNames(vt: VertexType, attrs: readonly string[] | undefined): string[] {
  const want = (n: string): boolean => attrs === undefined || attrs.includes(n);
  const names: string[] = [];
  if (vt.keyKind === 'primary_id' && vt.primaryIdAsAttribute && want(vt.primaryId.name))
    names.push(vt.primaryId.name);
  for (const a of vt.attributes) if (want(a.name)) names.push(a.name);
  return names;
}

/** Per vertex type, the pieces of rows with every attribute (catalogs are replaced, never changed in place). */
const allPieces = new WeakMap<VertexType, { names: string[]; pieces: RowPieces }>();

function piecesOf(
  vt: VertexType,
  attrs: readonly string[] | undefined,
): { names: string[]; pieces: RowPieces } {
  if (attrs !== undefined) {
    const names = listedNames(vt, attrs);
    return { names, pieces: rowPieces(vt, names) };
  }
  let p = allPieces.get(vt);
  if (p === undefined) {
    const names = listedNames(vt, undefined);
    allPieces.set(vt, (p = { names, pieces: rowPieces(vt, names) }));
  }
  return p;
}

/**
 * Writes the JSON array of `rows`' texts (each as vertexRowText writes it; `attrs` selects, it
 * does not reorder). The attributes' columns and writers are looked up once per call.
 */
export function writeVertexRows(
  w: JsonWriter,
  tx: ReadTx,
  vt: VertexType,
  rows: readonly number[],
  attrs: readonly string[] | undefined,
  types: AttrTypes,
): void {
  const n = rows.length;
  if (n === 0) {
    w.ascii('[]');
    return;
  }
  const { names, pieces } = piecesOf(vt, attrs);
  const ids = tx.vertexRows(vt.name);
  const intIds =
    ['INT', 'UINT'].includes(vt.primaryId.type.kind) && vt.keyKind === 'primary_id' ? ids.idNumbers : null;
  const fields = names.map((name) => {
    const type = types.get(name) ?? PLAIN;
    if (vt.keyKind === 'primary_id' && name === vt.primaryId.name && vt.primaryIdAsAttribute) {
      return fieldWriter(type, tx.catalog, ids.idValue, undefined);
    }
    const column = tx.column(vt.name, name);
    const exact = NUMBER_KINDS.has(type.kind) && column.exact && column.numbers instanceof Float64Array;
    return fieldWriter(type, tx.catalog, column.get, exact ? (column.numbers as Float64Array) : undefined);
  });
  const writeId = idWriter(vt, ids, plainIdsOf(vt));
  const nf = fields.length;
  const { afterId, bareMore, keys, end, more } = pieces;
  w.ascii('[');
  w.bytes(pieces.start);
  if (nf === 0 && intIds !== null) {
    // Rows of only an integer id (the commonest list): no call per row but the writer's.
    for (let k = 0; k < n; k++) {
      const v = intIds[rows[k]];
      if (Number.isSafeInteger(v)) w.int(v);
      else writeId(w, rows[k]);
      w.bytes(k === n - 1 ? afterId : bareMore);
    }
    w.ascii(']');
    return;
  }
  for (let k = 0; k < n; k++) {
    const row = rows[k];
    const last = k === n - 1;
    writeId(w, row);
    if (nf === 0) {
      w.bytes(last ? afterId : bareMore);
      continue;
    }
    w.bytes(afterId);
    for (let i = 0; i < nf; i++) {
      fields[i](w, row);
      w.bytes(i + 1 < nf ? keys[i + 1] : last ? end : more);
    }
  }
  w.ascii(']');
}
