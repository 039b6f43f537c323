/**
 * The 4.x query installation endpoints: GET (or POST) /gsql/v1/queries/install?graph=g&queries=a,b
 * (`all` or `*` for every query; `flag=-force` reinstalls installed ones) and
 * GET /gsql/v1/queries/install/{requestId}. pyTigerGraph polls the status until its `message`
 * names SUCCESS or FAILED, so the message always carries the state word.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.js';
import { queryOf } from '../http/app.js';
import { RestError } from '../http/envelope.js';
import { installQueueFor, queryStates, type InstallJob } from './query-install-jobs.js';

/** How long the submission waits for a short request to finish, so the first status poll sees it. */
const SUBMIT_WAIT_MS = 2000;

/** The graph and query names of an install request, checked. */
export function installTarget(
  ctx: ServerContext,
  graph: string | undefined,
  queries: readonly string[],
): { graph: string; names: readonly string[] | 'all' } {
  if (graph === undefined || graph === '')
    throw new RestError('REST-30001', "The parameter 'graph' is required.");
  if (!ctx.db.catalog.graphs.some((g) => g.name === graph)) {
    throw new RestError('REST-1004', `The graph ${graph} does not exist.`);
  }
  if (queries.length === 0) {
    throw new RestError(
      'REST-30001',
      "The parameter 'queries' is required: query names, or * for all queries.",
    );
  }
  const all = queries.some((n) => n === '*' || n.toLowerCase() === 'all');
  return { graph, names: all ? 'all' : [...new Set(queries)] };
}

function statusWord(job: InstallJob): string {
  return job.state === 'FAILURE' ? 'FAILED' : job.state;
}

function statusBody(job: InstallJob): Record<string, unknown> {
  const failed = job.queries.filter((q) => q.state === 'FAILED').map((q) => q.name);
  const detail =
    job.state === 'FAILURE'
      ? `: ${job.failure ?? ''}`
      : failed.length > 0 && job.state === 'SUCCESS'
        ? ` (queries that failed to install: ${failed.join(', ')})`
        : '';
  return {
    error: false,
    message: `Query installation request ${job.id} ${statusWord(job)}${detail}`,
    requestId: job.id,
    results: { requestId: job.id, graph: job.graph, state: job.state, queries: queryStates(job) },
  };
}

async function submit(ctx: ServerContext, request: FastifyRequest): Promise<unknown> {
  const q = queryOf(request);
  const { graph, names } = installTarget(ctx, q.get('graph'), q.list('queries'));
  const flags = q.list('flag');
  const unknownFlag = flags.find((f) => f !== '-force');
  if (unknownFlag !== undefined) {
    throw new RestError('REST-30001', `Unknown install flag '${unknownFlag}' (the flag accepted is -force).`);
  }
  const job = installQueueFor(ctx.db).submit(graph, names, flags.includes('-force'));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([job.done, new Promise((r) => (timer = setTimeout(r, SUBMIT_WAIT_MS)))]);
  clearTimeout(timer);
  return statusBody(job);
}

export function registerQueryInstallRoutes(app: FastifyInstance, ctx: ServerContext): void {
  for (const method of ['GET', 'POST'] as const) {
    app.route({
      method,
      url: '/gsql/v1/queries/install',
      config: { endpoint: `${method} /gsql/v1/queries/install` },
      handler: async (request) => submit(ctx, request),
    });
  }
  app.get<{ Params: { id: string } }>(
    '/gsql/v1/queries/install/:id',
    { config: { endpoint: 'GET /gsql/v1/queries/install/{request_id}' } },
    async (request) => {
      const job = installQueueFor(ctx.db).get(request.params.id);
      if (!job) {
        throw new RestError(
          'REST-30001',
          `The query installation request ${request.params.id} does not exist.`,
        );
      }
      return statusBody(job);
    },
  );
}
