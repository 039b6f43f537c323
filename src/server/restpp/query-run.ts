/**
 * GET and POST /query/{graph_name}/{query_name}: runs an installed query (spec §4.31, §4.32).
 * Parameters come from the TigerGraph query string (GET) or a JSON object (POST; empty body = no
 * parameters). `read_committed` is accepted: every query already reads committed data only. Every
 * installed query is also listed by GET /endpoints/{graph}?dynamic=true with its parameters.
 */
import type { FastifyRequest } from 'fastify';
import type { DataWrite } from '../../auth/query-access.js';
import {
  type CompiledQuery,
  decodeJsonParams,
  decodeQueryStringParams,
  ParamError,
  type QType,
  QueryCompileError,
  QueryRegistryError,
  registryFor,
  storedQueriesOf,
  storedQueryWrites,
} from '../../query/index.js';
import { type QueryRunResult, runQuery } from '../../workers/index.js';
import type { ServerContext } from '../context.js';
import { requireQueryRun } from '../http/access-hook.js';
import { queryOf } from '../http/app.js';
import { jsonBody } from '../http/body.js';
import { endpointNotFound, RestError } from '../http/envelope.js';
import type { FastRunRequest, RouteRequest } from '../http/fast-path.js';
import type { QueryParams } from '../http/querystring.js';
import type { EndpointEntry, EndpointRegistry } from './endpoint-registry.js';
import { type QueryHeaders, type QueryRequest, queryHeaders, runTracked } from './query-exec.js';
import {
  pathParam,
  requireGraph,
  restppPath,
  type RestppApp,
  type RestppRouteModule,
} from './route-module.js';

/** The query string as the parameter decoder takes it: name → every value, in order. */
export function queryStringRecord(q: QueryParams): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of q.entries) (out[k] ??= []).push(v);
  return out;
}

function installedQuery(
  ctx: ServerContext,
  request: RouteRequest,
  graph: string,
  name: string,
): CompiledQuery {
  try {
    return registryFor(ctx.db).installed(graph, name, ctx.db.catalog);
  } catch (e) {
    // TigerGraph serves a query only once it is installed: until then there is no such endpoint.
    if (e instanceof QueryRegistryError) throw endpointNotFound(restppPath(request));
    if (e instanceof QueryCompileError) {
      throw new RestError(
        'REST-10005',
        `The installed query ${name} no longer fits the schema of graph ${graph}; install it again. ${e.message}`,
      );
    }
    throw e;
  }
}

/** A run's checks that need no waiting, in the order the route makes them: graph, headers, query. */
interface InstalledCall {
  graph: string;
  name: string;
  query: CompiledQuery;
  headers: QueryHeaders;
}

function installedCall(
  ctx: ServerContext,
  request: RouteRequest & Pick<QueryRequest, 'headers'>,
): InstalledCall {
  const graph = requireGraph(ctx, request, pathParam(request, 'graph_name'));
  const headers = queryHeaders(request, ctx.cluster?.memberCount);
  const name = pathParam(request, 'query_name') ?? '';
  return { graph, name, query: installedQuery(ctx, request, graph, name), headers };
}

function writesOf(ctx: ServerContext, call: InstalledCall): ReadonlySet<DataWrite> {
  return storedQueryWrites(call.name, storedQueriesOf(registryFor(ctx.db), call.graph));
}

/** The run's arguments: from the query string (GET) or the JSON body (`body`, POST). */
function installedArgs(
  call: InstalledCall,
  q: QueryParams,
  body: (() => ReturnType<typeof jsonBody>) | undefined,
): Record<string, unknown> {
  if (q.has('read_committed')) q.bool('read_committed');
  let args: Record<string, unknown>;
  try {
    args =
      body === undefined
        ? decodeQueryStringParams(call.query.params, queryStringRecord(q))
        : decodeJsonParams(call.query.params, body());
  } catch (e) {
    if (e instanceof ParamError) throw new RestError(e.code, e.message);
    throw e;
  }
  requireVertexParams(call.query, args);
  return args;
}

function runCall(
  ctx: ServerContext,
  request: QueryRequest,
  call: InstalledCall,
  args: Record<string, unknown>,
): Promise<unknown> {
  const { graph, query } = call;
  return runTracked(request, ctx.db, graph, call.headers, (opts) => {
    const source = { kind: 'installed' as const, graph, query, args };
    opts.outputDir = ctx.outputDir;
    opts.importDirs = ctx.importDirs;
    opts.log = ctx.log;
    return runQuery(ctx.db, source, opts).then(resultsOf);
  });
}

function resultsOf(r: QueryRunResult): QueryRunResult['results'] {
  return r.results;
}

async function runInstalled(
  ctx: ServerContext,
  request: FastifyRequest,
  method: 'GET' | 'POST',
): Promise<unknown> {
  const call = installedCall(ctx, request);
  await requireQueryRun(request, ctx.db, call.graph, call.name, writesOf(ctx, call));
  const args = installedArgs(call, queryOf(request), method === 'GET' ? undefined : () => jsonBody(request));
  return runCall(ctx, request, call, args);
}

/**
 * The GET route on the listener's fast path (fast-path.ts): the same checks and run as
 * runInstalled. It throws, having started nothing, where that route would refuse the request, and
 * where the caller's write privileges must be checked (that waits for the security state); the
 * route then answers the request.
 */
function runInstalledFast(ctx: ServerContext, request: FastRunRequest): Promise<unknown> {
  const call = installedCall(ctx, request);
  if (request.principal && writesOf(ctx, call).size > 0)
    throw new Error('write privileges are checked by the route');
  return runCall(ctx, request, call, installedArgs(call, request.query, undefined));
}

/**
 * A VERTEX parameter has no default: TigerGraph refuses a run that leaves one out (GSQL-1001,
 * "NULL parameter") rather than running the query from no vertex.
 */
function requireVertexParams(query: CompiledQuery, args: Record<string, unknown>): void {
  for (const p of query.params) {
    if (p.type.kind === 'VERTEX' && args[p.name] === undefined) {
      throw new RestError('GSQL-1001', `Runtime Error: Parameter ${p.name} is NULL.`);
    }
  }
}

/** The /endpoints type name of a parameter type. */
function endpointType(t: QType): string {
  switch (t.kind) {
    case 'INT':
      return 'INT64';
    case 'UINT':
      return 'UINT64';
    case 'SET':
    case 'BAG':
    case 'LIST':
      return endpointType(t.elem);
    default:
      return t.kind;
  }
}

/** The dynamic /endpoints entries: GET and POST /query/{graph}/{query} of each installed query. */
function installedEndpoints(ctx: ServerContext, graph: string | undefined): Record<string, EndpointEntry> {
  const out: Record<string, EndpointEntry> = {};
  const registry = registryFor(ctx.db);
  const graphs = graph === undefined ? ctx.db.catalog.graphs.map((g) => g.name) : [graph];
  for (const g of graphs) {
    for (const stored of registry.list(g)) {
      if (!stored.installed) continue;
      let query: CompiledQuery;
      try {
        query = registry.compile(g, stored.name, ctx.db.catalog);
      } catch {
        // A query the schema no longer fits cannot run, so it is no endpoint either.
        continue;
      }
      const parameters: EndpointEntry['parameters'] = {};
      for (const p of query.params) {
        const many = p.type.kind === 'SET' || p.type.kind === 'BAG' || p.type.kind === 'LIST';
        parameters[p.name] = { max_count: many ? 2147483647 : 1, min_count: 0, type: endpointType(p.type) };
      }
      for (const method of ['GET', 'POST']) {
        out[`${method} /query/${g}/${stored.name}`] = { parameters, enabled: true, graph_name: g };
      }
    }
  }
  return out;
}

const withProvider = new WeakSet<EndpointRegistry>();

export const queryRunRoutes: RestppRouteModule = {
  name: 'query-run',
  register(app: RestppApp, ctx: ServerContext) {
    if (!withProvider.has(ctx.endpoints)) {
      withProvider.add(ctx.endpoints);
      ctx.endpoints.addProvider((graph) => installedEndpoints(ctx, graph));
    }
    app.route({
      method: 'GET',
      path: '/query/{graph_name}/{query_name}',
      handler: (r) => runInstalled(ctx, r, 'GET'),
      fast: (r) => runInstalledFast(ctx, r),
    });
    app.route({
      method: 'POST',
      path: '/query/{graph_name}/{query_name}',
      handler: (r) => runInstalled(ctx, r, 'POST'),
    });
  },
};
