/**
 * Every endpoint with no, wrong, expired and valid credentials (REST++ authentication on), and
 * the built-in roles' allowed and refused operations over HTTP.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { basic, call, ROOT_BASIC, startAuthServers, type AuthServers } from '../auth/server-harness.js';

let s: AuthServers;
let valid = '';
let expired = '';

before(async () => {
  s = await startAuthServers({ restppAuth: true });
  const get = async (lifetime: number) => {
    const r = await call(`${s.restpp}/requesttoken`, {
      method: 'POST',
      auth: ROOT_BASIC,
      body: { graph: 'social', lifetime },
    });
    return String(r.body.token);
  };
  expired = await get(5);
  s.clock.now += 10;
  valid = await get(100_000_000);
});
after(() => s.close());

interface Probe {
  name: string;
  url: () => string;
  method?: string;
  body?: string;
}

/** REST++ endpoints, on :9000 and on :14240/restpp. */
const restppPaths: (Omit<Probe, 'url'> & { path: string })[] = [
  { name: 'GET /endpoints', path: '/endpoints' },
  { name: 'GET /version', path: '/version' },
  { name: 'GET /statistics/{graph_name}', path: '/statistics/social?seconds=10' },
  { name: 'GET /graph/{graph_name}/vertices/{vertex_type}', path: '/graph/social/vertices/Person' },
  {
    name: 'DELETE /graph/{graph_name}/vertices/{vertex_type}/{vertex_id}',
    path: '/graph/social/vertices/Person/1',
    method: 'DELETE',
  },
  { name: 'POST /graph/{graph_name}', path: '/graph/social', method: 'POST', body: '{"vertices":{}}' },
  {
    name: 'POST /builtins/{graph_name}',
    path: '/builtins/social',
    method: 'POST',
    body: '{"function":"stat_vertex_number","type":"*"}',
  },
  { name: 'GET /deleted_vertex_check', path: '/deleted_vertex_check' },
];

const restppProbes: Probe[] = restppPaths.flatMap((p) => [
  { ...p, name: `:9000 ${p.name}`, url: () => `${s.restpp}${p.path}` },
  { ...p, name: `:14240/restpp ${p.name}`, url: () => `${s.gsql}/restpp${p.path}` },
]);

const gsqlProbes: Probe[] = [
  { name: 'GET /gsql/v1/version', url: () => `${s.gsql}/gsql/v1/version` },
  { name: 'POST /gsql/v1/statements', url: () => `${s.gsql}/gsql/v1/statements`, method: 'POST', body: 'ls' },
  {
    name: 'POST /gsqlserver/gsql/file',
    url: () => `${s.gsql}/gsqlserver/gsql/file`,
    method: 'POST',
    body: 'ls',
  },
  { name: 'GET /gsqlserver/gsql/schema', url: () => `${s.gsql}/gsqlserver/gsql/schema?graph=social` },
  { name: 'GET /gsql/v1/schema/graphs/{graph_name}', url: () => `${s.gsql}/gsql/v1/schema/graphs/social` },
  { name: 'GET /gsql/v1/secrets', url: () => `${s.gsql}/gsql/v1/secrets` },
  { name: ':8123 POST /gsql/file', url: () => `${s.admin}/gsql/file`, method: 'POST', body: 'ls' },
  { name: ':8123 DELETE /expiredtoken', url: () => `${s.admin}/expiredtoken`, method: 'DELETE' },
];

async function probe(p: Probe, auth: string | undefined) {
  return call(p.url(), {
    method: p.method ?? 'GET',
    ...(auth === undefined ? {} : { auth }),
    ...(p.body === undefined ? {} : { rawBody: p.body }),
  });
}

function assertDenied(r: Awaited<ReturnType<typeof probe>>, label: string, message?: string | RegExp): void {
  assert.equal(r.status, 401, `${label}: ${r.text}`);
  assert.equal(r.body.error, true, label);
  assert.equal(r.body.code, 'REST-10016', label);
  if (typeof message === 'string') assert.equal(r.body.message, message, label);
  else if (message) assert.match(String(r.body.message), message, label);
  assert.ok(!r.text.includes('    at '), `${label}: no stack trace`);
}

test('REST++: no, wrong, expired and valid tokens on every endpoint', async () => {
  for (const p of restppProbes) {
    assertDenied(
      await probe(p, undefined),
      `${p.name} without token`,
      "Access Denied because the input token = '' is empty or too short",
    );
    assertDenied(
      await probe(p, 'Bearer abcdefghijklmnopqrstuvwxyz012345'),
      `${p.name} unknown token`,
      "Access Denied because the input token = 'abcd****2345' is not valid",
    );
    assertDenied(await probe(p, `Bearer ${expired}`), `${p.name} expired token`, /has expired|is not valid/);
    assertDenied(
      await probe(p, basic('tigergraph', 'wrong')),
      `${p.name} wrong password`,
      'Invalid username or password!',
    );
    s.forgetFailedLogins();
    for (const auth of [`Bearer ${valid}`, ROOT_BASIC]) {
      const r = await probe(p, auth);
      // The check of every graph's segments, and the list of every graph's queries, need a
      // privilege on the global scope, which a token for one graph does not carry.
      if (
        auth !== ROOT_BASIC &&
        (p.name.endsWith('/deleted_vertex_check') || p.name.endsWith('GET /endpoints'))
      ) {
        assert.equal(r.status, 403, `${p.name} with a graph token: ${r.text}`);
        continue;
      }
      assert.ok(r.status !== 401 && r.status !== 403, `${p.name} valid: ${r.status} ${r.text}`);
    }
  }
});

test('REST++: /echo stays public, and a token never appears in full in an answer', async () => {
  for (const base of [s.restpp, `${s.gsql}/restpp`]) {
    const r = await call(`${base}/echo`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { error: false, message: 'Hello GSQL' });
  }
  const r = await call(`${s.restpp}/endpoints`, { auth: `Bearer ${valid}x` });
  assert.ok(!r.text.includes(valid));
});

test('GSQL server and admin port: no, wrong, expired and valid credentials on every endpoint', async () => {
  for (const p of gsqlProbes) {
    assertDenied(
      await probe(p, undefined),
      `${p.name} without credentials`,
      /requires a user name and password/,
    );
    assertDenied(
      await probe(p, basic('tigergraph', 'wrong')),
      `${p.name} wrong password`,
      'Invalid username or password!',
    );
    assertDenied(
      await probe(p, basic('__GSQL__secret', 'not-a-secret')),
      `${p.name} wrong secret`,
      'Invalid username or password!',
    );
    s.forgetFailedLogins();
    assertDenied(await probe(p, `Bearer ${expired}`), `${p.name} expired token`, /has expired|is not valid/);
    const r = await probe(p, ROOT_BASIC);
    assert.ok(r.status !== 401 && r.status !== 403, `${p.name} valid: ${r.status} ${r.text}`);
  }
  // The health check needs nothing.
  const ping = await call(`${s.gsql}/api/ping`);
  assert.equal(ping.status, 200);
});

test('a secret stands in as user __GSQL__secret on the GSQL server', async () => {
  const made = await call(`${s.gsql}/gsql/v1/secrets?alias=stand_in`, { method: 'POST', auth: ROOT_BASIC });
  const secret = (made.body.results as { value: string }).value;
  const r = await call(`${s.gsql}/gsql/v1/statements`, {
    method: 'POST',
    auth: basic('__GSQL__secret', secret),
    rawBody: 'ls',
  });
  assert.equal(r.status, 200, r.text);
  assert.match(r.text, /---- Global vertices, edges, and all graphs/);
});

test('a secret made for one graph runs GSQL statements on that graph only', async () => {
  const made = await call(`${s.gsql}/gsql/v1/statements`, {
    method: 'POST',
    auth: ROOT_BASIC,
    rawBody: 'USE GRAPH social\nCREATE SECRET scoped_one',
  });
  const secret = /The secret: (\S+) has been created/.exec(made.text)?.[1];
  assert.ok(secret, made.text);
  const run = (text: string) =>
    call(`${s.gsql}/gsql/v1/statements`, {
      method: 'POST',
      auth: basic('__GSQL__secret', secret),
      rawBody: text,
    });
  assert.match((await run('USE GRAPH social\nls')).text, /---- Graph social/);
  // Nothing outside its graph: another graph, the global scope (users, the store, a password, an
  // unscoped secret that would escape the graph).
  const before = await s.svc.state();
  for (const text of [
    'USE GRAPH other\nls',
    'CREATE USER sneaky WITH PASSWORD "x"',
    'DROP ALL',
    'ALTER PASSWORD WITH PASSWORD "mine-now"',
    'CREATE SECRET escape',
    'ls',
  ]) {
    const r = await run(text);
    assert.match(r.text, /Access denied: the secret in use is valid for graph 'social' only/, text);
  }
  const after = await s.svc.state();
  assert.deepEqual(after.users, before.users);
  assert.deepEqual(after.secrets, before.secrets);
  // Over HTTP too: a secret made with it is of its graph or refused.
  const escape = await call(`${s.gsql}/gsql/v1/secrets?alias=escape2`, {
    method: 'POST',
    auth: basic('__GSQL__secret', secret),
  });
  assert.equal(escape.status, 403, escape.text);
  const scoped = await call(`${s.gsql}/gsql/v1/secrets?alias=scoped_two&graph=social`, {
    method: 'POST',
    auth: basic('__GSQL__secret', secret),
  });
  assert.equal(scoped.status, 200, scoped.text);
});

async function userToken(name: string, role: string): Promise<string> {
  const create = await call(`${s.gsql}/gsql/v1/statements`, {
    method: 'POST',
    auth: ROOT_BASIC,
    rawBody: `CREATE USER ${name} WITH PASSWORD "pw-${name}"\nGRANT ROLE ${role} ON GRAPH social TO ${name}`,
  });
  assert.match(create.text, new RegExp(`Successfully granted roles \\[${role}\\]`), create.text);
  const r = await call(`${s.restpp}/requesttoken`, {
    method: 'POST',
    auth: basic(name, `pw-${name}`),
    body: { graph: 'social' },
  });
  assert.equal(r.status, 200, r.text);
  return String(r.body.token);
}

test('built-in roles over HTTP: reads, deletes, upserts, secrets, schema changes, other graphs', async () => {
  const observer = await userToken('obs', 'observer');
  const reader = await userToken('rdr', 'queryreader');
  const writer = await userToken('wrt', 'querywriter');
  const read = (t: string) => call(`${s.restpp}/graph/social/vertices/Person`, { auth: `Bearer ${t}` });
  const del = (t: string) =>
    call(`${s.restpp}/graph/social/vertices/Person/1`, { method: 'DELETE', auth: `Bearer ${t}` });
  const upsert = (t: string) =>
    call(`${s.restpp}/graph/social`, { method: 'POST', auth: `Bearer ${t}`, rawBody: '{}' });

  const refusedRead = await read(observer);
  assert.equal(refusedRead.status, 403);
  assert.equal(refusedRead.body.code, 'REST-10016');
  assert.equal(
    refusedRead.body.message,
    "Access denied: user 'obs' does not have the privilege READ_DATA on graph 'social'.",
  );
  assert.notEqual((await read(reader)).status, 403);
  const refusedDelete = await del(reader);
  assert.equal(refusedDelete.status, 403);
  assert.match(String(refusedDelete.body.message), /DELETE_DATA on graph 'social'/);
  assert.notEqual((await del(writer)).status, 403);
  assert.match(String((await upsert(reader)).body.message), /CREATE_DATA, UPDATE_DATA/);
  assert.notEqual((await upsert(writer)).status, 403);

  // The token is for graph social only.
  const elsewhere = await call(`${s.restpp}/graph/other/vertices/Person`, { auth: `Bearer ${writer}` });
  assert.equal(elsewhere.status, 403);
  assert.match(String(elsewhere.body.message), /valid for graph 'social' only/);

  // Secrets: queryreader and up, not observer.
  const obsSecret = await call(`${s.gsql}/gsql/v1/secrets?graph=social`, {
    method: 'POST',
    auth: basic('obs', 'pw-obs'),
  });
  assert.equal(obsSecret.status, 403, obsSecret.text);
  const rdrSecret = await call(`${s.gsql}/gsql/v1/secrets?graph=social`, {
    method: 'POST',
    auth: basic('rdr', 'pw-rdr'),
  });
  assert.equal(rdrSecret.status, 200, rdrSecret.text);

  // Schema changes through GSQL: a querywriter is refused, the statement says which privilege.
  const ddl = await call(`${s.gsql}/gsql/v1/statements`, {
    method: 'POST',
    auth: basic('wrt', 'pw-wrt'),
    rawBody: 'USE GRAPH social\nCREATE VERTEX V (PRIMARY_ID id STRING)',
  });
  assert.match(ddl.text, /does not have the privilege WRITE_SCHEMA/);

  // Removing another user's expired tokens needs WRITE_USER; nothing is removed.
  const stale = await call(`${s.restpp}/requesttoken`, {
    method: 'POST',
    auth: ROOT_BASIC,
    body: { graph: 'social', lifetime: 1 },
  });
  const staleToken = String(stale.body.token);
  s.clock.now += 5;
  const foreign = await call(`${s.admin}/expiredtoken`, {
    method: 'DELETE',
    auth: basic('rdr', 'pw-rdr'),
    body: { user: ['tigergraph'] },
  });
  assert.equal(foreign.status, 403);
  assert.match(String(foreign.body.message), /WRITE_USER; no token was removed/);
  const bad = await call(`${s.admin}/expiredtoken`, {
    method: 'DELETE',
    auth: ROOT_BASIC,
    body: { user: ['ghost'] },
  });
  assert.equal(bad.status, 400);
  assert.equal(
    (await call(`${s.restpp}/endpoints`, { auth: `Bearer ${staleToken}` })).body.message,
    `Access Denied because the input token = '${staleToken.slice(0, 4)}****${staleToken.slice(-4)}' has expired`,
  );
});
