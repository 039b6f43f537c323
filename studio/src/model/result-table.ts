/**
 * A result as tables, one per printed name (`PRINT T, @@total` prints two): a vertex set becomes
 * rows of type, id and attributes; an edge set rows of type, ends and attributes; a list of other
 * objects one column per key; a map key/value rows; a lone value one row. Nested values are shown
 * as JSON text.
 */

export interface ResultTable {
  name: string;
  columns: string[];
  rows: string[][];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

export function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return JSON.stringify(v);
}

const isVertex = (v: unknown): v is Json => isObject(v) && 'v_id' in v && typeof v.v_type === 'string';
const isEdge = (v: unknown): v is Json =>
  isObject(v) && typeof v.e_type === 'string' && 'from_id' in v && 'to_id' in v;

/** Keys of the objects' `attributes` (or of the objects), in order of first appearance. */
function unionKeys(items: readonly Json[], pick: (o: Json) => unknown): string[] {
  const keys = new Set<string>();
  for (const item of items) {
    const o = pick(item);
    if (isObject(o)) for (const k of Object.keys(o)) keys.add(k);
  }
  return [...keys];
}

function tableOf(name: string, value: unknown): ResultTable {
  if (Array.isArray(value) && value.length > 0 && value.every(isVertex)) {
    const attrs = unionKeys(value, (o) => o.attributes);
    return {
      name,
      columns: ['v_type', 'v_id', ...attrs],
      rows: value.map((v) => [
        cellText(v.v_type),
        cellText(v.v_id),
        ...attrs.map((a) => cellText(isObject(v.attributes) ? v.attributes[a] : undefined)),
      ]),
    };
  }
  if (Array.isArray(value) && value.length > 0 && value.every(isEdge)) {
    const attrs = unionKeys(value, (o) => o.attributes);
    const fixed = ['e_type', 'from_type', 'from_id', 'to_type', 'to_id'];
    return {
      name,
      columns: [...fixed, ...attrs],
      rows: value.map((e) => [
        ...fixed.map((f) => cellText(e[f])),
        ...attrs.map((a) => cellText(isObject(e.attributes) ? e.attributes[a] : undefined)),
      ]),
    };
  }
  if (Array.isArray(value) && value.length > 0 && value.every(isObject)) {
    const keys = unionKeys(value, (o) => o);
    return { name, columns: keys, rows: value.map((o) => keys.map((k) => cellText(o[k]))) };
  }
  if (Array.isArray(value)) return { name, columns: ['value'], rows: value.map((v) => [cellText(v)]) };
  if (isObject(value)) {
    return { name, columns: ['key', 'value'], rows: Object.entries(value).map(([k, v]) => [k, cellText(v)]) };
  }
  return { name, columns: ['value'], rows: [[cellText(value)]] };
}

/** The tables of a query's `results` (an array of one object per PRINT). */
export function resultTables(results: unknown): ResultTable[] {
  if (!Array.isArray(results)) return [tableOf('result', results)];
  const out: ResultTable[] = [];
  results.forEach((printed, i) => {
    if (isObject(printed) && !isVertex(printed) && !isEdge(printed)) {
      for (const [name, value] of Object.entries(printed)) out.push(tableOf(name, value));
    } else out.push(tableOf(`result ${i + 1}`, printed));
  });
  return out;
}
