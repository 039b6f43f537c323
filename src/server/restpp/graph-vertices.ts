/**
 * Vertex access over REST++: list (select, filter, sort, limit, count_only, timeout), retrieve one,
 * delete by filter, delete one, delete a whole type.
 */
import type { FastifyRequest } from 'fastify';
import type { Catalog, VertexType } from '../../catalog/types.js';
import type { Value } from '../../catalog/value.js';
import { EngineError, type ReadTx } from '../../engine/api.js';
import type { ServerContext } from '../context.js';
import { queryOf } from '../http/app.js';
import {
  okEnvelope,
  okEnvelopeBytes,
  okEnvelopeText,
  RestError,
  type Envelope,
  type JsonBytes,
  type JsonText,
} from '../http/envelope.js';
import type { RouteRequest } from '../http/fast-path.js';
import type { QueryParams } from '../http/querystring.js';
import {
  bindFilter,
  checkAttributes,
  parseFilter,
  parseLimit,
  parseSelect,
  parseSort,
  sortRecords,
  type AttrTypes,
  type FilterCondition,
  type SortKey,
} from './graph-filter.js';
import { vertexRowText } from './graph-records.js';
import { Deadline, graphOf, vertexTypeOf } from './graph-request.js';
import { vertexAttrTypes } from './graph-schema.js';
import type { ParamSpec } from './endpoint-registry.js';
import { pathParam } from './route-module.js';
import { writeVertexRows } from './vertex-bytes.js';

export const VERTEX_LIST_PARAMS: Record<string, ParamSpec> = {
  count_only: { type: 'BOOL', default: 'false' },
  select: { type: 'STRING' },
  filter: { type: 'STRING' },
  limit: { type: 'UINT' },
  sort: { type: 'STRING' },
  timeout: { type: 'UINT', default: '0' },
};
export const VERTEX_GET_PARAMS: Record<string, ParamSpec> = {
  select: { type: 'STRING' },
  timeout: { type: 'UINT', default: '0' },
};
export const VERTEX_DELETE_PARAMS: Record<string, ParamSpec> = {
  filter: { type: 'STRING' },
  limit: { type: 'UINT' },
  sort: { type: 'STRING' },
  permanent: { type: 'BOOL', default: 'false' },
  timeout: { type: 'UINT', default: '0' },
  ack: { type: 'STRING', default: 'all' },
};
export const VERTEX_DELETE_ONE_PARAMS: Record<string, ParamSpec> = {
  permanent: { type: 'BOOL', default: 'false' },
  timeout: { type: 'UINT', default: '0' },
};
export const DELETE_BY_TYPE_PARAMS: Record<string, ParamSpec> = {
  permanent: { type: 'BOOL', default: 'false' },
  ack: { type: 'STRING', default: 'all' },
};

/** The `ack` parameter: `all` (default) or `none`; both answer once the change is durable. */
export function checkAck(q: QueryParams): void {
  const ack = q.get('ack');
  if (ack !== undefined && !['all', 'none'].includes(ack.trim().toLowerCase())) {
    throw new RestError(
      'REST-30001',
      `The value '${ack}' of parameter 'ack' is invalid; expected 'all' or 'none'.`,
    );
  }
}

/** Reads an attribute of a vertex; the primary id reads as an attribute when the type says so. */
function attrReader(tx: ReadTx, vt: VertexType, row: number): (attr: string) => Value {
  const idAttr = vt.keyKind === 'primary_id' && vt.primaryIdAsAttribute ? vt.primaryId.name : undefined;
  return (attr) => (attr === idAttr ? tx.vertexIdValue(vt.name, row) : tx.attr(vt.name, row, attr));
}

/** Filter, sort and limit of one request, checked against the vertex type before any scan. */
interface VertexSelection {
  conditions: FilterCondition[];
  sort: SortKey[];
  limit: number | undefined;
  types: AttrTypes;
}

function selection(q: QueryParams, vt: VertexType): VertexSelection {
  const conditions = parseFilter(q.getAll('filter'));
  const sort = parseSort(q.getAll('sort'));
  const limit = parseLimit(q.get('limit'));
  const types = vertexAttrTypes(vt);
  const where = `vertex type '${vt.name}'`;
  checkAttributes(
    conditions.map((c) => c.attribute),
    [types],
    where,
    'filter',
  );
  checkAttributes(
    sort.map((k) => k.attribute),
    [types],
    where,
    'sort',
  );
  bindFilter(conditions, types); // rejects bad literals before the scan starts
  return { conditions, sort, limit, types };
}

/** The rows matching a selection, sorted and limited. */
function selectRows(
  tx: ReadTx,
  vt: VertexType,
  sel: VertexSelection,
  deadline: Deadline,
  useLimit = true,
): number[] {
  const filter = bindFilter(sel.conditions, sel.types);
  // Without a filter every live row is selected: no attribute reader per row.
  const selected =
    sel.conditions.length === 0 ? () => true : (row: number) => filter(attrReader(tx, vt, row));
  const limit = useLimit ? sel.limit : undefined;
  const earlyStop = limit !== undefined && sel.sort.length === 0;
  const out: number[] = [];
  if (earlyStop) {
    // Rows in the same ascending order as tx.rows(), without listing every live row first: a
    // `limit=100` reads about 100 rows, not the whole type.
    const view = tx.vertexRows(vt.name);
    const filtered = sel.conditions.length > 0;
    for (let row = 0; row < view.limit && out.length < (limit as number); row++) {
      deadline.check();
      if (view.isLive(row) && (!filtered || selected(row))) out.push(row);
    }
    return out;
  }
  for (const row of tx.rows(vt.name)) {
    deadline.check();
    if (selected(row)) out.push(row);
  }
  sortRecords(out, sel.sort, (row, attr) => attrReader(tx, vt, row)(attr));
  return limit === undefined ? out : out.slice(0, limit);
}

function selectedAttributes(q: QueryParams, vt: VertexType): string[] | undefined {
  const names = parseSelect(q.getAll('select'));
  if (names.length === 0) return undefined;
  checkAttributes(names, [vertexAttrTypes(vt)], `vertex type '${vt.name}'`, 'select');
  return names;
}

function withRead<T>(ctx: ServerContext, fn: (tx: ReadTx) => T): T {
  const tx = ctx.db.read();
  try {
    return fn(tx);
  } finally {
    tx.release();
  }
}

/** GET /graph/{graph_name}/vertices/{vertex_type} */
export function listVertices(ctx: ServerContext, request: RouteRequest): Envelope | JsonBytes {
  const catalog = ctx.db.catalog;
  const vt = vertexTypeOf(catalog, graphOf(ctx, request), pathParam(request, 'vertex_type'));
  const q = queryOf(request);
  const sel = selection(q, vt);
  const countOnly = q.bool('count_only', false);
  const attrs = selectedAttributes(q, vt);
  const deadline = Deadline.of(q);
  return withRead(ctx, (tx) => {
    if (countOnly) {
      return okEnvelope([{ v_type: vt.name, count: selectRows(tx, vt, sel, deadline, false).length }]);
    }
    const rows = selectRows(tx, vt, sel, deadline);
    return okEnvelopeBytes((w) => writeVertexRows(w, tx, vt, rows, attrs, sel.types));
  });
}

function noSuchVertex(vt: VertexType, id: string): RestError {
  return new RestError(
    'REST-30000',
    `The input vertex id '${id}' is not a valid vertex id for vertex type = ${vt.name}.`,
  );
}

/** The row of a vertex named in the url; a malformed id is the same error as a missing one. */
function lookupRow(tx: ReadTx, vt: VertexType, id: string): number | undefined {
  try {
    return tx.lookup(vt.name, id);
  } catch (e) {
    if (e instanceof EngineError) return undefined;
    throw e;
  }
}

/** GET /graph/{graph_name}/vertices/{vertex_type}/{vertex_id} */
export function getVertex(ctx: ServerContext, request: RouteRequest): JsonText {
  const catalog = ctx.db.catalog;
  const vt = vertexTypeOf(catalog, graphOf(ctx, request), pathParam(request, 'vertex_type'));
  const id = pathParam(request, 'vertex_id') ?? '';
  const q = queryOf(request);
  const attrs = selectedAttributes(q, vt);
  Deadline.of(q);
  return withRead(ctx, (tx) => {
    const row = lookupRow(tx, vt, id);
    if (row === undefined) throw noSuchVertex(vt, id);
    const { json, ascii } = vertexRowText(tx, vt, row, attrs, vertexAttrTypes(vt));
    return okEnvelopeText(`[${json}]`, ascii);
  });
}

/** DELETE /graph/{graph_name}/vertices/{vertex_type}: every vertex the filter/sort/limit select. */
export async function deleteVertices(ctx: ServerContext, request: FastifyRequest): Promise<Envelope> {
  const catalog = ctx.db.catalog;
  const vt = vertexTypeOf(catalog, graphOf(ctx, request), pathParam(request, 'vertex_type'));
  const q = queryOf(request);
  const sel = selection(q, vt);
  const permanent = q.bool('permanent', false);
  checkAck(q);
  const deadline = Deadline.of(q);
  const deleted = await ctx.db.write((tx) => {
    const ids = selectRows(tx, vt, sel, deadline).map((row) => tx.vertexId(vt.name, row));
    let n = 0;
    for (const id of ids) if (tx.deleteVertex(vt.name, id, { permanent })) n++;
    return n;
  });
  return okEnvelope({ v_type: vt.name, deleted_vertices: deleted });
}

/** DELETE /graph/{graph_name}/vertices/{vertex_type}/{vertex_id} */
export async function deleteVertex(ctx: ServerContext, request: FastifyRequest): Promise<Envelope> {
  const catalog = ctx.db.catalog;
  const vt = vertexTypeOf(catalog, graphOf(ctx, request), pathParam(request, 'vertex_type'));
  const id = pathParam(request, 'vertex_id') ?? '';
  const q = queryOf(request);
  const permanent = q.bool('permanent', false);
  Deadline.of(q);
  const deleted = await ctx.db.write((tx) => {
    const row = lookupRow(tx, vt, id);
    if (row === undefined) return 0;
    return tx.deleteVertex(vt.name, tx.vertexId(vt.name, row), { permanent }) ? 1 : 0;
  });
  return okEnvelope({ v_type: vt.name, deleted_vertices: deleted });
}

/** DELETE /graph/{graph_name}/delete_by_type/vertices/{vertex_type} */
export async function deleteVerticesByType(ctx: ServerContext, request: FastifyRequest): Promise<Envelope> {
  const catalog: Catalog = ctx.db.catalog;
  const vt = vertexTypeOf(catalog, graphOf(ctx, request), pathParam(request, 'vertex_type'));
  const q = queryOf(request);
  const permanent = q.bool('permanent', false);
  checkAck(q);
  const deleted = await ctx.db.write((tx) => {
    const ids = Array.from(tx.rows(vt.name), (row) => tx.vertexId(vt.name, row));
    let n = 0;
    for (const id of ids) if (tx.deleteVertex(vt.name, id, { permanent })) n++;
    return n;
  });
  return okEnvelope({ v_type: vt.name, deleted_vertices: deleted });
}
