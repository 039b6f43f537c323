/**
 * Each built-in role's allowed and refused operations, checked through the two tables: GSQL
 * statements through the statement table (parsed text, as the shell sees it), endpoints through
 * the route table.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkAccess, type AccessRule } from '../../src/auth/access-table.js';
import type { Principal } from '../../src/auth/authorize.js';
import { privilegesOf } from '../../src/auth/authorize.js';
import { AuthError } from '../../src/auth/errors.js';
import { forgetGraphs } from '../../src/auth/graph-drop.js';
import { BUILTIN_ROLES } from '../../src/auth/roles.js';
import { createRoles, grantPrivileges } from '../../src/auth/role-defs.js';
import { routeRule } from '../../src/auth/route-rules.js';
import { createUser, grantRoles, initialSecurityState } from '../../src/auth/users.js';
import type { PasswordHash, SecurityState } from '../../src/catalog/security.js';
import { parseOne } from '../../src/gsql/parser.js';
import { statementRequirement } from '../../src/shell/statement-access.js';

const HASH: PasswordHash = { algorithm: 'scrypt', salt: '', hash: '', N: 16384, r: 8, p: 1 };

function stateWith(role: string, onGraph: boolean): SecurityState {
  let s = createUser(initialSecurityState(HASH), 'u', HASH);
  s = grantRoles(s, [role], onGraph ? 'social' : undefined, ['u']);
  return s;
}

const U: Principal = { user: 'u', via: 'password' };

function permits(s: SecurityState, who: Principal, rule: AccessRule, graph: string | undefined): boolean {
  try {
    checkAccess(s, who, rule, graph);
    return true;
  } catch (e) {
    assert.ok(e instanceof AuthError);
    assert.equal(e.status, 403);
    assert.equal(e.code, 'REST-10016');
    return false;
  }
}

/** Whether `u` may run `text` with `graph` in use (the statement table decides the scope). */
function allowed(s: SecurityState, text: string, graph: string | undefined, who: Principal = U): boolean {
  const required = statementRequirement(parseOne(text), { user: who.user, ...(graph ? { graph } : {}) });
  assert.ok(!('refused' in required), text);
  return permits(s, who, required.rule, required.graph);
}

/** The rule of a REST++ endpoint (as registered on :9000). */
function endpoint(key: string): AccessRule {
  const [method, path] = key.split(' ');
  const found = routeRule('restpp', method, path.replace(/\{(\w+)\}/g, ':$1')).rule;
  assert.ok(found, key);
  return found.access;
}

const SCHEMA_JOB = 'CREATE SCHEMA_CHANGE JOB j FOR GRAPH social { ADD VERTEX v2 (PRIMARY_ID id STRING); }';

/** statement -> the weakest built-in role (on graph social) that may run it there. */
const LADDER: [string, string][] = [
  ['ls', 'observer'],
  ['SHOW QUERY q', 'observer'],
  ['RUN QUERY q()', 'queryreader'],
  ['RUN LOADING JOB j', 'queryreader'],
  ['CREATE QUERY q() { PRINT 1; }', 'querywriter'],
  ['INSTALL QUERY q', 'querywriter'],
  ['UPSERT v VALUES (1)', 'querywriter'],
  ['DELETE FROM v', 'querywriter'],
  [SCHEMA_JOB, 'designer'],
  ['CREATE LOADING JOB j FOR GRAPH social { LOAD "f" TO VERTEX v VALUES ($0); }', 'designer'],
  ['GRANT ROLE observer ON GRAPH social TO x', 'admin'],
  ['CREATE ROLE r', 'admin'],
];
const ORDER = ['observer', 'queryreader', 'querywriter', 'designer', 'admin'];

for (const role of ORDER) {
  test(`built-in role ${role} on a graph: allowed and refused statements`, () => {
    const s = stateWith(role, true);
    for (const [statement, weakest] of LADDER) {
      const expected = ORDER.indexOf(role) >= ORDER.indexOf(weakest);
      assert.equal(allowed(s, statement, 'social'), expected, `${role} ${statement}`);
      // A role on one graph gives nothing on another graph.
      if (!statement.includes('social'))
        assert.equal(allowed(s, statement, 'other'), false, `${role} ${statement} on other`);
    }
    // User administration, global types and the whole store are global only: no graph role
    // reaches them, whichever graph is in use.
    for (const global of [
      'CREATE USER x WITH PASSWORD "p"',
      'DROP USER x',
      'CLEAR GRAPH STORE',
      'DROP ALL',
      'CREATE VERTEX v (PRIMARY_ID id STRING)',
      'DROP VERTEX v',
      'CREATE GRAPH g()',
      'DROP GRAPH social',
    ])
      assert.equal(allowed(s, global, 'social'), false, `${role} ${global}`);
  });
}

test('globaldesigner designs every graph but cannot manage users or roles', () => {
  const s = stateWith('globaldesigner', false);
  assert.equal(allowed(s, 'CREATE VERTEX v (PRIMARY_ID id STRING)', undefined), true);
  assert.equal(allowed(s, 'CREATE GRAPH g()', undefined), true);
  assert.equal(allowed(s, 'CREATE QUERY q() { PRINT 1; }', 'other'), true);
  assert.equal(allowed(s, 'CREATE USER x WITH PASSWORD "p"', undefined), false);
  assert.equal(allowed(s, 'GRANT ROLE observer ON GRAPH social TO x', 'social'), false);
  assert.equal(allowed(s, 'DROP ALL', undefined), false);
});

test('superuser may do everything, everywhere', () => {
  const s = stateWith('superuser', false);
  for (const statement of [
    'CREATE USER x WITH PASSWORD "p"',
    'DROP ALL',
    'CLEAR GRAPH STORE',
    'GRANT ROLE observer TO x',
    'CREATE VERTEX v (PRIMARY_ID id STRING)',
    'DROP GRAPH social',
  ]) {
    assert.equal(allowed(s, statement, undefined), true, statement);
    assert.equal(allowed(s, statement, 'social'), true, statement);
  }
  assert.equal(privilegesOf(s, 'u').size, BUILTIN_ROLES.get('superuser')?.length);
});

test('a user with no role is refused everything but public and authenticated rules', () => {
  const s = createUser(initialSecurityState(HASH), 'u', HASH);
  assert.equal(allowed(s, 'ls', 'social'), false);
  assert.equal(allowed(s, 'SHOW SECRET', undefined), true);
  assert.equal(permits(s, U, endpoint('GET /echo'), undefined), true);
  assert.throws(
    () => checkAccess(s, U, endpoint('GET /graph/{graph_name}/vertices/{vertex_type}'), 'social'),
    { message: "Access denied: user 'u' does not have the privilege READ_DATA on graph 'social'." },
  );
  assert.throws(
    () => checkAccess(s, U, endpoint('DELETE /graph/{graph_name}/vertices/{vertex_type}'), 'social'),
    /DELETE_DATA/,
  );
});

test('endpoint rows: reads need READ_DATA, deletes DELETE_DATA, upserts CREATE_DATA and UPDATE_DATA', () => {
  const reader = stateWith('queryreader', true);
  const writer = stateWith('querywriter', true);
  const del = 'DELETE /graph/{graph_name}/vertices/{vertex_type}/{vertex_id}';
  assert.throws(() => checkAccess(reader, U, endpoint(del), 'social'), /DELETE_DATA on graph 'social'/);
  checkAccess(writer, U, endpoint(del), 'social');
  assert.throws(
    () => checkAccess(reader, U, endpoint('POST /graph/{graph_name}'), 'social'),
    /CREATE_DATA, UPDATE_DATA/,
  );
  checkAccess(reader, U, endpoint('POST /query/{graph_name}/{query_name}'), 'social');
  // A route without a row has no rule at all: the access hook refuses it.
  assert.equal(routeRule('restpp', 'GET', '/no/such/row').rule, undefined);
});

test('user-defined roles: privileges granted on a graph apply there only; WRITE_DATA expands', () => {
  let s = createUser(initialSecurityState(HASH), 'u', HASH);
  s = createRoles(s, ['editor'], 'social');
  s = grantPrivileges(s, ['read_data', 'WRITE_DATA'], undefined, ['editor']);
  s = grantRoles(s, ['editor'], 'social', ['u']);
  assert.deepEqual([...privilegesOf(s, 'u', 'social')].sort(), [
    'CREATE_DATA',
    'DELETE_DATA',
    'READ_DATA',
    'UPDATE_DATA',
  ]);
  assert.equal(privilegesOf(s, 'u', 'other').size, 0);
  assert.throws(
    () => grantPrivileges(s, ['WRITE_USER'], 'social', ['editor']),
    /only be granted on the global scope/,
  );
  assert.throws(() => grantPrivileges(s, ['NOPE'], 'social', ['editor']), /Unknown privilege "NOPE"/);
  assert.throws(() => grantRoles(s, ['superuser'], 'social', ['u']), /only be granted on the global scope/);
  assert.throws(() => grantRoles(s, ['editor'], 'other', ['u']), /local to graph 'social'/);
});

test('a graph-scoped token or secret cannot reach another graph or the global scope', () => {
  const s = stateWith('superuser', false);
  const scoped: Principal = { user: 'u', via: 'token', graph: 'social' };
  assert.equal(allowed(s, 'ls', 'social', scoped), true);
  assert.equal(allowed(s, 'ls', 'other', scoped), false);
  assert.equal(allowed(s, 'CREATE USER x WITH PASSWORD "p"', 'social', scoped), false);
  assert.throws(() => checkAccess(s, scoped, { kind: 'all', privileges: ['READ_SCHEMA'] }, 'other'), {
    message: "Access denied: the token in use is valid for graph 'social' only, not for graph 'other'.",
  });
});

test('dropping a graph forgets its grants, local roles, privileges, secrets and tokens', () => {
  let s = createUser(initialSecurityState(HASH), 'u', HASH);
  s = createRoles(s, ['local'], 'social');
  s = createRoles(s, ['wide'], undefined);
  s = grantPrivileges(s, ['READ_DATA'], 'social', ['wide']);
  s = grantPrivileges(s, ['READ_DATA'], 'other', ['wide']);
  s = grantRoles(s, ['local', 'designer'], 'social', ['u']);
  s = grantRoles(s, ['designer'], 'other', ['u']);
  s = {
    ...s,
    secrets: [{ alias: 'a', user: 'u', graph: 'social', digest: 'd1', masked: 'm', createdAt: 0 }],
    tokens: [
      { digest: 't1', user: 'u', graph: 'social', issuedAt: 0, expiresAt: 10 },
      { digest: 't2', user: 'u', issuedAt: 0, expiresAt: 10 },
    ],
  };
  const after = forgetGraphs(s, ['social']);
  assert.deepEqual(after.users[1].graphRoles, { other: ['designer'] });
  assert.deepEqual(
    after.roles.map((r) => r.name),
    ['wide'],
  );
  assert.deepEqual(after.roles[0].graphPrivileges, { other: ['READ_DATA'] });
  assert.deepEqual(after.secrets, []);
  assert.deepEqual(
    after.tokens.map((t) => t.digest),
    ['t2'],
  );
  assert.equal(privilegesOf(after, 'u', 'social').size, 0);
});
