/**
 * Credentials for the GSQL server endpoints: HTTP Basic, checked in one place (`authenticate`) so
 * that users and roles can replace the check later without touching routes.
 */
import type { FastifyRequest } from 'fastify';
import { RestError } from './envelope.js';

export interface Credentials {
  user: string;
  password: string;
}

/** Decides whether a user name and password are valid. */
export type CredentialCheck = (user: string, password: string) => boolean | Promise<boolean>;

export const DEFAULT_USER = 'tigergraph';
export const DEFAULT_PASSWORD = 'tigergraph';

/** Until users exist, only TigerGraph's default account is accepted. */
export const defaultCredentialCheck: CredentialCheck = (user, password) =>
  user === DEFAULT_USER && password === DEFAULT_PASSWORD;

/** The gsql client's message for a failed login; it retries on exactly this text. */
export const INVALID_CREDENTIALS = 'Invalid username or password!';

/** Decodes `base64(user:password)`; the user part may be URL-encoded (the gsql client does so). */
export function decodeUserPassword(base64: string): Credentials | undefined {
  const text = Buffer.from(base64.trim(), 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return undefined;
  let user = text.slice(0, colon);
  try {
    user = decodeURIComponent(user.replace(/\+/g, ' '));
  } catch {
    // Not URL-encoded after all: keep it as sent.
  }
  return { user, password: text.slice(colon + 1) };
}

/** The credentials of an `Authorization: Basic …` header. */
export function parseBasicAuth(header: string | undefined): Credentials | undefined {
  if (!header) return undefined;
  const m = /^\s*Basic\s+(\S+)\s*$/i.exec(header);
  return m ? decodeUserPassword(m[1]) : undefined;
}

/** Returns the authenticated user name or throws a 401 RestError. */
export async function authenticate(request: FastifyRequest, check: CredentialCheck): Promise<string> {
  const creds = parseBasicAuth(request.headers.authorization);
  if (!creds) {
    throw new RestError(
      'REST-10016',
      'Authentication failed: this endpoint requires a user name and password (HTTP Basic authentication).',
    );
  }
  if (!(await check(creds.user, creds.password))) throw new RestError('REST-10016', INVALID_CREDENTIALS);
  return creds.user;
}
