/**
 * A listener's fast path for its hot requests: REST++ point reads and vertex lists (`read`s), and
 * installed-query runs (`run`s). A plain request is answered before Fastify routes it, with the
 * bytes, status and headers Fastify would send, after the same access decision, and with the same
 * latency sample and access line. Fastify's own per-request work (request and reply objects, the
 * hook chain, the router's url normalizing, the serializer) is most of a point read's cost beyond
 * the socket, and about half the event loop's cost of a short query.
 *
 * Anything that is not plain goes to Fastify unchanged, which answers it as always: another method,
 * a body, browser markers (`Origin`, `Sec-Fetch-Site`), the `RESPONSE-LIMIT` header (and for reads
 * `GSQL-TIMEOUT`; a run checks it as the listener's hook does), a url the router would decode or
 * normalize (`%`, `#`, empty segments, a trailing slash), a caller whose credentials are not
 * already verified under the current security state, the listener closing, and every error a route
 * raises before it starts anything: a read throws (reads change nothing, so running one again there
 * is harmless), a run throws synchronously. So refusals and errors keep their one path. Once a run
 * started (its promise), its outcome is answered here, an error in the envelope and status the
 * listener's error handler gives it.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyServerFactory, FastifyServerOptions } from 'fastify';
import type { Principal } from '../../auth/authorize.js';
import { routeRule, type ListenerKind } from '../../auth/route-rules.js';
import { AuthService } from '../../auth/service.js';
import { allowedAtOnce, OPEN, type AccessHookOptions } from './access-hook.js';
import type { AccessLineWriter } from './access-log.js';
import { errorEnvelope, JsonBytes, JsonText, replyText, type Envelope, type RestError } from './envelope.js';
import type { LatencyRecorder } from './latency.js';
import { checkLimitHeaders } from './limits.js';
import { parseQueryString, type QueryParams } from './querystring.js';
import { nextRequestId } from './request-id.js';

/** What a fast read may use of its request (a Fastify request has the same fields). */
export interface RouteRequest {
  readonly url: string;
  readonly params: unknown;
  readonly query: unknown;
}

/** A request on the fast path. */
export interface FastRequest extends RouteRequest {
  readonly headers: IncomingHttpHeaders;
  readonly ip: string;
  readonly params: Record<string, string>;
  readonly query: QueryParams;
}

/** A synchronous read (never a promise): the envelope to send, or it throws. */
export type FastRead = (request: FastRequest) => JsonText | JsonBytes | Envelope;

/** A request a run answers: its request id, and the caller when the route asked for one. */
export interface FastRunRequest extends FastRequest {
  readonly id: string;
  readonly principal?: Principal;
}

/**
 * A run: throws synchronously when it started nothing (Fastify then answers the request), else
 * the promise of its answer (sent as a route's returned value is); a rejection is answered as the
 * listener's error handler would.
 */
export type FastRun = (request: FastRunRequest) => Promise<unknown>;

/** The listener's mapping of a thrown value to the error it answers (app.ts's toRestError). */
export type ErrorOf = (error: unknown, request: { id: string; method: string; url: string }) => RestError;

interface FastRoute {
  /** Fastify's pattern, e.g. `/graph/:graph_name/vertices/:vertex_type`. */
  url: string;
  /** Per path segment: its text, or null for a parameter. */
  literals: (string | null)[];
  names: string[];
  /** Other routes' segments that win some urls this one matches: those go to Fastify. */
  shadows: (string | null)[][];
  endpoint: string;
  answer: { read: FastRead } | { run: FastRun };
  access: ReturnType<typeof routeRule>;
}

export interface FastPathOptions {
  listener: ListenerKind;
  access: AccessHookOptions;
  recorder?: LatencyRecorder;
  accessLine?: AccessLineWriter;
  errorOf: ErrorOf;
}

let answered = 0;

/** How many requests the fast paths of this process answered (tests check which path answered). */
export function fastAnswers(): number {
  return answered;
}

/** The router's longest parameter (`maxParamLength`); a longer url goes to Fastify. */
const MAX_URL = 8192;
const JSON_TYPE = 'application/json; charset=utf-8';

function segmentsOf(url: string): { literals: (string | null)[]; names: string[] } {
  const literals: (string | null)[] = [];
  const names: string[] = [];
  for (const s of url.split('/').slice(1)) {
    if (s.startsWith(':')) {
      literals.push(null);
      names.push(s.slice(1));
    } else literals.push(s);
  }
  return { literals, names };
}

/**
 * The segments of another route that takes some of `route`'s urls in Fastify's router, which
 * prefers a static segment to a parameter at the first place two routes differ; undefined when
 * it takes none. A wildcard route may take any.
 */
function shadowOf(other: string, route: FastRoute): (string | null)[] | 'all' | undefined {
  if (other === route.url) return undefined;
  if (other.includes('*')) return 'all';
  const theirs = segmentsOf(other).literals;
  if (theirs.length !== route.literals.length) return undefined;
  let preferred: boolean | undefined;
  for (let i = 0; i < theirs.length; i++) {
    const mine = route.literals[i];
    if (mine !== null && theirs[i] !== null && mine !== theirs[i]) return undefined;
    if (preferred === undefined && (mine === null) !== (theirs[i] === null)) preferred = mine === null;
  }
  return preferred ? theirs : undefined;
}

/** Whether `parts` (a path split at `/`) matches the segments. */
function matches(literals: readonly (string | null)[], parts: readonly string[]): boolean {
  if (parts.length !== literals.length + 1) return false;
  for (let i = 0; i < literals.length; i++) {
    const part = parts[i + 1];
    if (part === '' || (literals[i] !== null && literals[i] !== part)) return false;
  }
  return true;
}

export class FastPath {
  private readonly routes: FastRoute[] = [];
  private sealed = false;
  private closing = false;
  private readonly auth: AuthService;

  constructor(private readonly o: FastPathOptions) {
    this.auth = AuthService.for(o.access.db);
  }

  /** A GET route (Fastify's pattern) this path may answer, once sealed: a read or a run. */
  add(url: string, endpoint: string, answer: FastRead | { run: FastRun }): void {
    if (this.sealed) throw new Error(`fast route ${url} added after the listener started`);
    this.routes.push({
      url,
      ...segmentsOf(url),
      shadows: [],
      endpoint,
      answer: typeof answer === 'function' ? { read: answer } : answer,
      access: routeRule(this.o.listener, 'GET', url),
    });
  }

  /**
   * Called when every route is registered: the urls of a fast route that another GET route's
   * pattern would take in Fastify's router (a static segment where it has a parameter) are left
   * to Fastify; a route a wildcard could take is not answered here at all.
   */
  seal(served: readonly { method: string; url: string }[]): void {
    const gets = served.filter((r) => r.method === 'GET').map((r) => r.url);
    const kept: FastRoute[] = [];
    for (const r of this.routes) {
      const shadows = gets.map((other) => shadowOf(other, r));
      if (shadows.includes('all')) continue;
      r.shadows = shadows.filter((x): x is (string | null)[] => Array.isArray(x));
      kept.push(r);
    }
    this.routes.splice(0, this.routes.length, ...kept);
    this.sealed = true;
  }

  /** From now on every request goes to Fastify (it refuses them while closing). */
  close(): void {
    this.closing = true;
  }

  /** Fastify's HTTP/1 server with this path in front of Fastify's handler. */
  serverFactory(): FastifyServerFactory {
    return (handler, options: FastifyServerOptions) => {
      const server: Server = createServer((req, res) => {
        if (!this.answer(req, res)) handler(req, res);
      });
      // As Fastify configures the server it creates itself.
      if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
      if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
      if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
      if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
      return server;
    };
  }

  /** Answers the request (or starts answering it) and returns true, or returns false having sent nothing. */
  private answer(req: IncomingMessage, res: ServerResponse): boolean {
    if (!this.sealed || this.closing || req.method !== 'GET') return false;
    const h = req.headers;
    if (
      h.origin !== undefined ||
      h['sec-fetch-site'] !== undefined ||
      h['content-length'] !== undefined ||
      h['transfer-encoding'] !== undefined ||
      h['response-limit'] !== undefined
    ) {
      return false;
    }
    const url = req.url ?? '';
    if (url.length > MAX_URL || url.charCodeAt(0) !== 47 || url.includes('#')) return false;
    const mark = url.indexOf('?');
    const path = mark < 0 ? url : url.slice(0, mark);
    if (path.includes('%')) return false;
    const parts = path.split('/');
    const route = this.match(parts);
    if (!route) return false;
    const start = performance.now();
    const params: Record<string, string> = {};
    for (let i = 0, p = 0; i < route.literals.length; i++) {
      if (route.literals[i] === null) params[route.names[p++]] = parts[i + 1];
    }
    let request: FastRequest;
    let caller: Principal | typeof OPEN | undefined;
    try {
      const query = parseQueryString(mark < 0 ? '' : url.slice(mark + 1));
      request = { url, headers: h, ip: req.socket.remoteAddress ?? '', params, query };
      caller = allowedAtOnce(request, route.access, this.auth, this.o.access);
    } catch {
      return false;
    }
    if (caller === undefined) return false;
    const principal = caller === OPEN ? undefined : caller;
    const answer = route.answer;
    if ('run' in answer) return this.startRun(res, route, answer.run, request, principal, start);
    if (h['gsql-timeout'] !== undefined) return false;
    let body: JsonText | JsonBytes | Envelope;
    try {
      body = answer.read(request);
    } catch {
      return false;
    }
    if (body instanceof JsonBytes) this.sendBytes(res, body.bytes);
    else this.send(res, 200, replyText(body), body instanceof JsonText && body.ascii, undefined);
    this.done(route, url, 200, start, nextRequestId(), principal);
    return true;
  }

  /** Starts a run; false (nothing started, nothing sent) when it throws at once. */
  private startRun(
    res: ServerResponse,
    route: FastRoute,
    run: FastRun,
    request: FastRequest,
    principal: Principal | undefined,
    start: number,
  ): boolean {
    const id = nextRequestId();
    let pending: Promise<unknown>;
    try {
      // A malformed GSQL-TIMEOUT is refused by the listener's hook, before any route.
      checkLimitHeaders(request);
      const { url, headers, ip, params, query } = request;
      pending = run(
        principal
          ? { url, headers, ip, params, query, id, principal }
          : { url, headers, ip, params, query, id },
      );
    } catch {
      return false;
    }
    pending
      .then(
        (body) => {
          this.send(res, 200, replyText(body), body instanceof JsonText && body.ascii, undefined);
          this.done(route, request.url, 200, start, id, principal);
        },
        (e: unknown) => {
          const error = this.o.errorOf(e, { id, method: 'GET', url: request.url });
          const text = replyText(errorEnvelope(error.code, error.message, error.results));
          this.send(res, error.status, text, false, error.retryAfter);
          this.done(route, request.url, error.status, start, id, principal);
        },
      )
      // Nothing above is expected to throw; if it did, the connection ends rather than the process.
      .catch(() => res.destroy());
    return true;
  }

  private send(
    res: ServerResponse,
    status: number,
    text: string,
    ascii: boolean,
    retryAfter: number | undefined,
  ): void {
    // ASCII is one byte per character: its length is its byte count, and latin1 writes the
    // characters as they are where UTF-8 would encode each (same bytes, a scan and a pass less).
    const length = ascii ? text.length : Buffer.byteLength(text);
    const headers = ['content-type', JSON_TYPE, 'content-length', String(length)];
    if (retryAfter !== undefined) headers.push('retry-after', String(retryAfter));
    res.writeHead(status, headers);
    res.end(text, ascii ? 'latin1' : 'utf8');
  }

  /** A 200 whose body is JSON bytes, sent as they are. */
  private sendBytes(res: ServerResponse, bytes: Buffer): void {
    res.writeHead(200, ['content-type', JSON_TYPE, 'content-length', String(bytes.length)]);
    res.end(bytes);
  }

  /** The latency sample (a 408 counts as a timeout, as the listener's hook counts it) and access line. */
  private done(
    route: FastRoute,
    url: string,
    status: number,
    start: number,
    id: string,
    principal: Principal | undefined,
  ): void {
    const ms = performance.now() - start;
    answered++;
    this.o.recorder?.record(route.endpoint, ms, status === 408);
    this.o.accessLine?.(id, 'GET', url, status, ms, principal?.user);
  }

  /** The route that `parts` (the path split at `/`) selects in Fastify's router, if a fast one. */
  private match(parts: string[]): FastRoute | undefined {
    for (const r of this.routes) {
      if (!matches(r.literals, parts)) continue;
      return r.shadows.some((s) => matches(s, parts)) ? undefined : r;
    }
    return undefined;
  }
}
