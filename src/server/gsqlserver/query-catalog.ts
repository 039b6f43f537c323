/**
 * The 4.x query catalog endpoints: GET /gsql/v1/queries?graph (names), POST /gsql/v1/queries?graph
 * (body: CREATE [OR REPLACE] QUERY text), GET /gsql/v1/queries/{name}?graph (TigerGraph's form:
 * queryContent, name, syntax, status, plus installed), DELETE /gsql/v1/queries/{name}?graph and
 * DELETE /gsql/v1/queries?graph&query=a&query=b (all named queries must exist; otherwise nothing is
 * dropped; the answer lists `dropped` and an empty `failedToDrop`), and POST /gsql/v1/internal/check/query
 * ?graph {"code": text}: the semantic check alone, answering `errors` and `warnings` (a faulty query
 * is a successful check with errors, as pyTigerGraph expects).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseQueryText } from '../../gsql/parser-query.js';
import { compileQuery, registryFor } from '../../query/index.js';
import type { ServerContext } from '../context.js';
import { queryOf } from '../http/app.js';
import { textBody } from '../http/body.js';
import { okEnvelope, RestError } from '../http/envelope.js';
import { compileFailure } from '../restpp/query-exec.js';
import { jsonBody } from '../http/body.js';
import { graphParam, queryStatus, storedQuery } from './query-info.js';

async function create(ctx: ServerContext, request: FastifyRequest): Promise<unknown> {
  const graph = graphParam(ctx, request);
  const text = textBody(request);
  try {
    const statements = parseQueryText(text);
    const stmt = statements[0];
    if (!stmt || stmt.kind !== 'createQuery' || statements.length > 1) {
      throw new RestError('REST-30000', 'The request body must be one CREATE [OR REPLACE] QUERY statement.');
    }
    if (stmt.query.graph !== undefined && stmt.query.graph !== graph) {
      throw new RestError('REST-30000', `The query is for graph ${stmt.query.graph}, not ${graph}.`);
    }
    await registryFor(ctx.db).create(stmt.query, graph, ctx.db.catalog, stmt.orReplace);
    return okEnvelope([], `Successfully created queries: [${stmt.query.name}].`);
  } catch (e) {
    throw compileFailure(e) ?? e;
  }
}

async function drop(ctx: ServerContext, request: FastifyRequest, names: string[]): Promise<unknown> {
  const graph = graphParam(ctx, request);
  if (names.length === 0) throw new RestError('REST-30001', "The parameter 'query' is required.");
  for (const n of names) storedQuery(ctx, graph, n, 'query');
  const dropped = await registryFor(ctx.db).drop(graph, names);
  return {
    ...okEnvelope([], `Successfully dropped queries on the graph '${graph}': [${dropped.join(', ')}].`),
    dropped,
    failedToDrop: [],
  };
}

function check(ctx: ServerContext, request: FastifyRequest): unknown {
  const graph = graphParam(ctx, request);
  const body = jsonBody(request);
  if (body === null || typeof body !== 'object' || Array.isArray(body) || typeof body.code !== 'string') {
    throw new RestError(
      'REST-30000',
      'The request body must be a JSON object with the query text in "code".',
    );
  }
  const errors: { message: string }[] = [];
  try {
    const statements = parseQueryText(body.code);
    const stmt = statements[0];
    if (!stmt || (stmt.kind !== 'createQuery' && stmt.kind !== 'interpretAnonymous')) {
      errors.push({ message: 'expected a CREATE QUERY or INTERPRET QUERY text' });
    } else {
      const target = stmt.query.graph ?? graph;
      compileQuery(stmt.query, ctx.db.catalog, target, registryFor(ctx.db).options(target, ctx.db.catalog));
    }
  } catch (e) {
    const failure = compileFailure(e);
    if (!failure) throw e;
    errors.push({ message: failure.message });
  }
  return { error: false, message: '', warnings: [], errors };
}

export function registerQueryCatalogRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const cfg = (endpoint: string) => ({ config: { endpoint } });
  app.get('/gsql/v1/queries', cfg('GET /gsql/v1/queries'), async (r) => {
    const graph = graphParam(ctx, r);
    return okEnvelope(
      registryFor(ctx.db)
        .list(graph)
        .map((q) => q.name),
    );
  });
  app.post('/gsql/v1/queries', cfg('POST /gsql/v1/queries'), async (r) => create(ctx, r));
  app.post('/gsql/v1/internal/check/query', cfg('POST /gsql/v1/internal/check/query'), async (r) =>
    check(ctx, r),
  );
  app.delete('/gsql/v1/queries', cfg('DELETE /gsql/v1/queries'), async (r) =>
    drop(ctx, r, queryOf(r).list('query')),
  );
  app.get<{ Params: { name: string } }>(
    '/gsql/v1/queries/:name',
    cfg('GET /gsql/v1/queries/{query_name}'),
    async (r) => {
      const graph = graphParam(ctx, r);
      const q = storedQuery(ctx, graph, r.params.name, 'query name');
      return {
        error: false,
        message: '',
        queryContent: q.text,
        name: q.name,
        syntax: 'GSQL v2',
        status: queryStatus(ctx, q),
        installed: q.installed,
      };
    },
  );
  app.delete<{ Params: { name: string } }>(
    '/gsql/v1/queries/:name',
    cfg('DELETE /gsql/v1/queries/{query_name}'),
    async (r) => drop(ctx, r, [r.params.name]),
  );
}
