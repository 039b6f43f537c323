/**
 * The standalone GraphQL service of one graph (`ocelot serve --graphql-graph g`), like TigerGraph's
 * `tigergraphql -g g -p 4000`: POST/GET /graphql (and GraphQL over WebSocket there), GraphiQL at /,
 * the SDL at /schema, the page's scripts at /graphiql/{file}. Every route but the scripts needs the
 * GSQL server's credentials (Basic user/password, or a token) and READ_DATA on the graph (the route
 * table's `graphql` rows); a 401 asks the browser for them.
 */
import type { FastifyInstance } from 'fastify';
import type { AuthError } from '../../auth/errors.js';
import type { ServerContext } from '../context.js';
import { createListenerApp } from '../http/app.js';
import { nameJsonBodies } from '../http/body.js';
import type { BrowserPolicy } from '../http/browser-guard.js';
import { graphiqlPage, sendAsset } from './graphiql.js';
import { challengeOn401, isGraphqlGet, sendSdl } from './routes.js';
import { serveGraphql } from './transport.js';
import { installGraphqlWebSocket } from './websocket.js';

export function createGraphqlListener(
  ctx: ServerContext,
  graph: string,
  browser: BrowserPolicy = {},
): FastifyInstance {
  const app = createListenerApp({
    recorder: ctx.recorder,
    logger: ctx.logger.child({ listener: 'graphql' }),
    browser: { ...browser, navigable: (r) => r.routeOptions.url === '/' },
    access: {
      listener: 'graphql',
      db: ctx.db,
      graph,
      // GraphQL clients read refusals as GraphQL errors.
      refuse: (reply, e: AuthError) =>
        reply
          .code(e.status)
          .type('application/json; charset=utf-8')
          .send(JSON.stringify({ errors: [{ message: e.message, extensions: { code: e.code } }] })),
    },
  });
  challengeOn401(app);
  nameJsonBodies(app);
  installGraphqlWebSocket(app, ctx, (path) => (path === '/graphql' ? graph : undefined));
  app.post('/graphql', { config: { endpoint: 'POST /graphql' } }, (request, reply) =>
    serveGraphql(ctx, graph, request.principal, request, reply),
  );
  app.get('/graphql', { config: { endpoint: 'GET /graphql' } }, (request, reply) =>
    serveGraphql(ctx, graph, request.principal, request, reply),
  );
  app.get('/', { config: { endpoint: 'GET /' } }, async (request, reply) => {
    if (isGraphqlGet(request)) return serveGraphql(ctx, graph, request.principal, request, reply);
    return reply
      .type('text/html; charset=utf-8')
      .send(graphiqlPage({ graph, apiUrl: '/graphql', sdlUrl: '/schema', assetBase: '/graphiql' }));
  });
  app.get('/schema', { config: { endpoint: 'GET /schema' } }, async (_request, reply) =>
    sendSdl(ctx, graph, reply),
  );
  app.get('/graphiql/:file', { config: { endpoint: 'GET /graphiql/{file}' } }, (request, reply) =>
    sendAsset(reply, (request.params as { file: string }).file),
  );
  return app;
}
