/** Each built-in role's allowed and refused operations, checked through the access table. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkAccess, statementRule, endpointRule } from '../../src/auth/access-table.js';
import type { Principal } from '../../src/auth/authorize.js';
import { privilegesOf } from '../../src/auth/authorize.js';
import { AuthError } from '../../src/auth/errors.js';
import { forgetGraphs } from '../../src/auth/graph-drop.js';
import { BUILTIN_ROLES } from '../../src/auth/roles.js';
import { createRoles, grantPrivileges } from '../../src/auth/role-defs.js';
import { createUser, grantRoles, initialSecurityState } from '../../src/auth/users.js';
import type { PasswordHash, SecurityState } from '../../src/catalog/security.js';

const HASH: PasswordHash = { algorithm: 'scrypt', salt: '', hash: '', N: 16384, r: 8, p: 1 };

function stateWith(role: string, onGraph: boolean): SecurityState {
  let s = createUser(initialSecurityState(HASH), 'u', HASH);
  s = grantRoles(s, [role], onGraph ? 'social' : undefined, ['u']);
  return s;
}

const U: Principal = { user: 'u', via: 'password' };

function allowed(s: SecurityState, statement: string, graph: string | undefined): boolean {
  try {
    checkAccess(s, U, statementRule(statement), graph);
    return true;
  } catch (e) {
    assert.ok(e instanceof AuthError);
    assert.equal(e.status, 403);
    assert.equal(e.code, 'REST-10016');
    return false;
  }
}

/** statement -> the weakest built-in role (on graph social) that may run it there. */
const LADDER: [string, string][] = [
  ['LS', 'observer'],
  ['SHOW QUERY', 'observer'],
  ['RUN QUERY', 'queryreader'],
  ['RUN LOADING JOB', 'queryreader'],
  ['CREATE QUERY', 'querywriter'],
  ['INSTALL QUERY', 'querywriter'],
  ['CREATE VERTEX', 'designer'],
  ['CREATE LOADING JOB', 'designer'],
  ['GRANT ROLE', 'admin'],
  ['CREATE ROLE', 'admin'],
];
const ORDER = ['observer', 'queryreader', 'querywriter', 'designer', 'admin'];

for (const role of ORDER) {
  test(`built-in role ${role} on a graph: allowed and refused statements`, () => {
    const s = stateWith(role, true);
    for (const [statement, weakest] of LADDER) {
      const expected = ORDER.indexOf(role) >= ORDER.indexOf(weakest);
      assert.equal(allowed(s, statement, 'social'), expected, `${role} ${statement}`);
      // A role on one graph gives nothing on another graph.
      assert.equal(allowed(s, statement, 'other'), false, `${role} ${statement} on other`);
    }
    // User administration is global only: no graph role reaches it.
    assert.equal(allowed(s, 'CREATE USER', undefined), false);
    assert.equal(allowed(s, 'DROP USER', undefined), false);
    assert.equal(allowed(s, 'CLEAR GRAPH STORE', undefined), false);
  });
}

test('globaldesigner designs every graph but cannot manage users or roles', () => {
  const s = stateWith('globaldesigner', false);
  assert.equal(allowed(s, 'CREATE VERTEX', undefined), true);
  assert.equal(allowed(s, 'CREATE GRAPH', undefined), true);
  assert.equal(allowed(s, 'CREATE QUERY', 'other'), true);
  assert.equal(allowed(s, 'CREATE USER', undefined), false);
  assert.equal(allowed(s, 'GRANT ROLE', 'social'), false);
  assert.equal(allowed(s, 'DROP ALL', undefined), false);
});

test('superuser may do everything, everywhere', () => {
  const s = stateWith('superuser', false);
  for (const statement of [
    'CREATE USER',
    'DROP ALL',
    'CLEAR GRAPH STORE',
    'GRANT ROLE',
    'CREATE VERTEX',
    'DROP GRAPH',
  ]) {
    assert.equal(allowed(s, statement, undefined), true, statement);
    assert.equal(allowed(s, statement, 'social'), true, statement);
  }
  assert.equal(privilegesOf(s, 'u').size, BUILTIN_ROLES.get('superuser')?.length);
});

test('a user with no role is refused everything but public and authenticated rules', () => {
  const s = createUser(initialSecurityState(HASH), 'u', HASH);
  assert.equal(allowed(s, 'LS', 'social'), false);
  assert.equal(allowed(s, 'SHOW SECRET', undefined), true);
  checkAccess(s, U, endpointRule('GET /echo'), undefined);
  assert.throws(
    () => checkAccess(s, U, endpointRule('GET /graph/{graph_name}/vertices/{vertex_type}'), 'social'),
    { message: "Access denied: user 'u' does not have the privilege READ_DATA on graph 'social'." },
  );
  assert.throws(
    () => checkAccess(s, U, endpointRule('DELETE /graph/{graph_name}/vertices/{vertex_type}'), 'social'),
    /DELETE_DATA/,
  );
});

test('endpoint rows: reads need READ_DATA, deletes DELETE_DATA, upserts CREATE_DATA and UPDATE_DATA', () => {
  const reader = stateWith('queryreader', true);
  const writer = stateWith('querywriter', true);
  const del = 'DELETE /graph/{graph_name}/vertices/{vertex_type}/{vertex_id}';
  assert.throws(() => checkAccess(reader, U, endpointRule(del), 'social'), /DELETE_DATA on graph 'social'/);
  checkAccess(writer, U, endpointRule(del), 'social');
  assert.throws(
    () => checkAccess(reader, U, endpointRule('POST /graph/{graph_name}'), 'social'),
    /CREATE_DATA, UPDATE_DATA/,
  );
  checkAccess(reader, U, endpointRule('POST /query/{graph_name}/{query_name}'), 'social');
  // An endpoint without a row is never open: it still needs a caller (the rule is 'authenticated').
  assert.deepEqual(endpointRule('GET /no/such/row'), { kind: 'authenticated' });
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
  checkAccess(s, scoped, statementRule('LS'), 'social');
  assert.throws(() => checkAccess(s, scoped, statementRule('LS'), 'other'), {
    message: "Access denied: the token in use is valid for graph 'social' only, not for graph 'other'.",
  });
  assert.throws(
    () => checkAccess(s, scoped, statementRule('CREATE USER'), undefined),
    /valid for graph 'social' only/,
  );
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
