import assert from 'node:assert/strict';
import { test } from 'node:test';
import { socialNet } from '../fixtures/query/social-net.js';
import { compileErrorOf, runText } from '../fixtures/query/run.js';

const q = (params: string, body: string): string =>
  `CREATE QUERY t(${params}) FOR GRAPH socialNet {\n${body}\n}`;

const person = (id: string, attributes: object): object => ({ v_id: id, v_type: 'person', attributes });

test('getAttr reads edge and vertex attributes named by parameters; setAttr writes at query end', async () => {
  const g = socialNet();
  const out = await runText(
    g,
    q(
      'STRING weight, STRING out_attr',
      `SumAccum<INT> @since;
       SumAccum<DOUBLE> @w;
       Start = {person.*};
       S = SELECT s FROM Start:s -(friend:e)- person:t
           ACCUM s.@since += e.getAttr(weight, "INT"), s.@w += e.getAttr(weight, "DOUBLE") / 2
           POST-ACCUM s.setAttr(out_attr, s.getAttr(out_attr, "STRING") + "-" + to_string(s.@since))
           ORDER BY s.@since DESC;
       PRINT S[S.@since, S.@w];`,
    ),
    { weight: 'since', out_attr: 'gender' },
  );
  // Friendships (since): p1-p2 2010, p2-p3 2012, p3-p4 2014, p1-p3 2016.
  assert.deepEqual(out, [
    {
      S: [
        person('person3', { 'S.@since': 6042, 'S.@w': 3021 }),
        person('person1', { 'S.@since': 4026, 'S.@w': 2013 }),
        person('person2', { 'S.@since': 4022, 'S.@w': 2011 }),
        person('person4', { 'S.@since': 2014, 'S.@w': 1007 }),
      ],
    },
  ]);
  const after = await runText(
    g,
    q('', 'S = {person.*};\nR = SELECT s FROM S:s ORDER BY s.gender;\nPRINT R;'),
  );
  assert.deepEqual(after, [
    {
      R: [
        person('person4', { gender: 'Female-2014' }),
        person('person2', { gender: 'Female-4022' }),
        person('person1', { gender: 'Male-4026' }),
        person('person3', { gender: 'Male-6042' }),
      ],
    },
  ]);
});

test('getAttr/setAttr errors: unknown attribute or wrong type at run time, bad use at CREATE time', async () => {
  const read = `SumAccum<INT> @@n;
    Start = {person.*};
    S = SELECT s FROM Start:s -(friend:e)- person:t ACCUM @@n += e.getAttr(a, "INT");
    PRINT @@n;`;
  await assert.rejects(runText(socialNet(), q('STRING a', read), { a: 'weight' }), {
    message: 'Runtime Error: "weight" is not an attribute of edge type friend.',
    code: 'GSQL-8001',
  });
  const wrong = `Start = {person.*};
    S = SELECT s FROM Start:s POST-ACCUM s.setAttr("gender", s.getAttr(a, "INT"));`;
  await assert.rejects(runText(socialNet(), q('STRING a', wrong), { a: 'gender' }), {
    message: 'Runtime Error: attribute gender of vertex type person is STRING, not INT.',
  });
  assert.equal(
    compileErrorOf(
      socialNet(),
      q('STRING a, STRING ty', 'S = {person.*};\nS = SELECT s FROM S:s WHERE s.getAttr(a, ty) == 1;'),
    ),
    'Semantic Check Error in query t: line 3, col 42\ngetAttr() needs the attribute type as a string literal: INT, UINT, FLOAT, DOUBLE, STRING, BOOL, DATETIME',
  );
  assert.equal(
    compileErrorOf(
      socialNet(),
      q('STRING a', 'S = {person.*};\nS = SELECT s FROM S:s -(friend:e)- person:t ACCUM t.setAttr(a, "x");'),
    ),
    'Semantic Check Error in query t: line 3, col 53\nsetAttr() cannot be used in an ACCUM clause; use POST-ACCUM',
  );
});
