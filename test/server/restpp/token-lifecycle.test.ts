/** The token lifecycle of spec §3, row by row, over HTTP (REST++ authentication on). */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { basic, call, ROOT_BASIC, startAuthServers, type AuthServers } from '../../auth/server-harness.js';

let s: AuthServers;
let secret = '';

before(async () => {
  s = await startAuthServers({ restppAuth: true });
  const made = await call(`${s.gsql}/gsql/v1/secrets?alias=life`, { method: 'POST', auth: ROOT_BASIC });
  assert.equal(made.status, 200, made.text);
  secret = (made.body.results as { value: string }).value;
});
after(() => s.close());

const GENERATED =
  'Generate new token successfully.\nWarning: Tigergraph Support cannot restore access to secrets/tokens for security reasons. Please save your secret/token and keep it safe and accessible.';

test('(none) -> valid: POST /requesttoken with a secret only; the token is at the top level', async () => {
  // pyTigerGraph sends the body as a JSON string without Content-Type and without credentials.
  const r = await call(`${s.restpp}/requesttoken`, {
    method: 'POST',
    rawBody: JSON.stringify({ secret, lifetime: '1000' }),
  });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(Object.keys(r.body).sort(), ['code', 'error', 'expiration', 'message', 'token']);
  assert.equal(r.body.code, 'REST-0000');
  assert.equal(r.body.error, false);
  assert.equal(r.body.message, GENERATED);
  assert.equal(r.body.expiration, s.clock.now + 1000);
  assert.match(String(r.body.token), /^[a-z0-9]{32}$/);
  const use = await call(`${s.restpp}/graph/social/vertices/Person`, {
    auth: `Bearer ${String(r.body.token)}`,
  });
  assert.notEqual(use.status, 401, use.text);
});

test('(none) -> valid: credentials plus graph; the token is under results.token; default lifetime', async () => {
  const r = await call(`${s.restpp}/requesttoken`, {
    method: 'POST',
    auth: ROOT_BASIC,
    body: { graph: 'social' },
  });
  assert.equal(r.status, 200, r.text);
  const results = r.body.results as { token: string };
  assert.match(results.token, /^[a-z0-9]{32}$/);
  assert.equal(r.body.expiration, s.clock.now + 2_592_000);
  // Credentials without a graph, a wrong password, an unknown secret, an unknown graph:
  const noGraph = await call(`${s.restpp}/requesttoken`, { method: 'POST', auth: ROOT_BASIC, body: {} });
  assert.equal(noGraph.status, 400);
  assert.equal(noGraph.body.code, 'REST-30000');
  const wrong = await call(`${s.restpp}/requesttoken`, {
    method: 'POST',
    auth: basic('tigergraph', 'x'),
    body: { graph: 'social' },
  });
  assert.equal(wrong.status, 401);
  assert.deepEqual(
    { error: wrong.body.error, code: wrong.body.code, message: wrong.body.message },
    { error: true, code: 'REST-10016', message: 'Invalid username or password!' },
  );
  const badSecret = await call(`${s.restpp}/requesttoken`, {
    method: 'POST',
    body: { secret: 'abcdefghijklmnopqrstuvwxyz012345' },
  });
  assert.equal(badSecret.status, 401);
  assert.equal(badSecret.body.message, "Access Denied because the input secret = 'abc****345' is not valid");
  const noCreds = await call(`${s.restpp}/requesttoken`, { method: 'POST', body: { graph: 'social' } });
  assert.equal(noCreds.status, 401);
  const badGraph = await call(`${s.restpp}/requesttoken`, {
    method: 'POST',
    auth: ROOT_BASIC,
    body: { graph: 'nope' },
  });
  assert.equal(badGraph.status, 400);
  assert.equal(badGraph.body.code, 'REST-1004');
  const badLifetime = await call(`${s.restpp}/requesttoken`, {
    method: 'POST',
    body: { secret, lifetime: 'soon' },
  });
  assert.equal(badLifetime.status, 400);
  assert.equal(badLifetime.body.code, 'REST-30000');
});

test('valid -> valid: PUT renews the lifetime and answers the same token, unmasked', async () => {
  const t = String(
    (await call(`${s.restpp}/requesttoken`, { method: 'POST', body: { secret, lifetime: 100 } })).body.token,
  );
  s.clock.now += 60;
  const r = await call(`${s.restpp}/requesttoken`, {
    method: 'PUT',
    body: { secret, token: t, lifetime: '500' },
  });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body, {
    code: 'REST-0000',
    expiration: s.clock.now + 500,
    error: false,
    message: 'Refresh token successfully.',
    token: t,
  });
  s.clock.now += 400; // past the first lifetime, inside the renewed one
  const use = await call(`${s.restpp}/echo`, { auth: `Bearer ${t}` });
  assert.equal(use.status, 200);
  const still = await call(`${s.restpp}/endpoints`, { auth: `Bearer ${t}` });
  assert.equal(still.status, 200, still.text);
  // Renewing with user credentials works too.
  const byUser = await call(`${s.restpp}/requesttoken`, {
    method: 'PUT',
    auth: ROOT_BASIC,
    body: { token: t },
  });
  assert.equal(byUser.body.expiration, s.clock.now + 2_592_000);
});

test('valid -> deleted: DELETE answers expiration -1; the token is refused afterwards', async () => {
  const t = String((await call(`${s.restpp}/requesttoken`, { method: 'POST', body: { secret } })).body.token);
  const r = await call(`${s.restpp}/requesttoken`, {
    method: 'DELETE',
    rawBody: JSON.stringify({ secret, token: t }),
  });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body, {
    code: 'REST-0000',
    expiration: -1,
    error: false,
    message: 'Drop token successfully.',
    token: `${t.slice(0, 4)}****${t.slice(-4)}`,
  });
  const use = await call(`${s.restpp}/endpoints`, { auth: `Bearer ${t}` });
  assert.equal(use.status, 401);
  assert.equal(use.body.code, 'REST-10016');
  assert.equal(
    use.body.message,
    `Access Denied because the input token = '${t.slice(0, 4)}****${t.slice(-4)}' is not valid`,
  );
  // Deleting it again: REST-3300, which pyTigerGraph's deleteToken(skipNA=True) accepts.
  const again = await call(`${s.restpp}/requesttoken`, { method: 'DELETE', body: { secret, token: t } });
  assert.equal(again.status, 400);
  assert.equal(again.body.code, 'REST-3300');
});

test('valid -> expired by the passage of time, then refused with REST-10016', async () => {
  const t = String(
    (await call(`${s.restpp}/requesttoken`, { method: 'POST', body: { secret, lifetime: 10 } })).body.token,
  );
  s.clock.now += 9;
  assert.equal((await call(`${s.restpp}/endpoints`, { auth: `Bearer ${t}` })).status, 200);
  s.clock.now += 1;
  const r = await call(`${s.restpp}/endpoints`, { auth: `Bearer ${t}` });
  assert.equal(r.status, 401);
  assert.equal(
    r.body.message,
    `Access Denied because the input token = '${t.slice(0, 4)}****${t.slice(-4)}' has expired`,
  );
  const renew = await call(`${s.restpp}/requesttoken`, { method: 'PUT', body: { secret, token: t } });
  assert.equal(renew.status, 401);
});

test('expired -> removed: DELETE :8123/expiredtoken by the owner', async () => {
  const t = String(
    (await call(`${s.restpp}/requesttoken`, { method: 'POST', body: { secret, lifetime: 5 } })).body.token,
  );
  s.clock.now += 10;
  const before = (await s.svc.state()).tokens.length;
  const r = await call(`${s.admin}/expiredtoken`, {
    method: 'DELETE',
    auth: ROOT_BASIC,
    body: { secret: [secret] },
  });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.error, false);
  const removed = (r.body.results as { removed: number }).removed;
  assert.ok(removed >= 1);
  assert.equal((await s.svc.state()).tokens.length, before - removed);
  const gone = await call(`${s.restpp}/requesttoken`, { method: 'DELETE', body: { secret, token: t } });
  assert.equal(gone.body.code, 'REST-3300');
});

test('tokens survive a restart of the server', async () => {
  const t = String(
    (await call(`${s.restpp}/requesttoken`, { method: 'POST', body: { secret, lifetime: 100000 } })).body
      .token,
  );
  await s.close(true);
  s = await startAuthServers({ restppAuth: true, dataDir: s.dataDir });
  const r = await call(`${s.restpp}/endpoints`, { auth: `Bearer ${t}` });
  assert.equal(r.status, 200, r.text);
  const bySecret = await call(`${s.restpp}/requesttoken`, { method: 'POST', body: { secret } });
  assert.equal(bySecret.status, 200);
});

test('with REST++ authentication off the token endpoints do not exist (REST-1000)', async () => {
  const off = await startAuthServers({ restppAuth: false });
  try {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const r = await call(`${off.restpp}/requesttoken`, { method, body: { secret: 'x' } });
      assert.equal(r.status, 404);
      assert.equal(r.body.code, 'REST-1000');
      assert.match(String(r.body.message), /^Endpoint is not found from url = \/requesttoken/);
    }
    const admin = await call(`${off.admin}/expiredtoken`, { method: 'DELETE', auth: ROOT_BASIC });
    assert.equal(admin.body.code, 'REST-1000');
    const v1 = await call(`${off.gsql}/gsql/v1/tokens`, {
      method: 'POST',
      auth: ROOT_BASIC,
      body: { graph: 'social' },
    });
    assert.equal(v1.status, 404);
    // And REST++ needs no token at all.
    const open = await call(`${off.restpp}/endpoints`);
    assert.equal(open.status, 200);
  } finally {
    await off.close();
  }
});

test('GET /requesttoken?secret=…&lifetime=… (the pre-3.5 form) issues a token too', async () => {
  const r = await call(`${s.restpp}/requesttoken?secret=${secret}&lifetime=50`);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.expiration, s.clock.now + 50);
  assert.equal((await call(`${s.restpp}/endpoints`, { auth: `Bearer ${String(r.body.token)}` })).status, 200);
  const bad = await call(`${s.restpp}/requesttoken?secret=nope-nope-nope-nope`);
  assert.equal(bad.status, 401);
  assert.equal(bad.body.message, "Access Denied because the input secret = 'nop****ope' is not valid");
});
