/**
 * Credential types shared by the GSQL-server routes. The check itself (users, roles, tokens) lives
 * in src/auth and is installed as one hook by http/access-hook.ts; the 3.x login endpoint, whose
 * credentials are its body, calls a `CredentialCheck`.
 */

export interface Credentials {
  user: string;
  password: string;
}

/** Decides whether a user name and password, sent from `address`, are valid. */
export type CredentialCheck = (
  user: string,
  password: string,
  address?: string,
) => boolean | Promise<boolean>;

/** The gsql client's message for a failed login; it retries on exactly this text. */
export const INVALID_CREDENTIALS = 'Invalid username or password!';
