/**
 * Interpreted queries: POST /gsqlserver/interpreted_query?<params> (3.x) and
 * POST /gsql/v1/queries/interpret?<params> (4.x). The body is the whole `INTERPRET QUERY (…) FOR
 * GRAPH g { … }` (or CREATE QUERY) text, parameters are in the query string in REST++'s GET forms,
 * and the answer is the same envelope as an installed query's — with the same headers, timeout,
 * abort and detached mode, since the run is tracked like one.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { READ_DATA } from '../../auth/access-table.js';
import type { QueryDef } from '../../gsql/ast-query.js';
import { parseQueryText } from '../../gsql/parser-query.js';
import { queryWrites, registryFor, storedQueriesOf } from '../../query/index.js';
import { runQuery } from '../../workers/index.js';
import type { ServerContext } from '../context.js';
import { requireAccess, requireQueryRun } from '../http/access-hook.js';
import { queryOf } from '../http/app.js';
import { textBody } from '../http/body.js';
import { RestError } from '../http/envelope.js';
import { runningQueriesFor } from '../http/running-queries.js';
import { compileFailure, queryHeaders, runTracked } from '../restpp/query-exec.js';
import { queryStringRecord } from '../restpp/query-run.js';

/** The query of the text, and its graph: the one it names (FOR GRAPH g), else the `graph` parameter. */
function queryOfText(
  ctx: ServerContext,
  text: string,
  fallback: string | undefined,
): { graph: string; def: QueryDef | undefined } {
  let def: QueryDef | undefined;
  try {
    const [stmt] = parseQueryText(text);
    if (stmt && (stmt.kind === 'interpretAnonymous' || stmt.kind === 'createQuery')) def = stmt.query;
  } catch (e) {
    throw compileFailure(e) ?? e;
  }
  const graph = def?.graph ?? fallback;
  if (graph === undefined)
    throw new RestError('REST-30000', 'The query names no graph: write FOR GRAPH <graph>.');
  if (!ctx.db.catalog.graphs.some((g) => g.name === graph)) {
    throw new RestError('REST-1004', `The graph ${graph} does not exist.`);
  }
  return { graph, def };
}

async function interpret(ctx: ServerContext, request: FastifyRequest): Promise<unknown> {
  const text = textBody(request);
  if (text.trim() === '') {
    throw new RestError(
      'REST-30000',
      'The request body must be the query text: INTERPRET QUERY () FOR GRAPH g { … }.',
    );
  }
  const headers = queryHeaders(request, ctx.cluster?.memberCount);
  const q = queryOf(request);
  const { graph, def } = queryOfText(ctx, text, q.get('graph'));
  // The route table defers to here: READ_DATA on the query's graph, and what the query writes.
  await requireAccess(request, ctx.db, READ_DATA, graph);
  if (def)
    await requireQueryRun(
      request,
      ctx.db,
      graph,
      def.name,
      queryWrites(def, storedQueriesOf(registryFor(ctx.db), graph)),
    );
  const params = queryStringRecord(q);
  return runTracked(request, ctx.db, graph, headers, async (opts) => {
    const source = { kind: 'text' as const, graph, text, qs: params };
    const run = { ...opts, outputDir: ctx.outputDir, importDirs: ctx.importDirs, log: ctx.log };
    return (await runQuery(ctx.db, source, run)).results;
  });
}

export function registerQueryInterpretRoutes(app: FastifyInstance, ctx: ServerContext): void {
  // Closing the servers stops the queries of the database at once (they commit nothing) instead of
  // letting them run to their deadline against a database about to close.
  app.addHook('preClose', async () => runningQueriesFor(ctx.db).abortAll());
  for (const url of ['/gsqlserver/interpreted_query', '/gsql/v1/queries/interpret']) {
    app.post(url, { config: { endpoint: `POST ${url}` } }, async (request) => interpret(ctx, request));
  }
}
