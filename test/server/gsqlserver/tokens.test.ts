/** TigerGraph 4.x token endpoints: POST|DELETE /gsql/v1/tokens, POST /gsql/v1/tokens/check. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { javaDateText } from '../../../src/server/gsqlserver/tokens.js';
import { call, ROOT_BASIC, startAuthServers, type AuthServers } from '../../auth/server-harness.js';

let s: AuthServers;
let secret = '';
before(async () => {
  s = await startAuthServers({ restppAuth: true });
  const made = await call(`${s.gsql}/gsql/v1/secrets?alias=v4`, { method: 'POST', auth: ROOT_BASIC });
  secret = (made.body.results as { value: string }).value;
});
after(() => s.close());

test('expiration is printed the way TigerGraph 4 prints it', () => {
  assert.equal(javaDateText(1734685659), 'Fri Dec 20 09:07:39 UTC 2024');
  assert.equal(javaDateText(0), 'Thu Jan 01 00:00:00 UTC 1970');
});

test('POST /gsql/v1/tokens with a secret (no other credentials) or with Basic credentials', async () => {
  const r = await call(`${s.gsql}/gsql/v1/tokens`, {
    method: 'POST',
    body: { secret, lifetime: '1000', graph: 'social' },
  });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(Object.keys(r.body).sort(), ['error', 'expiration', 'message', 'token']);
  assert.equal(r.body.expiration, javaDateText(s.clock.now + 1000));
  const token = String(r.body.token);
  // Whose token it is and for which graph is told only to a caller with credentials.
  const anonymous = await call(`${s.gsql}/gsql/v1/tokens/check`, { method: 'POST', body: { token } });
  assert.equal(anonymous.status, 401, anonymous.text);
  assert.doesNotMatch(anonymous.text, /tigergraph|social/);
  const check = await call(`${s.gsql}/gsql/v1/tokens/check`, {
    method: 'POST',
    auth: `Bearer ${token}`,
    body: { token },
  });
  assert.deepEqual(check.body, {
    error: false,
    message: 'The token is valid.',
    results: { userName: 'tigergraph', graph: 'social', expiration: s.clock.now + 1000 },
  });
  const byUser = await call(`${s.gsql}/gsql/v1/tokens`, {
    method: 'POST',
    auth: ROOT_BASIC,
    body: { graph: 'social' },
  });
  assert.equal(byUser.status, 200, byUser.text);
  const none = await call(`${s.gsql}/gsql/v1/tokens`, { method: 'POST', body: { graph: 'social' } });
  assert.equal(none.status, 401);
  assert.equal(none.body.code, 'REST-10016');
});

test('tokens/check refuses unknown and expired tokens with 401', async () => {
  const unknown = await call(`${s.gsql}/gsql/v1/tokens/check`, {
    method: 'POST',
    auth: ROOT_BASIC,
    body: { token: 'zzzzzzzzzzzzzzzzzzzzzzzz' },
  });
  assert.equal(unknown.status, 401);
  assert.equal(unknown.body.message, "Access Denied because the input token = 'zzzz****zzzz' is not valid");
  const t = String(
    (await call(`${s.gsql}/gsql/v1/tokens`, { method: 'POST', body: { secret, lifetime: 1 } })).body.token,
  );
  s.clock.now += 2;
  const expired = await call(`${s.gsql}/gsql/v1/tokens/check`, {
    method: 'POST',
    auth: ROOT_BASIC,
    body: { token: t },
  });
  assert.equal(expired.status, 401);
  assert.match(String(expired.body.message), /has expired$/);
  const missing = await call(`${s.gsql}/gsql/v1/tokens/check`, {
    method: 'POST',
    auth: ROOT_BASIC,
    body: {},
  });
  assert.equal(missing.status, 400);
});

test('DELETE /gsql/v1/tokens deletes one or several tokens, all or none', async () => {
  const mk = async () =>
    String((await call(`${s.gsql}/gsql/v1/tokens`, { method: 'POST', body: { secret } })).body.token);
  const a = await mk();
  const b = await mk();
  const c = await mk();
  const one = await call(`${s.gsql}/gsql/v1/tokens`, { method: 'DELETE', body: { secret, tokens: a } });
  assert.deepEqual(one.body, { error: false, message: 'Successfully deleted 1 token(s).' });
  const mixed = await call(`${s.gsql}/gsql/v1/tokens`, {
    method: 'DELETE',
    body: { secret, tokens: [b, a] },
  });
  assert.equal(mixed.status, 400);
  assert.equal(mixed.body.code, 'REST-3300');
  assert.equal(
    (await call(`${s.gsql}/gsql/v1/tokens/check`, { method: 'POST', auth: ROOT_BASIC, body: { token: b } }))
      .status,
    200,
  );
  const both = await call(`${s.gsql}/gsql/v1/tokens`, {
    method: 'DELETE',
    auth: ROOT_BASIC,
    body: { tokens: [b, c] },
  });
  assert.equal(both.status, 200, both.text);
  assert.equal(
    (await call(`${s.gsql}/gsql/v1/tokens/check`, { method: 'POST', auth: ROOT_BASIC, body: { token: c } }))
      .status,
    401,
  );
  const empty = await call(`${s.gsql}/gsql/v1/tokens`, { method: 'DELETE', body: { secret } });
  assert.equal(empty.status, 400);
});
