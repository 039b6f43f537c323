/**
 * The 4.x loading-job endpoints (GSQL server port) that pyTigerGraph calls:
 *   GET    /gsql/v1/loading-jobs?graph                 job names (top-level `jobNames`)
 *   GET    /gsql/v1/loading-jobs/{jobName}?graph       its text
 *   POST   /gsql/v1/loading-jobs?graph (text body)     CREATE LOADING JOB; PUT replaces
 *   DELETE /gsql/v1/loading-jobs/{jobName}?graph       DROP JOB
 *   POST   /gsql/v1/loading-jobs/run?graph             starts runs (JSON [{name, dataSources:[{filename,
 *                                                      path}]}], or pyTigerGraph's form name=…); `jobIds`
 *   GET    /gsql/v1/loading-jobs/status[/{jobId}]      SHOW LOADING STATUS as JSON (`results`)
 *   GET    /gsql/v1/loading-jobs/abort[/{jobId}]       ABORT LOADING JOB (isPause=true pauses)
 *   GET    /gsql/v1/loading-jobs/resume/{jobId}        RESUME LOADING JOB
 * Job ids are `jobIds` (TigerGraph's documented name) or `jobId` (what pyTigerGraph sends).
 */
import { isAbsolute, join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { dropJobs, findJob } from '../../catalog/alter.js';
import { CatalogError } from '../../catalog/errors.js';
import { GsqlSyntaxError } from '../../gsql/lexer.js';
import { defineLoadingJob } from '../../loading/job-definitions.js';
import { LoadingJobRuns, type LoadingJobRun } from '../../loading/job-runs.js';
import { LoadingJobError } from '../../loading/expressions.js';
import { LoadingOptionError } from '../../loading/format.js';
import { AuthService } from '../../auth/service.js';
import type { ServerContext } from '../context.js';
import { queryOf } from '../http/app.js';
import { textBody } from '../http/body.js';
import { RestError } from '../http/envelope.js';
import { parseQueryString } from '../http/querystring.js';
import { asRest } from '../restpp/token-auth.js';
import { graphParam } from './query-info.js';
import { importRoots } from '../../auth/file-roots.js';

/** A loading-job, catalog or parse error as the envelope error it is. */
function asRestError(e: unknown): unknown {
  if (
    e instanceof LoadingJobError ||
    e instanceof LoadingOptionError ||
    e instanceof CatalogError ||
    e instanceof GsqlSyntaxError
  ) {
    return new RestError('REST-30000', e.message);
  }
  return e;
}

function storedJob(ctx: ServerContext, graph: string, name: string) {
  const job = findJob(ctx.db.catalog, name, graph);
  if (!job || job.kind !== 'loading') {
    throw new RestError('REST-30001', `The loading job ${name} does not exist in graph ${graph}.`);
  }
  return job;
}

async function define(ctx: ServerContext, request: FastifyRequest, replace: boolean): Promise<unknown> {
  const graph = graphParam(ctx, request);
  try {
    const { catalog, name } = defineLoadingJob(ctx.db.catalog, textBody(request), graph, replace);
    await ctx.db.changeCatalog(catalog);
    return { error: false, message: `Successfully created loading job: ${name}` };
  } catch (e) {
    throw asRestError(e);
  }
}

/** One run request: the job and its file variables' paths. */
interface RunRequest {
  name: string;
  paths: Map<string, string>;
}

/** The run requests of a POST /loading-jobs/run body: TigerGraph's JSON, or pyTigerGraph's form. */
function runRequests(request: FastifyRequest): RunRequest[] {
  const text = textBody(request).trim();
  if (!text.startsWith('[') && !text.startsWith('{')) {
    // pyTigerGraph sends its dict form-encoded: the job's name and only the variables' names, so
    // each variable reads the file its DEFINE FILENAME names.
    const form = parseQueryString(text);
    const name = form.get('name');
    if (name === undefined || name === '')
      throw new RestError('REST-30000', "The loading job 'name' is missing.");
    return [{ name, paths: new Map() }];
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new RestError('REST-30000', 'The request body is not valid JSON.');
  }
  const items = Array.isArray(body) ? body : [body];
  return items.map((item, i) => {
    const at = `item ${i}`;
    if (item === null || typeof item !== 'object')
      throw new RestError('REST-30000', `${at} must be a JSON object.`);
    const o = item as Record<string, unknown>;
    if (typeof o.name !== 'string' || o.name === '')
      throw new RestError('REST-30000', `${at} has no "name".`);
    const root = typeof o['sys.data_root'] === 'string' ? o['sys.data_root'] : undefined;
    const paths = new Map<string, string>();
    const sources = o.dataSources ?? [];
    if (!Array.isArray(sources)) throw new RestError('REST-30000', `${at}: "dataSources" must be an array.`);
    for (const s of sources as unknown[]) {
      const src = (s ?? {}) as Record<string, unknown>;
      if (typeof src.filename !== 'string' || typeof src.path !== 'string') {
        throw new RestError('REST-30000', `${at}: each data source needs "filename" and "path" strings.`);
      }
      paths.set(src.filename, root !== undefined && !isAbsolute(src.path) ? join(root, src.path) : src.path);
    }
    return { name: o.name, paths };
  });
}

async function run(ctx: ServerContext, request: FastifyRequest): Promise<unknown> {
  const graph = graphParam(ctx, request);
  const runs = LoadingJobRuns.for(ctx.db);
  const requests = runRequests(request);
  // Every job and file is checked before any run starts.
  for (const r of requests) storedJob(ctx, graph, r.name);
  const started: LoadingJobRun[] = [];
  try {
    for (const r of requests) {
      const job = storedJob(ctx, graph, r.name);
      started.push(
        await runs.start(ctx.db, {
          graph,
          jobName: job.name,
          jobText: job.text,
          paths: r.paths,
          roots: importRoots(ctx.importDirs ?? []),
          ...(request.principal ? { user: request.principal.user } : {}),
        }),
      );
    }
  } catch (e) {
    for (const s of started) s.stop(false);
    throw asRestError(e);
  }
  return {
    error: false,
    message: `Successfully ran loading job(s): [${requests.map((r) => r.name).join(', ')}]`,
    jobIds: started.map((s) => s.id),
  };
}

/** `jobIds` / `jobId` of the request (and the path's one). */
function jobIdsOf(request: FastifyRequest): string[] {
  const q = queryOf(request);
  const fromPath = (request.params as { jobId?: string }).jobId;
  const ids = [...q.list('jobIds'), ...q.list('jobId'), ...(fromPath === undefined ? [] : [fromPath])];
  return ids.flatMap((id) => id.split(',')).filter((id) => id !== '');
}

/** The runs named, checked for the caller's EXECUTE_LOADINGJOB on their graphs. */
async function namedRuns(
  ctx: ServerContext,
  request: FastifyRequest,
  graph?: string,
): Promise<LoadingJobRun[]> {
  const ids = jobIdsOf(request);
  if (ids.length === 0) throw new RestError('REST-30001', "The parameter 'jobIds' is required.");
  const runs = LoadingJobRuns.for(ctx.db);
  const out: LoadingJobRun[] = [];
  for (const id of ids) {
    const r = runs.get(id);
    if (!r || (graph !== undefined && r.graph !== graph)) {
      throw new RestError(
        'REST-30001',
        `The loading job id ${id} does not exist${graph ? ` in graph ${graph}` : ''}.`,
      );
    }
    if (request.principal) {
      const principal = request.principal;
      await asRest(() =>
        AuthService.for(ctx.db).check(
          principal,
          { kind: 'all', privileges: ['EXECUTE_LOADINGJOB'] },
          r.graph,
        ),
      );
    }
    out.push(r);
  }
  return out;
}

/** A run's status as TigerGraph's /loading-jobs/status reports it (progress in percent). */
export function runStatus(r: LoadingJobRun): unknown {
  const p = r.progress();
  const s = r.totals().toJSON();
  const durationMs = r.elapsedMs();
  return {
    overall: {
      id: r.id,
      jobName: r.jobName,
      graphName: r.graph,
      status: r.state,
      progress: Math.round(p.percent * 100) / 100,
      size: p.bytesTotal,
      loadedSize: p.bytesDone,
      averageSpeed: Math.round(durationMs > 0 ? (p.lines * 1000) / durationMs : p.lines),
      currentSpeed: Math.round(r.state === 'RUNNING' ? p.linesPerSecond : 0),
      duration: durationMs,
      startTime: r.startedAt,
      endTime: r.endedAt ?? 0,
      statistics: {
        fileLevel: {
          validLine: s.validLine,
          rejectLine: s.rejectLine,
          failedConditionLine: s.failedConditionLine,
          notEnoughToken: s.notEnoughToken,
          invalidJson: s.invalidJson,
          oversizeToken: s.oversizeToken,
        },
        objectLevel: {
          vertex: s.vertex,
          edge: s.edge,
          deleteVertex: s.deleteVertex,
          deleteEdge: s.deleteEdge,
        },
      },
      ...(r.error === undefined ? {} : { error: r.error }),
    },
    workers: [
      {
        tasks: r.tasks.map((t) => ({
          filename: t.key,
          path: t.path,
          size: t.size,
          status: t.done ? 'FINISHED' : r.tasks[r.current] === t ? r.state : 'WAITING',
          lines: t.stats.totalLines,
          committedSize: t.committed.bytes,
        })),
      },
    ],
  };
}

async function abort(ctx: ServerContext, request: FastifyRequest): Promise<unknown> {
  const graph = graphParam(ctx, request);
  const pause = queryOf(request).bool('isPause');
  const runs = await namedRuns(ctx, request, graph);
  const idle = runs.filter((r) => r.state !== 'RUNNING');
  if (idle.length > 0) {
    throw new RestError(
      'REST-30001',
      `The loading job ${idle[0].id} is not running (${idle[0].state}); nothing was ${pause ? 'paused' : 'aborted'}.`,
    );
  }
  for (const r of runs) r.stop(pause);
  await Promise.all(runs.map((r) => r.done));
  return {
    error: false,
    message: `Successfully ${pause ? 'paused' : 'aborted'} loading job(s): [${runs.map((r) => r.id).join(', ')}].`,
  };
}

async function resume(ctx: ServerContext, request: FastifyRequest): Promise<unknown> {
  const [r] = await namedRuns(ctx, request);
  if (r.state === 'RUNNING' || r.state === 'FINISHED') {
    throw new RestError('REST-30001', `The loading job ${r.id} is ${r.state}; there is nothing to resume.`);
  }
  try {
    LoadingJobRuns.for(ctx.db).resume(ctx.db, r);
  } catch (e) {
    throw asRestError(e);
  }
  return { error: false, message: `Successfully resumed loading job(s): [${r.id}].` };
}

export function registerLoadingJobRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const cfg = (endpoint: string) => ({ config: { endpoint, auth: 'basic' as const } });
  app.get('/gsql/v1/loading-jobs', cfg('GET /gsql/v1/loading-jobs'), async (request) => {
    const graph = graphParam(ctx, request);
    const names = ctx.db.catalog.jobs
      .filter((j) => j.kind === 'loading' && j.graph === graph)
      .map((j) => j.name);
    return { error: false, message: '', jobNames: names };
  });
  app.get('/gsql/v1/loading-jobs/:jobName', cfg('GET /gsql/v1/loading-jobs/{jobName}'), async (request) => {
    const graph = graphParam(ctx, request);
    const job = storedJob(ctx, graph, (request.params as { jobName: string }).jobName);
    return { error: false, message: '', results: { jobName: job.name, jobContent: job.text } };
  });
  app.post('/gsql/v1/loading-jobs', cfg('POST /gsql/v1/loading-jobs'), (r) => define(ctx, r, false));
  app.put('/gsql/v1/loading-jobs', cfg('PUT /gsql/v1/loading-jobs'), (r) => define(ctx, r, true));
  app.delete(
    '/gsql/v1/loading-jobs/:jobName',
    cfg('DELETE /gsql/v1/loading-jobs/{jobName}'),
    async (request) => {
      const graph = graphParam(ctx, request);
      const job = storedJob(ctx, graph, (request.params as { jobName: string }).jobName);
      await ctx.db.changeCatalog(dropJobs(ctx.db.catalog, [job.name], graph));
      return { error: false, message: `Successfully drop loading job '${job.name}'.` };
    },
  );
  app.post('/gsql/v1/loading-jobs/run', cfg('POST /gsql/v1/loading-jobs/run'), (r) => run(ctx, r));
  const status = async (request: FastifyRequest) => {
    const graph = queryOf(request).get('graph');
    const runs = await namedRuns(ctx, request, graph === '' ? undefined : graph);
    return { error: false, message: '', results: runs.map(runStatus) };
  };
  app.get('/gsql/v1/loading-jobs/status', cfg('GET /gsql/v1/loading-jobs/status'), status);
  app.get('/gsql/v1/loading-jobs/status/:jobId', cfg('GET /gsql/v1/loading-jobs/status/{jobId}'), status);
  app.get('/gsql/v1/loading-jobs/abort', cfg('GET /gsql/v1/loading-jobs/abort'), (r) => abort(ctx, r));
  app.get('/gsql/v1/loading-jobs/abort/:jobId', cfg('GET /gsql/v1/loading-jobs/abort/{jobId}'), (r) =>
    abort(ctx, r),
  );
  app.get('/gsql/v1/loading-jobs/resume/:jobId', cfg('GET /gsql/v1/loading-jobs/resume/{jobId}'), (r) =>
    resume(ctx, r),
  );
}
