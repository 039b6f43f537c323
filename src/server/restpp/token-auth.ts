/**
 * Credentials inside handlers: the caller the access hook established, or (on routes that ask for
 * none, such as the token endpoints) the one the request's Authorization header proves, and
 * AuthError turned into the envelope error. The hook itself is http/access-hook.ts.
 */
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../../auth/authorize.js';
import { AuthError } from '../../auth/errors.js';
import { AuthService, type CatalogHolder } from '../../auth/service.js';
import { NO_TOKEN } from '../http/access-hook.js';
import { RestError } from '../http/envelope.js';

export { NO_TOKEN };

/** An AuthError as the envelope error the server answers with (status included). */
export function toRestError(e: unknown): unknown {
  if (!(e instanceof AuthError)) return e;
  return new RestError(e.code, e.message, {
    status: e.status,
    ...(e.retryAfter === undefined ? {} : { retryAfter: e.retryAfter }),
  });
}

/** Runs `fn`, answering an AuthError as its envelope. */
export async function asRest<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw toRestError(e);
  }
}

/** The caller of a request: the one the hook established, or from its Authorization header. */
export async function callerOf(
  request: FastifyRequest,
  db: CatalogHolder,
  missing = NO_TOKEN,
): Promise<Principal> {
  if (request.principal) return request.principal;
  const principal = await asRest(() =>
    AuthService.for(db).authenticateHeader(request.headers.authorization, missing, request.ip),
  );
  request.principal = principal;
  return principal;
}
