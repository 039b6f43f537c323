/**
 * The durable security state: users, user-defined roles, role grants, secrets and tokens. It lives
 * in the catalog (`Catalog.security`) so that it is written, recovered and versioned with it. Like
 * the rest of the catalog it is plain JSON data, treated as immutable: a change builds a new state.
 *
 * No secret, token or password is stored in the clear: passwords as salted scrypt hashes, secrets
 * and tokens (random, ≥128 bits) as SHA-256 digests plus a masked form for display.
 */

/** A salted scrypt hash of a password, with the cost parameters it was made with. */
export interface PasswordHash {
  algorithm: 'scrypt';
  /** base64 */
  salt: string;
  /** base64 */
  hash: string;
  N: number;
  r: number;
  p: number;
}

export interface UserRecord {
  name: string;
  password: PasswordHash;
  /** Roles granted on the global scope. */
  globalRoles: string[];
  /** Roles granted per graph: graph name -> role names. */
  graphRoles: Record<string, string[]>;
}

/** A user-defined role. Built-in roles are not stored; they are fixed (see src/auth/roles.ts). */
export interface RoleRecord {
  name: string;
  /** The graph of a local role; undefined for a global role. */
  graph?: string;
  /** Privileges on the global scope (global roles only). */
  globalPrivileges: string[];
  /** Privileges per graph: graph name -> privilege names. */
  graphPrivileges: Record<string, string[]>;
}

export interface SecretRecord {
  alias: string;
  /** The user who created the secret; a token made with it acts as this user. */
  user: string;
  /** The graph the secret was created on; undefined for a global secret. */
  graph?: string;
  /** hex SHA-256 of the secret. */
  digest: string;
  /** The secret as SHOW SECRET prints it (`abc****xyz`). */
  masked: string;
  /** epoch seconds */
  createdAt: number;
}

export interface TokenRecord {
  /** hex SHA-256 of the token. */
  digest: string;
  user: string;
  /** The graph the token is valid for; undefined for a global token. */
  graph?: string;
  /** Alias of the secret the token was requested with, if any. */
  secretAlias?: string;
  /** epoch seconds */
  issuedAt: number;
  /** epoch seconds */
  expiresAt: number;
}

export interface SecurityState {
  users: UserRecord[];
  roles: RoleRecord[];
  secrets: SecretRecord[];
  tokens: TokenRecord[];
}
