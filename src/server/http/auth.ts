/**
 * Credential types shared by the GSQL-server routes. The check itself (users, roles, tokens) lives
 * in src/auth and is installed as one hook by gsqlserver/auth-hook.ts; the 3.x login endpoint,
 * whose credentials are its body, calls a `CredentialCheck`.
 */

export interface Credentials {
  user: string;
  password: string;
}

/** Decides whether a user name and password are valid. */
export type CredentialCheck = (user: string, password: string) => boolean | Promise<boolean>;

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
