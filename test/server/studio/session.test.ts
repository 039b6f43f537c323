/**
 * The Studio's login over HTTP: the session cookie's attributes, what it authenticates (GSQL
 * server and REST++ on :14240), refusal from other origins, expiry, logout, and that a user sees
 * only the graphs they have a role on.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { call, envelope, login, startStudioServers, type StudioServers } from './studio-harness.js';

let t: StudioServers;
before(async () => {
  t = await startStudioServers({ auth: true, ttlMs: 60_000 });
});
after(async () => {
  await t.close();
});

const same = () => ({ origin: t.base, site: 'same-origin' });

test('a login sets an HttpOnly, SameSite=Strict session cookie that expires', async () => {
  const { cookie, response } = await login(t.base, 'tigergraph', 'tigergraph');
  assert.equal(response.status, 200);
  const setCookie = response.headers.get('set-cookie') ?? '';
  assert.match(cookie, /^ocelot_studio_session=[A-Za-z0-9_-]{43}$/);
  const attrs = setCookie.split('; ').slice(1);
  assert.deepEqual(attrs, [
    'Max-Age=60',
    `Expires=${new Date(t.clock.now + 60_000).toUTCString()}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
  ]);
  const body = await envelope(response);
  assert.deepEqual(body.results, {
    loggedIn: true,
    user: 'tigergraph',
    expiresAt: new Date(t.clock.now + 60_000).toISOString(),
    graphs: [
      { name: 'club', roles: ['superuser'] },
      { name: 'shop', roles: ['superuser'] },
    ],
  });
});

test('wrong credentials, a secret, or a malformed body get no session', async () => {
  for (const body of [
    { username: 'tigergraph', password: 'nope' },
    { username: 'nobody', password: 'x' },
    { username: '__GSQL__secret', password: 'whatever' },
  ]) {
    const r = await call(t.base, '/studio/api/login', {
      method: 'POST',
      ...same(),
      body: JSON.stringify(body),
    });
    assert.equal(r.status, 401);
    assert.equal(r.headers.get('set-cookie'), null);
    const env = await envelope(r);
    assert.deepEqual(
      [env.error, env.code, env.message],
      [true, 'REST-10016', 'Invalid username or password!'],
    );
  }
  const r = await call(t.base, '/studio/api/login', { method: 'POST', ...same(), body: '["x"]' });
  assert.equal(r.status, 400);
  assert.match((await envelope(r)).message, /must be a JSON object \{"username"/);
});

/** The refusal of every listener's browser guard (server/http/browser-guard.ts). */
const CROSS_ORIGIN = /Cross-origin requests are refused/;

test('a login from another origin, or that says nothing of its origin, is refused', async () => {
  const body = JSON.stringify({ username: 'tigergraph', password: 'tigergraph' });
  for (const [headers, reason] of [
    [{ origin: 'http://evil.example' }, "Origin 'http://evil.example' is not this server"],
    [{ site: 'cross-site' }, "Sec-Fetch-Site is 'cross-site'"],
    [{ site: 'same-site', origin: t.base }, "Sec-Fetch-Site is 'same-site'"],
    [{ origin: 'null' }, "Origin 'null' is not this server"],
    [{}, 'neither Origin nor Sec-Fetch-Site says where it comes from'],
  ] as const) {
    const r = await call(t.base, '/studio/api/login', { method: 'POST', body, ...headers });
    assert.equal(r.status, 403, JSON.stringify(headers));
    assert.equal(r.headers.get('set-cookie'), null);
    // Another page's request is refused by every listener's browser guard before the Studio sees it.
    const message = (await envelope(r)).message;
    assert.ok(message.includes(reason) || CROSS_ORIGIN.test(message), `${reason}: ${message}`);
  }
});

test('the cookie authenticates GSQL-server and REST++ calls from the same origin only', async () => {
  const { cookie } = await login(t.base, 'tigergraph', 'tigergraph');
  const schema = await call(t.base, '/gsql/v1/schema/graphs/club', { cookie, site: 'same-origin' });
  assert.equal(schema.status, 200);
  assert.equal((await envelope<{ GraphName: string }>(schema)).results.GraphName, 'club');
  // REST++ under /restpp needs a token here (--auth): the session counts as one.
  const vertices = await call(t.base, '/restpp/graph/club/vertices/member?limit=5', {
    cookie,
    site: 'same-origin',
  });
  assert.equal(vertices.status, 200);
  assert.deepEqual((await envelope<{ v_id: string }[]>(vertices)).results.map((v) => v.v_id).sort(), [
    'Ada',
    'Boris',
  ]);
  // A state-changing call carries Origin (browsers always send it on POST).
  const statements = await call(t.base, '/gsql/v1/statements', {
    method: 'POST',
    cookie,
    origin: t.base,
    body: 'USE GRAPH club\nls',
  });
  assert.equal(statements.status, 200);
  assert.match(await statements.text(), /member/);
  // A GET typed into the address bar (Sec-Fetch-Site: none) is the user's own.
  assert.equal((await call(t.base, '/gsql/v1/schema/graphs/club', { cookie, site: 'none' })).status, 200);

  // Without the cookie: no credentials.
  assert.equal((await call(t.base, '/gsql/v1/schema/graphs/club', { site: 'same-origin' })).status, 401);
  assert.equal(
    (await call(t.base, '/restpp/graph/club/vertices/member', { site: 'same-origin' })).status,
    401,
  );
  // From anywhere else the cookie is refused, reads included.
  for (const c of [
    { site: 'same-site' },
    { site: 'cross-site' },
    { origin: 'http://127.0.0.1:1' },
    { method: 'POST', body: 'ls' },
    { method: 'POST', body: 'ls', site: 'none' },
  ]) {
    const path = c.method === 'POST' ? '/gsql/v1/statements' : '/gsql/v1/schema/graphs/club';
    const r = await call(t.base, path, { cookie, ...c });
    assert.equal(r.status, 403, JSON.stringify(c));
    assert.match(
      (await envelope(r)).message,
      /accepted only from the Studio's own origin|Cross-origin requests are refused/,
    );
  }
  // Explicit credentials are checked as always, cookie or not.
  const basic = await call(t.base, '/gsql/v1/schema/graphs/club', { cookie, basic: 'tigergraph:wrong' });
  assert.equal(basic.status, 401);
  // Public routes ignore the cookie (a request another page made is refused by the browser guard
  // whatever it carries, so this one says nothing of its origin).
  assert.equal((await call(t.base, '/api/ping', { cookie })).status, 200);
});

test('the cookie is no credential on the other ports', async () => {
  const { cookie } = await login(t.base, 'tigergraph', 'tigergraph');
  const admin = await call(t.s.urls.admin, '/gsql/v1/schema/graphs/club', { cookie, site: 'same-origin' });
  assert.equal(admin.status, 404);
  const restpp = await call(t.s.urls.restpp, '/graph/club/vertices/member', { cookie, site: 'same-origin' });
  assert.equal(restpp.status, 401);
});

test('a user sees and may use only the graphs they have a role on', async () => {
  const { cookie, response } = await login(t.base, 'ann', 'ann-pass');
  assert.deepEqual((await envelope<{ graphs: unknown }>(response)).results.graphs, [
    { name: 'club', roles: ['queryreader'] },
  ]);
  const session = await call(t.base, '/studio/api/session', { cookie, site: 'same-origin' });
  assert.deepEqual((await envelope<{ graphs: unknown }>(session)).results.graphs, [
    { name: 'club', roles: ['queryreader'] },
  ]);
  assert.equal(
    (await call(t.base, '/gsql/v1/schema/graphs/club', { cookie, site: 'same-origin' })).status,
    200,
  );
  const other = await call(t.base, '/gsql/v1/schema/graphs/shop', { cookie, site: 'same-origin' });
  assert.equal(other.status, 403);
  const data = await call(t.base, '/restpp/graph/shop/vertices/item', { cookie, site: 'same-origin' });
  assert.equal(data.status, 403);
});

test('the session endpoint answers whether anyone is logged in', async () => {
  const none = await call(t.base, '/studio/api/session', { site: 'same-origin' });
  assert.equal(none.status, 200);
  assert.deepEqual((await envelope(none)).results, { loggedIn: false });
  const bogus = await call(t.base, '/studio/api/session', {
    cookie: 'ocelot_studio_session=forged',
    site: 'same-origin',
  });
  assert.deepEqual((await envelope(bogus)).results, { loggedIn: false });
});

test('logout ends the session and clears the cookie', async () => {
  const { cookie } = await login(t.base, 'tigergraph', 'tigergraph');
  const out = await call(t.base, '/studio/api/logout', { method: 'POST', cookie, ...same() });
  assert.equal(out.status, 200);
  assert.match(
    out.headers.get('set-cookie') ?? '',
    /^ocelot_studio_session=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=\/; HttpOnly; SameSite=Strict$/,
  );
  assert.equal(
    (await call(t.base, '/gsql/v1/schema/graphs/club', { cookie, site: 'same-origin' })).status,
    401,
  );
  const cross = await call(t.base, '/studio/api/logout', {
    method: 'POST',
    cookie,
    origin: 'http://evil.example',
  });
  assert.equal(cross.status, 403);
});

test('a session expires; a changed password ends it', async () => {
  const first = await login(t.base, 'tigergraph', 'tigergraph');
  t.clock.now += 59_000;
  assert.equal(
    (await call(t.base, '/gsql/v1/schema/graphs/club', { cookie: first.cookie, site: 'same-origin' })).status,
    200,
  );
  t.clock.now += 1_000;
  assert.equal(
    (await call(t.base, '/gsql/v1/schema/graphs/club', { cookie: first.cookie, site: 'same-origin' })).status,
    401,
  );

  const ann = await login(t.base, 'ann', 'ann-pass');
  const changed = await call(t.base, '/gsql/v1/statements', {
    method: 'POST',
    basic: 'tigergraph:tigergraph',
    body: 'ALTER PASSWORD ann WITH PASSWORD "new-pass"',
  });
  assert.equal(await changed.text(), 'Password has been changed.\n');
  assert.equal(
    (await call(t.base, '/gsql/v1/schema/graphs/club', { cookie: ann.cookie, site: 'same-origin' })).status,
    401,
  );
  assert.equal((await login(t.base, 'ann', 'new-pass')).response.status, 200);
});
