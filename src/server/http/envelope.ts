/**
 * TigerGraph's response envelope and the one mapping from a REST/GSQL code to an HTTP status.
 *
 * Status policy (TigerGraph documents none; see reference B4): pyTigerGraph reads 404 as "this
 * endpoint does not exist" (it falls back to other endpoints on it, or raises an HTTPError instead
 * of a TigerGraphException), so 404 is reserved for an unknown endpoint (REST-1000, REST-10001).
 * An unknown graph (REST-1004) is a semantic error like an unknown vertex type: 400. Payload and
 * parameter errors are 400, bad credentials 401, timeouts 408 (504 when the engine did not answer in time),
 * an unavailable engine 503, internal failures 500. Every error body is the JSON envelope with
 * `error: true`, `message`, `code`.
 */
import { stringifyJson } from '../../util/json.js';
import { jsonWriter, type JsonWriter } from './json-writer.js';

export interface VersionField {
  edition: string;
  api: string;
  schema: number;
}

export interface Envelope {
  version: VersionField;
  error: boolean;
  message: string;
  results: unknown;
  code: string;
}

export const VERSION_FIELD: VersionField = Object.freeze({ edition: 'enterprise', api: 'v2', schema: 0 });

/** A successful response; `results` defaults to an empty array as TigerGraph's do. */
export function okEnvelope(results: unknown = [], message = '', code = 'REST-0000'): Envelope {
  return { version: { ...VERSION_FIELD }, error: false, message, results, code };
}

/**
 * A response body already written as JSON text. The reply serializer sends its text as is, so a
 * hot route can write its answer in one pass instead of building objects for the serializer.
 */
export class JsonText {
  constructor(
    readonly text: string,
    /**
     * The writer knows every character is ASCII: its UTF-8 bytes are its characters, so the
     * length is the byte count and it is written without UTF-8 encoding (a scan and a pass each).
     */
    readonly ascii = false,
  ) {}
}

/**
 * A response body already written as JSON in UTF-8 bytes (json-writer.ts): a listener's fast path
 * sends the bytes as they are; anything else sends their text.
 */
export class JsonBytes {
  constructor(readonly bytes: Buffer) {}
}

/** The body the listeners send for a route's returned value: JsonText as is, anything else as JSON. */
export function replyText(payload: unknown): string {
  if (payload instanceof JsonText) return payload.text;
  return payload instanceof JsonBytes ? payload.bytes.toString('utf8') : stringifyJson(payload);
}

const OK_HEAD = `${stringifyJson({ version: VERSION_FIELD, error: false, message: '' }).slice(0, -1)},"results":`;
const OK_TAIL = ',"code":"REST-0000"}';

/**
 * `okEnvelope(results)` as text, around results already written as JSON: the same bytes the
 * serializer writes for the envelope object. `ascii`: the results' text is ASCII (the envelope is).
 */
export function okEnvelopeText(resultsJson: string, ascii = false): JsonText {
  return new JsonText(`${OK_HEAD}${resultsJson}${OK_TAIL}`, ascii);
}

const OK_HEAD_BYTES = Buffer.from(OK_HEAD, 'latin1');
const OK_TAIL_BYTES = Buffer.from(OK_TAIL, 'latin1');

/** `okEnvelope(results)` as bytes, around results `write` writes as JSON (it may throw: nothing is answered). */
export function okEnvelopeBytes(write: (w: JsonWriter) => void): JsonBytes {
  const w = jsonWriter.begin();
  w.bytes(OK_HEAD_BYTES);
  write(w);
  w.bytes(OK_TAIL_BYTES);
  return new JsonBytes(w.finish());
}

/** An error response; `results` is empty as TigerGraph's are. */
export function errorEnvelope(code: string, message: string, results: unknown = []): Envelope {
  return { version: { ...VERSION_FIELD }, error: true, message, results, code };
}

/** An error a route throws; the server's error handler turns it into the envelope and status. */
export class RestError extends Error {
  readonly status: number;
  readonly results: unknown;
  /** Seconds to wait before trying again (a 429 answers it as `Retry-After`). */
  readonly retryAfter?: number;
  constructor(
    readonly code: string,
    message: string,
    options: { status?: number; results?: unknown; retryAfter?: number } = {},
  ) {
    super(message);
    this.name = 'RestError';
    this.status = options.status ?? httpStatusForCode(code);
    this.results = options.results ?? [];
    if (options.retryAfter !== undefined) this.retryAfter = options.retryAfter;
  }
}

/** The HTTP status of a REST/GSQL error code (see the policy in this file's header). */
export function httpStatusForCode(code: string): number {
  const m = /^([A-Z]+)-(\d+)$/.exec(code);
  if (!m) return 500;
  const [, prefix, digits] = m;
  const n = Number(digits);
  if (prefix === 'REST') {
    if (n < 1000) return 200;
    if (n === 1000 || n === 10001) return 404;
    if (n >= 3000 && n <= 3002) return 408;
    if (n === 10016) return 401;
    if (n === 12000) return 504;
    if (n === 12003) return 507;
    if (n >= 10000 && n < 30000) return 500;
    return 400;
  }
  if (prefix === 'GSQL') {
    if (n < 1000) return 200;
    if (n === 7002) return 408;
    if (n >= 8000 && n < 9000) return 500;
    return 400;
  }
  // SYS-0001: the engine is unavailable (starting or stopping).
  if (prefix === 'SYS' && n === 1) return 503;
  return 500;
}

/** REST-1000, with TigerGraph's wording. */
export function endpointNotFound(url: string): RestError {
  return new RestError(
    'REST-1000',
    `Endpoint is not found from url = ${url}, please use GET /endpoints to list all valid endpoints.`,
  );
}

/** REST-1004: the graph named in the url does not exist. */
export function graphNotFound(graph: string, url: string): RestError {
  return new RestError('REST-1004', `Graph name '${graph}' parsed from the url = '${url}' is not found.`);
}
