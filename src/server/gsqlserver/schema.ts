/**
 * Schema metadata of the GSQL server: 3.x GET /gsqlserver/gsql/schema?graph=g[&type=t] and
 * /gsqlserver/gsql/udtlist, 4.x GET /gsql/v1/schema[?graph=g], /gsql/v1/schema/graphs/{g} and
 * /gsql/v1/udt/tuples. Without a graph the global types are listed.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findGraph, findGraphEdgeType, findGraphVertexType } from '../../catalog/lookup.js';
import {
  edgeTypeJson,
  globalSchemaJson,
  graphSchemaJson,
  udtListJson,
  vertexTypeJson,
} from '../../catalog/schema-json.js';
import type { ServerContext } from '../context.js';
import { queryOf } from '../http/app.js';
import { graphNotFound, okEnvelope, RestError } from '../http/envelope.js';

function path(request: FastifyRequest): string {
  return request.url.split('?')[0];
}

/** The schema of `graph` (global types when undefined), or of one of its types. */
function schemaOf(
  ctx: ServerContext,
  request: FastifyRequest,
  graph: string | undefined,
  type: string | undefined,
) {
  const catalog = ctx.db.catalog;
  if (graph === undefined) {
    if (type !== undefined) throw new RestError('REST-30001', "Parameter 'type' needs parameter 'graph'.");
    return globalSchemaJson(catalog);
  }
  const schema = graphSchemaJson(catalog, graph);
  if (!schema) throw graphNotFound(graph, path(request));
  if (type === undefined) return schema;
  const v = findGraphVertexType(catalog, graph, type);
  if (v) return vertexTypeJson(v);
  const e = findGraphEdgeType(catalog, graph, type);
  if (e && !e.reverse) return edgeTypeJson(e.edge);
  throw new RestError('REST-30001', `Type '${type}' does not exist in graph '${graph}'.`);
}

function udtList(ctx: ServerContext, request: FastifyRequest) {
  const graph = queryOf(request).get('graph');
  if (graph !== undefined && graph !== '' && !findGraph(ctx.db.catalog, graph))
    throw graphNotFound(graph, path(request));
  return okEnvelope(udtListJson(ctx.db.catalog));
}

export function registerSchemaRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const graphParam = (request: FastifyRequest) => {
    const g = queryOf(request).get('graph');
    return g === '' ? undefined : g;
  };
  for (const url of ['/gsqlserver/gsql/schema', '/gsql/v1/schema']) {
    app.get(url, { config: { endpoint: `GET ${url}` } }, async (request) =>
      okEnvelope(schemaOf(ctx, request, graphParam(request), queryOf(request).get('type'))),
    );
  }
  app.get<{ Params: { graph: string } }>(
    '/gsql/v1/schema/graphs/:graph',
    { config: { endpoint: 'GET /gsql/v1/schema/graphs/{graph_name}' } },
    async (request) => okEnvelope(schemaOf(ctx, request, request.params.graph, undefined)),
  );
  for (const url of ['/gsqlserver/gsql/udtlist', '/gsql/v1/udt/tuples']) {
    app.get(url, { config: { endpoint: `GET ${url}` } }, async (request) => udtList(ctx, request));
  }
}
