/** openCypher queries over HTTP: created, installed and run like any query, or interpreted. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startServers, type RunningServers } from '../../../src/server/start.js';
import { financeDb, type FinanceDb } from '../../fixtures/query/finance.js';
import { call } from './graph-harness.js';

let f: FinanceDb;
let servers: RunningServers;
before(async () => {
  f = await financeDb();
  servers = await startServers({ database: f.db, restppPort: 0, gsqlPort: 0, adminPort: 0, log: () => {} });
});
after(async () => {
  await servers.close();
  await f.close();
});

const CYPHER = `CREATE OPENCYPHER QUERY sent(STRING who) FOR GRAPH finance {
  MATCH (a:Account {name: $who})-[e:transfer]->(b:Account)
  RETURN b.name AS to, sum(e.amount) AS total ORDER BY to
}`;

test('an openCypher query created and installed over the GSQL server runs on REST++ with query-string parameters', async () => {
  const gsql = servers.urls.gsql;
  const created = await call(gsql, 'POST', '/gsql/v1/queries?graph=finance', CYPHER);
  assert.equal(created.status, 200, created.text);
  assert.equal(created.body.message, 'Successfully created queries: [sent].');
  const shown = await call(gsql, 'GET', '/gsql/v1/queries/sent?graph=finance');
  assert.equal(shown.body.queryContent, CYPHER);
  assert.equal(shown.body.installed, false);
  const { code, out } = await f.shell('USE GRAPH finance\nINSTALL QUERY sent');
  assert.equal(code, 0, out);
  const expected = [
    {
      T: [
        { to: 'Cleo', total: 1200 },
        { to: 'Dan', total: 510 },
      ],
    },
  ];
  for (const base of [servers.urls.restpp, `${gsql}/restpp`]) {
    const run = await call(base, 'GET', '/query/finance/sent?who=Ben');
    assert.equal(run.status, 200, run.text);
    assert.equal(run.body.error, false);
    assert.deepEqual(run.body.results, expected);
  }
  const posted = await call(servers.urls.restpp, 'POST', '/query/finance/sent', { who: 'Ava' });
  assert.deepEqual(posted.body.results, [{ T: [{ to: 'Ben', total: 1000 }] }]);
});

test('INTERPRET OPENCYPHER QUERY through the interpreted-query endpoints', async () => {
  const text = `INTERPRET OPENCYPHER QUERY () FOR GRAPH finance {
  MATCH (a:Account) WHERE a.isBlocked RETURN a.name AS name
}`;
  for (const url of ['/gsqlserver/interpreted_query', '/gsql/v1/queries/interpret']) {
    const r = await call(servers.urls.gsql, 'POST', url, text);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.results, [{ T: [{ name: 'Cleo' }] }]);
  }
  const bad = await call(
    servers.urls.gsql,
    'POST',
    '/gsqlserver/interpreted_query',
    'INTERPRET OPENCYPHER QUERY () FOR GRAPH finance { MATCH (a:Account) RETURN nosuch }',
  );
  assert.equal(bad.body.error, true);
  assert.match(bad.body.message as string, /nosuch/);
});
