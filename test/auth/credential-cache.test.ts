import assert from 'node:assert/strict';
import { test } from 'node:test';
import { READ_DATA } from '../../src/auth/access-table.js';
import type { Principal } from '../../src/auth/authorize.js';
import { CredentialCache } from '../../src/auth/credential-cache.js';
import {
  alterPasswordOp,
  createUserOp,
  deleteTokenOp,
  dropUsersOp,
  grantRolesOp,
  requestTokenOp,
  revokeRolesOp,
} from '../../src/auth/operations.js';
import { newService } from './helpers.js';

const ROOT: Principal = { user: 'tigergraph', via: 'password' };
const basic = (user: string, password: string): string =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const MISSING = 'no credentials';

test('a verified Basic header is decided at once; a wrong one never', async () => {
  const { svc } = newService();
  const header = basic('tigergraph', 'tigergraph');
  assert.equal(svc.allowedAtOnce(header, '10.0.0.1'), undefined);
  assert.deepEqual(await svc.authenticateHeader(header, MISSING, '10.0.0.1'), ROOT);
  assert.deepEqual(svc.allowedAtOnce(header, '10.0.0.1'), ROOT);
  assert.deepEqual(svc.allowedAtOnce(header, '10.0.0.1', READ_DATA, 'social'), ROOT);
  // A handed-out principal is the caller's own copy.
  const p = svc.allowedAtOnce(header, '10.0.0.1');
  assert.ok(p);
  p.user = 'changed';
  assert.deepEqual(svc.allowedAtOnce(header, '10.0.0.1'), ROOT);
  const wrong = basic('tigergraph', 'wrong');
  assert.equal(svc.allowedAtOnce(wrong, '10.0.0.1'), undefined);
  await assert.rejects(svc.authenticateHeader(wrong, MISSING, '10.0.0.1'), {
    status: 401,
    message: 'Invalid username or password!',
  });
  assert.equal(svc.allowedAtOnce(wrong, '10.0.0.1'), undefined);
});

test('a password change, a dropped user or a revoked role ends what the header was allowed', async () => {
  const { svc } = newService();
  await createUserOp(svc, ROOT, 'alice', 'pw-a');
  await grantRolesOp(svc, ROOT, ['queryreader'], 'social', ['alice']);
  const alice = basic('alice', 'pw-a');
  await svc.authenticateHeader(alice, MISSING);
  assert.deepEqual(svc.allowedAtOnce(alice, undefined, READ_DATA, 'social'), {
    user: 'alice',
    via: 'password',
  });
  // No role on 'other': not decided at once, and the full check refuses it.
  assert.equal(svc.allowedAtOnce(alice, undefined, READ_DATA, 'other'), undefined);
  await assert.rejects(svc.check({ user: 'alice', via: 'password' }, READ_DATA, 'other'), { status: 403 });

  await revokeRolesOp(svc, ROOT, ['queryreader'], 'social', ['alice']);
  assert.equal(svc.allowedAtOnce(alice, undefined, READ_DATA, 'social'), undefined);
  await svc.authenticateHeader(alice, MISSING);
  assert.equal(svc.allowedAtOnce(alice, undefined, READ_DATA, 'social'), undefined);
  await assert.rejects(svc.check({ user: 'alice', via: 'password' }, READ_DATA, 'social'), { status: 403 });

  await alterPasswordOp(svc, ROOT, 'alice', 'pw-new');
  assert.equal(svc.allowedAtOnce(alice, undefined), undefined);
  await assert.rejects(svc.authenticateHeader(alice, MISSING), { status: 401 });
  const renewed = basic('alice', 'pw-new');
  await svc.authenticateHeader(renewed, MISSING);
  assert.ok(svc.allowedAtOnce(renewed, undefined));

  await dropUsersOp(svc, ROOT, ['alice']);
  assert.equal(svc.allowedAtOnce(renewed, undefined), undefined);
  await assert.rejects(svc.authenticateHeader(renewed, MISSING), { status: 401 });
});

test('a token is decided at once until it expires or is deleted', async () => {
  const { svc, clock } = newService();
  const grant = await requestTokenOp(svc, ROOT, 'social', 100);
  const bearer = `Bearer ${grant.token}`;
  const principal = await svc.authenticateHeader(bearer, MISSING);
  assert.deepEqual(svc.allowedAtOnce(bearer, undefined, READ_DATA, 'social'), principal);
  // The token is for 'social' only.
  assert.equal(svc.allowedAtOnce(bearer, undefined, READ_DATA, 'other'), undefined);
  clock.now += 100;
  assert.equal(svc.allowedAtOnce(bearer, undefined), undefined);
  await assert.rejects(svc.authenticateHeader(bearer, MISSING), { status: 401, message: /has expired/ });

  const second = await requestTokenOp(svc, ROOT, 'social', 100);
  const other = `Bearer ${second.token}`;
  await svc.authenticateHeader(other, MISSING);
  assert.ok(svc.allowedAtOnce(other, undefined));
  await deleteTokenOp(svc, ROOT, second.token);
  assert.equal(svc.allowedAtOnce(other, undefined), undefined);
  await assert.rejects(svc.authenticateHeader(other, MISSING), { status: 401, message: /is not valid/ });
});

test('a throttled user name is refused even with a header verified before', async () => {
  const { svc } = newService();
  const good = basic('tigergraph', 'tigergraph');
  await svc.authenticateHeader(good, MISSING, '10.0.0.2');
  for (let i = 0; i < 6; i++) {
    await assert.rejects(svc.authenticateHeader(basic('tigergraph', `bad${i}`), MISSING, '10.0.0.3'));
  }
  assert.equal(svc.allowedAtOnce(good, '10.0.0.2'), undefined);
  await assert.rejects(svc.authenticateHeader(good, MISSING, '10.0.0.2'), { status: 429 });
});

test('a header verified while the security state changed is not remembered', async () => {
  const { svc } = newService();
  await createUserOp(svc, ROOT, 'alice', 'pw-a');
  const alice = basic('alice', 'pw-a');
  // alice's first check runs scrypt; a security change lands meanwhile.
  const verifying = svc.authenticateHeader(alice, MISSING);
  await svc.mutate((s) => ({ state: { ...s }, result: undefined }));
  assert.deepEqual(await verifying, { user: 'alice', via: 'password' });
  assert.equal(svc.allowedAtOnce(alice, undefined), undefined);
  await svc.authenticateHeader(alice, MISSING);
  assert.ok(svc.allowedAtOnce(alice, undefined));
});

test('the cache is bounded: the oldest entry goes first', async () => {
  const { svc } = newService();
  const state = await svc.state();
  const cache = new CredentialCache(2);
  for (const user of ['a', 'b', 'c']) cache.remember(state, basic(user, 'x'), { user, via: 'password' });
  assert.equal(cache.size, 2);
  assert.equal(cache.find(state, basic('a', 'x'), 0), undefined);
  assert.equal(cache.find(state, basic('c', 'x'), 0)?.principal.user, 'c');
  // Another state empties it.
  assert.equal(cache.find({ ...state }, basic('c', 'x'), 0), undefined);
  assert.equal(cache.size, 0);
});
