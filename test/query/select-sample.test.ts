/**
 * SELECT … SAMPLE n [%] EDGE WHEN cond: per source vertex a random sample of its matched edges
 * (counts are exact, the chosen edges random), all edges where cond is false; errors at CREATE.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseQueryText } from '../../src/gsql/parser-query.js';
import { libraryGraph } from '../fixtures/query/library.js';
import { compileErrorOf, runText } from '../fixtures/query/run.js';

const Q = `CREATE QUERY s(INT n = 1, INT minDegree = 1) FOR GRAPH library {
  SumAccum<INT> @rows;
  SetAccum<STRING> @@pairs;
  R = SELECT r FROM reader:r -((borrowed|reviewed):e)-> book:b
      SAMPLE n EDGE WHEN r.outdegree() >= minDegree
      ACCUM r.@rows += 1, @@pairs += to_string(r.age) + ">" + e.type + ">" + b.title;
  PRINT R[R.@rows AS rows];
  PRINT @@pairs;
}`;

const REAL = new Set([
  '31>borrowed>Dune',
  '31>borrowed>Emma',
  '45>borrowed>Emma',
  '27>borrowed>Ulysses',
  '31>reviewed>Dune',
  '27>reviewed>Dune',
]);

async function sample(
  args: Record<string, unknown>,
  text = Q,
): Promise<{ rows: Record<string, number>; pairs: string[] }> {
  const out = (await runText(libraryGraph(), text, args)) as [
    { R: { v_id: string; attributes: { rows: number } }[] },
    { '@@pairs': string[] },
  ];
  const rows: Record<string, number> = {};
  for (const v of out[0].R) rows[v.v_id] = v.attributes.rows;
  return { rows, pairs: out[1]['@@pairs'] };
}

test('SAMPLE n EDGE keeps n of each source vertex edges, chosen among its real edges', async () => {
  for (let i = 0; i < 5; i++) {
    const one = await sample({});
    assert.deepEqual(one.rows, { ann: 1, bob: 1, cid: 1 });
    assert.ok(
      one.pairs.every((p) => REAL.has(p)),
      one.pairs.join(),
    );
    const two = await sample({ n: 2 });
    assert.deepEqual(two.rows, { ann: 2, bob: 1, cid: 2 });
  }
});

test('where WHEN is false every edge is used', async () => {
  const all = await sample({ n: 1, minDegree: 4 });
  assert.deepEqual(all.rows, { ann: 1, bob: 1, cid: 2 });
  const none = await sample({ n: 1, minDegree: 9 });
  assert.deepEqual(none.rows, { ann: 3, bob: 1, cid: 2 });
  assert.deepEqual(new Set(none.pairs), REAL);
});

test('SAMPLE n% EDGE keeps that share of the edges, rounded, at least one', async () => {
  const pct = Q.replace('SAMPLE n EDGE', 'SAMPLE n% EDGE');
  assert.deepEqual((await sample({ n: 50 }, pct)).rows, { ann: 2, bob: 1, cid: 1 });
  assert.deepEqual((await sample({ n: 10 }, pct)).rows, { ann: 1, bob: 1, cid: 1 });
  assert.deepEqual((await sample({ n: 100 }, pct)).rows, { ann: 3, bob: 1, cid: 2 });
});

test('a SAMPLE size that is not positive stops the query', async () => {
  await assert.rejects(sample({ n: 0 }), {
    message: 'Runtime Error: the SAMPLE size must be a positive integer, not 0.',
  });
});

test('SAMPLE errors at CREATE: TARGET, a non-integer size, a non-boolean WHEN, no edge step', () => {
  const q = (sel: string): string => `CREATE QUERY c() FOR GRAPH library {\n  R = ${sel};\n  PRINT R;\n}`;
  assert.throws(
    () => parseQueryText(q('SELECT r FROM reader:r -(borrowed:e)-> book:b SAMPLE 2 TARGET WHEN r.age > 1')),
    /line 2, column 62: SAMPLE … TARGET is not supported yet/,
  );
  const g = libraryGraph();
  assert.match(
    compileErrorOf(g, q('SELECT r FROM reader:r -(borrowed:e)-> book:b SAMPLE 1.5 EDGE WHEN r.age > 1')),
    /line 2, col 60\nthe SAMPLE size must be an integer, not DOUBLE/,
  );
  assert.match(
    compileErrorOf(g, q('SELECT r FROM reader:r -(borrowed:e)-> book:b SAMPLE 1 EDGE WHEN r.age')),
    /line 2, col 72\n/,
  );
  assert.match(
    compileErrorOf(g, q('SELECT r FROM reader:r SAMPLE 1 EDGE WHEN r.age > 1')),
    /line 2, col 30\nSAMPLE needs an edge step/,
  );
  assert.equal(
    compileErrorOf(
      g,
      q('SELECT r FROM reader:r -(borrowed:e)-> book:b SAMPLE 1 EDGE WHEN r.age > 1 WHERE b.year > 1900'),
    ),
    '',
  );
});
