import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Principal } from '../../src/auth/authorize.js';
import {
  alterPasswordOp,
  createSecretOp,
  createUserOp,
  dropSecretsOp,
  dropUsersOp,
  grantRolesOp,
  listSecretsOp,
  showUsersOp,
} from '../../src/auth/operations.js';
import { newService } from './helpers.js';

const ROOT: Principal = { user: 'tigergraph', via: 'password' };

test('a new data directory has tigergraph/tigergraph as superuser, stored hashed', async () => {
  const { svc, holder } = newService();
  assert.deepEqual(await svc.authenticatePassword('tigergraph', 'tigergraph'), ROOT);
  assert.equal(await svc.defaultPasswordInUse(), true);
  assert.equal(
    await svc.defaultPasswordWarning(),
    'Warning: the user "tigergraph" still has its default password; change it with ALTER PASSWORD in gsql.',
  );
  // Nothing is written until the first change.
  assert.equal(holder.changes, 0);
  await alterPasswordOp(svc, ROOT, undefined, 'n3w-pass');
  const user = holder.security().users[0];
  assert.equal(user.name, 'tigergraph');
  assert.deepEqual(user.globalRoles, ['superuser']);
  assert.equal(Buffer.from(user.password.hash, 'base64').length, 32);
  assert.equal(Buffer.from(user.password.salt, 'base64').length, 16);
  assert.equal(await svc.defaultPasswordInUse(), false);
  assert.equal(await svc.defaultPasswordWarning(), undefined);
  await assert.rejects(svc.authenticatePassword('tigergraph', 'tigergraph'), {
    status: 401,
    code: 'REST-10016',
    message: 'Invalid username or password!',
  });
  assert.deepEqual(await svc.authenticatePassword('tigergraph', 'n3w-pass'), ROOT);
});

test('unknown users and wrong passwords get the same 401', async () => {
  const { svc } = newService();
  await assert.rejects(svc.authenticatePassword('nobody', 'x'), {
    status: 401,
    message: 'Invalid username or password!',
  });
  await assert.rejects(svc.authenticatePassword('tigergraph', 'x'), {
    status: 401,
    message: 'Invalid username or password!',
  });
});

test('CREATE/DROP USER, ALTER PASSWORD and SHOW USER with their privilege checks', async () => {
  const { svc } = newService();
  await createUserOp(svc, ROOT, 'alice', 'pw-a');
  await createUserOp(svc, ROOT, 'bob', 'pw-b');
  await assert.rejects(createUserOp(svc, ROOT, 'alice', 'x'), {
    status: 409,
    message: 'The user "alice" already exists.',
  });
  await assert.rejects(createUserOp(svc, ROOT, 'bad name', 'x'), { status: 400 });
  await assert.rejects(createUserOp(svc, ROOT, 'carol', ''), { message: 'The password must not be empty.' });
  const alice: Principal = { user: 'alice', via: 'password' };
  // Alice has no WRITE_USER: she may change her own password only.
  await assert.rejects(createUserOp(svc, alice, 'carol', 'x'), {
    status: 403,
    message: "Access denied: user 'alice' does not have the privilege WRITE_USER on the global scope.",
  });
  await assert.rejects(alterPasswordOp(svc, alice, 'bob', 'x'), { status: 403, message: /WRITE_USER/ });
  await alterPasswordOp(svc, alice, undefined, 'pw-a2');
  await svc.authenticatePassword('alice', 'pw-a2');
  // SHOW USER: alice sees herself, tigergraph (READ_USER) sees everyone.
  assert.deepEqual(
    (await showUsersOp(svc, alice)).map((u) => u.name),
    ['alice'],
  );
  assert.deepEqual(
    (await showUsersOp(svc, ROOT)).map((u) => u.name),
    ['tigergraph', 'alice', 'bob'],
  );
  await grantRolesOp(svc, ROOT, ['designer'], 'social', ['bob']);
  const bobView = (await showUsersOp(svc, ROOT)).find((u) => u.name === 'bob');
  assert.deepEqual(bobView?.graphRoles, { social: ['designer'] });
  await assert.rejects(grantRolesOp(svc, ROOT, ['designer'], 'nograph', ['bob']), {
    status: 400,
    message: "Graph 'nograph' does not exist.",
  });
  await assert.rejects(dropUsersOp(svc, ROOT, ['tigergraph']), { status: 400 });
  await dropUsersOp(svc, ROOT, ['bob']);
  await assert.rejects(svc.authenticatePassword('bob', 'pw-b'), { status: 401 });
  await assert.rejects(dropUsersOp(svc, ROOT, ['bob']), {
    status: 400,
    message: 'User "bob" does not exist.',
  });
});

test('secrets: alias rules, auto aliases, masked listing, login as __GSQL__secret, drop all-or-nothing', async () => {
  const { svc } = newService();
  const made = await createSecretOp(svc, ROOT, { alias: 'secret1', graph: 'social' });
  assert.match(made.secret, /^[a-z0-9]{32}$/);
  await assert.rejects(createSecretOp(svc, ROOT, { alias: 'secret1' }), {
    status: 409,
    message: 'The secret with alias secret1 already exists.',
  });
  const auto = await createSecretOp(svc, ROOT, {});
  assert.match(auto.record.alias, /^AUTO_GENERATED_ALIAS_[a-z0-9]{7}$/);
  const listed = await listSecretsOp(svc, ROOT);
  assert.deepEqual(
    listed.map((s) => s.alias),
    ['secret1', auto.record.alias],
  );
  assert.equal(listed[0].masked, `${made.secret.slice(0, 3)}****${made.secret.slice(-3)}`);
  assert.ok(!JSON.stringify(listed).includes(made.secret));
  assert.deepEqual(await svc.authenticatePassword('__GSQL__secret', made.secret), {
    user: 'tigergraph',
    via: 'secret',
    secretAlias: 'secret1',
    graph: 'social',
  });
  await assert.rejects(svc.authenticatePassword('__GSQL__secret', 'wrong'), { status: 401 });
  await assert.rejects(dropSecretsOp(svc, ROOT, ['secret1', 'nope']), {
    status: 400,
    message: "Failed to drop secrets: 'nope' does not exist for user 'tigergraph'.",
  });
  assert.equal((await listSecretsOp(svc, ROOT)).length, 2);
  await dropSecretsOp(svc, ROOT, ['secret1']);
  await assert.rejects(svc.authenticatePassword('__GSQL__secret', made.secret), { status: 401 });
});

test('observer cannot create a secret, queryreader can', async () => {
  const { svc } = newService();
  await createUserOp(svc, ROOT, 'obs', 'x');
  await createUserOp(svc, ROOT, 'rdr', 'x');
  await grantRolesOp(svc, ROOT, ['observer'], 'social', ['obs']);
  await grantRolesOp(svc, ROOT, ['queryreader'], 'social', ['rdr']);
  await assert.rejects(createSecretOp(svc, { user: 'obs', via: 'password' }, { graph: 'social' }), {
    status: 403,
  });
  await createSecretOp(svc, { user: 'rdr', via: 'password' }, { graph: 'social' });
});

test('concurrent changes are applied one after another, none lost', async () => {
  const { svc, holder } = newService();
  await svc.state();
  await Promise.all(Array.from({ length: 20 }, (_, i) => createSecretOp(svc, ROOT, { alias: `s${i}` })));
  assert.equal(holder.catalog.security?.secrets.length, 20);
});
