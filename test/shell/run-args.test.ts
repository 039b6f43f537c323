import assert from 'node:assert/strict';
import { test } from 'node:test';
import { financeDb, printedJson } from '../fixtures/query/finance.js';

type Envelope = { results: unknown[] };

test('RUN QUERY and INTERPRET QUERY take one JSON object naming the parameters', async () => {
  const f = await financeDb();
  try {
    const { code, out } = await f.shell(`USE GRAPH finance
CREATE QUERY sent(VERTEX<Account> a, INT atLeast = 100, STRING label = "sent") SYNTAX v3 {
  SumAccum<INT> @@total;
  S = SELECT t FROM (s:Account)-[e:transfer]->(t:Account)
      WHERE s == a AND e.amount >= atLeast ACCUM @@total += e.amount;
  PRINT label, @@total;
}
INSTALL QUERY sent
RUN QUERY sent( {"a": {"id": "Ava"}, "atLeast": 500} )
INTERPRET QUERY sent({"a": {"id": "Ben"}, "label": "Ben sent"})
RUN QUERY sent({"a": {"id": "Dan"}, "nosuch": 1})
`);
    assert.equal(code, 0, out);
    assert.deepEqual(
      (printedJson(out) as Envelope[]).map((d) => d.results),
      [
        [{ label: 'sent', '@@total': 700 }],
        [{ label: 'Ben sent', '@@total': 1710 }],
        // Keys naming no parameter are left alone, as the REST endpoint leaves them.
        [{ label: 'sent', '@@total': 1550 }],
      ],
    );
  } finally {
    await f.close();
  }
});
