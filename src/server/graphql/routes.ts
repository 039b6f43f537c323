/**
 * The GraphQL service on the GSQL port (:14240), as in TigerGraph 3.7+: every graph at
 * POST (and GET) /api/graphql/gsql/{graph}, its GraphiQL page at /graphql/{graph}, the page's SDL
 * at /graphql/{graph}/schema, and the page's scripts at /graphiql/{file}. Credentials are checked
 * by the listener's GSQL hook (access-table rows `POST|GET /graphql/{graph_name}`).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.js';
import { graphiqlPage, sendAsset } from './graphiql.js';
import { serveGraphql, serviceOf } from './transport.js';

const API = '/api/graphql/gsql/:graph_name';
const PAGE = '/graphql/:graph_name';

function graphOf(request: FastifyRequest): string {
  return (request.params as { graph_name: string }).graph_name;
}

function noGraph(reply: FastifyReply, graph: string): FastifyReply {
  return reply
    .code(404)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ errors: [{ message: `Graph '${graph}' does not exist.` }] }));
}

/** A browser asks for credentials only when a 401 names a scheme: the page and its SDL do. */
export function challengeOn401(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode === 401) void reply.header('WWW-Authenticate', 'Basic realm="Ocelot GraphQL"');
    return payload;
  });
}

export function registerGraphqlRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const handler = (request: FastifyRequest, reply: FastifyReply) =>
    serveGraphql(ctx.db, graphOf(request), request.principal, request, reply);
  app.post(API, { config: { endpoint: 'POST /graphql/{graph_name}' } }, handler);
  app.get(API, { config: { endpoint: 'GET /graphql/{graph_name}' } }, handler);
  app.get('/graphiql/:file', { config: { endpoint: 'GET /graphiql/{file}' } }, (request, reply) =>
    sendAsset(reply, (request.params as { file: string }).file),
  );
  void app.register(async (scope) => {
    challengeOn401(scope);
    scope.get(PAGE, { config: { endpoint: 'GET /graphql/{graph_name}' } }, async (request, reply) => {
      const graph = graphOf(request);
      if (!serviceOf(ctx.db).graphExists(graph)) return noGraph(reply, graph);
      const g = encodeURIComponent(graph);
      return reply.type('text/html; charset=utf-8').send(
        graphiqlPage({
          graph,
          apiUrl: `/api/graphql/gsql/${g}`,
          sdlUrl: `/graphql/${g}/schema`,
          assetBase: '/graphiql',
        }),
      );
    });
    scope.get(
      `${PAGE}/schema`,
      { config: { endpoint: 'GET /graphql/{graph_name}' } },
      async (request, reply) => {
        const graph = graphOf(request);
        const sdl = serviceOf(ctx.db).sdl(graph);
        if (sdl === undefined) return noGraph(reply, graph);
        return reply.type('text/plain; charset=utf-8').send(sdl);
      },
    );
  });
}
