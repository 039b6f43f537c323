/**
 * GSQL-server system endpoints: the health check (no credentials) and the 4.x version text.
 *
 * The health check answers `"error": false` (a boolean). TigerGraph's doc sample prints the string
 * "false", but pyTigerGraph's ping() treats any truthy `error` as a failure and then reads a `code`
 * the answer does not have; the client works against TigerGraph, so the server sends a falsy value.
 */
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';
import { gsqlVersionText } from '../version-info.js';

export function registerGsqlSystemRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get('/api/ping', { config: { endpoint: 'GET /api/ping' } }, async () => ({
    error: false,
    message: 'pong',
    results: {},
  }));

  app.get('/gsql/v1/version', { config: { endpoint: 'GET /gsql/v1/version' } }, async (_req, reply) =>
    reply.type('text/plain; charset=utf-8').send(gsqlVersionText(ctx.tigergraphVersion)),
  );
}
