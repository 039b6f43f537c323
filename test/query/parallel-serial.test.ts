/**
 * The work of a round outside its split ACCUM (query/select-hop.ts, query/parallel.ts): POST-ACCUM
 * groups split by ranges of their list — integer cells among them (set from outdegree() and
 * getvid(), spilled past their array's range, `@x'` of spilled cells, spilled cells set back to
 * plain values), float and boolean cells, exact global accumulators, HAVING after them — and a
 * vertex-only SELECT that selects its sources as they are. Every answer must equal the closures'
 * (no kernel at all) and the one-thread answer, at 1, 2 and 4 real worker threads; a host that
 * plays a helper thread on this one shows which phases were split.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Database } from '../../src/engine/database.js';
import {
  executeQuery,
  helpParallelAccum,
  registryFor,
  selectKernels,
  type AccumJob,
  type CompiledQuery,
  type HelperOutcome,
  type ParallelHost,
} from '../../src/query/index.js';
import { JsonText } from '../../src/util/json.js';
import { attachPool, QueryPool, runQuery } from '../../src/workers/index.js';
import { LOWERED, type LoweredDb, loweredQueryDb, rnd } from './parallel-fixture.js';

const ENTRY = new URL('../../src/server/workers/thread.js', import.meta.url);

const SCHEMA = `
CREATE VERTEX V (PRIMARY_ID id INT, k INT, w DOUBLE)
CREATE DIRECTED EDGE E (FROM V, TO V) WITH REVERSE_EDGE="rE"
CREATE GRAPH g (*)
`;

const QUERIES: [string, string][] = [
  [
    'ints',
    `CREATE QUERY ints() FOR GRAPH g {
      SumAccum<INT> @deg; SumAccum<INT> @big; MinAccum<INT> @lo; MaxAccum<INT> @hi; OrAccum @odd;
      SumAccum<DOUBLE> @f; SumAccum<INT> @@edges; MinAccum<INT> @@low; MaxAccum<INT> @@high;
      OrAccum @@any; AndAccum @@all;
      All = {V.*};
      All = SELECT v FROM All:v
            POST-ACCUM v.@deg = v.outdegree("E"), v.@lo = getvid(v) - 3000000000 * (v.k % 2),
                       v.@big += v.k * 4503599627370496, v.@hi += v.k * 100000000000,
                       @@edges += v.outdegree("E");
      X = SELECT t FROM All:v -(E>)- V:t ACCUM t.@lo += v.@lo - 5000000000, t.@f += v.w
          POST-ACCUM t.@odd += t.@lo' > t.@lo, t.@big += t.@deg, t.@hi += t.@lo' % 7,
                     @@low += t.@lo, @@any += t.@big > 100;
      All = SELECT v FROM All:v POST-ACCUM v.@big = v.k, v.@hi = v.k * 2, @@all += v.@big < 1000;
      All = SELECT v FROM All:v POST-ACCUM @@high += v.@big + v.@hi + v.@deg, v.@lo += v.@hi - 3000000000;
      H = SELECT v FROM All:v -(E>)- V:t WHERE t.k > 10 ACCUM v.@deg += 1
          POST-ACCUM v.@hi += v.@deg * 3 HAVING v.@hi > 40;
      PRINT All, H, @@edges, @@low, @@high, @@any, @@all;
    }`,
  ],
  [
    'ranks',
    `CREATE QUERY ranks() FOR GRAPH g {
      SumAccum<DOUBLE> @s = 1; SumAccum<DOUBLE> @r; SumAccum<INT> @out; SumAccum<DOUBLE> @@total;
      INT i = 0;
      All = {V.*};
      All = SELECT v FROM All:v POST-ACCUM v.@out = v.outdegree("E");
      WHILE i < 3 DO
        X = SELECT t FROM All:v -(E>)- V:t ACCUM t.@r += v.@s / (v.@out + 1);
        All = SELECT v FROM All:v POST-ACCUM v.@s = 0.15 + 0.85 * v.@r, v.@r = 0;
        i = i + 1;
      END;
      Some = SELECT v FROM All:v WHERE v.k % 4 == 1;
      Some = SELECT v FROM Some:v POST-ACCUM @@total += v.@s;
      Top = SELECT v FROM Some:v ORDER BY v.@s DESC, v.w LIMIT 5;
      Mid = SELECT v FROM All:v LIMIT 7;
      PRINT All, Some, Top, Mid, @@total;
    }`,
  ],
  [
    'kinds',
    `CREATE QUERY kinds() FOR GRAPH g {
      MinAccum<DOUBLE> @mf; MaxAccum<FLOAT> @xf; SumAccum<FLOAT> @sf; AndAccum @a; SetAccum<INT> @set;
      MaxAccum<DOUBLE> @@top; MinAccum<DOUBLE> @@bottom; SetAccum<INT> @@seen; BagAccum<INT> @@bag;
      All = {V.*};
      // Float Min/Max/Sum and boolean cells and float Min/Max globals split; set and bag
      // accumulators (order-sensitive or not dense) keep their group on the owner.
      All = SELECT v FROM All:v
            POST-ACCUM v.@mf += v.w, v.@mf += v.k / 3.0, v.@xf += v.w * 1.5, v.@sf += v.w / 7,
                       v.@a += v.k > 3, @@top += v.w, @@bottom += v.w - v.k;
      X = SELECT t FROM All:v -(E>)- V:t ACCUM t.@sf += v.w
          POST-ACCUM t.@mf += t.@sf, t.@a += t.@sf > 100, @@top += t.@sf;
      Y = SELECT v FROM All:v WHERE v.k < 30 POST-ACCUM v.@set += v.k % 7, @@seen += v.k % 11, @@bag += v.k % 3;
      PRINT All, @@top, @@bottom, @@seen, @@bag;
    }`,
  ],
  [
    'unordered',
    `CREATE QUERY unordered() FOR GRAPH g {
      SumAccum<INT> @n; ListAccum<VERTEX<V>> @@picked;
      All = {V.*};
      Heavy = SELECT v FROM All:v ORDER BY v.w DESC, v.k LIMIT 60;
      Again = SELECT v FROM Heavy:v POST-ACCUM v.@n += 1;
      Light = SELECT v FROM All:v WHERE v.k < 9 POST-ACCUM @@picked += v, @@picked += v;
      P = {@@picked};
      P = SELECT v FROM P:v POST-ACCUM v.@n += 2;
      PRINT Again, P;
    }`,
  ],
];

/**
 * Plays a second thread: the odd partitions run first through the helper's own code
 * (helpParallelAccum: a RunContext and columns of its own over the shared arrays, so spilled
 * integer cells travel as they do between workers), then the owner takes the rest. Records the jobs.
 */
class HelperHost implements ParallelHost {
  readonly threads = 2;
  readonly jobs: AccumJob[] = [];
  private left: number[] = [];

  accum(query: CompiledQuery, job: AccumJob, ownShare: () => void): HelperOutcome[] {
    this.jobs.push(job);
    const parts = Array.from({ length: job.bounds.length - 1 }, (_, p) => p);
    const theirs = parts.filter((p) => p % 2 === 1);
    const snapshot = db.read();
    let outcome: HelperOutcome;
    try {
      outcome = helpParallelAccum(query, snapshot, job, () => theirs.shift() ?? -1);
    } finally {
      snapshot.release();
    }
    this.left = parts.filter((p) => p % 2 === 0);
    ownShare();
    return [outcome];
  }

  take(): number {
    return this.left.shift() ?? -1;
  }

  expect(): void {}
}

let dir = '';
let db: Database;
let lowered: LoweredDb;

before(async () => {
  lowered = await loweredQueryDb('ocelot-serial-', SCHEMA, QUERIES);
  ({ dir, db } = lowered);
  const r = rnd(4242);
  const n = 700;
  await db.write((tx) => {
    for (let i = 0; i < n; i++)
      tx.upsertVertex('V', i, { k: { value: r(100), op: 'set' }, w: { value: r(10_000) / 7, op: 'set' } });
    for (let i = 0; i < n * 5; i++) {
      const a = r(3) === 0 ? r(20) : r(n);
      tx.upsertEdge('E', 'V', a, 'V', r(n), {});
    }
  });
  await db.rebuild({ path: join(dir, 'summary') });
});

after(() => lowered.close());

function text(results: unknown): string {
  return results instanceof JsonText
    ? results.text
    : JSON.stringify(results, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
}

/** The query's answer on this thread: with kernels (and `host`, if any) or with closures only. */
async function answer(name: string, opts: { host?: ParallelHost; closures?: boolean } = {}): Promise<string> {
  const query = registryFor(db).installed('g', name, db.catalog);
  selectKernels.enabled = opts.closures !== true;
  try {
    const r = await executeQuery(db, query, {}, opts.host ? { parallel: opts.host } : {});
    return text(r.results);
  } finally {
    selectKernels.enabled = true;
  }
}

test('split POST-ACCUM groups and kept sources answer as the closures do', async () => {
  const host = new HelperHost();
  for (const [name] of QUERIES) {
    const closures = await answer(name, { closures: true });
    assert.equal(await answer(name), closures, `${name}, one thread`);
    assert.equal(await answer(name, { host }), closures, `${name}, split`);
  }
  const posts = host.jobs.filter((j) => j.phase >= 0);
  assert.ok(
    posts.some((j) => j.columns.some((c) => c.vals instanceof Int32Array)),
    'a group over 32-bit integer cells (Min/MaxAccum<INT>) was split',
  );
  assert.ok(
    posts.some((j) => j.columns.some((c) => c.spill.length > 0)),
    'a group was split while integer cells had spilled',
  );
  assert.ok(
    posts.some((j) => j.columns.some((c) => c.prev.length > 0)),
    "a group that reads @x' of spilled cells was split",
  );
  assert.ok(
    posts.some(
      (j) =>
        j.columns.some((c) => c.vals instanceof Float32Array) &&
        j.globals.some(([, t]) => t.accum === 'MaxAccum' && t.elem.kind === 'DOUBLE'),
    ),
    'a group over SumAccum<FLOAT> cells with a float MaxAccum global was split',
  );
});

test("a vertex-only SELECT's sources, kept as they are, are the next round's list (no copy)", async () => {
  const host = new HelperHost();
  await answer('ranks', { host });
  // The loop's POST-ACCUM groups over All: the out-degree pass, then one per iteration.
  const overAll = host.jobs.filter((j) => j.phase >= 0 && j.count === 700);
  assert.ok(overAll.length >= 4, `${overAll.length} split groups over All`);
  const buffers = new Set(overAll.map((j) => j.gids.buffer));
  assert.equal(buffers.size, 1, 'every round split the same shared list');
});

test('answers are the same at 1, 2 and 4 worker threads', async () => {
  const reference = await Promise.all(QUERIES.map(([name]) => answer(name, { closures: true })));
  for (const threads of [1, 2, 4]) {
    const pool = new QueryPool(db, { threads, entry: ENTRY, parallelSelect: LOWERED });
    attachPool(db, pool);
    try {
      for (let i = 0; i < QUERIES.length; i++) {
        const [name] = QUERIES[i];
        const query = registryFor(db).installed('g', name, db.catalog);
        const r = await runQuery(db, { kind: 'installed', graph: 'g', query, args: {} });
        assert.equal(text(r.results), reference[i], `${name} on ${threads} threads`);
      }
      if (threads > 1) assert.ok(pool.stats.helped > 0, `helpers joined at ${threads} threads`);
    } finally {
      await pool.close();
    }
  }
});

test('a splitting query gets its helper with the task, one query right after another', async () => {
  const pool = new QueryPool(db, { threads: 2, entry: ENTRY, parallelSelect: LOWERED });
  attachPool(db, pool);
  try {
    const query = registryFor(db).installed('g', 'ranks', db.catalog);
    const run = () => runQuery(db, { kind: 'installed', graph: 'g', query, args: {} });
    // The first query starts the second worker, which comes late (asked for at the first split).
    await run();
    const { helped, asked } = pool.stats;
    for (let i = 0; i < 6; i++) await run();
    // The helper of one query is free as soon as its owner answers, so it comes with the next task
    // instead of being asked for (late) at that query's first split.
    assert.equal(pool.stats.helped - helped, 6);
    assert.equal(pool.stats.asked - asked, 0);
  } finally {
    await pool.close();
  }
});
