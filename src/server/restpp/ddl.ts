/**
 * POST /ddl/{graph}: runs a loading job on the request body for one filename variable
 * (`tag` = job, `filename` = variable, `__GSQL_FILENAME_n__` or a LOAD statement's literal path).
 * The body is raw file bytes whatever the Content-Type (pyTigerGraph labels CSV text as a form);
 * LOAD statements of other variables are skipped. Bad lines are counted, never fatal.
 * A body with a Content-Length is loaded as it arrives (memory does not grow with it); one declaring
 * more than the body limit (200 MB by default) is refused before it is read. A chunked body is read
 * whole within the limit first. A load cut short (client gone, timeout) keeps what it committed.
 */
import type { FastifyRequest } from 'fastify';
import { findJob } from '../../catalog/alter.js';
import { GsqlSyntaxError } from '../../gsql/lexer.js';
import { LoadingJobError } from '../../loading/expressions.js';
import { LoadingOptionError } from '../../loading/format.js';
import { prepareJob, runJobOnData, runJobOnStream, type DataOptions } from '../../loading/job.js';
import { LoadingJobRuns } from '../../loading/job-runs.js';
import type { ServerContext } from '../context.js';
import { queryOf } from '../http/app.js';
import { streamedBody } from '../http/body.js';
import { okEnvelope, RestError, type Envelope } from '../http/envelope.js';
import { requestTimeoutMs } from '../http/limits.js';
import { parseBool, type QueryParams } from '../http/querystring.js';
import { pathParam, requireGraph, type RestppApp, type RestppRouteModule } from './route-module.js';

/** The source name TigerGraph reports for posted data. */
const SOURCE_FILE_NAME = 'Online_POST';

function required(q: QueryParams, name: string, what: string): string {
  const v = q.get(name);
  if (v === undefined || v.trim() === '') {
    throw new RestError('REST-30000', `The parameter '${name}' (${what}) is required for POST /ddl.`);
  }
  return v;
}

/**
 * The load's deadline in ms: `timeout` (seconds, 0 = none given), else GSQL-TIMEOUT when the client
 * sent one; without either a load runs to the end, as large files need.
 */
function deadlineMs(request: FastifyRequest, q: QueryParams): number | undefined {
  const raw = q.get('timeout');
  if (raw !== undefined && raw.trim() !== '') {
    const n = Number(raw);
    if (!/^\s*\d+(\.\d+)?\s*$/.test(raw) || !Number.isFinite(n)) {
      throw new RestError(
        'REST-30001',
        `The value '${raw}' of parameter 'timeout' is not a valid number of seconds.`,
      );
    }
    if (n > 0) return n * 1000;
  }
  return request.headers['gsql-timeout'] !== undefined ? requestTimeoutMs(request) : undefined;
}

async function runDdl(ctx: ServerContext, request: FastifyRequest): Promise<Envelope> {
  const graph = requireGraph(ctx, request, pathParam(request, 'graph_name'));
  const q = queryOf(request);
  const tag = required(q, 'tag', 'the loading job name');
  const filename = required(q, 'filename', 'the filename variable');
  const concise = parseBool(q.get('concise') ?? 'false');
  if (concise === undefined)
    throw new RestError('REST-30000', `The parameter 'concise' must be true or false.`);
  const ack = q.get('ack');
  if (ack !== undefined && ack !== 'all' && ack !== 'none') {
    throw new RestError('REST-30000', `The parameter 'ack' must be 'all' or 'none', not '${ack}'.`);
  }
  const stored = findJob(ctx.db.catalog, tag, graph);
  if (!stored || stored.kind !== 'loading') {
    throw new RestError('REST-30000', `The loading job '${tag}' does not exist in graph '${graph}'.`);
  }
  const ms = deadlineMs(request, q);
  const abort = new AbortController();
  const timer = ms === undefined ? undefined : setTimeout(() => abort.abort(), ms);
  try {
    const job = prepareJob(stored.text, graph, ctx.db);
    // Parsed on workers at the server's --threads when the body is large (loading/parallel-runner.ts).
    const opts: DataOptions = { signal: abort.signal, threads: LoadingJobRuns.for(ctx.db).threads };
    const length = Number(request.headers['content-length']);
    if (Number.isSafeInteger(length)) opts.sizeHint = length;
    const sep = q.get('sep');
    const eol = q.get('eol');
    if (sep !== undefined) opts.sep = sep;
    if (eol !== undefined) opts.eol = eol;
    const body = streamedBody(request) ?? Buffer.alloc(0);
    const stats = Buffer.isBuffer(body)
      ? await runJobOnData(ctx.db, job, filename, body, opts)
      : await runJobOnStream(ctx.db, job, filename, body, opts);
    if (abort.signal.aborted) {
      throw new RestError(
        'REST-3001',
        `The loading request timed out after ${(ms ?? 0) / 1000} s; ${stats.validLine} lines were loaded before it stopped.`,
      );
    }
    return okEnvelope([
      { sourceFileName: SOURCE_FILE_NAME, statistics: concise ? stats.toConciseJSON() : stats.toJSON() },
    ]);
  } catch (e) {
    if (e instanceof LoadingJobError || e instanceof LoadingOptionError || e instanceof GsqlSyntaxError) {
      throw new RestError('REST-30000', e.message);
    }
    if (request.raw.readableAborted) {
      throw new RestError(
        'REST-30000',
        'The request body ended before its Content-Length was received; the lines before the cut were loaded.',
      );
    }
    throw e;
  } finally {
    if (timer) clearTimeout(timer);
  }
}

export const ddlRoutes: RestppRouteModule = {
  name: 'ddl',
  register(app: RestppApp, ctx: ServerContext) {
    app.route({
      method: 'POST',
      path: '/ddl/{graph_name}',
      parameters: {
        tag: { type: 'STRING', min_count: 1 },
        filename: { type: 'STRING', min_count: 1 },
        sep: { type: 'STRING', default: ',' },
        eol: { type: 'STRING', default: '\n' },
        ack: { type: 'STRING', default: 'all' },
        timeout: { type: 'UINT', default: '0' },
        concise: { type: 'BOOL', default: 'false' },
      },
      streamBody: true,
      handler: (request) => runDdl(ctx, request),
    });
  },
};
