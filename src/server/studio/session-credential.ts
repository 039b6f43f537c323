/**
 * The Studio's session cookie as a credential of the GSQL listener (:14240, REST++ under /restpp
 * included). The access hook asks it for a request without an Authorization header: a live session
 * cookie gives the session's user as its principal, and the route table is then checked as for
 * any caller. The cookie counts only on
 * same-origin requests (same-origin.ts); from anywhere else it is refused with 403.
 */
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../../auth/authorize.js';
import { AuthService, type CatalogHolder } from '../../auth/service.js';
import { findUser } from '../../auth/users.js';
import { RestError } from '../http/envelope.js';
import { readSessionCookie } from './cookie.js';
import { crossOriginReason } from './same-origin.js';
import type { StudioSession, StudioSessions } from './session-store.js';

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Refuses (403) a cookie-carrying request that is not from the server's own origin. */
export function requireSameOrigin(request: FastifyRequest): void {
  const reason = crossOriginReason({
    method: request.method,
    host: header(request, 'host'),
    origin: header(request, 'origin'),
    secFetchSite: header(request, 'sec-fetch-site'),
  });
  if (reason !== undefined) {
    throw new RestError(
      'REST-10016',
      `Access Denied: a Studio request (its login, logout, or a request carrying its session cookie) is accepted only from the Studio's own origin (${reason}).`,
      { status: 403 },
    );
  }
}

/**
 * The session of a request's cookie while its user still exists with the password it logged in
 * with (a dropped user or a changed password ends every session of that user).
 */
export async function liveSession(
  request: FastifyRequest,
  db: CatalogHolder,
  sessions: StudioSessions,
): Promise<{ token: string; session: StudioSession } | undefined> {
  const token = readSessionCookie(header(request, 'cookie'));
  if (token === undefined) return undefined;
  const session = sessions.find(token);
  if (!session) return undefined;
  const user = findUser(await AuthService.for(db).state(), session.user);
  if (!user || user.password.hash !== session.passwordHash) {
    sessions.revoke(token);
    return undefined;
  }
  return { token, session };
}

/** A session's principal: the user, as if they had sent their password. */
export function sessionPrincipal(session: StudioSession): Principal {
  return { user: session.user, via: 'password' };
}

/**
 * The session cookie as a credential for the access hook (http/access-hook.ts), which asks only
 * for a route that needs a caller and a request without an Authorization header (explicit
 * credentials win): the session's user, or undefined without a live session. A cookie from
 * anywhere but the Studio's own origin is refused with 403.
 */
export function studioSessionCredential(
  db: CatalogHolder,
  sessions: StudioSessions,
): (request: FastifyRequest) => Promise<Principal | undefined> {
  return async (request) => {
    const live = await liveSession(request, db, sessions);
    if (!live) return undefined;
    requireSameOrigin(request);
    return sessionPrincipal(live.session);
  };
}
