import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemGraph, makeCatalog } from '../fixtures/query/mem-graph.js';
import { compileErrorOf, runText } from '../fixtures/query/run.js';

/** A weighted star around hub h plus a lone vertex z: h-a (2.5), h-b (4), h-c (4). */
function star(): MemGraph {
  const g = new MemGraph(
    makeCatalog({
      graph: 'stars',
      vertices: { node: { attrs: [['name', 'STRING']] } },
      edges: { road: { from: 'node', to: 'node', directed: false, attrs: [['w', 'FLOAT']] } },
    }),
  );
  for (const id of ['h', 'a', 'b', 'c', 'z']) g.addVertex('node', id, { name: id });
  g.addEdge('road', 'h', 'a', { w: 2.5 })
    .addEdge('road', 'h', 'b', { w: 4 })
    .addEdge('road', 'h', 'c', { w: 4 });
  return g;
}

const q = (body: string, params = ''): string => `CREATE QUERY t(${params}) FOR GRAPH stars {\n${body}\n}`;

test('MaxAccum<tuple> keeps the greatest tuple comparing field by field; MinAccum the least', async () => {
  const out = await runText(
    star(),
    q(
      `TYPEDEF TUPLE <FLOAT weight, STRING name> pick;
       MaxAccum<pick> @best;
       MinAccum<pick> @worst;
       MaxAccum<pick> @@top;
       Start = {node.*};
       S = SELECT s FROM Start:s -(road:e)- :t
           ACCUM s.@best += pick(e.w, t.name), s.@worst += pick(e.w, t.name), @@top += pick(e.w, t.name);
       R = SELECT s FROM Start:s WHERE s.name == "h";
       PRINT @@top, @@top.name AS top_name;
       PRINT R[R.@best, R.@worst, R.@best.weight AS w];`,
    ),
  );
  assert.deepEqual(out, [
    { '@@top': { weight: 4, name: 'h' }, top_name: 'h' },
    {
      R: [
        {
          v_id: 'h',
          v_type: 'node',
          attributes: { 'R.@best': { weight: 4, name: 'c' }, 'R.@worst': { weight: 2.5, name: 'a' }, w: 4 },
        },
      ],
    },
  ]);
});

test('an untouched MaxAccum<tuple> reads each field as its zero; MapAccum values can be MaxAccum<tuple>', async () => {
  const out = await runText(
    star(),
    q(
      `TYPEDEF TUPLE <FLOAT weight, VERTEX cc> move;
       MaxAccum<move> @best;
       MapAccum<STRING, MaxAccum<move>> @@by_hub;
       Start = {node.*};
       S = SELECT s FROM Start:s -(road:e)- :t
           WHERE t.name == "h"
           ACCUM s.@best += move(-e.w, t), @@by_hub += ("h" -> move(e.w, s));
       R = SELECT s FROM Start:s WHERE s.name IN ("a", "z") ORDER BY s.name;
       PRINT R[R.@best.weight AS w, R.@best.weight > 0 AS positive], @@by_hub.get("h").weight AS hub_w;`,
    ),
  );
  const row = (id: string, w: number): object => ({
    v_id: id,
    v_type: 'node',
    attributes: { w, positive: false },
  });
  assert.deepEqual(out, [{ R: [row('a', -2.5), row('z', 0)], hub_w: 4 }]);
});

test('misused tuple Min/MaxAccums are refused at CREATE with their place', () => {
  const g = star();
  assert.equal(
    compileErrorOf(g, q(`TYPEDEF TUPLE <FLOAT weight, STRING name> pick;\nSumAccum<pick> @@s;\nPRINT @@s;`)),
    'Semantic Check Error in query t: line 3, col 10\nSumAccum<pick> is not a valid accumulator type',
  );
  assert.equal(
    compileErrorOf(
      g,
      q(`TYPEDEF TUPLE <FLOAT weight, STRING name> pick;\nMaxAccum<pick> @@m;\n@@m += 3;\nPRINT @@m;`),
    ),
    'Semantic Check Error in query t: line 4, col 8\n"+=" on MaxAccum<pick> needs pick, not INT',
  );
});
