import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, startHarness } from '../server/restpp/graph-harness.js';

test("INSTALL QUERY's hint names the REST++ address the server listens on", async () => {
  const h = await startHarness();
  try {
    const port = new URL(h.rest).port;
    assert.notEqual(port, '9000');
    const r = await call(
      h.servers.urls.gsql,
      'POST',
      '/gsql/v1/statements',
      'USE GRAPH tests\nCREATE QUERY hint(INT k) FOR GRAPH tests { PRINT k; }\nINSTALL QUERY hint',
    );
    assert.match(
      r.text,
      new RegExp(`hint query: curl -X GET 'http://127\\.0\\.0\\.1:${port}/query/tests/hint\\?k=VALUE'`),
    );
  } finally {
    await h.close();
  }
});
