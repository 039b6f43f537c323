/**
 * The standalone GraphQL service of one graph (`ocelot serve --graphql-graph g`), like TigerGraph's
 * `tigergraphql -g g -p 4000`: POST/GET /graphql (and GraphQL over WebSocket there), GraphiQL at /,
 * the SDL at /schema, the page's scripts at /graphiql/{file}. Every route but the scripts and the
 * CORS preflight needs the GSQL server's credentials (Basic user/password, or a token) and
 * READ_DATA on the graph; a 401 asks the browser for them.
 */
import type { FastifyInstance } from 'fastify';
import { AuthError } from '../../auth/errors.js';
import { AuthService } from '../../auth/service.js';
import type { ServerContext } from '../context.js';
import { createListenerApp } from '../http/app.js';
import { NO_CREDENTIALS } from '../gsqlserver/tokens-credentials.js';
import { installGraphqlCors } from './cors.js';
import { graphiqlPage, sendAsset } from './graphiql.js';
import { challengeOn401, isGraphqlGet, sendSdl } from './routes.js';
import { serveGraphql } from './transport.js';
import { installGraphqlWebSocket } from './websocket.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** GraphQL-listener routes that need the caller's credentials. */
    graphqlAuth?: boolean;
  }
}

export function createGraphqlListener(ctx: ServerContext, graph: string): FastifyInstance {
  const app = createListenerApp({ recorder: ctx.recorder, logError: ctx.log });
  challengeOn401(app);
  installGraphqlWebSocket(app, ctx, (path) => (path === '/graphql' ? graph : undefined));
  installGraphqlCors(app, ctx.graphql?.corsOrigins ?? [], [
    { path: '/graphql', endpoint: 'OPTIONS /graphql' },
  ]);
  app.addHook('preHandler', async (request, reply) => {
    if (!request.routeOptions.config.graphqlAuth) return;
    const auth = AuthService.for(ctx.db);
    try {
      request.principal = await auth.authenticateHeader(request.headers.authorization, NO_CREDENTIALS);
      await auth.check(request.principal, { kind: 'all', privileges: ['READ_DATA'] }, graph);
    } catch (e) {
      if (!(e instanceof AuthError)) throw e;
      return reply
        .code(e.status)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify({ errors: [{ message: e.message, extensions: { code: e.code } }] }));
    }
    return undefined;
  });
  const api = { graphqlAuth: true, endpoint: 'POST /graphql' };
  app.post('/graphql', { config: api }, (request, reply) =>
    serveGraphql(ctx, graph, request.principal, request, reply),
  );
  app.get('/graphql', { config: { ...api, endpoint: 'GET /graphql' } }, (request, reply) =>
    serveGraphql(ctx, graph, request.principal, request, reply),
  );
  app.get('/', { config: { graphqlAuth: true, endpoint: 'GET /' } }, async (request, reply) => {
    if (isGraphqlGet(request)) return serveGraphql(ctx, graph, request.principal, request, reply);
    return reply
      .type('text/html; charset=utf-8')
      .send(graphiqlPage({ graph, apiUrl: '/graphql', sdlUrl: '/schema', assetBase: '/graphiql' }));
  });
  app.get('/schema', { config: { graphqlAuth: true, endpoint: 'GET /schema' } }, async (_request, reply) =>
    sendSdl(ctx, graph, reply),
  );
  app.get('/graphiql/:file', { config: { endpoint: 'GET /graphiql/{file}' } }, (request, reply) =>
    sendAsset(reply, (request.params as { file: string }).file),
  );
  return app;
}
