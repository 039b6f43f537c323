/**
 * One Fastify instance per listener, configured the TigerGraph way: every body kept raw, TigerGraph
 * query strings, JSON written with exact 64-bit integers, unknown paths answered with REST-1000,
 * every error turned into the envelope (never a stack trace), request ids, per-endpoint latency and
 * an access-log line per request.
 */
import type { Duplex } from 'node:stream';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type onResponseHookHandler,
} from 'fastify';
import { AuthError } from '../../auth/errors.js';
import { stringifyJson } from '../../util/json.js';
import type { Logger } from '../../util/logger.js';
import { accessLineWriter, installAccessLog } from './access-log.js';
import { EngineError } from '../../engine/api.js';
import { installAccessHook, type AccessHookOptions } from './access-hook.js';
import { DEFAULT_BODY_LIMIT, installRawBodyParser } from './body.js';
import { installBrowserGuard, type BrowserPolicy } from './browser-guard.js';
import { endpointNotFound, errorEnvelope, httpStatusForCode, replyText, RestError } from './envelope.js';
import { FastPath, type RouteRequest } from './fast-path.js';
import type { LatencyRecorder } from './latency.js';
import { checkLimitHeaders, installResponseLimit } from './limits.js';
import { parseQueryString, QueryParams } from './querystring.js';
import { redactUrl } from './redact.js';
import { nextRequestId } from './request-id.js';
import { keepTickShape } from './tick-shape.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `<METHOD> <path pattern>` in TigerGraph's form, the key of /statistics and /endpoints. */
    endpoint?: string;
  }
}

/** A route a listener serves, as registered (HEAD twins of GET routes left out). */
export interface ServedRoute {
  method: string;
  /** Fastify's pattern, e.g. `/restpp/graph/:graph_name`. */
  url: string;
}

const served = new WeakMap<FastifyInstance, ServedRoute[]>();
const fastPaths = new WeakMap<FastifyInstance, FastPath>();

/** The listener's fast path (see fast-path.ts), when it has one: where its hot reads register. */
export function fastPathOf(app: FastifyInstance): FastPath | undefined {
  return fastPaths.get(app);
}

/** Every route registered on a listener app so far (the route-coverage test walks these). */
export function servedRoutes(app: FastifyInstance): readonly ServedRoute[] {
  return served.get(app) ?? [];
}

export interface ListenerAppOptions {
  /** Latency of every routed request is recorded here. */
  recorder?: LatencyRecorder;
  /** A path prefix stripped from the url an unknown-endpoint message names (`/restpp`). */
  restppPrefix?: string;
  bodyLimit?: number;
  /** The listener's access check (route table); every listener of a server has one. */
  access?: AccessHookOptions;
  /** Which other origins' pages may call the listener (none by default; see browser-guard.ts). */
  browser?: BrowserPolicy;
  /** The listener's log: an access line per request, and unexpected errors (never sent to the client). */
  logger?: Logger;
  /**
   * Answer plain requests to the reads registered with `fastPathOf(app)` before Fastify routes
   * them (see fast-path.ts); needs `access`. Off where other hooks must see every request (cluster).
   */
  fastPath?: boolean;
}

export function createListenerApp(options: ListenerAppOptions = {}): FastifyInstance {
  // Every response schedules several ticks; keep their objects' shape fast (see tick-shape.ts).
  keepTickShape();
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const accessLine = options.logger && accessLineWriter(options.logger);
  const fast =
    options.fastPath && options.access
      ? new FastPath({
          listener: options.access.listener,
          access: options.access,
          errorOf: (e, request) => toRestError(e, request, bodyLimit, options.logger),
          ...(options.recorder ? { recorder: options.recorder } : {}),
          ...(accessLine ? { accessLine } : {}),
        })
      : undefined;
  const app = Fastify({
    ...(fast ? { serverFactory: fast.serverFactory() } : {}),
    logger: false,
    bodyLimit,
    genReqId: () => nextRequestId(),
    // Closing lets requests in flight finish; start.ts cuts the rest after a grace period.
    forceCloseConnections: 'idle',
    // Errors raised before routing (a malformed percent-escape in the path, …) get the envelope too.
    frameworkErrors: (error, _request, reply) => {
      const message =
        error.code === 'FST_ERR_BAD_URL'
          ? `Invalid url: ${error.message}.`
          : `Invalid request: ${error.message}`;
      sendError(reply, new RestError('REST-30000', message, { status: 400 }));
    },
    clientErrorHandler: answerClientError,
    // Requests that arrive while closing are refused below, in the envelope.
    return503OnClosing: false,
    routerOptions: {
      ignoreTrailingSlash: true,
      ignoreDuplicateSlashes: true,
      maxParamLength: 8192,
      querystringParser: (text: string) => parseQueryString(text) as unknown as Record<string, unknown>,
    },
  });
  const routes: ServedRoute[] = [];
  served.set(app, routes);
  app.addHook('onRoute', (r) => {
    for (const method of Array.isArray(r.method) ? r.method : [r.method]) {
      if (method !== 'HEAD') routes.push({ method, url: r.url });
    }
  });
  installRawBodyParser(app);
  app.setReplySerializer(replyText);
  installResponseLimit(app);

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    fast?.close();
  });
  if (fast) {
    fastPaths.set(app, fast);
    app.addHook('onReady', (done) => {
      fast.seal(routes);
      done();
    });
  }
  // Hooks on every request are callback hooks (an async hook costs a promise and a microtask turn),
  // and as few as possible: this one checks the limit headers, then whether the server is closing.
  app.addHook('onRequest', (request, reply, done) => {
    try {
      checkLimitHeaders(request);
    } catch (e) {
      return done(e as Error);
    }
    if (!closing) return done();
    void reply.header('Connection', 'close');
    done(new RestError('SYS-0001', 'The server is shutting down.'));
  });
  // Foreign pages first, then credentials: both before any body is read.
  installBrowserGuard(app, options.browser ?? {});
  if (options.access) {
    const logger = options.logger;
    installAccessHook(app, {
      ...(logger ? { log: (line: string) => logger.error(line) } : {}),
      ...options.access,
    });
  }

  app.setNotFoundHandler((request, reply) => {
    let path = request.url.split('?')[0];
    const prefix = options.restppPrefix;
    if (prefix && (path === prefix || path.startsWith(`${prefix}/`))) path = path.slice(prefix.length) || '/';
    sendError(reply, endpointNotFound(path));
  });

  app.setErrorHandler((error: unknown, request, reply) => {
    sendError(reply, toRestError(error, request, bodyLimit, options.logger));
  });
  if (options.logger) installAccessLog(app, options.logger);

  if (options.recorder) {
    const recorder = options.recorder;
    // A hook of each route with an endpoint key, which it holds: nothing to look up per request.
    app.addHook('onRoute', (route) => {
      const endpoint = route.config?.endpoint;
      if (!endpoint) return;
      const record: onResponseHookHandler = (_request, reply, done) => {
        recorder.record(endpoint, reply.elapsedTime, reply.statusCode === 408);
        done();
      };
      const own = route.onResponse;
      route.onResponse = [...(own === undefined ? [] : Array.isArray(own) ? own : [own]), record];
    });
  }
  return app;
}

/** A request Node could not parse (oversized headers or url, broken framing): envelope, then close. */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 431 : 400;
  const body = stringifyJson(
    errorEnvelope(
      'REST-30000',
      tooLarge
        ? 'The request url and headers are too large; send large parameters in the request body.'
        : `Malformed HTTP request: ${error.message}`,
    ),
  );
  socket.end(
    `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
}

/** The TigerGraph query parameters of a request. */
export function queryOf(request: RouteRequest): QueryParams {
  return request.query instanceof QueryParams ? request.query : new QueryParams([]);
}

function sendError(reply: FastifyReply, error: RestError): void {
  if (error.retryAfter !== undefined) void reply.header('Retry-After', String(error.retryAfter));
  void reply
    .code(error.status)
    .type('application/json')
    .send(errorEnvelope(error.code, error.message, error.results));
}

function toRestError(
  error: unknown,
  request: Pick<FastifyRequest, 'id' | 'method' | 'url'>,
  bodyLimit: number,
  logger: Logger | undefined,
): RestError {
  if (error instanceof RestError) return error;
  if (error instanceof AuthError) {
    return new RestError(error.code, error.message, {
      status: error.status,
      ...(error.retryAfter === undefined ? {} : { retryAfter: error.retryAfter }),
    });
  }
  if (error instanceof EngineError) return new RestError(error.code, error.message);
  const fe = error as Partial<FastifyError>;
  if (typeof fe.code === 'string' && fe.code.startsWith('FST_')) {
    const status = typeof fe.statusCode === 'number' ? fe.statusCode : 400;
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return new RestError('REST-30000', `The request body exceeds the limit of ${bodyLimit} bytes.`, {
        status: 413,
      });
    }
    if (status < 500)
      return new RestError('REST-30000', `Invalid request: ${fe.message ?? fe.code}`, { status });
  }
  logger?.error(
    {
      reqId: request.id,
      method: request.method,
      url: redactUrl(request.url),
      err: error instanceof Error ? (error.stack ?? error.message) : String(error),
    },
    'internal error',
  );
  const message = error instanceof Error ? error.message : String(error);
  return new RestError('REST-10005', `Internal error while processing the request: ${message}`, {
    status: httpStatusForCode('REST-10005'),
  });
}
