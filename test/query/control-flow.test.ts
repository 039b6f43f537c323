import assert from 'node:assert/strict';
import { test } from 'node:test';
import { minimalGraph } from '../fixtures/query/minimal.js';
import { socialNet } from '../fixtures/query/social-net.js';
import { runText } from '../fixtures/query/run.js';
import { VertexRef } from '../../src/catalog/value.js';

const q = (body: string, params = ''): string =>
  `CREATE QUERY t(${params}) FOR GRAPH minimalNet {\n${body}\n}`;

test('IF / ELSE IF / ELSE, CASE statement and CASE expression', async () => {
  const out = await runText(
    minimalGraph(),
    q(`ListAccum<STRING> @@out;
       FOREACH x IN RANGE[1, 4] DO
         IF x == 1 THEN @@out += "one";
         ELSE IF x == 2 THEN @@out += "two";
         ELSE @@out += "many";
         END;
         CASE WHEN x % 2 == 0 THEN @@out += "even"; ELSE @@out += "odd"; END;
         @@out += CASE x WHEN 3 THEN "three" ELSE "-" END;
       END;
       PRINT @@out;`),
  );
  assert.deepEqual(out, [
    { '@@out': ['one', 'odd', '-', 'two', 'even', '-', 'many', 'odd', 'three', 'many', 'even', '-'] },
  ]);
});

test('FOREACH over ranges with STEP, lists, sets and maps; BREAK and CONTINUE', async () => {
  const out = await runText(
    minimalGraph(),
    q(`ListAccum<INT> @@steps, @@down, @@kept;
       MapAccum<STRING, INT> @@m;
       SumAccum<INT> @@total;
       FOREACH i IN RANGE[0, 10].STEP(3) DO @@steps += i; END;
       FOREACH i IN RANGE[3, 1].STEP(-1) DO @@down += i; END;
       FOREACH i IN [5, 6, 7, 8, 9] DO
         IF i == 6 THEN CONTINUE; END;
         IF i == 8 THEN BREAK; END;
         @@kept += i;
       END;
       @@m += ("a" -> 1); @@m += ("b" -> 2);
       FOREACH (k, v) IN @@m DO @@total += v; END;
       PRINT @@steps, @@down, @@kept, @@total;`),
  );
  assert.deepEqual(out, [{ '@@steps': [0, 3, 6, 9], '@@down': [3, 2, 1], '@@kept': [5, 7], '@@total': 3 }]);
});

test('WHILE with local variables; PRINT inside a loop gives one object per execution', async () => {
  const out = await runText(
    minimalGraph(),
    q(`INT i = 0;
       WHILE i < 3 DO
         i = i + 1;
         PRINT i;
       END;
       WHILE true LIMIT 5 DO i += 10; END;
       PRINT i AS final;`),
  );
  assert.deepEqual(out, [{ i: 1 }, { i: 2 }, { i: 3 }, { final: 53 }]);
});

test('expressions: arithmetic, string functions, LIKE, IN, BETWEEN, math and conversions', async () => {
  const out = await runText(
    minimalGraph(),
    q(`STRING s = "TigerGraph";
       PRINT 7 / 2 AS intDiv, 7.0 / 2 AS floatDiv, 7 % 3 AS m, -2 * 3 + 1 AS neg,
             s + "!" AS concat, lower(s) AS low, upper("a") AS up, length(s) AS len,
             s LIKE "Tiger%" AS like1, s LIKE "t_ger%" AS like2, s NOT LIKE "%x%" AS like3,
             3 IN [1, 2, 3] AS inList, 4 NOT IN [1, 2] AS notIn, 5 BETWEEN 1 AND 5 AS btw,
             abs(-3) AS a, sqrt(16) AS r, pow(2, 10) AS p, floor(2.7) AS f, ceil(2.1) AS c,
             to_string(42) AS str, str_to_int("123") AS n, to_float("1.5") AS fl,
             true AND NOT false AS logic, 1 < 2 OR 1 / 0 > 0 AS shortCircuit;`),
  );
  assert.deepEqual(out, [
    {
      intDiv: 3,
      floatDiv: 3.5,
      m: 1,
      neg: -5,
      concat: 'TigerGraph!',
      low: 'tigergraph',
      up: 'A',
      len: 10,
      like1: true,
      like2: false,
      like3: true,
      inList: true,
      notIn: true,
      btw: true,
      a: 3,
      r: 4,
      p: 1024,
      f: 2,
      c: 3,
      str: '42',
      n: 123,
      fl: 1.5,
      logic: true,
      shortCircuit: true,
    },
  ]);
});

test('DATETIME values print as text and their parts are readable', async () => {
  const out = await runText(
    minimalGraph(),
    q(`DATETIME d = to_datetime("2019-02-28 23:59:30");
       PRINT d, year(d) AS y, month(d) AS mo, day(d) AS dd, hour(d) AS h, minute(d) AS mi, second(d) AS s,
             datetime_to_epoch(d) AS epoch, epoch_to_datetime(0) AS zero,
             datetime_format(d, "%Y/%m/%d") AS fmt;`),
  );
  assert.deepEqual(out, [
    {
      d: '2019-02-28 23:59:30',
      y: 2019,
      mo: 2,
      dd: 28,
      h: 23,
      mi: 59,
      s: 30,
      epoch: 1551398370,
      zero: '1970-01-01 00:00:00',
      fmt: '2019/02/28',
    },
  ]);
});

test('parameters with defaults, SET parameters, tuples and maps print as objects', async () => {
  const out = await runText(
    socialNet(),
    `CREATE QUERY t(INT k = 3, STRING who = "x", SET<STRING> tags, DOUBLE ratio = 0.5) FOR GRAPH socialNet {
       TYPEDEF TUPLE<STRING name, INT n> Pair;
       ListAccum<Pair> @@pairs;
       @@pairs += Pair(who, k);
       PRINT k, who, tags, ratio, @@pairs;
     }`,
    { tags: ['a', 'b', 'a'] },
  );
  assert.deepEqual(out, [{ k: 3, who: 'x', tags: ['a', 'b'], ratio: 0.5, '@@pairs': [{ name: 'x', n: 3 }] }]);
});

test('to_vertex, to_vertex_set, float() and int()', async () => {
  const out = await runText(
    socialNet(),
    `CREATE QUERY t(SET<STRING> ids) FOR GRAPH socialNet {
       VERTEX v = to_vertex("person2", "person");
       S = to_vertex_set(ids, "person");
       PRINT v, v.gender AS g, S.size() AS n, float(7) / 2 AS half, int(3.9) AS whole;
     }`,
    { ids: ['person1', 'person4', 'person1'] },
  );
  assert.deepEqual(out, [{ v: 'person2', g: 'Female', n: 2, half: 3.5, whole: 3 }]);
  await assert.rejects(
    runText(socialNet(), `CREATE QUERY t() FOR GRAPH socialNet { PRINT to_vertex("nobody", "person"); }`),
    { message: 'Runtime Error: vertex person "nobody" does not exist.' },
  );
});

test('datetime_add and datetime_sub with INTERVAL units', async () => {
  const out = await runText(
    minimalGraph(),
    q(`DATETIME d = to_datetime("2020-01-31 10:00:00");
       PRINT datetime_add(d, INTERVAL 1 DAY) AS day, datetime_sub(d, INTERVAL 90 MINUTE) AS mins,
             datetime_add(d, INTERVAL 1 YEAR) AS year, datetime_add(d, INTERVAL 2 WEEK) AS weeks;`),
  );
  assert.deepEqual(out, [
    {
      day: '2020-02-01 10:00:00',
      mins: '2020-01-31 08:30:00',
      year: '2021-01-31 10:00:00',
      weeks: '2020-02-14 10:00:00',
    },
  ]);
});

test('a vertex set first assigned in IF branches or a loop body is visible after it', async () => {
  const src = `CREATE QUERY t(BOOL mine, VERTEX<person> p) FOR GRAPH socialNet SYNTAX V1 {
  start = {p};
  IF mine THEN
    near = SELECT f FROM start -(friend)- :f;
  ELSE
    near = SELECT f FROM start -(friend)- :f WHERE f.gender == "Female";
  END;
  WHILE near.size() > 5 LIMIT 1 DO
    later = SELECT f FROM near:f;
  END;
  both = near UNION start;
  PRINT near.size() AS near, both.size() AS both, later.size() AS later;
}`;
  const ref = { type: 'person', id: 'person1' };
  const args = (mine: boolean) => ({ mine, p: new VertexRef(ref.type, ref.id) });
  assert.deepEqual(await runText(socialNet(), src, args(true)), [{ near: 2, both: 3, later: 0 }]);
  assert.deepEqual(await runText(socialNet(), src, args(false)), [{ near: 1, both: 2, later: 0 }]);
  // A name used as a vertex set in one branch cannot be another type elsewhere.
  await assert.rejects(
    runText(
      socialNet(),
      `CREATE QUERY t(BOOL b) FOR GRAPH socialNet {
  IF b THEN x = SELECT s FROM person:s; END;
  INT x = 1;
}`,
    ),
    /"x" is already declared in this scope/,
  );
});

test('IN and NOT IN take a parenthesised list of values', async () => {
  const out = await runText(
    minimalGraph(),
    q(
      `IF kind NOT IN ("INT", "FLOAT") THEN
         PRINT "unknown" AS errMsg;
         RETURN;
       END;
       PRINT kind IN ("FLOAT") AS one, 3 IN (1, 2, 3) AS three;`,
      'STRING kind',
    ),
    { kind: 'FLOAT' },
  );
  assert.deepEqual(out, [{ one: true, three: true }]);
  assert.deepEqual(
    await runText(
      minimalGraph(),
      q(`IF kind NOT IN ("INT") THEN PRINT 1 AS bad; RETURN; END; PRINT 2 AS good;`, 'STRING kind'),
      { kind: 'X' },
    ),
    [{ bad: 1 }],
  );
});

test('math functions are FLOAT, and FLOAT arithmetic with integers stays 32-bit, as in TigerGraph', async () => {
  const out = await runText(
    minimalGraph(),
    q(`SumAccum<DOUBLE> @@s;
       SumAccum<DOUBLE> @@d;
       @@s += 1 / log10(2);
       @@s += 1 / log10(2);
       @@d += 1.0 / 3;
       PRINT @@s, @@d, sqrt(2) AS r, log10(2) * 1.0 AS widened;`),
  );
  // 1/log10(2) rounded to a 32-bit float is 3.321928024291992; 1.0 is a DOUBLE literal.
  assert.deepEqual(out, [
    { '@@s': 6.643856048583984, '@@d': 0.3333333333333333, r: 1.414214, widened: 0.3010300099849701 },
  ]);
});
