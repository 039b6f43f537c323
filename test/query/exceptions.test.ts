import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemGraph, makeCatalog } from '../fixtures/query/mem-graph.js';
import { compileErrorOf, runText } from '../fixtures/query/run.js';
import { RaisedException } from '../../src/query/exceptions.js';

/** A directed triangle a->b->c->a with signed weights. */
function triangle(): MemGraph {
  const g = new MemGraph(
    makeCatalog({
      graph: 'loops',
      vertices: { node: { attrs: [['name', 'STRING']] } },
      edges: { hop: { from: 'node', to: 'node', directed: true, attrs: [['w', 'INT']] } },
    }),
  );
  for (const id of ['a', 'b', 'c']) g.addVertex('node', id, { name: id });
  g.addEdge('hop', 'a', 'b', { w: 2 }).addEdge('hop', 'b', 'c', { w: -5 }).addEdge('hop', 'c', 'a', { w: 1 });
  return g;
}

const q = (body: string, params = ''): string =>
  `CREATE QUERY cycle(${params}) FOR GRAPH loops {\n${body}\n}`;

/** Sums the loop's weights and raises when the loop is negative, as a shortest-path query would. */
const LOOP = `SumAccum<INT> @@total;
  STRING msg = "There is a loop with negative length.";
  EXCEPTION neg_loop (40999);
  EXCEPTION too_long (41000);
  Start = {node.*};
  S = SELECT s FROM Start:s -(hop:e)- :t ACCUM @@total += e.w;
  PRINT @@total;
  IF @@total > limit THEN
    RAISE too_long;
  END;
  IF @@total < 0 THEN
    RAISE neg_loop (msg);
  END;
  PRINT "unreachable" AS never;`;

test('RAISE ends the query with the exception code and message; PRINT before it is not returned', async () => {
  await assert.rejects(
    runText(triangle(), q(LOOP, 'INT limit = 10'), {}),
    (e: unknown) =>
      e instanceof RaisedException &&
      e.code === '40999' &&
      e.message === 'There is a loop with negative length.',
  );
  await assert.rejects(
    runText(triangle(), q(LOOP, 'INT limit = 10'), { limit: -3 }),
    (e: unknown) =>
      e instanceof RaisedException && e.code === '41000' && e.message === 'exception too_long was raised',
  );
});

test('TRY … EXCEPTION WHEN runs the matching handler, ELSE the others, and the query goes on', async () => {
  const body = (raise: string): string => `EXCEPTION neg_loop (40999);
    EXCEPTION too_long (41000);
    ListAccum<STRING> @@trace;
    TRY
      @@trace += "try";
      ${raise}
      @@trace += "after raise";
    EXCEPTION
      WHEN neg_loop THEN @@trace += "negative";
      ELSE @@trace += "other";
    END;
    @@trace += "done";
    PRINT @@trace;`;
  const run = async (raise: string): Promise<unknown[]> => runText(triangle(), q(body(raise)));
  assert.deepEqual(await run('RAISE neg_loop ("x");'), [{ '@@trace': ['try', 'negative', 'done'] }]);
  assert.deepEqual(await run('RAISE too_long;'), [{ '@@trace': ['try', 'other', 'done'] }]);
  assert.deepEqual(await run(''), [{ '@@trace': ['try', 'after raise', 'done'] }]);
});

test('a RAISE no WHEN matches and no ELSE catches leaves the TRY', async () => {
  await assert.rejects(
    runText(
      triangle(),
      q(`EXCEPTION neg_loop (40999);
         EXCEPTION too_long (41000);
         TRY RAISE too_long ("long"); EXCEPTION WHEN neg_loop THEN PRINT 1; END;
         PRINT 2;`),
    ),
    (e: unknown) => e instanceof RaisedException && e.code === '41000' && e.message === 'long',
  );
});

test('misused exceptions are refused at CREATE with their place', () => {
  const g = triangle();
  const err = (body: string): string => compileErrorOf(g, q(body));
  assert.equal(
    err('RAISE nope;'),
    'Semantic Check Error in query cycle: line 2, col 1\n"nope" is not a declared EXCEPTION',
  );
  assert.equal(
    err('EXCEPTION low (400);\nPRINT 1;'),
    'Semantic Check Error in query cycle: line 2, col 1\nthe code of exception "low" must be greater than 40000, not 400',
  );
  assert.equal(
    err('EXCEPTION e (40001);\nEXCEPTION e (40002);'),
    'Semantic Check Error in query cycle: line 3, col 1\nthe exception "e" is already declared',
  );
  assert.equal(
    err('EXCEPTION e (40001);\nTRY PRINT 1; EXCEPTION WHEN f THEN PRINT 2; END;'),
    'Semantic Check Error in query cycle: line 3, col 29\n"f" is not a declared EXCEPTION',
  );
  assert.equal(
    err('EXCEPTION e (40001);\nStart = {node.*};\nS = SELECT s FROM Start:s POST-ACCUM RAISE e;'),
    'Semantic Check Error in query cycle: line 4, col 38\nRAISE is not allowed in POST-ACCUM',
  );
  assert.equal(
    err('EXCEPTION e (x);'),
    'Syntax Error: line 2, column 14: the code of an EXCEPTION must be an integer, not "x"',
  );
});

test('a SELECT stopped by a run-time error leaves its collection marks cleared for the next run', async () => {
  // The first run stops at the third edge (c->a, w = 1) after collecting b and c; a later run
  // borrows the same mark arrays and must still reach all three vertices.
  const g = triangle();
  await assert.rejects(
    runText(
      g,
      q(`Start = {node.*};
         S = SELECT t FROM Start:s -(hop:e)- node:t WHERE 10 / (e.w - 1) > -100;
         PRINT S.size();`),
    ),
    (e: Error & { code?: string }) => e.code === 'GSQL-2500',
  );
  const out = await runText(
    g,
    q(`Start = {node.*};\nS = SELECT t FROM Start:s -(hop)- node:t;\nPRINT S.size() AS reached;`),
  );
  assert.deepEqual(out, [{ reached: 3 }]);
});
