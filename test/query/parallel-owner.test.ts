/**
 * What the owner thread of a split query keeps between runs gives the same answers as one thread:
 * a whole type's run indexes, built once per snapshot (a later write is seen by the next run), and
 * the shared arrays of a pull's hoisted values, taken again from earlier runs with their old
 * values in them (sources without edges are never filled, and never read).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Database } from '../../src/engine/database.js';
import { executeQuery, registryFor, type ParallelHost } from '../../src/query/index.js';
import { JsonText } from '../../src/util/json.js';
import { type LoweredDb, loweredQueryDb, ReverseHost, rnd } from './parallel-fixture.js';

const SCHEMA = `
CREATE VERTEX V (PRIMARY_ID id INT, w DOUBLE)
CREATE DIRECTED EDGE E (FROM V, TO V)
CREATE GRAPH g (*)
`;

const QUERIES: [string, string][] = [
  [
    'rank',
    `CREATE QUERY rank() FOR GRAPH g {
      SumAccum<DOUBLE> @s = 1; SumAccum<DOUBLE> @r; SumAccum<INT> @out; SumAccum<DOUBLE> @@total; INT i = 0;
      All = {V.*};
      All = SELECT v FROM All:v POST-ACCUM v.@out = v.outdegree("E");
      WHILE i < 3 DO
        X = SELECT t FROM All:v -(E>)- V:t ACCUM t.@r += v.@s / v.@out + v.w;
        All = SELECT v FROM All:v POST-ACCUM v.@s = 0.15 + 0.85 * v.@r, v.@r = 0;
        i = i + 1;
      END;
      All = SELECT v FROM All:v POST-ACCUM @@total += v.@s;
      PRINT All.size() AS n, @@total, X;
    }`,
  ],
];

let dir = '';
let db: Database;
let lowered: LoweredDb;
const N = 600;

before(async () => {
  lowered = await loweredQueryDb('ocelot-owner-', SCHEMA, QUERIES);
  ({ dir, db } = lowered);
  const r = rnd(4242);
  await db.write((tx) => {
    for (let i = 0; i < N; i++) tx.upsertVertex('V', i, { w: { value: r(10_000) / 7, op: 'set' } });
    // Every tenth vertex has no out-edge: its hoisted value is never filled.
    for (let i = 0; i < N * 4; i++) {
      const a = r(N);
      if (a % 10 !== 0) tx.upsertEdge('E', 'V', a, 'V', r(3) === 0 ? r(20) : r(N), {});
    }
  });
  await db.rebuild({ path: join(dir, 'summary') });
});

after(() => lowered.close());

async function answer(host?: ParallelHost): Promise<string> {
  const query = registryFor(db).installed('g', 'rank', db.catalog);
  const r = await executeQuery(db, query, {}, host ? { parallel: host } : {});
  return r.results instanceof JsonText ? r.results.text : JSON.stringify(r.results);
}

/** The hoisted arrays of the pulls a host ran. */
function hoisted(host: ReverseHost): Float64Array[] {
  return host.jobs.flatMap((j) => j.pull?.hoisted?.arrays ?? []);
}

test('a whole type read twice from one snapshot is the same list, and a new version is read again', () => {
  const a = db.read();
  const b = db.read();
  assert.equal(a.version, b.version);
  assert.equal(a.rows('V'), b.rows('V'), 'one list per version');
  assert.equal(a.rows('V').length, N);
});

test('split runs over a kept type list and reused hoist arrays answer as one thread, across writes', async () => {
  const one = await answer();
  const first = new ReverseHost();
  assert.equal(await answer(first), one);
  const arrays = hoisted(first);
  assert.ok(arrays.length > 0, 'the split pulled with hoisted values');
  // Old values in every cell: a reused array must not let them into the answer.
  for (const h of arrays) h.fill(1e300);
  const second = new ReverseHost();
  assert.equal(await answer(second), one);
  assert.ok(
    hoisted(second).some((h) => arrays.includes(h)),
    'the second run took the first run’s hoist arrays again',
  );

  const before = db.read().rows('V');
  await db.write((tx) => {
    tx.deleteVertex('V', 3);
    tx.upsertVertex('V', N, { w: { value: 2.5, op: 'set' } });
    tx.upsertEdge('E', 'V', N, 'V', 1, {});
  });
  // No rebuild: the same table, read at a newer version.
  const after = db.read().rows('V');
  assert.notEqual(after, before);
  const changed = await answer();
  assert.notEqual(changed, one);
  assert.match(changed, /"n":600\b/);
  assert.equal(await answer(new ReverseHost()), changed);
});
