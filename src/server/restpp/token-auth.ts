/**
 * Credentials on the HTTP side: turning an Authorization header into a caller (Bearer token, or
 * Basic user/password or `__GSQL__secret`/secret), the access-table check of a routed request,
 * and the REST++ hook that enforces both when REST++ authentication is on (`ocelot serve --auth`).
 * /echo and the token endpoints are public in the table; everything else needs a valid caller.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { endpointRule, type AccessRule } from '../../auth/access-table.js';
import type { Principal } from '../../auth/authorize.js';
import { AuthError } from '../../auth/errors.js';
import { AuthService, type CatalogHolder } from '../../auth/service.js';
import { RestError } from '../http/envelope.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller, once a credential hook or handler has checked it. */
    principal?: Principal;
  }
}

/** TigerGraph's REST-10016 text for a request without a token. */
export const NO_TOKEN = "Access Denied because the input token = '' is empty or too short";

/** An AuthError as the envelope error the server answers with (status included). */
export function toRestError(e: unknown): unknown {
  return e instanceof AuthError ? new RestError(e.code, e.message, { status: e.status }) : e;
}

/** Runs `fn`, answering an AuthError as its envelope. */
export async function asRest<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw toRestError(e);
  }
}

/** The caller of a request: the one a hook established, or from its Authorization header. */
export async function callerOf(
  request: FastifyRequest,
  db: CatalogHolder,
  missing = NO_TOKEN,
): Promise<Principal> {
  if (request.principal) return request.principal;
  const principal = await asRest(() =>
    AuthService.for(db).authenticateHeader(request.headers.authorization, missing),
  );
  request.principal = principal;
  return principal;
}

/** The graph a request is about: the `graph_name` (or `graph`) path parameter, else a `graph` query parameter. */
export function graphOfRequest(request: FastifyRequest): string | undefined {
  const params = request.params as Record<string, string | undefined> | undefined;
  const fromPath = params?.graph_name ?? params?.graph;
  if (fromPath !== undefined) return fromPath;
  const query = request.query as { get?: (name: string) => string | undefined } | undefined;
  const graph = typeof query?.get === 'function' ? query.get('graph') : undefined;
  return graph === '' ? undefined : graph;
}

/** The access-table rule of a routed request (`config.endpoint`), or undefined for an unrouted one. */
export function ruleOf(request: FastifyRequest): AccessRule | undefined {
  const endpoint = request.routeOptions.config.endpoint;
  return endpoint === undefined ? undefined : endpointRule(endpoint);
}

/** Authenticates (unless the rule is public) and checks the rule on the request's graph. */
export async function enforce(
  request: FastifyRequest,
  db: CatalogHolder,
  rule: AccessRule,
  missing: string,
): Promise<void> {
  if (rule.kind === 'public') return;
  const principal = await callerOf(request, db, missing);
  // A path without a graph (`POST /graph`) is about the graph of the token or secret, if any.
  const graph = graphOfRequest(request) ?? principal.graph;
  await asRest(() => AuthService.for(db).check(principal, rule, graph));
}

/**
 * The REST++ listener's hook: with REST++ authentication on, every routed request but the public
 * ones needs a valid token (or Basic credentials) and the privilege its row names.
 */
export function installRestppTokenAuth(app: FastifyInstance, db: CatalogHolder): void {
  app.addHook('preHandler', async (request) => {
    if (!AuthService.for(db).restppAuth) return;
    const rule = ruleOf(request);
    if (rule) await enforce(request, db, rule, NO_TOKEN);
  });
}
