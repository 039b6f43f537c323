/**
 * The one error type of the auth layer. It carries the TigerGraph code and the HTTP status the
 * servers answer with, so that nothing above has to guess: 401 for missing, unknown or expired
 * credentials (REST-10016), 403 for a valid caller lacking a privilege, 400/404/409 for bad input.
 */

export type AuthErrorKind =
  | 'unauthenticated'
  | 'forbidden'
  | 'invalid'
  | 'not_found'
  | 'conflict'
  /** Too many failed logins (or password checks waiting): try again after `retryAfter` seconds. */
  | 'throttled';

/**
 * 404 is kept for unknown endpoints (pyTigerGraph reads a 404 as "no such endpoint"
 * and falls back to another one), so an unknown graph, user, secret or token is a 400.
 */
const STATUS: Readonly<Record<AuthErrorKind, number>> = {
  unauthenticated: 401,
  forbidden: 403,
  invalid: 400,
  not_found: 400,
  conflict: 409,
  throttled: 429,
};

export class AuthError extends Error {
  readonly status: number;
  /** Seconds until a throttled caller may try again. */
  retryAfter?: number;
  constructor(
    readonly kind: AuthErrorKind,
    readonly code: string,
    message: string,
    status?: number,
  ) {
    super(message);
    this.name = 'AuthError';
    this.status = status ?? STATUS[kind];
  }
}

/** REST++'s code for every credential failure (bad token, bad password, missing privilege). */
export const ACCESS_DENIED_CODE = 'REST-10016';
/** Code of a token-endpoint payload error. */
export const BAD_REQUEST_CODE = 'REST-30000';
/** pyTigerGraph's deleteToken(skipNA=True) treats this code as "the token does not exist". */
export const TOKEN_NOT_FOUND_CODE = 'REST-3300';

export function unauthenticated(message: string): AuthError {
  return new AuthError('unauthenticated', ACCESS_DENIED_CODE, message);
}

export function forbidden(message: string): AuthError {
  return new AuthError('forbidden', ACCESS_DENIED_CODE, message);
}

export function invalid(message: string, code = BAD_REQUEST_CODE): AuthError {
  return new AuthError('invalid', code, message);
}

/** 429: wait `retryAfter` seconds (at least 1) before trying again. */
export function throttled(message: string, retryAfter: number): AuthError {
  const e = new AuthError('throttled', ACCESS_DENIED_CODE, message);
  e.retryAfter = Math.max(1, Math.ceil(retryAfter));
  return e;
}
