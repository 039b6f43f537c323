/**
 * The REST++ vertex list (GET /restpp/graph/{g}/vertices/{type}) with filters, sorting and a limit:
 * filter conditions in REST++'s syntax (`age>30,city="Oslo"`), sort keys as `attr` / `-attr`.
 */

export type FilterOp = '=' | '!=' | '>' | '>=' | '<' | '<=';
export const FILTER_OPS: readonly FilterOp[] = ['=', '!=', '>', '>=', '<', '<='];

export interface VertexFilter {
  attribute: string;
  op: FilterOp;
  value: string;
}

export interface VertexListRequest {
  graph: string;
  vertexType: string;
  filters: readonly VertexFilter[];
  sortBy?: string;
  descending?: boolean;
  limit: number;
}

const NUMERIC = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/** One condition: numbers and true/false as they are, anything else as a quoted string. */
export function filterText(f: VertexFilter): string {
  const v = f.value.trim();
  const literal = NUMERIC.test(v) || v === 'true' || v === 'false' ? v : `"${v.replace(/(["\\])/g, '\\$1')}"`;
  return `${f.attribute}${f.op}${literal}`;
}

export function vertexListPath(r: VertexListRequest): string {
  const q: string[] = [`limit=${Math.max(1, Math.floor(r.limit))}`];
  const filters = r.filters.filter((f) => f.attribute !== '' && f.value.trim() !== '');
  if (filters.length > 0) q.push(`filter=${encodeURIComponent(filters.map(filterText).join(','))}`);
  if (r.sortBy) q.push(`sort=${encodeURIComponent(`${r.descending ? '-' : ''}${r.sortBy}`)}`);
  return `/restpp/graph/${encodeURIComponent(r.graph)}/vertices/${encodeURIComponent(r.vertexType)}?${q.join('&')}`;
}
