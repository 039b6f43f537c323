import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemGraph, makeCatalog } from '../fixtures/query/mem-graph.js';
import { compileErrorOf, runText } from '../fixtures/query/run.js';

/** Two components: a-b-c (a path) and d-e. */
function twoParts(): MemGraph {
  const g = new MemGraph(
    makeCatalog({
      graph: 'parts',
      vertices: { node: { attrs: [['name', 'STRING']] } },
      edges: { link: { from: 'node', to: 'node', directed: false } },
    }),
  );
  for (const id of ['a', 'b', 'c', 'd', 'e']) g.addVertex('node', id, { name: id });
  g.addEdge('link', 'a', 'b').addEdge('link', 'b', 'c').addEdge('link', 'd', 'e');
  return g;
}

const q = (body: string, params = ''): string => `CREATE QUERY t(${params}) FOR GRAPH parts {\n${body}\n}`;

test("HAVING @x != @x' keeps the vertices a SELECT changed (WCC by label propagation)", async () => {
  const out = await runText(
    twoParts(),
    q(
      `MinAccum<STRING> @cc;
       SumAccum<INT> @@rounds;
       Start = {node.*};
       S = SELECT s FROM Start:s POST-ACCUM s.@cc = s.name;
       WHILE S.size() > 0 LIMIT maxIter DO
         @@rounds += 1;
         S = SELECT t FROM S:s -(link:e)- node:t
             ACCUM t.@cc += s.@cc
             HAVING t.@cc != t.@cc';
       END;
       R = SELECT s FROM Start:s ORDER BY s.name;
       PRINT @@rounds, R[R.@cc];`,
      'INT maxIter',
    ),
    { maxIter: 10 },
  );
  const cc = (id: string, c: string): object => ({ v_id: id, v_type: 'node', attributes: { 'R.@cc': c } });
  assert.deepEqual(out, [
    { '@@rounds': 3, R: [cc('a', 'a'), cc('b', 'a'), cc('c', 'a'), cc('d', 'd'), cc('e', 'd')] },
  ]);
});

test("WHILE … LIMIT from a parameter stops early; @x' unchanged by a SELECT reads the current value", async () => {
  const out = await runText(
    twoParts(),
    q(
      `MinAccum<STRING> @cc;
       SumAccum<INT> @@rounds;
       Start = {node.*};
       S = SELECT s FROM Start:s POST-ACCUM s.@cc = s.name;
       WHILE S.size() > 0 LIMIT maxIter DO
         @@rounds += 1;
         S = SELECT t FROM S:s -(link:e)- node:t ACCUM t.@cc += s.@cc HAVING t.@cc != t.@cc';
       END;
       R = SELECT s FROM Start:s WHERE s.@cc == s.@cc' ORDER BY s.name;
       PRINT @@rounds, R[R.@cc];`,
      'INT maxIter',
    ),
    { maxIter: 1 },
  );
  const cc = (id: string, c: string): object => ({ v_id: id, v_type: 'node', attributes: { 'R.@cc': c } });
  assert.deepEqual(out, [
    { '@@rounds': 1, R: [cc('a', 'a'), cc('b', 'a'), cc('c', 'b'), cc('d', 'd'), cc('e', 'd')] },
  ]);
});

test("POST-ACCUM reads @x' after setting @x (the value from before the SELECT)", async () => {
  const out = await runText(
    twoParts(),
    q(`SumAccum<DOUBLE> @score = 1;
       SumAccum<DOUBLE> @@diff;
       ListAccum<DOUBLE> @@diffs;
       Start = {node.*};
       FOREACH i IN RANGE[1, 2] DO
         @@diff = 0;
         S = SELECT s FROM Start:s
             POST-ACCUM s.@score = s.@score * 2 + i, @@diff += s.@score - s.@score';
         @@diffs += @@diff;
       END;
       PRINT @@diffs;`),
  );
  // Round 1: every score 1 -> 3 (diff 2 each, 5 vertices); round 2: 3 -> 8 (diff 5 each).
  assert.deepEqual(out, [{ '@@diffs': [10, 25] }]);
});

test("@@x' and updating @x' are refused at CREATE time", () => {
  assert.equal(
    compileErrorOf(twoParts(), q(`SumAccum<INT> @@n;\n  PRINT @@n';`)),
    "Semantic Check Error in query t: line 3, col 9\nthe previous value @@n' is not supported yet",
  );
  assert.match(
    compileErrorOf(twoParts(), q(`SumAccum<INT> @n;\n  S = SELECT s FROM node:s ACCUM s.@n' += 1;`)),
    /left side of an assignment/,
  );
});
