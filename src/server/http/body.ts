/**
 * Request bodies. TigerGraph parses JSON bodies whatever their Content-Type (pyTigerGraph sends many
 * without one), loading jobs take raw CSV/JSON bytes and the GSQL endpoints take text. So every body
 * is kept as raw bytes and each route decides how to read it: `jsonBody`, `readJsonBody`, `textBody`
 * or `rawBody`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RestError } from './envelope.js';
import type { JsonValue } from '../../util/json.js';
import { JsonReader, JsonSyntaxError, parseJson, parseJsonStrict } from '../../util/json-parse.js';

/** Default request body limit: TigerGraph's ClientMaxBodySize default, 200 MB. */
export const DEFAULT_BODY_LIMIT = 200 * 1024 * 1024;

/** Replaces Fastify's parsers with one that keeps every body as a Buffer. */
export function installRawBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
}

/** The raw body bytes (empty when there was no body). */
export function rawBody(request: FastifyRequest): Buffer {
  const b = request.body;
  return Buffer.isBuffer(b) ? b : Buffer.alloc(0);
}

/** The body as UTF-8 text. */
export function textBody(request: FastifyRequest): string {
  return rawBody(request).toString('utf8');
}

/**
 * The body parsed as JSON (repeated keys: last wins; big integers exact). An empty body is
 * `undefined`; malformed JSON is REST-30000 naming where it broke.
 */
export function jsonBody(request: FastifyRequest): JsonValue | undefined {
  const text = textBody(request);
  if (text.trim() === '') return undefined;
  try {
    return parseJsonStrict(text);
  } catch (e) {
    throw invalidJson(e);
  }
}

/**
 * The body walked by a pull reader (`read` follows the shape it expects, in one pass, meeting a
 * repeated key once per occurrence): upsert bodies, where pyTigerGraph repeats a target id for
 * several edges of a discriminated edge type. An empty body is `undefined`. Malformed JSON is
 * REST-30000 naming where it broke, also when `read` stopped earlier at a shape error: the text is
 * then parsed whole, so a syntax error anywhere is what gets reported.
 */
export function readJsonBody<T>(request: FastifyRequest, read: (reader: JsonReader) => T): T | undefined {
  const text = textBody(request);
  if (text.trim() === '') return undefined;
  try {
    return read(new JsonReader(text));
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) {
      try {
        parseJson(text, { keepDuplicateKeys: true });
      } catch (syntax) {
        throw invalidJson(syntax);
      }
    }
    throw invalidJson(e);
  }
}

function invalidJson(e: unknown): unknown {
  if (e instanceof JsonSyntaxError) return new RestError('REST-30000', `Invalid JSON payload: ${e.message}.`);
  return e;
}
