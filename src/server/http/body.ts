/**
 * Request bodies. TigerGraph parses JSON bodies whatever their Content-Type (pyTigerGraph sends many
 * without one), loading jobs take raw CSV/JSON bytes and the GSQL endpoints take text. So every body
 * is kept as raw bytes and each route decides how to read it: `jsonBody`, `readJsonBody`, `textBody`
 * or `rawBody`.
 */
import { isUtf8 } from 'node:buffer';
import type { Readable } from 'node:stream';
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';
import { RestError } from './envelope.js';
import type { JsonValue } from '../../util/json.js';
import { JsonReader, JsonSyntaxError, parseJson, parseJsonStrict } from '../../util/json-parse.js';

/** Default request body limit: TigerGraph's ClientMaxBodySize default, 200 MB. */
export const DEFAULT_BODY_LIMIT = 200 * 1024 * 1024;

const keepBuffer = (_req: FastifyRequest, body: Buffer, done: (err: null, body: Buffer) => void) =>
  done(null, body);

/** Replaces Fastify's parsers with one that keeps every body as a Buffer. */
export function installRawBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, keepBuffer);
}

/**
 * The same raw parser named for JSON bodies in `app`'s scope: Fastify remembers the parser of a
 * named content type per header text, but parses the header again on every request that falls to
 * the catch-all. For routes whose bodies are mostly JSON (GraphQL).
 */
export function nameJsonBodies(app: FastifyInstance): void {
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, keepBuffer);
}

/**
 * For a route that loads its body as it arrives (POST /ddl): a body with a Content-Length is handed
 * to the handler unread (as `streamedBody`), or refused before reading when it declares more than
 * the limit. A chunked body declares no size, so it is read whole within the limit first, as on
 * every other route: an oversized one is refused before anything uses it.
 */
export function installStreamingBodyParser(app: FastifyInstance): void {
  const limit = app.initialConfig.bodyLimit ?? DEFAULT_BODY_LIMIT;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (request, payload, done) => {
    const declared = request.headers['content-length'];
    if (declared === undefined) {
      readWithin(payload, limit, done);
    } else if (Number(declared) > limit) {
      done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE(), undefined);
    } else {
      done(null, payload);
    }
  });
}

function readWithin(
  payload: Readable,
  limit: number,
  done: (err: Error | null, body?: Buffer) => void,
): void {
  const parts: Buffer[] = [];
  let size = 0;
  const stop = (): void => {
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onError);
  };
  const onData = (piece: Buffer): void => {
    size += piece.length;
    if (size > limit) {
      stop();
      done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      return;
    }
    parts.push(piece);
  };
  const onEnd = (): void => {
    stop();
    done(null, Buffer.concat(parts, size));
  };
  const onError = (err: Error & { statusCode?: number }): void => {
    stop();
    if (!(typeof err.statusCode === 'number' && err.statusCode >= 400)) err.statusCode = 400;
    done(err);
  };
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onError);
  payload.resume();
}

/**
 * The body of a route with the streaming parser: its bytes still to be read, or already read whole
 * (chunked), or undefined when there was no body.
 */
export function streamedBody(request: FastifyRequest): AsyncIterable<Uint8Array> | Buffer | undefined {
  const b: unknown = request.body;
  if (Buffer.isBuffer(b)) return b;
  if (b !== null && typeof b === 'object' && Symbol.asyncIterator in b) return b as AsyncIterable<Uint8Array>;
  return undefined;
}

/** The raw body bytes (empty when there was no body). */
export function rawBody(request: FastifyRequest): Buffer {
  const b = request.body;
  return Buffer.isBuffer(b) ? b : Buffer.alloc(0);
}

/** The body as UTF-8 text (bytes that are not UTF-8 are refused, never replaced). */
export function textBody(request: FastifyRequest): string {
  return utf8Text(rawBody(request));
}

/**
 * Bytes as UTF-8 text. Anything that is not UTF-8 is a REST-30000 naming where, so no id or
 * string is ever stored with a replacement character in place of what the client sent.
 */
export function utf8Text(raw: Buffer): string {
  if (!isUtf8(raw)) {
    throw new RestError(
      'REST-30000',
      `The request body is not valid UTF-8: the bytes at offset ${invalidUtf8At(raw)} are not a UTF-8 character.`,
    );
  }
  return raw.toString('utf8');
}

/** The offset of the first byte that does not start a well-formed UTF-8 sequence. */
function invalidUtf8At(b: Uint8Array): number {
  for (let i = 0; i < b.length;) {
    const c = b[i];
    const more =
      c < 0x80
        ? 0
        : c >= 0xc2 && c <= 0xdf
          ? 1
          : c >= 0xe0 && c <= 0xef
            ? 2
            : c >= 0xf0 && c <= 0xf4
              ? 3
              : -1;
    if (more < 0) return i;
    // The second byte is narrower after E0 (no overlongs), ED (no surrogates), F0 and F4.
    const lo = c === 0xe0 ? 0xa0 : c === 0xf0 ? 0x90 : 0x80;
    const hi = c === 0xed ? 0x9f : c === 0xf4 ? 0x8f : 0xbf;
    for (let k = 1; k <= more; k++) {
      const x = b[i + k];
      if (x === undefined || x < (k === 1 ? lo : 0x80) || x > (k === 1 ? hi : 0xbf)) return i;
    }
    i += more + 1;
  }
  return -1;
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
  return readJsonText(textBody(request), read);
}

/**
 * readJsonBody for a body already taken as text; with `resumeAt`, the reader starts there inside
 * the top-level object (see JsonReader), the text before it having been read another way.
 */
export function readJsonText<T>(
  text: string,
  read: (reader: JsonReader) => T,
  resumeAt?: number,
): T | undefined {
  if (text.trim() === '') return undefined;
  try {
    return read(new JsonReader(text, undefined, resumeAt));
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
