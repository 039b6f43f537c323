/** The token lifecycle of spec §3, row by row, on the model (the HTTP tests repeat it on the wire). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Principal } from '../../src/auth/authorize.js';
import {
  createSecretOp,
  createUserOp,
  deleteTokenOp,
  grantRolesOp,
  principalOfSecret,
  refreshTokenOp,
  removeExpiredTokensOp,
  requestTokenOp,
} from '../../src/auth/operations.js';
import { DEFAULT_TOKEN_LIFETIME, parseLifetime } from '../../src/auth/tokens.js';
import { AuthService } from '../../src/auth/service.js';
import { newService } from './helpers.js';

const ROOT: Principal = { user: 'tigergraph', via: 'password' };

test('(none) -> valid: POST with a secret or with credentials plus graph', async () => {
  const { svc, holder, clock } = newService();
  const { secret } = await createSecretOp(svc, ROOT, { alias: 'a', graph: 'social' });
  const bySecret = await requestTokenOp(
    svc,
    await principalOfSecret(svc, secret),
    undefined,
    DEFAULT_TOKEN_LIFETIME,
  );
  assert.equal(bySecret.expiration, clock.now + 2_592_000);
  assert.equal(bySecret.graph, 'social');
  assert.deepEqual(await svc.authenticateToken(bySecret.token), {
    user: 'tigergraph',
    via: 'token',
    graph: 'social',
    secretAlias: 'a',
  });
  const byPassword = await requestTokenOp(svc, ROOT, 'other', 100);
  assert.equal(byPassword.expiration, clock.now + 100);
  await assert.rejects(requestTokenOp(svc, ROOT, undefined, 100), {
    status: 400,
    message: /needs the 'graph'/,
  });
  await assert.rejects(requestTokenOp(svc, ROOT, 'nograph', 100), { status: 400, code: 'REST-1004' });
  await assert.rejects(principalOfSecret(svc, 'not-a-secret-at-all-xyz'), {
    status: 401,
    code: 'REST-10016',
  });
  // Only digests are stored.
  const stored = JSON.stringify(holder.catalog.security);
  assert.ok(
    !stored.includes(bySecret.token) && !stored.includes(byPassword.token) && !stored.includes(secret),
  );
});

test('a user without a role on the graph gets no token for it', async () => {
  const { svc } = newService();
  await createUserOp(svc, ROOT, 'u', 'p');
  const u: Principal = { user: 'u', via: 'password' };
  await assert.rejects(requestTokenOp(svc, u, 'social', 100), { status: 403 });
  await grantRolesOp(svc, ROOT, ['observer'], 'social', ['u']);
  await requestTokenOp(svc, u, 'social', 100);
});

test('valid -> valid: PUT renews the lifetime, the token stays the same', async () => {
  const { svc, clock } = newService();
  const t = await requestTokenOp(svc, ROOT, 'social', 100);
  clock.now += 50;
  const exp = await refreshTokenOp(svc, ROOT, t.token, 1000);
  assert.equal(exp, clock.now + 1000);
  clock.now += 500;
  assert.equal((await svc.authenticateToken(t.token)).user, 'tigergraph');
});

test('valid -> deleted: DELETE, then the token is refused', async () => {
  const { svc } = newService();
  const t = await requestTokenOp(svc, ROOT, 'social', 100);
  await deleteTokenOp(svc, ROOT, t.token);
  await assert.rejects(svc.authenticateToken(t.token), {
    status: 401,
    code: 'REST-10016',
    message: /is not valid/,
  });
  await assert.rejects(deleteTokenOp(svc, ROOT, t.token), { code: 'REST-3300' });
});

test('valid -> expired by the passage of time; an expired token cannot be renewed', async () => {
  const { svc, clock } = newService();
  const t = await requestTokenOp(svc, ROOT, 'social', 100);
  clock.now += 99;
  await svc.authenticateToken(t.token);
  clock.now += 1;
  await assert.rejects(svc.authenticateToken(t.token), {
    status: 401,
    message: `Access Denied because the input token = '${t.token.slice(0, 4)}****${t.token.slice(-4)}' has expired`,
  });
  await assert.rejects(refreshTokenOp(svc, ROOT, t.token, 100), { status: 401 });
});

test('expired -> removed: own tokens always, others with WRITE_USER, atomically', async () => {
  const { svc, holder, clock } = newService();
  await createUserOp(svc, ROOT, 'u', 'p');
  await grantRolesOp(svc, ROOT, ['observer'], 'social', ['u']);
  const u: Principal = { user: 'u', via: 'password' };
  const uSecret = await createSecretOp(svc, ROOT, { alias: 'rs', forUser: 'u' });
  await requestTokenOp(svc, u, 'social', 10);
  await requestTokenOp(svc, await principalOfSecret(svc, uSecret.secret), 'social', 10);
  await requestTokenOp(svc, ROOT, 'social', 10);
  const live = await requestTokenOp(svc, ROOT, 'social', 10_000);
  clock.now += 20;
  const count = (): number => holder.catalog.security?.tokens.length ?? -1;
  assert.equal(count(), 4);
  // u may not touch tigergraph's tokens: nothing is removed, not even u's own.
  await assert.rejects(removeExpiredTokensOp(svc, u, { users: ['u', 'tigergraph'] }), {
    status: 403,
    message: /WRITE_USER/,
  });
  assert.equal(count(), 4);
  // An unknown user or secret: nothing is removed.
  await assert.rejects(removeExpiredTokensOp(svc, ROOT, { users: ['u', 'ghost'] }), {
    status: 400,
    message: /ghost/,
  });
  await assert.rejects(
    removeExpiredTokensOp(svc, ROOT, { secrets: [uSecret.secret, 'zzzzzzzzzzzzzzzzzz'] }),
    { status: 400 },
  );
  assert.equal(count(), 4);
  // By secret: only the token requested with it.
  assert.equal(await removeExpiredTokensOp(svc, u, { secrets: [uSecret.secret] }), 1);
  // No body, no WRITE_USER: the caller's own.
  assert.equal(await removeExpiredTokensOp(svc, u, {}), 1);
  // No body with WRITE_USER: every expired token; the live one stays.
  assert.equal(await removeExpiredTokensOp(svc, ROOT, {}), 1);
  assert.equal(count(), 1);
  await svc.authenticateToken(live.token);
});

test("refresh and delete of another user's token need WRITE_USER", async () => {
  const { svc } = newService();
  await createUserOp(svc, ROOT, 'u', 'p');
  await grantRolesOp(svc, ROOT, ['observer'], 'social', ['u']);
  const u: Principal = { user: 'u', via: 'password' };
  const rootToken = await requestTokenOp(svc, ROOT, 'social', 100);
  const uToken = await requestTokenOp(svc, u, 'social', 100);
  await assert.rejects(refreshTokenOp(svc, u, rootToken.token, 100), { status: 403 });
  await assert.rejects(deleteTokenOp(svc, u, rootToken.token), { status: 403 });
  await deleteTokenOp(svc, ROOT, uToken.token);
});

test('lifetimes: default, numeric strings, and refusals', () => {
  assert.equal(parseLifetime(undefined), 2_592_000);
  assert.equal(parseLifetime('100000'), 100000);
  assert.equal(parseLifetime(5), 5);
  assert.throws(() => parseLifetime('-1'), { status: 400, code: 'REST-30000' });
  assert.throws(() => parseLifetime('abc'), { status: 400 });
  assert.throws(() => parseLifetime(1.5), { status: 400 });
});

test('tokens and secrets survive a restart (a new service over the persisted catalog)', async () => {
  const { svc, holder, clock } = newService();
  const { secret } = await createSecretOp(svc, ROOT, { alias: 'keep' });
  const t = await requestTokenOp(svc, ROOT, 'social', 1000);
  const reopened = new AuthService(holder, () => clock.now);
  assert.equal((await reopened.authenticateToken(t.token)).user, 'tigergraph');
  assert.equal((await reopened.authenticatePassword('__GSQL__secret', secret)).secretAlias, 'keep');
  const serialized = JSON.parse(JSON.stringify(holder.catalog)) as typeof holder.catalog;
  const fromDisk = new AuthService(
    { catalog: serialized, changeCatalog: () => Promise.resolve() },
    () => clock.now,
  );
  assert.equal((await fromDisk.authenticateToken(t.token)).graph, 'social');
});
