/**
 * Text answers of POST /gsql/v1/statements that pyTigerGraph reads line by line: `help` (its first
 * line) and `USE GRAPH g SHOW QUERY q` (the install mark on the line after "Using graph").
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { call, startHarness, type Harness } from '../restpp/graph-harness.js';

let h: Harness;
let gsql: string;

before(async () => {
  h = await startHarness();
  gsql = h.servers.urls.gsql;
});
after(async () => h.close());

const statements = (text: string) =>
  call(gsql, 'POST', '/gsql/v1/statements', text, { 'Content-Type': 'text/plain' });

test("help: the first line is TigerGraph's", async () => {
  const r = await statements('help');
  assert.equal(r.status, 200);
  assert.equal(r.text.split('\n')[0], 'GSQL Help: Summary of TigerGraph GSQL Shell commands.');
});

test('SHOW QUERY: an installed query is headed by "# installed v2", an uninstalled one is not', async () => {
  const text = 'CREATE QUERY shown() FOR GRAPH tests {\n  PRINT 1 AS one;\n}';
  assert.equal((await call(gsql, 'POST', '/gsql/v1/queries?graph=tests', text)).status, 200);
  assert.equal((await statements('USE GRAPH tests SHOW QUERY shown')).text, `Using graph 'tests'\n${text}\n`);
  const installed = await call(gsql, 'GET', '/gsql/v1/queries/install?graph=tests&queries=shown');
  assert.equal(installed.body.error, false, installed.text);
  // The install runs in the background: poll its status (a generous deadline, not a timing claim).
  const deadline = Date.now() + 60_000;
  let status = String(installed.body.message);
  while (!/SUCCESS|FAILED/.test(status) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    status = String(
      (await call(gsql, 'GET', `/gsql/v1/queries/install/${String(installed.body.requestId)}`)).body.message,
    );
  }
  assert.match(status, /SUCCESS/);
  const shown = await statements('USE GRAPH tests SHOW QUERY shown');
  assert.equal(shown.text, `Using graph 'tests'\n# installed v2\n${text}\n`);
});
