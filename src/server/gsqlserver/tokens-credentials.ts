/**
 * Credentials of the GSQL server (:14240 and :8123): every routed request needs HTTP Basic
 * credentials (a user, or `__GSQL__secret` with a secret) or a Bearer token, and the privilege
 * its access-table row names; the health check and the login/token endpoints, which check their
 * own credentials, are public. REST++ mounted under /restpp follows the REST++ policy instead.
 */
import type { FastifyInstance } from 'fastify';
import { AuthError } from '../../auth/errors.js';
import { AuthService, type CatalogHolder } from '../../auth/service.js';
import type { CredentialCheck } from '../http/auth.js';
import { enforce, NO_TOKEN, ruleOf } from '../restpp/token-auth.js';

export const NO_CREDENTIALS =
  'Authentication failed: this endpoint requires a user name and password (HTTP Basic authentication).';

/** A user/password check for the login endpoints, backed by the users of the database. */
export function gsqlCredentialCheck(db: CatalogHolder): CredentialCheck {
  return async (user, password) => {
    try {
      await AuthService.for(db).authenticatePassword(user, password);
      return true;
    } catch (e) {
      if (e instanceof AuthError) return false;
      throw e;
    }
  };
}

export function installGsqlCredentialHook(app: FastifyInstance, db: CatalogHolder): void {
  app.addHook('preHandler', async (request) => {
    const rule = ruleOf(request);
    if (!rule) return;
    if (request.routeOptions.url?.startsWith('/restpp')) {
      if (AuthService.for(db).restppAuth) await enforce(request, db, rule, NO_TOKEN);
      return;
    }
    const forced = request.routeOptions.config.auth === 'basic' && rule.kind === 'public';
    await enforce(request, db, forced ? { kind: 'authenticated' } : rule, NO_CREDENTIALS);
    if (request.principal) request.gsqlUser = request.principal.user;
  });
}
