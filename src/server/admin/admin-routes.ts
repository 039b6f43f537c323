/**
 * The admin listener (:8123): the 3.x local gsql client's transport at /gsql/* and DELETE
 * /expiredtoken (query install requests come with a later issue).
 */
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';
import { registerShellTransport } from '../gsqlserver/shell-transport.js';
import { registerExpiredTokenRoutes } from './expiredtoken.js';
import { registerInstallRoutes } from './install.js';

export function registerAdminRoutes(app: FastifyInstance, ctx: ServerContext): void {
  registerShellTransport(app, ctx, '/gsql');
  registerExpiredTokenRoutes(app, ctx);
  registerInstallRoutes(app, ctx);
}
