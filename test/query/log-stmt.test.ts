import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemGraph, makeCatalog } from '../fixtures/query/mem-graph.js';
import { compileErrorOf, runText } from '../fixtures/query/run.js';

/** A path a-b-c. */
function path(): MemGraph {
  const g = new MemGraph(
    makeCatalog({
      graph: 'paths',
      vertices: { node: { attrs: [['name', 'STRING']] } },
      edges: { link: { from: 'node', to: 'node', directed: false } },
    }),
  );
  for (const id of ['a', 'b', 'c']) g.addVertex('node', id, { name: id });
  g.addEdge('link', 'a', 'b').addEdge('link', 'b', 'c');
  return g;
}

const q = (body: string, params = ''): string =>
  `CREATE QUERY trace(${params}) FOR GRAPH paths {\n${body}\n}`;

const BODY = `SetAccum<STRING> @@seen;
  Start = {node.*};
  LOG(debug > 0, "query start", Start.size());
  S = SELECT s FROM Start:s -(link:e)- :t
      ACCUM @@seen += t.name
      POST-ACCUM log(debug > 1 AND s.name == "b", "middle", s.name);
  LOG(debug > 0, "seen", @@seen.size(), @@seen.size() / 2.0);
  PRINT @@seen.size() AS n;`;

test('LOG writes a line to the server log only when its condition holds; results do not change', async () => {
  for (const [debug, expected] of [
    [0, []],
    [1, ['[ocelot] LOG query trace: query start,3', '[ocelot] LOG query trace: seen,3,1.5']],
    [
      2,
      [
        '[ocelot] LOG query trace: query start,3',
        '[ocelot] LOG query trace: middle,b',
        '[ocelot] LOG query trace: seen,3,1.5',
      ],
    ],
  ] as const) {
    const lines: string[] = [];
    const out = await runText(path(), q(BODY, 'INT debug'), { debug }, undefined, {
      log: (l) => lines.push(l),
    });
    assert.deepEqual(out, [{ n: 3 }]);
    assert.deepEqual(lines, expected);
  }
});

test('a LOG whose condition is not a BOOL is refused at CREATE with its place', () => {
  assert.equal(
    compileErrorOf(path(), q(`Start = {node.*};\nLOG(Start.size(), "start");`)),
    'Semantic Check Error in query trace: line 3, col 5\nthe condition of LOG needs BOOL, but this is INT',
  );
  assert.equal(
    compileErrorOf(path(), q(`LOG(true "x");`)),
    'Syntax Error: line 2, column 10: expected ")" but found string "x"',
  );
});
