/**
 * Query metadata of the GSQL server: GET /gsqlserver/gsql/queryinfo?graph&query (spec §4.28),
 * its 4.x form GET|POST /gsql/v1/queries/signature?graph&queryName (pyTigerGraph posts, the docs
 * say GET), and GET /gsql/v1/queries/info?graph[&query][&status] (every query of the graph).
 *
 * A query's `status` is TigerGraph's: VALID while its text still compiles against the schema,
 * INVALID once a schema change broke it. Whether it is installed is a separate field; `status=`
 * filters on either (VALID/INVALID, or installed/uninstalled), case-insensitively.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { QueryDef } from '../../gsql/ast-query.js';
import { parseQueryText } from '../../gsql/parser-query.js';
import { QueryRegistryError, registryFor, type StoredQuery } from '../../query/index.js';
import { compileFailure } from '../restpp/query-exec.js';
import type { ServerContext } from '../context.js';
import { queryOf } from '../http/app.js';
import { okEnvelope, RestError, VERSION_FIELD } from '../http/envelope.js';
import { querySignature } from './query-signature.js';

/** The graph parameter, checked. */
export function graphParam(ctx: ServerContext, request: FastifyRequest, name = 'graph'): string {
  const graph = queryOf(request).get(name);
  if (graph === undefined || graph === '')
    throw new RestError('REST-30001', `The parameter '${name}' is required.`);
  if (!ctx.db.catalog.graphs.some((g) => g.name === graph)) {
    throw new RestError('REST-1004', `The graph ${graph} does not exist.`);
  }
  return graph;
}

/** A stored query of the graph; an error naming it when there is none. */
export function storedQuery(
  ctx: ServerContext,
  graph: string,
  name: string | undefined,
  param: string,
): StoredQuery {
  if (name === undefined || name === '')
    throw new RestError('REST-30001', `The parameter '${param}' is required.`);
  try {
    return registryFor(ctx.db).require(graph, name);
  } catch (e) {
    if (e instanceof QueryRegistryError) throw new RestError('REST-30001', e.message);
    throw e;
  }
}

export function definitionOf(q: StoredQuery): QueryDef {
  const [stmt] = parseQueryText(q.text);
  if (!stmt || stmt.kind !== 'createQuery')
    throw new RestError('REST-10005', `The stored text of query ${q.name} is not a query.`);
  return stmt.query;
}

function signatureDoc(ctx: ServerContext, request: FastifyRequest, queryParam: string): unknown {
  const graph = graphParam(ctx, request);
  const q = storedQuery(ctx, graph, queryOf(request).get(queryParam), queryParam);
  const { input, output } = querySignature(definitionOf(q), ctx.db.catalog, graph);
  return {
    output,
    input,
    queryname: q.name,
    error: false,
    message: '',
    version: { schema: 0, edition: VERSION_FIELD.edition, api: 'V2' },
  };
}

export type QueryStatus = 'VALID' | 'INVALID';

/** VALID while the query compiles against the current schema, INVALID otherwise. */
export function queryStatus(ctx: ServerContext, q: StoredQuery): QueryStatus {
  try {
    registryFor(ctx.db).compile(q.graph, q.name, ctx.db.catalog);
    return 'VALID';
  } catch (e) {
    if (compileFailure(e)) return 'INVALID';
    throw e;
  }
}

const STATUS_FILTERS: Record<string, (s: StoredQuery, status: QueryStatus) => boolean> = {
  all: () => true,
  valid: (_s, status) => status === 'VALID',
  invalid: (_s, status) => status === 'INVALID',
  installed: (s) => s.installed,
  uninstalled: (s) => !s.installed,
};

function queriesInfo(ctx: ServerContext, request: FastifyRequest): unknown {
  const graph = graphParam(ctx, request);
  const q = queryOf(request);
  const wanted = STATUS_FILTERS[(q.get('status') ?? 'all').toLowerCase()];
  if (!wanted) {
    throw new RestError(
      'REST-30001',
      `Unknown status '${q.get('status') ?? ''}': use VALID, INVALID, installed, uninstalled or all.`,
    );
  }
  const names = q.list('query');
  const queries =
    names.length > 0
      ? names.map((n) => storedQuery(ctx, graph, n, 'query'))
      : registryFor(ctx.db).list(graph);
  const results = queries
    .map((s) => ({ s, status: queryStatus(ctx, s) }))
    .filter(({ s, status }) => wanted(s, status))
    .map(({ s, status }) => ({
      name: s.name,
      graphName: graph,
      status,
      installed: s.installed,
      syntax: 'GSQL v2',
      code: s.text,
      ...(status === 'VALID' ? querySignature(definitionOf(s), ctx.db.catalog, graph) : {}),
    }));
  return okEnvelope(results);
}

export function registerQueryInfoRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get(
    '/gsqlserver/gsql/queryinfo',
    { config: { endpoint: 'GET /gsqlserver/gsql/queryinfo' } },
    async (r) => signatureDoc(ctx, r, 'query'),
  );
  for (const method of ['GET', 'POST'] as const) {
    app.route({
      method,
      url: '/gsql/v1/queries/signature',
      config: { endpoint: `${method} /gsql/v1/queries/signature` },
      handler: async (r) => signatureDoc(ctx, r, 'queryName'),
    });
  }
  app.get('/gsql/v1/queries/info', { config: { endpoint: 'GET /gsql/v1/queries/info' } }, async (r) =>
    queriesInfo(ctx, r),
  );
}
