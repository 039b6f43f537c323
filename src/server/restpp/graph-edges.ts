/**
 * Edge access over REST++: `GET` and `DELETE` on
 * /graph/{g}/edges/{src type}/{src id}[/{edge type}[/{tgt type}[/{tgt id}[/{discriminator}]]]].
 * `_` as edge or target type is a wildcard unless `not_wildcard=true`. Counts and deletions list
 * every edge type in scope, zero counts included (pyTigerGraph reads them into a dict).
 */
import type { FastifyRequest } from 'fastify';
import type { Catalog, VertexType } from '../../catalog/types.js';
import { EngineError, type EdgeHandle, type ReadTx } from '../../engine/api.js';
import type { ServerContext } from '../context.js';
import { queryOf } from '../http/app.js';
import { okEnvelope, RestError, type Envelope } from '../http/envelope.js';
import type { QueryParams } from '../http/querystring.js';
import type { ParamSpec } from './endpoint-registry.js';
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
  type RecordPredicate,
  type SortKey,
} from './graph-filter.js';
import { edgeJson } from './graph-records.js';
import { Deadline, graphOf, vertexTypeOf } from './graph-request.js';
import { edgeAttrTypes, graphEdgeTypes, resolveEdgeType, type ResolvedEdgeType } from './graph-schema.js';
import { pathParam } from './route-module.js';

export const EDGE_GET_PARAMS: Record<string, ParamSpec> = {
  count_only: { type: 'BOOL', default: 'false' },
  select: { type: 'STRING' },
  filter: { type: 'STRING' },
  limit: { type: 'UINT' },
  sort: { type: 'STRING' },
  not_wildcard: { type: 'BOOL', default: 'false' },
  timeout: { type: 'UINT', default: '0' },
};
export const EDGE_DELETE_PARAMS: Record<string, ParamSpec> = {
  filter: { type: 'STRING' },
  limit: { type: 'UINT' },
  sort: { type: 'STRING' },
  not_wildcard: { type: 'BOOL', default: 'false' },
  timeout: { type: 'UINT', default: '0' },
};

/** The url segments after /edges, as path patterns of increasing depth. */
export const EDGE_PATHS = [
  '/graph/{graph_name}/edges/{source_vertex_type}/{source_vertex_id}',
  '/graph/{graph_name}/edges/{source_vertex_type}/{source_vertex_id}/{edge_type}',
  '/graph/{graph_name}/edges/{source_vertex_type}/{source_vertex_id}/{edge_type}/{target_vertex_type}',
  '/graph/{graph_name}/edges/{source_vertex_type}/{source_vertex_id}/{edge_type}/{target_vertex_type}/{target_vertex_id}',
  '/graph/{graph_name}/edges/{source_vertex_type}/{source_vertex_id}/{edge_type}/{target_vertex_type}/{target_vertex_id}/{discriminator}',
] as const;

/** What one edge request addresses, resolved against the schema before any read. */
interface EdgeScope {
  source: VertexType;
  sourceId: string;
  /** The edge types counted and reported: one when the url names it, else every type of the graph. */
  edgeTypes: ResolvedEdgeType[];
  edgeType?: ResolvedEdgeType;
  target?: VertexType;
  targetId?: string;
  sort: SortKey[];
  limit: number | undefined;
  /** Filter bound per edge type name. */
  predicates: Map<string, RecordPredicate>;
  typesByName: Map<string, AttrTypes>;
}

/** Splits a discriminator segment on commas; `\,` is a literal comma. */
function splitDiscriminator(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\' && i + 1 < text.length) cur += text[++i];
    else if (text[i] === ',') {
      out.push(cur);
      cur = '';
    } else cur += text[i];
  }
  out.push(cur);
  return out;
}

function scopeOf(ctx: ServerContext, request: FastifyRequest, q: QueryParams): EdgeScope {
  const catalog: Catalog = ctx.db.catalog;
  const graph = graphOf(ctx, request);
  const source = vertexTypeOf(catalog, graph, pathParam(request, 'source_vertex_type'), 'source vertex type');
  const sourceId = pathParam(request, 'source_vertex_id') ?? '';
  const notWildcard = q.bool('not_wildcard', false);
  const wildcard = (seg: string | undefined): boolean => seg === undefined || (seg === '_' && !notWildcard);

  const etName = pathParam(request, 'edge_type');
  let edgeType: ResolvedEdgeType | undefined;
  if (!wildcard(etName)) {
    edgeType = resolveEdgeType(catalog, graph, etName as string);
    if (!edgeType) {
      throw new RestError(
        'REST-30000',
        `Invalid edge type '${etName}': it is not an edge type of graph '${graph.name}'.`,
      );
    }
  }
  const ttName = pathParam(request, 'target_vertex_type');
  const target = wildcard(ttName) ? undefined : vertexTypeOf(catalog, graph, ttName, 'target vertex type');
  const targetId = pathParam(request, 'target_vertex_id');
  if (targetId !== undefined && !target) {
    throw new RestError('REST-30000', `A target vertex id needs a target vertex type, not the wildcard '_'.`);
  }

  const edgeTypes = edgeType ? [edgeType] : graphEdgeTypes(catalog, graph);
  const typesByName = new Map(edgeTypes.map((et) => [et.name, edgeAttrTypes(et.edge)]));

  const discText = pathParam(request, 'discriminator');
  const discriminator: FilterCondition[] = [];
  if (discText !== undefined) {
    const names = edgeType?.edge.discriminator ?? [];
    const values = splitDiscriminator(discText);
    if (names.length === 0 || values.length !== names.length) {
      throw new RestError(
        'REST-30000',
        `Invalid discriminator '${discText}' for edge type '${etName ?? ''}': expected ${names.length} comma-separated value(s)` +
          (names.length ? ` for ${names.join(', ')}.` : '; the edge type has no discriminator.'),
      );
    }
    names.forEach((attribute, i) =>
      discriminator.push({ attribute, op: '=', literal: values[i], text: `${attribute}=${values[i]}` }),
    );
  }

  const conditions = parseFilter(q.getAll('filter'));
  const sort = parseSort(q.getAll('sort'));
  const limit = parseLimit(q.get('limit'));
  const scopeTypes = [...typesByName.values()];
  const where = edgeType ? `edge type '${edgeType.name}'` : `any edge type of graph '${graph.name}'`;
  checkAttributes(
    conditions.map((c) => c.attribute),
    scopeTypes,
    where,
    'filter',
  );
  checkAttributes(
    sort.map((k) => k.attribute),
    scopeTypes,
    where,
    'sort',
  );
  const predicates = new Map<string, RecordPredicate>();
  for (const [name, types] of typesByName)
    predicates.set(name, bindFilter([...discriminator, ...conditions], types));
  return {
    source,
    sourceId,
    edgeTypes,
    edgeType,
    target,
    targetId,
    sort,
    limit,
    predicates,
    typesByName,
  };
}

function lookupRow(tx: ReadTx, vt: VertexType, id: string): number | undefined {
  try {
    return tx.lookup(vt.name, id);
  } catch (e) {
    if (e instanceof EngineError) return undefined;
    throw e;
  }
}

/** The edges a scope selects, filtered, sorted and (unless counting) limited. */
function selectEdges(tx: ReadTx, s: EdgeScope, deadline: Deadline, useLimit: boolean): EdgeHandle[] {
  const srcRow = lookupRow(tx, s.source, s.sourceId);
  if (srcRow === undefined) {
    throw new RestError(
      'REST-30000',
      `The input vertex id '${s.sourceId}' is not a valid vertex id for vertex type = ${s.source.name}.`,
    );
  }
  let tgtRow: number | undefined;
  if (s.target && s.targetId !== undefined) {
    tgtRow = lookupRow(tx, s.target, s.targetId);
    if (tgtRow === undefined) return [];
  }
  const handles = tx.edges(s.source.name, srcRow, {
    ...(s.edgeType ? { edgeType: s.edgeType.name } : {}),
    ...(s.target ? { targetType: s.target.name } : {}),
  });
  const out: EdgeHandle[] = [];
  for (const h of handles) {
    deadline.check();
    if (tgtRow !== undefined && h.tgtRow !== tgtRow) continue;
    const pred = s.predicates.get(h.edgeType);
    if (!pred || !pred((attr) => tx.edgeAttr(h, attr))) continue;
    out.push(h);
  }
  sortRecords(out, s.sort, (h, attr) =>
    s.typesByName.get(h.edgeType)?.has(attr) ? tx.edgeAttr(h, attr) : undefined,
  );
  return useLimit && s.limit !== undefined ? out.slice(0, s.limit) : out;
}

function countByType(s: EdgeScope, handles: readonly EdgeHandle[], key: 'count' | 'deleted_edges') {
  const counts = new Map(s.edgeTypes.map((et) => [et.name, 0]));
  for (const h of handles) counts.set(h.edgeType, (counts.get(h.edgeType) ?? 0) + 1);
  return [...counts].map(([e_type, n]) => ({ e_type, [key]: n }));
}

/** GET on an edge path. */
export function getEdges(ctx: ServerContext, request: FastifyRequest): Envelope {
  const q = queryOf(request);
  const s = scopeOf(ctx, request, q);
  const countOnly = q.bool('count_only', false);
  const select = parseSelect(q.getAll('select'));
  checkAttributes(select, [...s.typesByName.values()], `the edge types of this request`, 'select');
  const deadline = Deadline.of(q);
  const tx = ctx.db.read();
  try {
    if (countOnly) return okEnvelope(countByType(s, selectEdges(tx, s, deadline, false), 'count'));
    const handles = selectEdges(tx, s, deadline, true);
    return okEnvelope(
      handles.map((h) => {
        const types = s.typesByName.get(h.edgeType) ?? new Map();
        const attrs = select.length ? select.filter((a) => types.has(a)) : undefined;
        return edgeJson(tx.edgeRecord(h, attrs), types, tx.catalog);
      }),
    );
  } finally {
    tx.release();
  }
}

/** DELETE on an edge path: deletes the selected edges, reports a count per edge type. */
export async function deleteEdges(ctx: ServerContext, request: FastifyRequest): Promise<Envelope> {
  const q = queryOf(request);
  const s = scopeOf(ctx, request, q);
  const deadline = Deadline.of(q);
  const deleted = await ctx.db.write((tx) => {
    const handles = selectEdges(tx, s, deadline, true);
    return handles.filter((h) => tx.deleteEdgeHandle(h));
  });
  return okEnvelope(countByType(s, deleted, 'deleted_edges'));
}
