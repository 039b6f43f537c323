/**
 * Every route every listener serves, found in Fastify's own route list (so a new endpoint is
 * covered the day it lands): each has a row in the route table, and each is tried by every
 * built-in role, a user with no role, and callers with no, wrong, expired or unknown credentials,
 * REST++ authentication on. A refusal is the hook's 401/403; anything the rule allows gets past
 * the hook (whatever the handler then answers to a request without parameters).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { AccessRule } from '../../src/auth/access-table.js';
import { GLOBAL_ONLY_PRIVILEGES } from '../../src/auth/privileges.js';
import { BUILTIN_ROLES } from '../../src/auth/roles.js';
import { ROUTE_RULES, routeRule, type GraphSource, type RouteRule } from '../../src/auth/route-rules.js';
import type { ClusterNode } from '../../src/cluster/index.js';
import { registerClusterRoutes } from '../../src/server/cluster/index.js';
import { createListenerApp, servedRoutes } from '../../src/server/http/app.js';
import {
  basic,
  call,
  ROOT_BASIC,
  startAuthServers,
  type AuthServers,
  type ServedRoute,
} from '../auth/server-harness.js';

let s: AuthServers;
let valid = '';
let expired = '';

/** user -> [role, granted on graph social (else globally)] */
const USERS: Record<string, [string, boolean] | undefined> = {
  su: ['superuser', false],
  gd: ['globaldesigner', false],
  ad: ['admin', true],
  de: ['designer', true],
  qw: ['querywriter', true],
  qr: ['queryreader', true],
  ob: ['observer', true],
  none: undefined,
};
const PASSWORD = 'pw-every-route';

before(async () => {
  // One graph, so the REST++ paths without a graph name mean it.
  s = await startAuthServers({ restppAuth: true, graphs: ['social'] });
  const script = Object.entries(USERS).flatMap(([user, grant]) => [
    `CREATE USER ${user} WITH PASSWORD "${PASSWORD}"`,
    ...(grant ? [`GRANT ROLE ${grant[0]}${grant[1] ? ' ON GRAPH social' : ''} TO ${user}`] : []),
  ]);
  const made = await call(`${s.gsql}/gsql/v1/statements`, {
    method: 'POST',
    auth: ROOT_BASIC,
    rawBody: script.join('\n'),
  });
  assert.doesNotMatch(made.text, /rror|denied/i, made.text);
  const get = async (lifetime: number) =>
    String(
      (
        await call(`${s.restpp}/requesttoken`, {
          method: 'POST',
          auth: ROOT_BASIC,
          body: { graph: 'social', lifetime },
        })
      ).body.token,
    );
  // A query keeps DELETE /gsql/v1/schema/graphs/social (no cascade) from dropping the graph.
  const kept = await call(`${s.gsql}/gsql/v1/queries?graph=social`, {
    method: 'POST',
    auth: ROOT_BASIC,
    rawBody: 'CREATE QUERY keep_graph() FOR GRAPH social { PRINT 1; }',
  });
  assert.equal(kept.status, 200, kept.text);
  expired = await get(5);
  s.clock.now += 10;
  valid = await get(100_000_000);
});
after(() => s.close());

function urlOf(r: ServedRoute): string {
  const base = { restpp: s.restpp, gsql: s.gsql, admin: s.admin, graphql: s.graphql }[r.listener];
  const path = r.url
    .replace(/:graph_name|:graph\b/g, 'social')
    .replace(/:vertex_type|:source_vertex_type|:target_vertex_type/g, 'Person')
    .replace(/:[A-Za-z_]+/g, 'x');
  // Routes that take their graph from the query string find it there.
  return `${base}${path}?graph=social&graph_name=social`;
}

function ruleOf(r: ServedRoute): RouteRule {
  const found = routeRule(r.listener, r.method, r.url).rule;
  assert.ok(found, `${r.listener} ${r.method} ${r.url} has no rule`);
  return found;
}

/** The graph the test expects a row to be checked on, worked out from the request it sends. */
function expectedGraph(source: GraphSource): string | undefined {
  if (source === 'global') return undefined;
  if (typeof source === 'string') return 'social';
  if ('query' in source) return 'social';
  return undefined;
}

/** Whether the built-in role (granted globally or on social) satisfies `access` on `graph`. */
function roleAllows(
  grant: [string, boolean] | undefined,
  access: AccessRule,
  graph: string | undefined,
): boolean {
  if (access.kind === 'public' || access.kind === 'authenticated') return true;
  const held = new Set(
    (grant === undefined ? [] : (BUILTIN_ROLES.get(grant[0]) ?? [])).filter((p) => {
      if (grant === undefined) return false;
      const [, onGraph] = grant;
      // A graph grant gives nothing on the global scope, and never a global-only privilege.
      if (onGraph) return graph === 'social' && !GLOBAL_ONLY_PRIVILEGES.has(p);
      return true;
    }),
  );
  return access.kind === 'all'
    ? access.privileges.every((p) => held.has(p))
    : access.privileges.some((p) => held.has(p));
}

const NO_TOKEN = "Access Denied because the input token = '' is empty or too short";
const NO_BASIC =
  'Authentication failed: this endpoint requires a user name and password (HTTP Basic authentication).';

/** The routes a cluster node adds to the GSQL listener (`--cluster`; no NATS is needed to list them). */
async function clusterRoutes(): Promise<ServedRoute[]> {
  const app = createListenerApp();
  registerClusterRoutes(app, {} as ClusterNode);
  await app.ready();
  const routes = servedRoutes(app).map((r) => ({ listener: 'gsql' as const, ...r }));
  await app.close();
  return routes;
}

test('every served route of every listener has a rule in the route table, and every rule a route', async () => {
  const routes = [...s.routes, ...(await clusterRoutes())];
  assert.deepEqual([...new Set(routes.map((r) => r.listener))].sort(), [
    'admin',
    'graphql',
    'gsql',
    'restpp',
  ]);
  assert.ok(
    routes.some((r) => r.url.startsWith('/restpp/')),
    'the /restpp mirror is enumerated',
  );
  const missing = routes
    .map((r) => ({ r, found: routeRule(r.listener, r.method, r.url) }))
    .filter(({ found }) => !found.rule)
    .map(
      ({ r, found }) =>
        `the ${r.listener} route ${r.method} ${r.url} has no access rule: add '${found.key}' to ROUTE_RULES.${found.table} in src/auth/route-rules.ts`,
    );
  assert.deepEqual(missing, []);
  const served = new Set(
    routes.map(
      (r) => `${routeRule(r.listener, r.method, r.url).table} ${routeRule(r.listener, r.method, r.url).key}`,
    ),
  );
  const stale = Object.entries(ROUTE_RULES).flatMap(([table, rows]) =>
    Object.keys(rows)
      .filter((key) => !served.has(`${table} ${key}`))
      .map((key) => `ROUTE_RULES.${table} has a row for '${key}', which no listener serves`),
  );
  assert.deepEqual(stale, []);
});

test('route table policy: every REST++ delete needs DELETE_DATA, every write path its write privilege', () => {
  for (const [key, row] of Object.entries(ROUTE_RULES.restpp)) {
    const privileges = row.access.kind === 'all' || row.access.kind === 'any' ? row.access.privileges : [];
    if (key.startsWith('DELETE /graph')) assert.ok(privileges.includes('DELETE_DATA'), key);
    if (key === 'POST /graph' || key === 'POST /graph/{graph_name}')
      assert.deepEqual(privileges, ['CREATE_DATA', 'UPDATE_DATA'], key);
    if (key.startsWith('GET /graph')) assert.deepEqual(privileges, ['READ_DATA'], key);
  }
});

test('role x route matrix: every built-in role and a user with no role, on every route', async () => {
  const routes = [...s.routes].sort(
    (a, b) => Number(a.url === '/expiredtoken') - Number(b.url === '/expiredtoken'),
  );
  let refused = 0;
  let allowed = 0;
  for (const r of routes) {
    const row = ruleOf(r);
    if (row.access.kind === 'public') continue;
    const deferred = typeof row.graph === 'object' && 'deferred' in row.graph;
    for (const [user, grant] of Object.entries(USERS)) {
      const label = `${user} (${grant?.join(' on graph ') ?? 'no role'}) ${r.listener} ${r.method} ${r.url}`;
      const res = await call(urlOf(r), { method: r.method, auth: basic(user, PASSWORD) });
      assert.notEqual(res.status, 401, `${label}: ${res.text}`);
      if (deferred) continue;
      const expected = roleAllows(grant, row.access, expectedGraph(row.graph));
      if (expected) {
        allowed++;
        assert.notEqual(res.status, 403, `${label} should pass: ${res.text}`);
      } else {
        refused++;
        assert.equal(res.status, 403, `${label} should be refused: ${res.status} ${res.text}`);
        assert.match(res.text, /Access denied/, label);
      }
    }
  }
  assert.ok(refused > 200 && allowed > 200, `refused ${refused}, allowed ${allowed}`);
});

test('every protected route: no, wrong, unknown or expired credentials are 401; a valid token passes', async () => {
  const routes = [...s.routes].sort(
    (a, b) => Number(a.url === '/expiredtoken') - Number(b.url === '/expiredtoken'),
  );
  let checked = 0;
  for (const r of routes) {
    const row = ruleOf(r);
    const label = `${r.listener} ${r.method} ${r.url}`;
    const send = (auth?: string) =>
      call(urlOf(r), { method: r.method, ...(auth === undefined ? {} : { auth }) });
    if (row.access.kind === 'public') {
      const open = await send();
      assert.ok(
        open.body.message !== NO_TOKEN && open.body.message !== NO_BASIC,
        `${label} is public: ${open.text}`,
      );
      continue;
    }
    const restpp = r.listener === 'restpp' || r.url.startsWith('/restpp');
    const none = await send();
    assert.equal(none.status, 401, `${label} without credentials: ${none.text}`);
    if (r.listener !== 'graphql') {
      assert.equal(none.body.code, 'REST-10016', label);
      assert.equal(none.body.message, restpp ? NO_TOKEN : NO_BASIC, label);
    }
    const wrong = await send(basic('tigergraph', 'wrong'));
    // Past the throttle's free failures: the clock moves on so the next probe starts over.
    s.clock.now += 1000;
    assert.equal(wrong.status, 401, `${label} wrong password: ${wrong.text}`);
    assert.match(wrong.text, /Invalid username or password!/, label);
    const unknown = await send('Bearer abcdefghijklmnopqrstuvwxyz012345');
    assert.equal(unknown.status, 401, `${label} unknown token`);
    assert.match(unknown.text, /the input token = 'abcd\*\*\*\*2345' is not valid/, label);
    const old = await send(`Bearer ${expired}`);
    assert.equal(old.status, 401, `${label} expired token`);
    // Expired, then (once the clock has moved far past it) forgotten.
    assert.match(old.text, /has expired|is not valid/, label);
    const root = await send(ROOT_BASIC);
    assert.ok(
      root.status !== 401 && root.status !== 403,
      `${label} as tigergraph: ${root.status} ${root.text}`,
    );
    // The token is valid for graph social: rows that need a privilege on the global scope refuse it.
    const token = await send(`Bearer ${valid}`);
    const global =
      (row.access.kind === 'all' || row.access.kind === 'any') &&
      !(typeof row.graph === 'object' && 'deferred' in row.graph) &&
      expectedGraph(row.graph) === undefined;
    if (global) {
      assert.equal(token.status, 403, `${label} with a social token: ${token.text}`);
      assert.match(token.text, /valid for graph 'social' only, not for the global scope/, label);
    } else {
      assert.ok(
        token.status !== 401 && token.status !== 403,
        `${label} with a token: ${token.status} ${token.text}`,
      );
    }
    checked++;
  }
  assert.ok(checked > 100, `only ${checked} protected routes checked`);
});
