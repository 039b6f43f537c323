import assert from 'node:assert/strict';
import { test } from 'node:test';
import { socialNet } from '../fixtures/query/social-net.js';
import { runText } from '../fixtures/query/run.js';

const q = (body: string, params: string): string =>
  `CREATE QUERY t(${params}) FOR GRAPH socialNet {\n${body}\n}`;

test('HeapAccum capacity, SELECT LIMIT and WHILE LIMIT from parameters', async () => {
  const out = await runText(
    socialNet(),
    q(
      `TYPEDEF TUPLE<STRING g, INT n> Row;
       HeapAccum<Row>(k, n DESC, g ASC) @@top;
       SumAccum<INT> @@loops;
       Start = {person.*};
       S = SELECT s FROM Start:s ACCUM @@top += Row(s.gender, s.outdegree("friend"));
       L = SELECT s FROM Start:s ORDER BY s.outdegree("friend") DESC, s.gender LIMIT k;
       WHILE true LIMIT k + 1 DO @@loops += 1; END;
       PRINT @@top, L, @@loops;`,
      'INT k',
    ),
    { k: 2 },
  );
  // Friend out-degrees: person1 2 (Male), person2 2 (Female), person3 3 (Male), person4 1 (Female).
  const p = (id: string, gender: string): object => ({ v_id: id, v_type: 'person', attributes: { gender } });
  assert.deepEqual(out, [
    {
      '@@top': [
        { g: 'Male', n: 3 },
        { g: 'Female', n: 2 },
      ],
      L: [p('person3', 'Male'), p('person2', 'Female')],
      '@@loops': 3,
    },
  ]);
});
