/**
 * How a REST++ route module plugs in: it exports a `RestppRouteModule` whose `register(app, ctx)`
 * calls `app.route({...})` for each endpoint, with the path in TigerGraph's form
 * (`/graph/{graph_name}/vertices/{vertex_type}`) and its parameters. The module is listed once in
 * routes.ts and is then served on :9000/<path> and :14240/restpp/<path>, listed by GET /endpoints
 * and timed for GET /statistics.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { ServerContext } from '../context.js';
import { fastPathOf } from '../http/app.js';
import { installStreamingBodyParser } from '../http/body.js';
import type { FastRun, RouteRequest } from '../http/fast-path.js';
import { graphNotFound, type Envelope, type JsonBytes, type JsonText } from '../http/envelope.js';
import type { EndpointKind, EndpointRegistry, ParamSpec } from './endpoint-registry.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface RouteBase {
  method: HttpMethod | HttpMethod[];
  /** TigerGraph path pattern; `{name}` segments become path parameters. */
  path: string;
  /** Query-string parameters, as GET /endpoints lists them. */
  parameters?: Record<string, ParamSpec>;
  kind?: EndpointKind;
  /** The body is handed over unread (see `installStreamingBodyParser`), for loading as it arrives. */
  streamBody?: boolean;
}

export type RestppRoute = RouteBase &
  (
    | {
        /** The returned value is sent as JSON (64-bit integers exact); a string is sent as is. */
        handler: (request: FastifyRequest, reply: FastifyReply) => unknown;
        read?: undefined;
        /**
         * The same GET for a listener's fast path (fast-path.ts's FastRun): it throws where
         * `handler` must answer, else it answers as `handler` would.
         */
        fast?: FastRun;
      }
    | {
        /**
         * A GET that only reads (path, query string, the database): synchronous, its value sent as
         * `handler`'s is; a listener's fast path may answer it without Fastify (fast-path.ts).
         */
        read: (request: RouteRequest) => JsonText | JsonBytes | Envelope;
        handler?: undefined;
        fast?: undefined;
      }
  );

export interface RestppApp {
  route(route: RestppRoute): void;
}

export interface RestppRouteModule {
  readonly name: string;
  register(app: RestppApp, ctx: ServerContext): void;
}

/** Mounts route modules on one Fastify instance (inside a prefix scope or at the root). */
export function mountRestppModules(
  fastify: FastifyInstance,
  modules: readonly RestppRouteModule[],
  ctx: ServerContext,
  registry: EndpointRegistry,
): void {
  const app: RestppApp = {
    route(r) {
      const methods = Array.isArray(r.method) ? r.method : [r.method];
      const read = r.read;
      const handle = read ? (request: FastifyRequest) => read(request) : r.handler;
      for (const method of methods) {
        const endpoint = `${method} ${r.path}`;
        registry.declare(method, r.path, r.parameters, r.kind);
        const url = toFastifyPath(r.path);
        if (method === 'GET') {
          const fast = read ?? (r.fast && { run: r.fast });
          if (fast) fastPathOf(fastify)?.add(url, endpoint, fast);
        }
        const options: RouteOptions = {
          method,
          url,
          config: { endpoint },
          handler: (request, reply) => {
            // A value is sent at once, with no promise per request. Fastify would leave a
            // synchronous undefined unanswered; as from an async handler, it is sent (empty).
            const out = handle(request, reply);
            return out === undefined ? Promise.resolve(out) : out;
          },
        };
        if (!r.streamBody) {
          fastify.route(options);
          continue;
        }
        // Its own scope, so the other routes keep the buffering parser.
        void fastify.register(async (scope) => {
          installStreamingBodyParser(scope);
          scope.route(options);
        });
      }
    },
  };
  for (const m of modules) m.register(app, ctx);
}

/** `/graph/{graph_name}/x` → `/graph/:graph_name/x`. */
export function toFastifyPath(path: string): string {
  return path.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, ':$1');
}

/** A path parameter (already percent-decoded by the router). */
export function pathParam(request: RouteRequest, name: string): string | undefined {
  const params = request.params as Record<string, string | undefined>;
  return params[name];
}

/** The url's path without query string and without the /restpp prefix, as error messages show it. */
export function restppPath(request: RouteRequest): string {
  const path = request.url.split('?')[0];
  return path.startsWith('/restpp/') ? path.slice('/restpp'.length) : path;
}

/** Throws REST-1004 unless `graph` exists. */
export function requireGraph(ctx: ServerContext, request: RouteRequest, graph: string | undefined): string {
  if (graph === undefined || !ctx.db.catalog.graphs.some((g) => g.name === graph)) {
    throw graphNotFound(graph ?? '', restppPath(request));
  }
  return graph;
}
