/** The security statements through the GSQL shell executor: outputs, errors and privilege checks. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Catalog } from '../../src/catalog/types.js';
import { AuthService } from '../../src/auth/service.js';
import { runScript, type CatalogStore } from '../../src/shell/run-script.js';
import { withGraphs } from '../auth/helpers.js';

class Store implements CatalogStore {
  constructor(public catalog: Catalog) {}
  changeCatalog(next: Catalog): Promise<void> {
    this.catalog = next;
    return Promise.resolve();
  }
  clearGraphStore(): Promise<void> {
    return Promise.resolve();
  }
}

async function run(
  store: Store,
  user: string,
  text: string,
  graph?: string,
): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await runScript(
    store,
    text,
    { user, ...(graph === undefined ? {} : { graph }) },
    (t) => (out += t),
  );
  return { code, out };
}

test('CREATE USER, GRANT ROLE, SHOW USER, ALTER PASSWORD, DROP USER', async () => {
  const store = new Store(withGraphs('social'));
  let r = await run(
    store,
    'tigergraph',
    [
      'CREATE USER alice WITH PASSWORD "pa55"',
      'CREATE USER "bob.smith@x" WITH PASSWORD "pw"',
      'GRANT ROLE designer ON GRAPH social TO alice',
      'SHOW USER',
    ].join('\n'),
  );
  assert.equal(r.code, 0, r.out);
  assert.equal(
    r.out,
    [
      'The user "alice" is created.',
      'The user "bob.smith@x" is created.',
      "Successfully granted roles [designer] on graph 'social' to users [alice].",
      '  - Name: tigergraph',
      '    - Global Roles: superuser',
      '',
      '  - Name: alice',
      "    - Graph 'social' Roles: designer",
      '',
      '  - Name: bob.smith@x',
      '',
      '',
    ].join('\n'),
  );
  const svc = AuthService.for(store);
  await svc.authenticatePassword('alice', 'pa55');
  // The password never appears in the durable state.
  assert.ok(!JSON.stringify(store.catalog).includes('pa55'));

  r = await run(store, 'alice', 'ALTER PASSWORD WITH PASSWORD "n3w"\nSHOW USER');
  assert.equal(
    r.out,
    "Password has been changed.\n  - Name: alice\n    - Graph 'social' Roles: designer\n\n",
  );
  await svc.authenticatePassword('alice', 'n3w');

  r = await run(store, 'alice', 'CREATE USER carol WITH PASSWORD "x"');
  assert.equal(r.code, 212);
  assert.equal(
    r.out,
    "Semantic Check Fails: Access denied: user 'alice' does not have the privilege WRITE_USER on the global scope. (line 1, column 1)\n",
  );
  r = await run(store, 'alice', 'ALTER PASSWORD tigergraph WITH PASSWORD "x"');
  assert.equal(r.code, 212);
  assert.match(r.out, /WRITE_USER/);

  r = await run(store, 'tigergraph', 'CREATE USER alice WITH PASSWORD "x"');
  assert.equal(r.out, 'Semantic Check Fails: The user "alice" already exists. (line 1, column 1)\n');
  r = await run(store, 'tigergraph', 'CREATE USER dave');
  assert.match(r.out, /CREATE USER dave WITH PASSWORD "<password>"/);

  r = await run(store, 'tigergraph', 'DROP USER alice, "bob.smith@x"');
  assert.equal(r.out, 'The user "alice" is dropped.\nThe user "bob.smith@x" is dropped.\n');
  await assert.rejects(svc.authenticatePassword('alice', 'n3w'), { status: 401 });
});

test('roles and privileges: CREATE ROLE, GRANT/REVOKE PRIVILEGE, SHOW ROLE, SHOW PRIVILEGE', async () => {
  const store = new Store(withGraphs('social'));
  const r = await run(
    store,
    'tigergraph',
    [
      'USE GRAPH social',
      'CREATE ROLE reader',
      'GRANT PRIVILEGE read_data, READ_SCHEMA TO reader',
      'CREATE USER u WITH PASSWORD "p"',
      'GRANT ROLE reader TO u',
      'SHOW PRIVILEGE ON ROLE reader',
      'REVOKE PRIVILEGE READ_SCHEMA ON GRAPH social FROM reader',
      'SHOW PRIVILEGE ON USER u',
      'SHOW ROLE',
      'CREATE ROLE boss ON GLOBAL',
      'GRANT PRIVILEGE WRITE_USER ON GLOBAL TO boss',
      'GRANT PRIVILEGE WRITE_USER TO reader',
    ].join('\n'),
  );
  assert.equal(
    r.out,
    [
      "Using graph 'social'",
      "Successfully created local roles for graph 'social': [reader].",
      "Successfully granted privileges [READ_DATA, READ_SCHEMA] on graph 'social' to roles [reader].",
      'The user "u" is created.',
      "Successfully granted roles [reader] on graph 'social' to users [u].",
      'Role: "reader"',
      "  - Graph 'social' Privileges:",
      '    READ_DATA',
      '    READ_SCHEMA',
      "Successfully revoked privileges [READ_SCHEMA] on graph 'social' from roles [reader].",
      'User: "u"',
      '  - Global Privileges:',
      "  - Graph 'social' Privileges:",
      '    READ_DATA',
      '- Builtin Roles:',
      '  observer',
      '  queryreader',
      '  querywriter',
      '  designer',
      '  admin',
      '  globaldesigner',
      '  superuser',
      '- User Defined Roles:',
      "  - Graph 'social' Roles:",
      '    reader',
      'Successfully created global roles: [boss].',
      'Successfully granted privileges [WRITE_USER] on global scope to roles [boss].',
      'Semantic Check Fails: The privilege WRITE_USER can only be granted on the global scope. (line 12, column 1)',
      '',
    ].join('\n'),
  );
  assert.equal(r.code, 212);
});

test('secrets in the shell: CREATE SECRET with and without alias, SHOW SECRET, duplicates, DROP SECRET', async () => {
  const store = new Store(withGraphs('tests'));
  let r = await run(store, 'tigergraph', 'USE GRAPH tests\nCREATE SECRET secret1 ');
  const secret = /The secret: ([a-z0-9]{32}) has been created for user "tigergraph"\./.exec(r.out)?.[1];
  assert.ok(secret, r.out);
  r = await run(store, 'tigergraph', 'CREATE SECRET', 'tests');
  const auto = /The secret: ([a-z0-9]{32}) /.exec(r.out)?.[1] ?? '';
  r = await run(store, 'tigergraph', 'CREATE SECRET secret1', 'tests');
  assert.match(r.out, /The secret with alias secret1 already exists\./);
  r = await run(store, 'tigergraph', 'SHOW SECRET', 'tests');
  const lines = r.out.split('\n');
  assert.equal(lines[0], `- Secret: ${secret.slice(0, 3)}****${secret.slice(-3)}`);
  assert.equal(lines[1], '  - Alias: secret1');
  assert.equal(lines[3], `- Secret: ${auto.slice(0, 3)}****${auto.slice(-3)}`);
  assert.match(lines[4], /^ {2}- Alias: AUTO_GENERATED_ALIAS_[a-z0-9]{7}$/);
  // The secret logs in as __GSQL__secret, for graph tests only.
  const p = await AuthService.for(store).authenticatePassword('__GSQL__secret', secret);
  assert.deepEqual(p, { user: 'tigergraph', via: 'secret', secretAlias: 'secret1', graph: 'tests' });
  r = await run(store, 'tigergraph', 'DROP SECRET secret1, nope');
  assert.match(r.out, /^Semantic Check Fails: Failed to drop secrets: 'nope' does not exist/);
  r = await run(store, 'tigergraph', 'DROP SECRET secret1');
  assert.equal(r.out, 'Successfully dropped secrets: [secret1].\n');
});

test('every statement is checked: an observer can ls but not change the schema', async () => {
  const store = new Store(withGraphs('social'));
  await run(
    store,
    'tigergraph',
    'CREATE USER obs WITH PASSWORD "p"\nGRANT ROLE observer ON GRAPH social TO obs',
  );
  let r = await run(store, 'obs', 'USE GRAPH social\nls');
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /---- Graph social/);
  r = await run(store, 'obs', 'CREATE VERTEX v (PRIMARY_ID id STRING)');
  assert.equal(r.code, 212);
  assert.equal(
    r.out,
    "Semantic Check Fails: Access denied: user 'obs' does not have the privilege WRITE_SCHEMA on the global scope. (line 1, column 1)\n",
  );
  r = await run(store, 'obs', 'CREATE SECRET', 'social');
  assert.match(r.out, /needs one of the privileges READ_DATA/);
  r = await run(store, 'obs', 'DROP ALL');
  assert.match(r.out, /DROP_ALL on the global scope/);
});

test('syntax errors in security statements name what was expected', async () => {
  const store = new Store(withGraphs('social'));
  const r = await run(store, 'tigergraph', 'GRANT ROLE designer ON GRAPH social alice');
  assert.equal(r.code, 211);
  assert.match(r.out, /expected "TO" but found "alice"/);
  // A password written wrongly is never quoted back.
  for (const text of [
    'CREATE USER u WITH PASSWORD s3cr3t',
    'CREATE USER u PASSWORD "s3cr3t"',
    'CREATE USER u "s3cr3t"',
    'ALTER PASSWORD WITH PASSWORD s3cr3t',
    'ALTER PASSWORD "s3cr3t"',
  ]) {
    const r2 = await run(store, 'tigergraph', text);
    assert.equal(r2.code, 211, text);
    assert.match(
      r2.out,
      /^Syntax Error: line 1, column \d+: expected (the password as a quoted string|WITH PASSWORD "<password>")\n$/,
      text,
    );
    assert.ok(!r2.out.includes('s3cr3t'), text);
  }
});

test('REVOKE ROLE and DROP ROLE take the privileges away', async () => {
  const store = new Store(withGraphs('social'));
  let r = await run(
    store,
    'tigergraph',
    [
      'CREATE USER u WITH PASSWORD "p"',
      'CREATE ROLE reader ON GRAPH social',
      'GRANT PRIVILEGE READ_SCHEMA ON GRAPH social TO reader',
      'GRANT ROLE reader, observer ON GRAPH social TO u',
      'REVOKE ROLE observer ON GRAPH social FROM u',
    ].join('\n'),
  );
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /Successfully revoked roles \[observer\] on graph 'social' from users \[u\]\.\n$/);
  assert.equal((await run(store, 'u', 'ls', 'social')).code, 0);
  r = await run(store, 'tigergraph', 'DROP ROLE reader\nDROP ROLE observer');
  assert.equal(r.out.split('\n')[0], 'Successfully dropped roles: [reader].');
  assert.match(r.out, /The built-in role "observer" cannot be dropped\./);
  r = await run(store, 'u', 'ls', 'social');
  assert.equal(r.code, 212);
  assert.match(r.out, /does not have the privilege READ_SCHEMA on graph 'social'/);
  r = await run(store, 'u', 'SHOW ROLE');
  assert.match(r.out, /READ_ROLE/);
});

test('a statement naming FOR GRAPH g is checked on g, not on the graph in use', async () => {
  const store = new Store(withGraphs('social', 'other'));
  await run(store, 'tigergraph', 'CREATE USER d WITH PASSWORD "p"\nGRANT ROLE designer ON GRAPH social TO d');
  const job = 'CREATE SCHEMA_CHANGE JOB j FOR GRAPH social { ADD VERTEX W (PRIMARY_ID id STRING); }';
  const r = await run(store, 'd', job, 'other');
  assert.doesNotMatch(r.out, /Access denied/, r.out);
  const r2 = await run(store, 'd', job.replace('social', 'other'));
  assert.match(r2.out, /WRITE_SCHEMA on graph 'other'/);
});

test('DROP ALL keeps users; a dropped graph takes its grants and secrets with it', async () => {
  const store = new Store(withGraphs('social'));
  let r = await run(
    store,
    'tigergraph',
    ['CREATE USER alice WITH PASSWORD "pa55"', 'GRANT ROLE designer ON GRAPH social TO alice'].join('\n'),
  );
  assert.equal(r.code, 0, r.out);
  r = await run(store, 'tigergraph', 'CREATE SECRET s1', 'social');
  assert.equal(r.code, 0, r.out);
  r = await run(
    store,
    'tigergraph',
    'DROP GRAPH social\nCREATE GRAPH social()\nSHOW SECRET\nSHOW USER',
    'social',
  );
  assert.equal(r.code, 0, r.out);
  assert.doesNotMatch(r.out, /Alias: s1/);
  assert.doesNotMatch(r.out, /Graph 'social' Roles: designer/);
  r = await run(store, 'tigergraph', 'DROP ALL');
  assert.equal(r.code, 0, r.out);
  const principal = await AuthService.for(store).authenticatePassword('alice', 'pa55');
  assert.equal(principal.user, 'alice', 'alice can still log in after DROP ALL');
});
