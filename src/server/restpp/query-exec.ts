/**
 * Running one query for an HTTP request (installed or interpreted): the query headers, the
 * running-query registry entry, the cancellation handed to the runtime (GSQL-TIMEOUT deadline and an
 * AbortController for /abortquery), detached mode (GSQL-ASYNC) and the mapping of query errors to
 * TigerGraph's envelope codes.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Principal } from '../../auth/authorize.js';
import { EngineError } from '../../engine/api.js';
import { GsqlSyntaxError } from '../../gsql/lexer.js';
import { QueryCompileError, QueryRegistryError, QueryRuntimeError } from '../../query/index.js';
import { JsonText, type JsonValue } from '../../util/json.js';
import type { QueryRunOptions } from '../../workers/index.js';
import { type Envelope, okEnvelope, okEnvelopeText, RestError, VERSION_FIELD } from '../http/envelope.js';
import { requestTimeoutMs } from '../http/limits.js';
import { parseBool } from '../http/querystring.js';
import { resultsJson, runningQueriesFor, type QueryRun, type RunStatus } from '../http/running-queries.js';

export interface QueryHeaders {
  timeoutMs: number;
  detached: boolean;
  /** GSQL-THREAD-LIMIT: the most threads the query's SELECTs may use (none: --threads). */
  threadLimit?: number;
  /** GSQL-QueryLocalMemLimitMB: the query's heap limit in MiB (none or 0: --query-memory-mb). */
  memoryMb?: number;
}

/** What running a query reads of its request (a Fastify request, or the fast path's own). */
export interface QueryRequest {
  readonly id: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly principal?: Principal;
}

function header(request: { headers: IncomingHttpHeaders }, name: string): string | undefined {
  const v = request.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

function badHeader(name: string, value: string, why: string): RestError {
  return new RestError('REST-30001', `Invalid value '${value}' of header ${name}: ${why}`);
}

/**
 * The query headers of a request, checked: GSQL-ASYNC (boolean), GSQL-REPLICA (1 to the number of
 * replicas: 1 alone, the cluster's nodes in a cluster; every replica holds the same data, so the
 * query runs here), GSQL-THREAD-LIMIT (a positive integer: the most threads, its own included, a
 * query's split SELECTs use; --threads caps it), GSQL-QueryLocalMemLimitMB (a non-negative number
 * of MiB: below --query-memory-mb the query runs alone on a worker with that heap limit; 0 or
 * above: --query-memory-mb applies). GSQL-TIMEOUT
 * and RESPONSE-LIMIT are checked for every request by http/limits.ts.
 */
export function queryHeaders(request: { headers: IncomingHttpHeaders }, replicas = 1): QueryHeaders {
  const replica = header(request, 'GSQL-REPLICA');
  if (replica !== undefined) {
    const n = /^\s*(\d+)(\.0*)?\s*$/.exec(replica);
    if (!n || Number(n[1]) < 1 || Number(n[1]) > replicas) {
      throw badHeader(
        'GSQL-REPLICA',
        replica,
        replicas === 1
          ? 'this server has a replication factor of 1, so only 1 is valid.'
          : `this cluster has a replication factor of ${replicas}, so 1 to ${replicas} are valid.`,
      );
    }
  }
  const threads = header(request, 'GSQL-THREAD-LIMIT');
  if (threads !== undefined && !/^\s*[1-9]\d*(\.0*)?\s*$/.test(threads)) {
    throw badHeader('GSQL-THREAD-LIMIT', threads, 'expected a positive integer.');
  }
  const mem = header(request, 'GSQL-QueryLocalMemLimitMB');
  if (mem !== undefined && !(mem.trim() !== '' && Number(mem) >= 0)) {
    throw badHeader('GSQL-QueryLocalMemLimitMB', mem, 'expected a non-negative number of megabytes.');
  }
  const asyncText = header(request, 'GSQL-ASYNC');
  const detached = asyncText === undefined ? false : parseBool(asyncText);
  if (detached === undefined) throw badHeader('GSQL-ASYNC', asyncText ?? '', 'expected true or false.');
  return {
    timeoutMs: requestTimeoutMs(request),
    detached,
    ...(threads !== undefined ? { threadLimit: Math.trunc(Number(threads)) } : {}),
    ...(mem !== undefined && Number(mem) > 0 ? { memoryMb: Math.max(1, Math.ceil(Number(mem))) } : {}),
  };
}

/** The url a running-query record shows: the REST++ path (without /restpp) and its query string. */
export function recordUrl(request: { url: string }): string {
  return request.url.startsWith('/restpp/') ? request.url.slice('/restpp'.length) : request.url;
}

/** The runtime's codes for a stopped query (GSQL-7002 timeout, GSQL-6500 aborted; older names too). */
const TIMEOUT_CODES = new Set(['GSQL-7002', 'GSQL-TIMEOUT']);
const ABORTED_CODES = new Set(['GSQL-6500', 'GSQL-ABORTED']);

/** PRINT results: objects, or JSON text a worker wrote. */
type Results = { [key: string]: JsonValue }[] | JsonText;

/** How a failed run is reported: its registry status and the error of the envelope. */
export function classifyQueryError(
  e: unknown,
  run: QueryRun,
  timeoutMs: number,
): { status: RunStatus; error: RestError } {
  if (e instanceof QueryRuntimeError) {
    if (TIMEOUT_CODES.has(e.code)) {
      return {
        status: 'timeout',
        error: new RestError(
          'REST-3000',
          `The query ${run.requestid} did not finish within its timeout of ${timeoutMs} ms (GSQL-TIMEOUT) and was stopped; nothing it changed was committed.`,
        ),
      };
    }
    if (ABORTED_CODES.has(e.code)) {
      return {
        status: 'aborted',
        error: new RestError(
          'REST-12002',
          `The query ${run.requestid} was aborted by the user; nothing it changed was committed.`,
        ),
      };
    }
    return { status: 'error', error: new RestError(e.code, e.message) };
  }
  if (e instanceof EngineError) return { status: 'error', error: new RestError(e.code, e.message) };
  const compile = compileFailure(e);
  if (compile) return { status: 'error', error: compile };
  throw e;
}

/** A query text or name that cannot be run: REST-30000 with the checker's message. */
export function compileFailure(e: unknown): RestError | undefined {
  if (e instanceof QueryCompileError || e instanceof GsqlSyntaxError || e instanceof QueryRegistryError) {
    return new RestError('REST-30000', e.message);
  }
  return undefined;
}

/** The answer to a detached submission (pyTigerGraph reads `request_id`). */
export function submittedEnvelope(requestid: string): Record<string, unknown> {
  return {
    version: { ...VERSION_FIELD },
    error: false,
    message: 'The query is successfully submitted. Please check query status using the request id.',
    results: [],
    code: 'REST-0000',
    request_id: requestid,
  };
}

/**
 * Runs `body` as a tracked query of `graph`: waits for it and answers its envelope, or (GSQL-ASYNC)
 * answers at once with the request id and keeps the outcome for /query_result.
 */
export function runTracked(
  request: QueryRequest,
  db: object,
  graph: string,
  headers: QueryHeaders,
  body: (opts: QueryRunOptions) => Promise<Results>,
): Promise<unknown> {
  const registry = runningQueriesFor(db);
  const run = registry.start(
    request.id,
    graph,
    recordUrl(request),
    headers.timeoutMs,
    headers.detached,
    request.principal?.user,
  );
  const opts: QueryRunOptions = { abort: run.controller, deadline: run.expires };
  if (headers.threadLimit !== undefined) opts.threadLimit = headers.threadLimit;
  if (headers.memoryMb !== undefined) opts.memoryMb = headers.memoryMb;
  let started: Promise<Results>;
  try {
    started = body(opts);
  } catch (e) {
    started = Promise.reject(e);
  }
  const outcome = started.then(
    (results) => {
      // Only a detached run keeps its outcome (for /query_result); the others answer with it here.
      registry.finish(
        run,
        'success',
        run.detached ? { ok: true, resultsJson: resultsJson(results) } : undefined,
      );
      return results;
    },
    (e: unknown) => {
      let failure: { status: RunStatus; error: RestError };
      try {
        failure = classifyQueryError(e, run, headers.timeoutMs);
      } catch (internal) {
        const message = internal instanceof Error ? internal.message : String(internal);
        failure = {
          status: 'error',
          error: new RestError('REST-10005', `Internal error while running the query: ${message}`),
        };
      }
      registry.finish(run, failure.status, {
        ok: false,
        code: failure.error.code,
        message: failure.error.message,
      });
      throw failure.error;
    },
  );
  if (headers.detached) {
    // The outcome is kept in the registry; nobody waits for the promise itself.
    outcome.catch(() => undefined);
    return Promise.resolve(submittedEnvelope(run.requestid));
  }
  return outcome.then(envelopeOf);
}

/** A worker's text goes into the envelope as it is (the same bytes the serializer would write). */
function envelopeOf(results: Results): Envelope | JsonText {
  return results instanceof JsonText ? okEnvelopeText(results.text) : okEnvelope(results);
}
