/**
 * The 3.x query installation endpoints of the admin port (spec §4.29, §4.30):
 * POST /gsql/queries/install?graph=g&queries=a&queries=b (or `*`) creates a request and answers its
 * location; GET /gsql/queries/install/{request_id} reports the request's state and each query's.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.js';
import { queryOf } from '../http/app.js';
import { RestError } from '../http/envelope.js';
import { installQueueFor, queryStates } from '../gsqlserver/query-install-jobs.js';
import { installTarget } from '../gsqlserver/query-install.js';

function submit(ctx: ServerContext, request: FastifyRequest): unknown {
  const q = queryOf(request);
  const { graph, names } = installTarget(ctx, q.get('graph'), q.list('queries'));
  const job = installQueueFor(ctx.db).submit(graph, names, q.bool('force'));
  return {
    location: `/gsql/queries/install/${job.id}`,
    error: false,
    message: `Request ${job.id} successfully created`,
    results: '',
  };
}

function status(ctx: ServerContext, id: string): unknown {
  const job = installQueueFor(ctx.db).get(id);
  if (!job) throw new RestError('REST-30001', `The query installation request ${id} does not exist.`);
  return {
    state: job.state,
    queries: queryStates(job),
    graph: job.graph,
    error: false,
    message: job.failure ?? '',
    results: '',
  };
}

export function registerInstallRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.post('/gsql/queries/install', { config: { endpoint: 'POST /gsql/queries/install' } }, async (request) =>
    submit(ctx, request),
  );
  app.get<{ Params: { id: string } }>(
    '/gsql/queries/install/:id',
    { config: { endpoint: 'GET /gsql/queries/install/{request_id}' } },
    async (request) => status(ctx, request.params.id),
  );
}
