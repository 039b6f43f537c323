import assert from 'node:assert/strict';
import { test } from 'node:test';
import { minimalGraph } from '../fixtures/query/minimal.js';
import { runText } from '../fixtures/query/run.js';

const q = (body: string): string => `CREATE QUERY t() FOR GRAPH minimalNet {\n${body}\n}`;

test('SumAccum of INT, FLOAT, DOUBLE and STRING with = and +=', async () => {
  const out = await runText(
    minimalGraph(),
    q(`SumAccum<INT> @@intAccum;
       SumAccum<FLOAT> @@floatAccum;
       SumAccum<DOUBLE> @@doubleAccum;
       SumAccum<STRING> @@stringAccum;
       @@intAccum = 1;
       @@intAccum += 1;
       @@floatAccum = @@intAccum;
       @@floatAccum = @@floatAccum / 3;
       @@doubleAccum = @@floatAccum * 8;
       @@doubleAccum += -1;
       @@stringAccum = "Hello ";
       @@stringAccum += "World";
       PRINT @@intAccum;
       PRINT @@floatAccum;
       PRINT @@doubleAccum;
       PRINT @@stringAccum;`),
  );
  assert.deepEqual(out, [
    { '@@intAccum': 2 },
    { '@@floatAccum': 0.6666667 },
    { '@@doubleAccum': 4.333333492279053 },
    { '@@stringAccum': 'Hello World' },
  ]);
});

test('Min/Max/Avg/Or/And accumulators and their initial values', async () => {
  const out = await runText(
    minimalGraph(),
    q(`MinAccum<INT> @@minAccum;
       MaxAccum<FLOAT> @@maxAccum;
       MinAccum<INT> @@untouched;
       AvgAccum @@averageAccum;
       OrAccum @@orAccum;
       AndAccum @@andAccum;
       MaxAccum<STRING> @@maxString;
       @@minAccum += 40; @@minAccum += 20; @@minAccum += -10;
       @@maxAccum += -1.5; @@maxAccum += 4.5;
       @@averageAccum += 10; @@averageAccum += 5; @@averageAccum += -0.5;
       @@orAccum += false; @@orAccum += true;
       @@andAccum += true; @@andAccum += false;
       @@maxString += "apple"; @@maxString += "pear"; @@maxString += "fig";
       PRINT @@minAccum, @@maxAccum, @@untouched, @@averageAccum, @@orAccum, @@andAccum, @@maxString;`),
  );
  assert.deepEqual(out, [
    {
      '@@minAccum': -10,
      '@@maxAccum': 4.5,
      // JSON.parse reads INT64_MAX as 2^63 (the exact text is checked in the 64-bit test).
      '@@untouched': 2 ** 63,
      '@@averageAccum': 4.833333333333333,
      '@@orAccum': true,
      '@@andAccum': false,
      '@@maxString': 'pear',
    },
  ]);
});

test('64-bit integers stay exact and wrap like C++ on overflow', async () => {
  const g = minimalGraph();
  const { stringifyJson } = await import('../../src/util/json.js');
  const { parseQueryText } = await import('../../src/gsql/parser-query.js');
  const { compileQuery } = await import('../../src/query/compile-query.js');
  const { executeQuery } = await import('../../src/query/run.js');
  const [stmt] = parseQueryText(
    q(`SumAccum<INT> @@big = 9007199254740993;
       INT x = 9223372036854775807;
       @@big += 2;
       PRINT @@big, x + 1 AS wrapped, x / 2 AS half, -9223372036854775808 AS lowest;`),
  );
  if (stmt.kind !== 'createQuery') throw new Error('parse');
  const { results } = await executeQuery(g, compileQuery(stmt.query, g.catalog, 'minimalNet'), {});
  assert.equal(
    stringifyJson(results),
    '[{"@@big":9007199254740995,"wrapped":-9223372036854775808,"half":4611686018427387903,"lowest":-9223372036854775808}]',
  );
});

test('ListAccum, SetAccum and BagAccum: +=, lists, size, contains, get, clear', async () => {
  const out = await runText(
    minimalGraph(),
    q(`ListAccum<INT> @@list;
       SetAccum<STRING> @@set;
       BagAccum<INT> @@bag;
       ListAccum<ListAccum<INT>> @@nested;
       @@list += 3; @@list += [1, 2]; @@list += 3;
       @@set += "b"; @@set += "a"; @@set += "b";
       @@bag += 1; @@bag += 1; @@bag += 2;
       @@nested += [1, 2]; @@nested += [3];
       PRINT @@list, @@set, @@bag, @@nested;
       PRINT @@list.size(), @@list.get(1), @@list.contains(2), @@set.contains("c"), @@set.size() AS n;
       @@list.clear();
       @@set.remove("b");
       PRINT @@list, @@set;`),
  );
  assert.deepEqual(out, [
    { '@@list': [3, 1, 2, 3], '@@set': ['b', 'a'], '@@bag': [1, 1, 2], '@@nested': [[1, 2], [3]] },
    { '@@list.size()': 4, '@@list.get(1)': 1, '@@list.contains(2)': true, '@@set.contains(c)': false, n: 2 },
    { '@@list': [], '@@set': ['a'] },
  ]);
});

test('MapAccum with plain and nested accumulator values, get and containsKey', async () => {
  const out = await runText(
    minimalGraph(),
    q(`MapAccum<STRING, INT> @@intMapAccum;
       MapAccum<INT, SetAccum<STRING>> @@nestedMap;
       MapAccum<STRING, MapAccum<STRING, SumAccum<INT>>> @@deep;
       @@intMapAccum += ("foo" -> 3);
       @@intMapAccum += ("bar" -> 2);
       @@intMapAccum += ("foo" -> 4);
       @@nestedMap += (1 -> "a"); @@nestedMap += (1 -> "b"); @@nestedMap += (2 -> "a");
       @@deep += ("x" -> ("y" -> 1)); @@deep += ("x" -> ("y" -> 2));
       PRINT @@intMapAccum, @@nestedMap, @@deep;
       PRINT @@intMapAccum.get("bar"), @@intMapAccum.get("none"), @@intMapAccum.containsKey("foo");`),
  );
  assert.deepEqual(out, [
    {
      '@@intMapAccum': { foo: 7, bar: 2 },
      '@@nestedMap': { '1': ['a', 'b'], '2': ['a'] },
      '@@deep': { x: { y: 3 } },
    },
    { '@@intMapAccum.get(bar)': 2, '@@intMapAccum.get(none)': 0, '@@intMapAccum.containsKey(foo)': true },
  ]);
});

test('HeapAccum with TYPEDEF TUPLE: ordering, capacity, top, pop, resize', async () => {
  const out = await runText(
    minimalGraph(),
    q(`TYPEDEF TUPLE<INT id, STRING name, DOUBLE score> Row;
       HeapAccum<Row>(3, score DESC, id ASC) @@heap;
       @@heap += Row(1, "a", 1.5);
       @@heap += Row(2, "b", 9.0);
       @@heap += Row(3, "c", 4.0);
       @@heap += Row(4, "d", 4.0);
       @@heap += Row(5, "e", 0.5);
       PRINT @@heap;
       PRINT @@heap.top().name AS best, @@heap.size() AS n;
       @@heap.pop();
       @@heap.resize(1);
       PRINT @@heap;`),
  );
  assert.deepEqual(out, [
    {
      '@@heap': [
        { id: 2, name: 'b', score: 9 },
        { id: 3, name: 'c', score: 4 },
        { id: 4, name: 'd', score: 4 },
      ],
    },
    { best: 'b', n: 3 },
    { '@@heap': [{ id: 3, name: 'c', score: 4 }] },
  ]);
});

test('GroupByAccum groups by keys and FOREACH destructures it', async () => {
  const out = await runText(
    minimalGraph(),
    q(`GroupByAccum<STRING dept, INT year, SumAccum<INT> total, MaxAccum<INT> top> @@g;
       ListAccum<STRING> @@seen;
       @@g += ("eng", 2020 -> 5, 5);
       @@g += ("eng", 2020 -> 7, 7);
       @@g += ("ops", 2021 -> 1, 1);
       PRINT @@g;
       FOREACH (d, y, t, m) IN @@g DO
         @@seen += d + ":" + to_string(y) + ":" + to_string(t) + ":" + to_string(m);
       END;
       PRINT @@seen;`),
  );
  assert.deepEqual(out, [
    {
      '@@g': [
        { dept: 'eng', year: 2020, total: 12, top: 7 },
        { dept: 'ops', year: 2021, total: 1, top: 1 },
      ],
    },
    { '@@seen': ['eng:2020:12:7', 'ops:2021:1:1'] },
  ]);
});

test('set operators on SetAccums, accumulator assignment copies values', async () => {
  const out = await runText(
    minimalGraph(),
    q(`SetAccum<INT> @@a, @@b, @@c;
       @@a += 1; @@a += 2; @@a += 3;
       @@b += 2; @@b += 3; @@b += 4;
       @@c = @@a UNION @@b;
       PRINT @@c;
       @@c = @@a INTERSECT @@b;
       PRINT @@c;
       @@c = @@a MINUS @@b;
       PRINT @@c;`),
  );
  assert.deepEqual(out, [{ '@@c': [1, 2, 3, 4] }, { '@@c': [2, 3] }, { '@@c': [1] }]);
});
