/**
 * Process control of queries (spec §4.34–4.37): GET /showprocesslist/{graph_name} (running
 * queries), GET /abortquery/{graph_name} (stop them, by id, `all` or url pattern), GET /query_status
 * and GET /query_result (detached runs). See http/running-queries.ts for how long results are kept.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthService } from '../../auth/service.js';
import { stringifyJson } from '../../util/json.js';
import type { ServerContext } from '../context.js';
import { queryOf } from '../http/app.js';
import { okEnvelope, RestError, VERSION_FIELD } from '../http/envelope.js';
import { runningQueriesFor, type QueryRun } from '../http/running-queries.js';
import { pathParam, requireGraph, type RestppApp, type RestppRouteModule } from './route-module.js';

function ids(request: FastifyRequest): string[] | 'all' {
  const list = queryOf(request).list('requestid');
  return list.length === 0 || list.some((id) => id.toLowerCase() === 'all') ? 'all' : list;
}

function showProcessList(ctx: ServerContext, request: FastifyRequest): unknown {
  const graph = requireGraph(ctx, request, pathParam(request, 'graph_name'));
  const registry = runningQueriesFor(ctx.db);
  return okEnvelope(registry.running(graph).map((r) => registry.record(r)));
}

/**
 * Whose runs the caller may abort: their own, or everyone's with WRITE_QUERY on the graph (or when
 * REST++ asks for no caller at all).
 */
async function abortable(
  ctx: ServerContext,
  request: FastifyRequest,
  graph: string,
): Promise<(r: QueryRun) => boolean> {
  const caller = request.principal;
  if (!caller) return () => true;
  const all = await AuthService.for(ctx.db).hasPrivilege(caller.user, 'WRITE_QUERY', graph);
  return (r) => all || r.user === caller.user;
}

async function abortQuery(ctx: ServerContext, request: FastifyRequest): Promise<unknown> {
  const graph = requireGraph(ctx, request, pathParam(request, 'graph_name'));
  const q = queryOf(request);
  const urlText = q.get('url');
  if (!q.has('requestid') && urlText === undefined) {
    throw new RestError(
      'REST-30001',
      "Give the queries to abort: 'requestid' (an id, repeated, or all) or 'url'.",
    );
  }
  let pattern: RegExp | undefined;
  if (urlText !== undefined) {
    try {
      pattern = new RegExp(`^(?:${urlText})$`);
    } catch {
      throw new RestError('REST-30001', `The url pattern '${urlText}' is not a valid regular expression.`);
    }
  }
  const requested = q.has('requestid') ? ids(request) : [];
  const aborted = runningQueriesFor(ctx.db).abort(
    graph,
    requested,
    pattern,
    await abortable(ctx, request, graph),
  );
  return okEnvelope([{ aborted_queries: aborted.map((r) => ({ requestid: r.requestid, url: r.url })) }]);
}

function queryStatus(ctx: ServerContext, request: FastifyRequest): unknown {
  const q = queryOf(request);
  const graph = q.get('graph_name') ?? ctx.db.catalog.graphs[0]?.name;
  if (graph === undefined || !ctx.db.catalog.graphs.some((g) => g.name === graph)) {
    throw new RestError('REST-1004', `Graph name '${graph ?? ''}' is not found.`);
  }
  const registry = runningQueriesFor(ctx.db);
  const wanted = ids(request);
  const known = registry.detached(graph);
  const chosen = wanted === 'all' ? known : known.filter((r) => wanted.includes(r.requestid));
  const unknown = wanted === 'all' ? [] : wanted.filter((id) => !chosen.some((r) => r.requestid === id));
  const results = chosen.map((r) => ({ ...registry.record(r), status: r.status }));
  return { ...okEnvelope(results), ...(unknown.length > 0 ? { unknown_requestid: unknown } : {}) };
}

function cannotRetrieve(id: string, why: string): RestError {
  return new RestError('REST-30001', `Unable to retrieve result for query ${id}: ${why}`);
}

function queryResult(ctx: ServerContext, request: FastifyRequest, reply: FastifyReply): unknown {
  const id = queryOf(request).get('requestid');
  if (id === undefined || id === '')
    throw new RestError('REST-30001', "The parameter 'requestid' is required.");
  const run: QueryRun | undefined = runningQueriesFor(ctx.db).get(id);
  if (!run || !run.detached) {
    throw cannotRetrieve(id, 'no detached query has this request id (or its result has expired).');
  }
  const outcome = run.outcome;
  if (run.status === 'running' || !outcome) throw cannotRetrieve(id, 'the query is still running.');
  if (!outcome.ok) throw new RestError(outcome.code, outcome.message);
  // The results were serialized when the query ended; the envelope is written around that text.
  const head = stringifyJson({ version: { ...VERSION_FIELD }, error: false, message: '' }).slice(0, -1);
  void reply.type('application/json; charset=utf-8');
  return `${head},"results":${outcome.resultsJson},"code":"REST-0000"}`;
}

export const queryProcessRoutes: RestppRouteModule = {
  name: 'query-process',
  register(app: RestppApp, ctx: ServerContext) {
    app.route({
      method: 'GET',
      path: '/showprocesslist/{graph_name}',
      handler: (r) => showProcessList(ctx, r),
    });
    app.route({
      method: 'GET',
      path: '/abortquery/{graph_name}',
      parameters: { requestid: { type: 'STRING', max_count: 2147483647 }, url: { type: 'STRING' } },
      handler: (r) => abortQuery(ctx, r),
    });
    app.route({
      method: 'GET',
      path: '/query_status',
      parameters: { graph_name: { type: 'STRING' }, requestid: { type: 'STRING', max_count: 2147483647 } },
      handler: (r) => queryStatus(ctx, r),
    });
    app.route({
      method: 'GET',
      path: '/query_result',
      parameters: { graph_name: { type: 'STRING' }, requestid: { type: 'STRING', min_count: 1 } },
      handler: (r, reply) => queryResult(ctx, r, reply),
    });
  },
};
