/**
 * The one place GSQL-server credentials are checked: routes that set `config.auth = 'basic'` get
 * `request.gsqlUser`, or a 401 envelope before their handler runs.
 */
import type { FastifyInstance } from 'fastify';
import { authenticate, type CredentialCheck } from '../http/auth.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: 'basic';
  }
  interface FastifyRequest {
    gsqlUser?: string;
  }
}

export function installGsqlAuthHook(app: FastifyInstance, check: CredentialCheck): void {
  app.addHook('preHandler', async (request) => {
    if (request.routeOptions.config.auth === 'basic') request.gsqlUser = await authenticate(request, check);
  });
}

/** The authenticated user of a route that requires credentials. */
export function gsqlUser(request: { gsqlUser?: string }): string {
  return request.gsqlUser ?? '';
}
