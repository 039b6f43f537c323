import assert from 'node:assert/strict';
import { test } from 'node:test';
import { socialNet } from '../fixtures/query/social-net.js';
import { compileErrorOf, runText } from '../fixtures/query/run.js';

const q = (body: string): string => `CREATE QUERY t() FOR GRAPH socialNet {\n${body}\n}`;

test('local declarations, IF, CASE and FOREACH inside ACCUM and POST-ACCUM', async () => {
  const out = await runText(
    socialNet(),
    q(`SumAccum<INT> @@n, @@m;
       S = {person.*};
       S = SELECT s FROM S:s -(friend:e)- person:t
           ACCUM INT x = e.since - 2000,
                 IF x > 12 THEN @@n += x ELSE @@n += 1 END,
                 @@n += 100
           POST-ACCUM STRING g = s.gender,
                 CASE WHEN g == "Male" THEN @@m += 1 ELSE @@m += 10 END,
                 FOREACH i IN RANGE[1, 2] DO @@m += i * 100 END;
       PRINT @@n, @@m;`),
  );
  // Each friendship is matched from both ends: x = 10, 12, 14, 16 twice -> 2 * (1 + 1 + 14 + 16) + 8 * 100.
  // Two men, two women -> 22, plus 300 per person.
  assert.deepEqual(out, [{ '@@n': 864, '@@m': 1222 }]);
});

test('SetAccum<EDGE> holds an undirected edge once per direction reached; ListAccum<VERTEX> grows with + [t]', async () => {
  const out = await runText(
    socialNet(),
    q(`SetAccum<EDGE> @@es;
       ListAccum<EDGE> @@el;
       ListAccum<VERTEX> @path;
       Start = {person.*};
       S = SELECT t FROM Start:s -(friend:e)- person:t
           WHERE e.since == 2010
           ACCUM @@es += e, @@el += e, t.@path = s.@path + [s] + [t];
       S = SELECT t FROM S:s -(friend:e)- person:t ORDER BY t.gender LIMIT 1;
       PRINT @@es, @@el.size() AS listed, S[S.@path];`),
  );
  const edge = {
    e_type: 'friend',
    directed: false,
    from_id: 'person1',
    from_type: 'person',
    to_id: 'person2',
    to_type: 'person',
    attributes: { since: 2010 },
  };
  // The undirected edge was reached from both ends: a SetAccum<EDGE> holds it once per direction,
  // as TigerGraph's does (the library's shortest-path baselines list J→K and K→J).
  const back = { ...edge, from_id: 'person2', to_id: 'person1' };
  assert.deepEqual(out, [
    {
      '@@es': [edge, back],
      listed: 2,
      S: [{ v_id: 'person2', v_type: 'person', attributes: { 'S.@path': ['person1', 'person2'] } }],
    },
  ]);
});

test('BitwiseAndAccum starts with every bit set, BitwiseOrAccum at 0; global and vertex-attached', async () => {
  const out = await runText(
    socialNet(),
    q(`BitwiseAndAccum @@a;
       BitwiseOrAccum @@o, @@big;
       BitwiseAndAccum @v;
       PRINT @@a AS initial;
       @@a += 6; @@a += 3;
       @@o += 4; @@o += 1;
       @@big += 1099511627776; @@big += 1;
       S = {person.*};
       S = SELECT s FROM S:s WHERE s.gender == "Female" POST-ACCUM s.@v += 12, s.@v += 10 ORDER BY s.@v;
       PRINT @@a, @@o, @@big, S[S.@v];`),
  );
  const v = (id: string): object => ({ v_id: id, v_type: 'person', attributes: { 'S.@v': 8 } });
  assert.deepEqual(out, [
    { initial: -1 },
    { '@@a': 2, '@@o': 5, '@@big': 1099511627777, S: [v('person2'), v('person4')] },
  ]);
  assert.equal(
    compileErrorOf(socialNet(), q('BitwiseOrAccum<INT> @@x;')),
    'Semantic Check Error in query t: line 2, col 1\nBitwiseOrAccum takes no type argument: it holds an INT',
  );
});

test('"=" of one element resets a collection accumulator; GSQL_INT_MAX and GSQL_INT_MIN', async () => {
  const out = await runText(
    socialNet(),
    q(`TYPEDEF TUPLE<STRING name, INT n> Item;
       ListAccum<LIST<STRING>> @@paths;
       ListAccum<STRING> @@names;
       SetAccum<INT> @@ids;
       HeapAccum<Item>(2, n DESC) @@top;
       MinAccum<INT> @@lo = GSQL_INT_MAX;
       MaxAccum<INT> @@hi = GSQL_INT_MIN;
       @@paths += ["x"]; @@paths += ["y"];
       @@paths = ["a", "b"];
       @@names += "p"; @@names = "q";
       @@ids += 1; @@ids += 2; @@ids = 7;
       @@top += Item("u", 1); @@top += Item("v", 2); @@top = Item("w", 3);
       PRINT @@paths, @@names, @@ids, @@top, @@lo - 9223372036854775806 AS lo, @@hi + 9223372036854775807 AS hi;`),
  );
  assert.deepEqual(out, [
    {
      '@@paths': [['a', 'b']],
      '@@names': ['q'],
      '@@ids': [7],
      '@@top': [{ name: 'w', n: 3 }],
      lo: 1,
      hi: -1,
    },
  ]);
});
