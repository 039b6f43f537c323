/**
 * The REST++ graph data endpoints (spec §4.17–4.27): upsert, vertex list/get/delete, delete by
 * type, edge list/get/delete. Handlers live in graph-upsert*.ts, graph-vertices.ts, graph-edges.ts.
 */
import type { FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.js';
import { queryOf } from '../http/app.js';
import { rawBody, readJsonText, utf8Text } from '../http/body.js';
import { okEnvelope, RestError, type Envelope } from '../http/envelope.js';
import type { QueryParams } from '../http/querystring.js';
import type { ParamSpec } from './endpoint-registry.js';
import { deleteEdges, EDGE_DELETE_PARAMS, EDGE_GET_PARAMS, EDGE_PATHS, getEdges } from './graph-edges.js';
import { graphOf } from './graph-request.js';
import { decodeUpsertBody, decodeUpsertRest } from './graph-upsert-body.js';
import { applyUpsert, type UpsertFlags } from './graph-upsert-apply.js';
import { readVertexColumns } from './graph-upsert-columns.js';
import { prepareUpsert } from './graph-upsert.js';
import {
  checkAck,
  DELETE_BY_TYPE_PARAMS,
  deleteVertex,
  deleteVertices,
  deleteVerticesByType,
  getVertex,
  listVertices,
  VERTEX_DELETE_ONE_PARAMS,
  VERTEX_DELETE_PARAMS,
  VERTEX_GET_PARAMS,
  VERTEX_LIST_PARAMS,
} from './graph-vertices.js';
import type { RestppApp, RestppRouteModule } from './route-module.js';

const UPSERT_PARAMS: Record<string, ParamSpec> = {
  ack: { type: 'STRING', default: 'all' },
  new_vertex_only: { type: 'BOOL', default: 'false' },
  update_vertex_only: { type: 'BOOL', default: 'false' },
  vertex_must_exist: { type: 'BOOL', default: 'false' },
  source_vertex_must_exist: { type: 'BOOL', default: 'false' },
  target_vertex_must_exist: { type: 'BOOL', default: 'false' },
  atomic_post: { type: 'BOOL', default: 'false' },
};

/** A boolean upsert parameter; a bad value is REST-30200 (invalid upsert parameter). */
function flag(q: QueryParams, name: string): boolean {
  try {
    return q.bool(name, false);
  } catch (e) {
    if (e instanceof RestError) throw new RestError('REST-30200', e.message);
    throw e;
  }
}

export function upsertFlags(q: QueryParams): UpsertFlags {
  const flags: UpsertFlags = {
    newVertexOnly: flag(q, 'new_vertex_only'),
    updateVertexOnly: flag(q, 'update_vertex_only'),
    vertexMustExist: flag(q, 'vertex_must_exist'),
    sourceVertexMustExist: flag(q, 'source_vertex_must_exist'),
    targetVertexMustExist: flag(q, 'target_vertex_must_exist'),
  };
  flag(q, 'atomic_post');
  if (flags.vertexMustExist && (flags.sourceVertexMustExist || flags.targetVertexMustExist)) {
    throw new RestError(
      'REST-30200',
      `The parameter 'vertex_must_exist' cannot be combined with 'source_vertex_must_exist' or 'target_vertex_must_exist'.`,
    );
  }
  if (flags.newVertexOnly && flags.updateVertexOnly) {
    throw new RestError(
      'REST-30200',
      `The parameters 'new_vertex_only' and 'update_vertex_only' cannot both be true.`,
    );
  }
  try {
    checkAck(q);
  } catch (e) {
    if (e instanceof RestError) throw new RestError('REST-30200', e.message);
    throw e;
  }
  return flags;
}

/** The `gsql-atomic-level` header: `atomic` or `nonatomic` (default). */
export function atomicLevel(request: FastifyRequest): 'atomic' | 'nonatomic' {
  const raw = request.headers['gsql-atomic-level'];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim().toLowerCase();
  if (value === undefined || value === '' || value === 'nonatomic') return 'nonatomic';
  if (value === 'atomic') return 'atomic';
  throw new RestError(
    'REST-30200',
    `The header 'gsql-atomic-level' must be 'atomic' or 'nonatomic', not '${value}'.`,
  );
}

/**
 * POST /graph/{graph_name}. The whole request is checked against the schema before anything is
 * written, and applied in one transaction: an atomic request is all-or-nothing as TigerGraph
 * promises, and a nonatomic one gets the same (stronger) guarantee.
 */
async function upsert(ctx: ServerContext, request: FastifyRequest): Promise<Envelope> {
  const graph = graphOf(ctx, request);
  const flags = upsertFlags(queryOf(request));
  atomicLevel(request);
  const raw = rawBody(request);
  const text = utf8Text(raw);
  // Without vertex flags, leading vertices that are all valid are read straight into column runs;
  // the rest of the body, if any, is read the general way from where that stopped.
  const fast =
    flags.newVertexOnly || flags.updateVertexOnly
      ? undefined
      : readVertexColumns(ctx.db.catalog, graph, raw, text);
  const body =
    fast === undefined
      ? readJsonText(text, decodeUpsertBody)
      : fast.rest === undefined
        ? undefined
        : readJsonText(text, decodeUpsertRest, fast.rest);
  const plan = prepareUpsert(ctx.db.catalog, graph, body ?? { vertices: [], edges: [] });
  const counts = await ctx.db.write((tx) => applyUpsert(tx, plan, flags, fast?.runs));
  return okEnvelope([counts], '', counts.skipped_edges ? 'REST-0003' : 'REST-0000');
}

export const graphRoutes: RestppRouteModule = {
  name: 'graph',
  register(restpp: RestppApp, ctx: ServerContext) {
    // Spec §1: the graph name may be left out of a data path (`POST /graph`); the only graph is meant.
    const app: RestppApp = {
      route(r) {
        restpp.route(r);
        restpp.route({ ...r, path: r.path.replace('/{graph_name}', '') });
      },
    };
    app.route({
      method: 'POST',
      path: '/graph/{graph_name}',
      parameters: UPSERT_PARAMS,
      handler: (request) => upsert(ctx, request),
    });

    const vertices = '/graph/{graph_name}/vertices/{vertex_type}';
    app.route({
      method: 'GET',
      path: vertices,
      parameters: VERTEX_LIST_PARAMS,
      read: (r) => listVertices(ctx, r),
    });
    app.route({
      method: 'DELETE',
      path: vertices,
      parameters: VERTEX_DELETE_PARAMS,
      handler: (r) => deleteVertices(ctx, r),
    });
    app.route({
      method: 'GET',
      path: `${vertices}/{vertex_id}`,
      parameters: VERTEX_GET_PARAMS,
      read: (r) => getVertex(ctx, r),
    });
    app.route({
      method: 'DELETE',
      path: `${vertices}/{vertex_id}`,
      parameters: VERTEX_DELETE_ONE_PARAMS,
      handler: (r) => deleteVertex(ctx, r),
    });
    app.route({
      method: 'DELETE',
      path: '/graph/{graph_name}/delete_by_type/vertices/{vertex_type}',
      parameters: DELETE_BY_TYPE_PARAMS,
      handler: (r) => deleteVerticesByType(ctx, r),
    });

    for (const path of EDGE_PATHS) {
      app.route({ method: 'GET', path, parameters: EDGE_GET_PARAMS, handler: (r) => getEdges(ctx, r) });
      app.route({
        method: 'DELETE',
        path,
        parameters: EDGE_DELETE_PARAMS,
        handler: (r) => deleteEdges(ctx, r),
      });
    }
  },
};
