/**
 * How PRINT shows DATETIME elements of collection accumulators (epoch seconds, as TigerGraph does)
 * beside DATETIME variables, tuple fields and Min/MaxAccum (formatted), and an unassigned EDGE.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { libraryGraph } from '../fixtures/query/library.js';
import { runText } from '../fixtures/query/run.js';

const q = (body: string): string => `CREATE QUERY t() FOR GRAPH library {\n${body}\n}`;
const epoch = (s: string): number => Date.parse(s.replace(' ', 'T') + 'Z') / 1000;

test('DATETIME elements of List/Set/Bag/Array accumulators print as epoch seconds', async () => {
  const out = await runText(
    libraryGraph(),
    q(`ListAccum<DATETIME> @@l;
       SetAccum<DATETIME> @@s;
       BagAccum<DATETIME> @@b;
       ArrayAccum<BagAccum<DATETIME>> @@a[2];
       @@l += epoch_to_datetime(5);
       @@s += epoch_to_datetime(6);
       @@b += epoch_to_datetime(7);
       @@a[1] += epoch_to_datetime(8);
       PRINT @@l, @@s, @@b, @@a;`),
  );
  assert.deepEqual(out, [{ '@@l': [5], '@@s': [6], '@@b': [7], '@@a': [[], [8]] }]);
});

test('a MapAccum DATETIME value prints as epoch seconds; += keeps the latest value', async () => {
  const out = await runText(
    libraryGraph(),
    q(`MapAccum<STRING, DATETIME> @@m;
       @@m += ("a" -> epoch_to_datetime(20));
       @@m += ("a" -> epoch_to_datetime(10));
       @@m += ("b" -> to_datetime("2021-03-04 00:00:00"));
       PRINT @@m, @@m.get("a") AS a;`),
  );
  assert.deepEqual(out, [{ '@@m': { a: 10, b: epoch('2021-03-04 00:00:00') }, a: '1970-01-01 00:00:10' }]);
});

test('DATETIME variables, tuple fields in a ListAccum and MaxAccum<DATETIME> print formatted', async () => {
  const out = await runText(
    libraryGraph(),
    q(`TYPEDEF TUPLE<STRING who, DATETIME at> Loan;
       ListAccum<Loan> @@loans;
       MaxAccum<DATETIME> @@last;
       DATETIME first = to_datetime("2019-01-02 03:04:05");
       R = SELECT r FROM reader:r -(borrowed:e)-> book
           WHERE r.city == "Rome"
           ACCUM @@loans += Loan(r.city, e.day), @@last += e.day;
       PRINT first, @@loans, @@last;`),
  );
  assert.deepEqual(out, [
    {
      first: '2019-01-02 03:04:05',
      '@@loans': [{ who: 'Rome', at: '2022-01-02 00:00:00' }],
      '@@last': '2022-01-02 00:00:00',
    },
  ]);
});

test('an EDGE variable never assigned prints as {}, alone and inside a SetAccum', async () => {
  const out = await runText(
    libraryGraph(),
    q(`SetAccum<EDGE> @@edges;
       EDGE none;
       @@edges += none;
       PRINT none, @@edges;`),
  );
  assert.deepEqual(out, [{ none: {}, '@@edges': [{}] }]);
});
