/**
 * The Studio's login: POST /studio/api/login with `{"username", "password"}` (a GSQL user) sets the
 * session cookie; GET /studio/api/session says whether anyone is logged in, who, and which graphs
 * they have a role on; POST /studio/api/logout ends the session and clears the cookie. Login and logout are
 * state-changing, so they too must come from the Studio's own origin.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SecurityState } from '../../catalog/security.js';
import { AuthError } from '../../auth/errors.js';
import { AuthService, type CatalogHolder } from '../../auth/service.js';
import { findUser } from '../../auth/users.js';
import { jsonBody } from '../http/body.js';
import { okEnvelope, RestError } from '../http/envelope.js';
import { clearedSessionCookie, sessionCookie } from './cookie.js';
import { liveSession, requireSameOrigin } from './session-credential.js';
import type { StudioSessions } from './session-store.js';

const INVALID_LOGIN = 'Invalid username or password!';

/** A graph the user may open, with the roles they hold on it (global roles count on every graph). */
export interface StudioGraph {
  name: string;
  roles: string[];
}

/** The graphs `user` has a role on, in catalog order. */
export function graphsOfUser(state: SecurityState, graphs: readonly string[], user: string): StudioGraph[] {
  const record = findUser(state, user);
  if (!record) return [];
  const out: StudioGraph[] = [];
  for (const name of graphs) {
    const roles = [...record.globalRoles, ...(record.graphRoles[name] ?? [])];
    if (roles.length > 0) out.push({ name, roles: [...new Set(roles)] });
  }
  return out;
}

/** Behind a TLS proxy the page came over HTTPS, and the cookie may say Secure. */
function overHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}

function credentialsOf(request: FastifyRequest): { username: string; password: string } {
  const body = jsonBody(request);
  const o = body !== null && typeof body === 'object' && !Array.isArray(body) ? body : undefined;
  const username = o?.username;
  const password = o?.password;
  if (typeof username !== 'string' || typeof password !== 'string' || username === '') {
    throw new RestError(
      'REST-30000',
      'The login body must be a JSON object {"username": "...", "password": "..."} with a non-empty username.',
    );
  }
  return { username, password };
}

async function login(
  db: CatalogHolder,
  sessions: StudioSessions,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<unknown> {
  requireSameOrigin(request);
  const { username, password } = credentialsOf(request);
  const auth = AuthService.for(db);
  try {
    const principal = await auth.authenticatePassword(username, password, request.ip);
    // A secret presented as `__GSQL__secret` is a credential of programs, not a Studio login.
    if (principal.via !== 'password') throw new AuthError('unauthenticated', 'REST-10016', INVALID_LOGIN);
  } catch (e) {
    // A throttled login stays a 429 (with Retry-After), not a wrong password.
    if (e instanceof AuthError && e.kind !== 'throttled')
      throw new RestError('REST-10016', INVALID_LOGIN, { status: 401 });
    throw e;
  }
  const state = await auth.state();
  const record = findUser(state, username);
  if (!record) throw new RestError('REST-10016', INVALID_LOGIN, { status: 401 });
  const { token, session } = sessions.create(username, record.password.hash);
  void reply.header(
    'Set-Cookie',
    sessionCookie(token, session.expiresAt, sessions.now(), overHttps(request)),
  );
  return okEnvelope({
    loggedIn: true,
    user: username,
    expiresAt: new Date(session.expiresAt).toISOString(),
    graphs: graphsOfUser(state, auth.graphNames(), username),
  });
}

export function registerStudioLoginRoutes(
  app: FastifyInstance,
  db: CatalogHolder,
  sessions: StudioSessions,
): void {
  app.post('/studio/api/login', { config: { endpoint: 'POST /studio/api/login' } }, (request, reply) =>
    login(db, sessions, request, reply),
  );

  app.get('/studio/api/session', { config: { endpoint: 'GET /studio/api/session' } }, async (request) => {
    const live = await liveSession(request, db, sessions);
    // Asking is not an error: the page asks first thing, logged in or not.
    if (!live) return okEnvelope({ loggedIn: false }, 'Not logged in to the Studio.');
    requireSameOrigin(request);
    const auth = AuthService.for(db);
    return okEnvelope({
      loggedIn: true,
      user: live.session.user,
      expiresAt: new Date(live.session.expiresAt).toISOString(),
      graphs: graphsOfUser(await auth.state(), auth.graphNames(), live.session.user),
    });
  });

  app.post(
    '/studio/api/logout',
    { config: { endpoint: 'POST /studio/api/logout' } },
    async (request, reply) => {
      requireSameOrigin(request);
      const live = await liveSession(request, db, sessions);
      if (live) sessions.revoke(live.token);
      void reply.header('Set-Cookie', clearedSessionCookie(overHttps(request)));
      return okEnvelope({}, 'Logged out.');
    },
  );
}
