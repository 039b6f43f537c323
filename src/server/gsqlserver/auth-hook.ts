/**
 * The one place GSQL-server credentials are checked: every routed request but the public ones
 * (health check, login) needs valid credentials and the privilege of its access-table row
 * (src/auth/access-table.ts); `request.gsqlUser` is then set, or a 401/403 envelope is answered
 * before the handler runs. The check itself lives in tokens-credentials.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';
import { installStudioSessionCredential, type StudioSessions } from '../studio/index.js';
import { installGsqlCredentialHook } from './tokens-credentials.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: 'basic';
  }
  interface FastifyRequest {
    gsqlUser?: string;
  }
}

export function installGsqlAuthHook(
  app: FastifyInstance,
  ctx: ServerContext,
  studioSessions?: StudioSessions,
): void {
  // The listener serving the Studio also takes its session cookie as a credential (same origin only).
  if (studioSessions) installStudioSessionCredential(app, ctx.db, studioSessions);
  installGsqlCredentialHook(app, ctx.db);
}

/** The authenticated user of a route that requires credentials. */
export function gsqlUser(request: { gsqlUser?: string }): string {
  return request.gsqlUser ?? '';
}
