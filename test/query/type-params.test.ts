import assert from 'node:assert/strict';
import { test } from 'node:test';
import { socialNet } from '../fixtures/query/social-net.js';
import { runText } from '../fixtures/query/run.js';

const q = (params: string, body: string): string =>
  `CREATE QUERY t(${params}) FOR GRAPH socialNet {\n${body}\n}`;

test('seeds from a SET<STRING> and a STRING of vertex type names', async () => {
  const out = await runText(
    socialNet(),
    q(
      'SET<STRING> v_type_set, STRING v_type',
      `A = {v_type_set};
       B = {v_type};
       PRINT A.size() AS a, B.size() AS b;`,
    ),
    { v_type_set: ['person', 'post'], v_type: 'post' },
  );
  assert.deepEqual(out, [{ a: 8, b: 4 }]);
});

test('SELECT steps over edge and target types named by parameters; outdegree of a type set', async () => {
  const out = await runText(
    socialNet(),
    q(
      'SET<STRING> src_types, STRING tgt_type, SET<STRING> e_type_set, STRING e_type',
      `SumAccum<INT> @hits, @deg, @one;
       Start = {src_types};
       S = SELECT s FROM Start:s -(e_type_set:e)- tgt_type:t
           ACCUM t.@hits += 1
           POST-ACCUM s.@deg = s.outdegree(e_type_set), s.@one = s.outdegree(e_type);
       Posts = {tgt_type};
       P = SELECT t FROM Posts:t ORDER BY t.@hits DESC, t.subject;
       R = SELECT s FROM S:s ORDER BY s.@deg DESC, s.@one DESC, s.gender;
       PRINT P[P.@hits], R[R.@deg, R.@one];`,
    ),
    { src_types: ['person'], tgt_type: 'post', e_type_set: ['posted', 'liked'], e_type: 'liked' },
  );
  // posted: p1->0, p1->1, p2->2, p3->3; liked: p2->0, p3->0, p4->1, p1->2, p4->3.
  const post = (id: string, hits: number): object => ({
    v_id: id,
    v_type: 'post',
    attributes: { 'P.@hits': hits },
  });
  const person = (id: string, deg: number, one: number): object => ({
    v_id: id,
    v_type: 'person',
    attributes: { 'R.@deg': deg, 'R.@one': one },
  });
  assert.deepEqual(out, [
    {
      P: [post('0', 3), post('3', 2), post('2', 2), post('1', 2)],
      R: [person('person1', 3, 1), person('person4', 2, 2), person('person2', 2, 1), person('person3', 2, 1)],
    },
  ]);
});

test('an unknown type name in a parameter stops the query with a runtime error', async () => {
  const body = `SumAccum<INT> @@n;
    Start = {person.*};
    S = SELECT t FROM Start:s -(e_types:e)- person:t ACCUM @@n += 1;
    PRINT @@n;`;
  await assert.rejects(
    runText(socialNet(), q('SET<STRING> e_types', body), { e_types: ['friend', 'enemy'] }),
    {
      message: 'Runtime Error: "enemy" is not an edge type of graph socialNet.',
      code: 'GSQL-8001',
    },
  );
  await assert.rejects(runText(socialNet(), q('STRING v', 'S = {v};\nPRINT S;'), { v: 'Person' }), {
    message: 'Runtime Error: "Person" is not a vertex type of graph socialNet.',
  });
  const ok = await runText(socialNet(), q('SET<STRING> e_types', body), { e_types: ['friend'] });
  assert.deepEqual(ok, [{ '@@n': 8 }]);
});
