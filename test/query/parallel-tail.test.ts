/**
 * The end of a split (query/parallel-plan.ts's guidedCuts): partitions shrink towards the end of a
 * split, so the thread that finishes last ends at most a small partition after the other; and the
 * answers do not depend on how finely a split is cut, on the order partitions are taken in, nor on
 * which threads list a split by sources' targets (query/parallel.ts's sourcesDone: real workers).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { VertexRef } from '../../src/catalog/value.js';
import { Database } from '../../src/engine/database.js';
import { guidedCuts, rangeBounds } from '../../src/query/parallel-plan.js';
import {
  type AccumJob,
  type CompiledQuery,
  executeQuery,
  type ParallelHost,
  parallelSelect,
  registryFor,
} from '../../src/query/index.js';
import { JsonText } from '../../src/util/json.js';
import { attachPool, QueryPool, releasePool, runQuery } from '../../src/workers/index.js';
import { labelsQuery, type LoweredDb, loweredQueryDb, ReverseHost, rnd } from './parallel-fixture.js';

const ENTRY = new URL('../../src/server/workers/thread.js', import.meta.url);
const N = 3000;
const LOWERED = { minSources: 16, minPartition: 16, sourceCost: 2, pullCost: 1 };

const SCHEMA = `
CREATE VERTEX V (PRIMARY_ID id INT, k INT)
CREATE DIRECTED EDGE E (FROM V, TO V) WITH REVERSE_EDGE="rE"
CREATE GRAPH g (*)
`;

const QUERIES: [string, string, Record<string, unknown>?][] = [
  [
    'rank',
    `CREATE QUERY rank() FOR GRAPH g {
      SumAccum<DOUBLE> @s = 1; SumAccum<DOUBLE> @r; SumAccum<INT> @out; SumAccum<DOUBLE> @@total;
      INT i = 0;
      All = {V.*};
      All = SELECT v FROM All:v POST-ACCUM v.@out = v.outdegree("E");
      WHILE i < 3 DO
        X = SELECT t FROM All:v -(E>)- V:t ACCUM t.@r += v.@s / v.@out;
        All = SELECT v FROM All:v POST-ACCUM v.@s = 0.15 + 0.85 * v.@r, v.@r = 0;
        i = i + 1;
      END;
      All = SELECT v FROM All:v POST-ACCUM @@total += v.@s;
      PRINT @@total, All;
    }`,
  ],
  ['labels', labelsQuery('labels', 'V.*', 'All')],
  [
    'reach',
    `CREATE QUERY reach(VERTEX<V> s) FOR GRAPH g {
      OrAccum @seen; SumAccum<INT> @@reached; INT i = 0;
      F = {s};
      F = SELECT v FROM F:v POST-ACCUM v.@seen += true;
      WHILE i < 3 AND F.size() > 0 DO
        F = SELECT t FROM F:v -(E>)- V:t WHERE t.@seen == false POST-ACCUM t.@seen += true;
        @@reached += F.size();
        i = i + 1;
      END;
      PRINT @@reached, F;
    }`,
    { s: new VertexRef('V', '2') },
  ],
];

let dir = '';
let db: Database;
let lowered: LoweredDb;
const saved = { ...parallelSelect };

before(async () => {
  lowered = await loweredQueryDb('ocelot-tail-', SCHEMA, QUERIES, LOWERED);
  ({ dir, db } = lowered);
  const r = rnd(777);
  await db.write((tx) => {
    for (let i = 0; i < N; i++) tx.upsertVertex('V', i, { k: { value: r(100), op: 'set' } });
    // Hubs at low ids, as a load of an RMAT graph puts them.
    for (let i = 0; i < N * 4; i++) {
      const a = r(3) === 0 ? r(30) : r(N);
      const b = r(3) === 0 ? r(30) : r(N);
      tx.upsertEdge('E', 'V', a, 'V', b, {});
    }
  });
  await db.rebuild({ path: join(dir, 'summary') });
});

after(() => lowered.close());

/**
 * Plays a helper that took a split's first partition and ends it only after the owner ran out of
 * partitions: the owner's share runs without it (and, in a split by sources, finds the last source
 * range not done), then the late partition runs.
 */
class LateHost implements ParallelHost {
  readonly threads = 2;
  late = 0;
  private left: number[] = [];

  accum(_query: CompiledQuery, job: AccumJob, ownShare: () => void): [] {
    this.left = Array.from({ length: job.bounds.length - 2 }, (_, p) => p + 1);
    ownShare();
    if (job.listAfter) this.late++;
    this.left = [0];
    ownShare();
    return [];
  }

  take(): number {
    return this.left.shift() ?? -1;
  }

  expect(): void {}
}

/** A query's answer: here (through `host` when given), or on the attached pool. */
async function answer(name: string, host?: ParallelHost | 'pool'): Promise<string> {
  const query = registryFor(db).installed('g', name, db.catalog);
  const args = QUERIES.find(([n]) => n === name)?.[2] ?? {};
  const r =
    host === 'pool'
      ? await runQuery(db, { kind: 'installed', graph: 'g', query, args })
      : await executeQuery(db, query, args, host ? { parallel: host } : {});
  return r.results instanceof JsonText ? r.results.text : JSON.stringify(r.results);
}

test('guided cuts: a 1/(2 × threads) share of the work left each, none under the least', () => {
  const cuts = guidedCuts(1000, 2, 1000);
  assert.equal(cuts[0], 250);
  assert.equal(cuts[1], 250 + 750 / 4);
  const sizes = [...cuts, 1000].map((c, i) => c - (i === 0 ? 0 : cuts[i - 1]));
  const least = 1000 / parallelSelect.tailParts;
  sizes.forEach((s, i) => {
    if (i > 0) assert.ok(s <= sizes[i - 1] + 1e-9, `partition ${i} not larger than the one before`);
    assert.ok(s >= least / 2, `partition ${i} of ${s}`);
  });
  assert.ok(sizes[sizes.length - 1] <= least * 1.5, 'the last partition is a small one');
  // At most `most` partitions; a split too small for two gets none.
  assert.ok(guidedCuts(1000, 2, 5).length + 1 <= 5);
  assert.deepEqual(guidedCuts(1000, 2, 1), []);
  assert.deepEqual(guidedCuts(0, 2, 100), []);
});

test('range bounds cover the list in ascending, shrinking ranges', () => {
  const b = rangeBounds(10_000, 2);
  assert.equal(b[0], 0);
  assert.equal(b[b.length - 1], 10_000);
  for (let i = 1; i < b.length; i++) assert.ok(b[i] > b[i - 1]);
  assert.ok(b[1] - b[0] > b[b.length - 1] - b[b.length - 2], b.join());
  assert.deepEqual(rangeBounds(0, 2), [0, 0]);
});

test('the same answers however finely the splits are cut, partitions taken last first', async () => {
  const reference = await Promise.all(QUERIES.map(([name]) => answer(name)));
  for (const tailParts of [2, 8, 64, 1024]) {
    parallelSelect.tailParts = tailParts;
    try {
      const host = new ReverseHost();
      for (const [i, [name]] of QUERIES.entries())
        assert.equal(await answer(name, host), reference[i], `${name} with tailParts ${tailParts}`);
      const split = host.jobs.filter((j) => j.phase < 0);
      assert.ok(split.some((j) => j.pull !== undefined) && split.some((j) => j.listAfter !== undefined));
      // Finer ends cut more partitions; every split's partitions cover it in order.
      for (const j of host.jobs) {
        for (let p = 1; p < j.bounds.length; p++) assert.ok(j.bounds[p] > j.bounds[p - 1], j.bounds.join());
        if (tailParts >= 64 && j.phase >= 0) assert.ok(j.bounds.length > 4, j.bounds.join());
      }
    } finally {
      parallelSelect.tailParts = saved.tailParts;
    }
  }
});

test('a thread that finds the last source range not done lists nothing and does not hang', async () => {
  const host = new LateHost();
  for (const [name] of QUERIES) assert.equal(await answer(name, host), await answer(name), name);
  assert.ok(host.late > 0, 'some split by sources listed after a late range');
});

test('the same answers on 2 and 3 query workers, run after run', async () => {
  const reference = await Promise.all(QUERIES.map(([name]) => answer(name)));
  for (const threads of [2, 3]) {
    const pool = new QueryPool(db, { threads, entry: ENTRY, parallelSelect: { ...LOWERED, tailParts: 64 } });
    attachPool(db, pool);
    try {
      // Several rounds: which thread ends last, and so who lists, changes from run to run.
      for (let round = 0; round < 3; round++)
        for (const [i, [name]] of QUERIES.entries())
          assert.equal(await answer(name, 'pool'), reference[i], `${name} on ${threads} threads`);
      assert.ok(pool.stats.helped > 0, 'some SELECT was split');
    } finally {
      await releasePool(db);
    }
  }
});
