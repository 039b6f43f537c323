/**
 * Every route the three listeners serve, found by Fastify's onRoute (so a new endpoint is covered
 * the day it lands), with no, wrong, expired and valid credentials, REST++ authentication on.
 * Public rows (echo, ping, login, the token endpoints that check their own credentials) are only
 * checked to answer without the hook's refusal.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { endpointRule } from '../../src/auth/access-table.js';
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

before(async () => {
  s = await startAuthServers({ restppAuth: true });
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
  valid = await get(100000);
});
after(() => s.close());

function urlOf(r: ServedRoute): string {
  const base = { restpp: s.restpp, gsql: s.gsql, admin: s.admin }[r.listener];
  const path = r.url.replace(/:graph_name|:graph\b/g, 'social').replace(/:[A-Za-z_]+/g, 'x');
  return base + path;
}

const NO_TOKEN = "Access Denied because the input token = '' is empty or too short";
const NO_BASIC =
  'Authentication failed: this endpoint requires a user name and password (HTTP Basic authentication).';

test('every served route: no, wrong, expired and valid credentials', async () => {
  // DELETE /expiredtoken removes the expired token the other probes use: it goes last.
  const routes = [...s.routes].sort(
    (a, b) => Number(a.url === '/expiredtoken') - Number(b.url === '/expiredtoken'),
  );
  assert.ok(routes.length > 40, `only ${routes.length} routes found`);
  let checked = 0;
  for (const r of routes) {
    assert.ok(r.endpoint, `${r.method} ${r.url} has no config.endpoint, so no access-table row applies`);
    const key = r.endpoint.replace(/^(\S+) \/restpp/, '$1 ');
    const label = `${r.listener} ${r.method} ${r.url}`;
    const send = (auth?: string) =>
      call(urlOf(r), { method: r.method, ...(auth === undefined ? {} : { auth }) });
    if (endpointRule(key).kind === 'public') {
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
    assert.equal(none.body.code, 'REST-10016', label);
    assert.equal(none.body.message, restpp ? NO_TOKEN : NO_BASIC, label);
    const wrong = await send(basic('tigergraph', 'wrong'));
    assert.equal(wrong.status, 401, `${label} wrong password`);
    assert.equal(wrong.body.message, 'Invalid username or password!', label);
    const unknown = await send('Bearer abcdefghijklmnopqrstuvwxyz012345');
    assert.equal(unknown.status, 401, `${label} unknown token`);
    assert.equal(
      unknown.body.message,
      "Access Denied because the input token = 'abcd****2345' is not valid",
      label,
    );
    const old = await send(`Bearer ${expired}`);
    assert.equal(old.status, 401, `${label} expired token`);
    assert.match(String(old.body.message), /has expired$/, label);
    for (const auth of [ROOT_BASIC, `Bearer ${valid}`]) {
      const ok = await send(auth);
      assert.ok(
        ok.status !== 401 && ok.status !== 403,
        `${label} with ${auth.split(' ')[0]}: ${ok.status} ${ok.text}`,
      );
    }
    checked++;
  }
  assert.ok(checked > 30, `only ${checked} protected routes checked`);
});
