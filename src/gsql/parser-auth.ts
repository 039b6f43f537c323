/**
 * Grammar of the user, role, privilege and secret statements:
 *
 *   CREATE USER <name> WITH PASSWORD "<password>"
 *   DROP USER <name> (, <name>)*
 *   ALTER PASSWORD [<name>] WITH PASSWORD "<password>"
 *   SHOW USER
 *   CREATE ROLE <role> (, <role>)* [ON GRAPH <graph> | ON GLOBAL]
 *   DROP ROLE <role> (, <role>)*
 *   SHOW ROLE
 *   GRANT|REVOKE ROLE <role> (, <role>)* [ON GRAPH <graph> | ON GLOBAL] TO|FROM <user> (, <user>)*
 *   GRANT|REVOKE PRIVILEGE <privilege> (, <privilege>)* [ON GRAPH <graph> | ON GLOBAL] TO|FROM <role> (, <role>)*
 *   SHOW PRIVILEGE ON USER|ROLE <name> (, <name>)*
 *   CREATE SECRET [<alias>]  |  SHOW SECRET  |  DROP SECRET <alias> (, <alias>)*
 *
 * TigerGraph asks for passwords interactively; the WITH PASSWORD forms let a script (and the
 * 4.x statements endpoint, which has no dialog) do the same in one statement.
 * Without ON GRAPH / ON GLOBAL a statement applies to the graph in use, or the global scope.
 */
import { GsqlSyntaxError, type Token } from './lexer.js';
import type { Parser } from './parser-core.js';

/** Where a role or privilege statement applies; undefined: the session's current scope. */
export type AuthScope = { kind: 'graph'; name: string } | { kind: 'global' };

interface RoleGrant {
  roles: string[];
  scope?: AuthScope;
  users: string[];
}

interface PrivilegeGrant {
  privileges: string[];
  scope?: AuthScope;
  roles: string[];
}

export type AuthStmtBody =
  | { kind: 'create_user'; name: string; password?: string }
  | { kind: 'drop_user'; names: string[] }
  | { kind: 'alter_password'; user?: string; password?: string }
  | { kind: 'show_user' }
  | { kind: 'create_role'; names: string[]; scope?: AuthScope }
  | { kind: 'drop_role'; names: string[] }
  | { kind: 'show_role' }
  | ({ kind: 'grant_role' } & RoleGrant)
  | ({ kind: 'revoke_role' } & RoleGrant)
  | ({ kind: 'grant_privilege' } & PrivilegeGrant)
  | ({ kind: 'revoke_privilege' } & PrivilegeGrant)
  | { kind: 'show_privilege'; on: 'user' | 'role'; names: string[] }
  | { kind: 'create_secret'; alias?: string }
  | { kind: 'show_secret' }
  | { kind: 'drop_secret'; aliases: string[] };

export type AuthStmt = AuthStmtBody & { line: number; column: number; text: string };
export type AuthStmtKind = AuthStmt['kind'];

/** A user name: a word, or a quoted string for names with '.', '@' or '-'. */
function userName(p: Parser): string {
  const t = p.peek();
  if (t.kind === 'string') return p.next().text;
  return p.expectName('a user name').text;
}

function list(p: Parser, item: (p: Parser) => string): string[] {
  const out = [item(p)];
  while (p.acceptPunct(',')) out.push(item(p));
  return out;
}

const roleName = (p: Parser): string => p.expectName('a role name').text;
const privilegeName = (p: Parser): string => p.expectName('a privilege name').text;

function scope(p: Parser): AuthScope | undefined {
  if (p.acceptWords('ON', 'GRAPH')) return { kind: 'graph', name: p.expectName('a graph name').text };
  if (p.acceptWords('ON', 'GLOBAL')) return { kind: 'global' };
  return undefined;
}

/** Fails at `tok` without quoting it: what follows PASSWORD may be a mistyped password. */
function failQuiet(tok: Token, expected: string): never {
  throw new GsqlSyntaxError(tok.line, tok.column, `expected ${expected}`);
}

function password(p: Parser): string | undefined {
  const t = p.peek();
  if (!p.atStatementEnd() && (t.kind === 'string' || p.isWord('PASSWORD'))) {
    failQuiet(t, 'WITH PASSWORD "<password>"');
  }
  if (!p.acceptWords('WITH', 'PASSWORD')) return undefined;
  const pw = p.peek();
  if (pw.kind !== 'string') failQuiet(pw, 'the password as a quoted string');
  return p.next().text;
}

function grant(p: Parser, verb: 'GRANT' | 'REVOKE'): AuthStmtBody | undefined {
  const link = verb === 'GRANT' ? 'TO' : 'FROM';
  if (p.acceptWords(verb, 'ROLE')) {
    const roles = list(p, roleName);
    const at = scope(p);
    p.expectWord(link);
    const users = list(p, userName);
    return {
      kind: verb === 'GRANT' ? 'grant_role' : 'revoke_role',
      roles,
      users,
      ...(at ? { scope: at } : {}),
    };
  }
  if (p.acceptWords(verb, 'PRIVILEGE')) {
    const privileges = list(p, privilegeName);
    const at = scope(p);
    p.expectWord(link);
    const roles = list(p, roleName);
    return {
      kind: verb === 'GRANT' ? 'grant_privilege' : 'revoke_privilege',
      privileges,
      roles,
      ...(at ? { scope: at } : {}),
    };
  }
  return undefined;
}

/** Parses a security statement at the cursor, or returns undefined (cursor unmoved) if there is none. */
export function parseAuthStatement(p: Parser): AuthStmtBody | undefined {
  if (p.acceptWords('CREATE', 'USER')) {
    const name = userName(p);
    const pw = password(p);
    return pw === undefined ? { kind: 'create_user', name } : { kind: 'create_user', name, password: pw };
  }
  if (p.acceptWords('DROP', 'USER')) return { kind: 'drop_user', names: list(p, userName) };
  if (p.acceptWords('ALTER', 'PASSWORD')) {
    // A quoted word here is a user name only when WITH PASSWORD follows; else it may be a password.
    if (p.peek().kind === 'string' && !p.isWord('WITH', 1)) failQuiet(p.peek(), 'WITH PASSWORD "<password>"');
    const user = p.atStatementEnd() || p.isWord('WITH') ? undefined : userName(p);
    const pw = password(p);
    return {
      kind: 'alter_password',
      ...(user === undefined ? {} : { user }),
      ...(pw === undefined ? {} : { password: pw }),
    };
  }
  if (p.acceptWords('SHOW', 'USER')) return { kind: 'show_user' };
  if (p.acceptWords('CREATE', 'ROLE')) {
    const names = list(p, roleName);
    const at = scope(p);
    return { kind: 'create_role', names, ...(at ? { scope: at } : {}) };
  }
  if (p.acceptWords('DROP', 'ROLE')) return { kind: 'drop_role', names: list(p, roleName) };
  if (p.acceptWords('SHOW', 'ROLE')) return { kind: 'show_role' };
  if (p.isWord('GRANT')) return grant(p, 'GRANT') ?? p.fail('ROLE or PRIVILEGE', p.peek(1));
  if (p.isWord('REVOKE')) return grant(p, 'REVOKE') ?? p.fail('ROLE or PRIVILEGE', p.peek(1));
  if (p.acceptWords('SHOW', 'PRIVILEGE')) {
    p.expectWord('ON');
    let on: 'user' | 'role';
    if (p.acceptWords('USER')) on = 'user';
    else if (p.acceptWords('ROLE')) on = 'role';
    else return p.fail('USER or ROLE');
    return { kind: 'show_privilege', on, names: list(p, on === 'user' ? userName : roleName) };
  }
  if (p.acceptWords('CREATE', 'SECRET')) {
    if (p.atStatementEnd()) return { kind: 'create_secret' };
    return { kind: 'create_secret', alias: p.expectName('a secret alias').text };
  }
  if (p.acceptWords('SHOW', 'SECRET')) return { kind: 'show_secret' };
  if (p.acceptWords('DROP', 'SECRET'))
    return { kind: 'drop_secret', aliases: list(p, (q) => q.expectName('a secret alias').text) };
  return undefined;
}
