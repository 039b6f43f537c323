/**
 * Per-request limits from TigerGraph's headers: `GSQL-TIMEOUT` (milliseconds; 16 s by default) and
 * `RESPONSE-LIMIT` (bytes; a larger JSON answer is replaced by REST-4000).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { errorEnvelope, httpStatusForCode, RestError } from './envelope.js';
import { stringifyJson } from '../../util/json.js';

/** TigerGraph's default HTTP request timeout. */
export const DEFAULT_TIMEOUT_MS = 16_000;

/** What the limits read of a request: its headers. */
interface WithHeaders {
  readonly headers: IncomingHttpHeaders;
}

function header(request: WithHeaders, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** A positive number of the header (pyTigerGraph sends e.g. "32000000.0"), else undefined. */
function numericHeader(request: WithHeaders, name: string, headerName: string): number | undefined {
  const text = header(request, name);
  if (text === undefined || text.trim() === '') return undefined;
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0) {
    throw new RestError(
      'REST-30001',
      `The value '${text}' of header ${headerName} is not a non-negative number.`,
    );
  }
  return n;
}

/** The request's timeout in milliseconds (`GSQL-TIMEOUT`, 0 = the default). */
export function requestTimeoutMs(request: WithHeaders): number {
  const ms = numericHeader(request, 'gsql-timeout', 'GSQL-TIMEOUT');
  return ms === undefined || ms === 0 ? DEFAULT_TIMEOUT_MS : Math.floor(ms);
}

/** The request's response size limit in bytes, if it set one. */
export function responseLimit(request: WithHeaders): number | undefined {
  const n = numericHeader(request, 'response-limit', 'RESPONSE-LIMIT');
  return n === undefined ? undefined : Math.floor(n);
}

const MB = 1024 * 1024;

function size(bytes: number): string {
  if (bytes < MB) return `${bytes} bytes`;
  const mb = bytes / MB;
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)}MB`;
}

/**
 * Refuses malformed `RESPONSE-LIMIT` and `GSQL-TIMEOUT` headers (REST-30001); the listener calls it
 * when a request arrives, before the route runs, so onSend never meets one.
 */
export function checkLimitHeaders(request: WithHeaders): void {
  responseLimit(request);
  requestTimeoutMs(request);
}

/** Replaces a JSON answer larger than RESPONSE-LIMIT by the REST-4000 error TigerGraph gives. */
export function installResponseLimit(app: FastifyInstance): void {
  // A callback hook (no promise per request).
  app.addHook('onSend', (request, reply, payload, done) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
    if (reply.statusCode >= 400) return done(null, payload);
    const limit = responseLimit(request);
    if (limit === undefined) return done(null, payload);
    const bytes = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
    if (bytes <= limit) return done(null, payload);
    void reply.code(httpStatusForCode('REST-4000')).type('application/json; charset=utf-8');
    done(
      null,
      stringifyJson(
        errorEnvelope(
          'REST-4000',
          `The query response size is ${size(bytes)}, which exceeds limit ${size(limit)}.`,
        ),
      ),
    );
  });
}
