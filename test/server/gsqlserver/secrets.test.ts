/** /gsql/v1/secrets as pyTigerGraph uses it: list, get, create (alias, auto alias, value), drop. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { basic, call, ROOT_BASIC, startAuthServers, type AuthServers } from '../../auth/server-harness.js';

let s: AuthServers;
before(async () => {
  s = await startAuthServers({ restppAuth: false });
});
after(() => s.close());

const url = (path = '') => `${s.gsql}/gsql/v1/secrets${path}`;

test('create with alias, auto alias and a chosen value; list is a list of {alias, value} masked', async () => {
  const one = await call(url('?alias=secret1'), { method: 'POST', auth: ROOT_BASIC });
  assert.equal(one.status, 200, one.text);
  const v1 = (one.body.results as { alias: string; value: string }).value;
  assert.deepEqual(one.body, {
    error: false,
    message: 'Successfully created secret for user tigergraph.',
    results: { alias: 'secret1', value: v1 },
  });
  assert.match(v1, /^[a-z0-9]{32}$/);
  const auto = await call(url(), { method: 'POST', auth: ROOT_BASIC });
  const autoAlias = (auto.body.results as { alias: string }).alias;
  assert.match(autoAlias, /^AUTO_GENERATED_ALIAS_[a-z0-9]{7}$/);
  const chosen = await call(url('?alias=secret2&value=my-own-secret-value-123'), {
    method: 'POST',
    auth: ROOT_BASIC,
  });
  assert.deepEqual(chosen.body.results, { alias: 'secret2', value: 'my-own-secret-value-123' });
  const short = await call(url('?alias=secret3&value=short'), { method: 'POST', auth: ROOT_BASIC });
  assert.equal(short.status, 400);

  const list = await call(url(), { auth: ROOT_BASIC });
  assert.equal(list.status, 200);
  assert.deepEqual(list.body.results, [
    { alias: 'secret1', value: `${v1.slice(0, 3)}****${v1.slice(-3)}` },
    { alias: autoAlias, value: (list.body.results as { value: string }[])[1].value },
    { alias: 'secret2', value: 'my-****123' },
  ]);
  assert.ok(!list.text.includes(v1));
  const single = await call(url('/secret1'), { auth: ROOT_BASIC });
  assert.deepEqual(single.body.results, { alias: 'secret1', value: `${v1.slice(0, 3)}****${v1.slice(-3)}` });
  const none = await call(url('/nope'), { auth: ROOT_BASIC });
  assert.equal(none.status, 400);
  assert.equal(none.body.error, true);
});

test("a duplicate alias is refused with TigerGraph's message", async () => {
  await call(url('?alias=dup'), { method: 'POST', auth: ROOT_BASIC });
  const again = await call(url('?alias=dup'), { method: 'POST', auth: ROOT_BASIC });
  assert.equal(again.status, 409);
  assert.equal(again.body.error, true);
  assert.equal(again.body.message, 'The secret with alias dup already exists.');
});

test('drop by alias and by list; a missing alias drops nothing and errors', async () => {
  await call(url('?alias=gone1'), { method: 'POST', auth: ROOT_BASIC });
  await call(url('?alias=gone2'), { method: 'POST', auth: ROOT_BASIC });
  const one = await call(url('/gone1'), { method: 'DELETE', auth: ROOT_BASIC });
  assert.deepEqual(one.body, { error: false, message: 'Successfully dropped secrets: [gone1].' });
  const mixed = await call(url(), {
    method: 'DELETE',
    auth: ROOT_BASIC,
    body: { secrets: ['gone2', 'never'] },
  });
  assert.equal(mixed.status, 400);
  assert.match(String(mixed.body.message), /^Failed to drop secrets: 'never' does not exist/);
  const left = (await call(url(), { auth: ROOT_BASIC })).body.results as { alias: string }[];
  assert.ok(left.some((x) => x.alias === 'gone2'));
  assert.ok(!left.some((x) => x.alias === 'gone1'));
  const bad = await call(url(), { method: 'DELETE', auth: ROOT_BASIC, body: { secrets: 3 } });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.code, 'REST-30000');
});

test("another user's secrets need READ_USER / WRITE_USER; the user's own need nothing more", async () => {
  const mk = await call(`${s.gsql}/gsql/v1/statements`, {
    method: 'POST',
    auth: ROOT_BASIC,
    rawBody: 'CREATE USER eve WITH PASSWORD "pw-eve"\nGRANT ROLE queryreader ON GRAPH social TO eve',
  });
  assert.match(mk.text, /Successfully granted/);
  const eve = basic('eve', 'pw-eve');
  const own = await call(url('?alias=mine&graph=social'), { method: 'POST', auth: eve });
  assert.equal(own.status, 200, own.text);
  const peek = await call(url('?userName=tigergraph'), { auth: eve });
  assert.equal(peek.status, 403);
  assert.match(String(peek.body.message), /READ_USER/);
  const forOther = await call(url('?alias=x&userName=tigergraph'), { method: 'POST', auth: eve });
  assert.equal(forOther.status, 403);
  const asAdmin = await call(url('?userName=eve'), { auth: ROOT_BASIC });
  assert.deepEqual(
    (asAdmin.body.results as { alias: string }[]).map((x) => x.alias),
    ['mine'],
  );
  const unknownUser = await call(url('?userName=ghost'), { auth: ROOT_BASIC });
  assert.equal(unknownUser.status, 400);
});

test('secrets survive a restart', async () => {
  const made = await call(url('?alias=durable'), { method: 'POST', auth: ROOT_BASIC });
  const value = (made.body.results as { value: string }).value;
  await s.close(true);
  s = await startAuthServers({ restppAuth: true, dataDir: s.dataDir });
  const r = await call(`${s.restpp}/requesttoken`, { method: 'POST', body: { secret: value } });
  assert.equal(r.status, 200, r.text);
  const list = (await call(url(), { auth: ROOT_BASIC })).body.results as { alias: string }[];
  assert.ok(list.some((x) => x.alias === 'durable'));
});
