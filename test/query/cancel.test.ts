import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseQueryText } from '../../src/gsql/parser-query.js';
import { compileQuery } from '../../src/query/compile-query.js';
import { executeQuery } from '../../src/query/run.js';
import { minimalGraph } from '../fixtures/query/minimal.js';

function endless() {
  const g = minimalGraph();
  const [stmt] = parseQueryText(`CREATE QUERY spin() FOR GRAPH minimalNet {
    SumAccum<INT> @@n;
    WHILE true DO @@n += 1; END;
  }`);
  if (stmt.kind !== 'createQuery') throw new Error('parse');
  return { g, q: compileQuery(stmt.query, g.catalog, 'minimalNet') };
}

test('a query past its deadline stops with a timeout error while the event loop keeps running', async () => {
  const { g, q } = endless();
  let timerFired = false;
  setTimeout(() => (timerFired = true), 1);
  // The query never ends by itself: a rejection at all shows the deadline stopped it.
  await assert.rejects(executeQuery(g, q, {}, { deadline: Date.now() + 250 }), {
    code: 'GSQL-7002',
    message: 'The query exceeded its time limit and was stopped.',
  });
  assert.equal(timerFired, true);
});

test('an aborted query stops with GSQL-ABORTED', async () => {
  const { g, q } = endless();
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 20);
  await assert.rejects(executeQuery(g, q, {}, { signal: ac.signal }), {
    code: 'GSQL-6500',
    message: 'The query was aborted.',
  });
});

test('a long SELECT yields while it runs, so an abort stops it midway', async () => {
  const g = minimalGraph().addVertices('testV', 300000, 'v');
  const [stmt] = parseQueryText(`CREATE QUERY big() FOR GRAPH minimalNet {
    SumAccum<INT> @n;
    S = SELECT s FROM testV:s WHERE s.@n == 0 ACCUM s.@n += 1;
    PRINT S.size() AS n;
  }`);
  if (stmt.kind !== 'createQuery') throw new Error('parse');
  const q = compileQuery(stmt.query, g.catalog, 'minimalNet');
  // Without an abort the query completes.
  assert.deepEqual((await executeQuery(g, q, {})).results, [{ n: 300000 }]);
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 1);
  await assert.rejects(executeQuery(g, q, {}, { signal: ac.signal }), { code: 'GSQL-6500' });
});
