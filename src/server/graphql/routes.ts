/**
 * The GraphQL service on the GSQL port (:14240), as in TigerGraph 3.7+: every graph at POST (and
 * GET) /api/graphql/gsql/{graph}. Its GraphiQL page is GET /graphql/{graph}, and the page talks to
 * the API at the page's own path (POST /graphql/{graph}, GraphQL over WebSocket there too) and
 * reads the SDL at /graphql/{graph}/schema: everything the page needs lies in the path space the
 * browser authenticated for the page, so after one Basic login the browser sends the credentials
 * with Run and Docs by itself. Every 401 of these routes asks for Basic credentials. Credentials are
 * checked by the listener's access hook (route-table rows of these paths).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.js';
import { queryOf } from '../http/app.js';
import { nameJsonBodies } from '../http/body.js';
import { graphiqlPage, sendAsset } from './graphiql.js';
import { serveGraphql, serviceOf } from './transport.js';
import { installGraphqlWebSocket } from './websocket.js';

const API = '/api/graphql/gsql/:graph_name';
const PAGE = '/graphql/:graph_name';

function graphOf(request: FastifyRequest): string {
  return (request.params as { graph_name: string }).graph_name;
}

function refuse(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ errors: [{ message }] }));
}

/** A browser asks for credentials only when a 401 names a scheme. */
export function challengeOn401(app: FastifyInstance): void {
  // A callback hook: no promise per response on the hot path.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (reply.statusCode === 401) void reply.header('WWW-Authenticate', 'Basic realm="Ocelot GraphQL"');
    done(null, payload);
  });
}

/** The SDL of a graph for its GraphiQL page (refused when introspection is off). */
export function sendSdl(ctx: ServerContext, graph: string, reply: FastifyReply): FastifyReply {
  const service = serviceOf(ctx);
  if (!service.introspection)
    return refuse(reply, 403, 'Introspection is turned off on this server (--graphql-introspection).');
  const sdl = service.sdl(graph);
  if (sdl === undefined) return refuse(reply, 404, `Graph '${graph}' does not exist.`);
  return reply.type('text/plain; charset=utf-8').send(sdl);
}

/**
 * Whether a GET of the page's path carries a GraphQL request rather than asking for the page: it
 * has a `query` or `extensions` parameter and is not a browser's navigation (which accepts HTML).
 */
export function isGraphqlGet(request: FastifyRequest): boolean {
  const q = queryOf(request);
  if (q.get('query') === undefined && q.get('extensions') === undefined) return false;
  return !String(request.headers.accept ?? '').includes('text/html');
}

/** The graph a GraphQL WebSocket path names (the API's and the page's paths), if any. */
function graphOfPath(pathname: string): string | undefined {
  const m = /^\/(?:api\/graphql\/gsql|graphql)\/([^/]+)$/.exec(pathname);
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return undefined;
  }
}

export function registerGraphqlRoutes(app: FastifyInstance, ctx: ServerContext): void {
  installGraphqlWebSocket(app, ctx, graphOfPath);
  const api = (request: FastifyRequest, reply: FastifyReply) =>
    serveGraphql(ctx, graphOf(request), request.principal, request, reply);
  app.get('/graphiql/:file', { config: { endpoint: 'GET /graphiql/{file}' } }, (request, reply) =>
    sendAsset(reply, (request.params as { file: string }).file),
  );
  void app.register(async (scope) => {
    challengeOn401(scope);
    nameJsonBodies(scope);
    for (const path of [API, PAGE])
      scope.post(path, { config: { endpoint: 'POST /graphql/{graph_name}' } }, api);
    scope.get(API, { config: { endpoint: 'GET /graphql/{graph_name}' } }, api);
    scope.get(PAGE, { config: { endpoint: 'GET /graphql/{graph_name}' } }, async (request, reply) => {
      if (isGraphqlGet(request)) return api(request, reply);
      const graph = graphOf(request);
      if (!serviceOf(ctx).graphExists(graph)) return refuse(reply, 404, `Graph '${graph}' does not exist.`);
      const g = encodeURIComponent(graph);
      return reply.type('text/html; charset=utf-8').send(
        graphiqlPage({
          graph,
          apiUrl: `/graphql/${g}`,
          sdlUrl: `/graphql/${g}/schema`,
          assetBase: '/graphiql',
        }),
      );
    });
    scope.get(
      `${PAGE}/schema`,
      { config: { endpoint: 'GET /graphql/{graph_name}' } },
      async (request, reply) => sendSdl(ctx, graphOf(request), reply),
    );
  });
}
