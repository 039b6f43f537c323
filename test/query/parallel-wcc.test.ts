/**
 * A vertex-only SELECT's pass over its sources (WHERE, and ACCUM updates of exact globals) split by
 * ranges of the sources (query/select-kernel.ts's parallelSourcePass), as WCC's closing
 * `Roots = SELECT v FROM All:v WHERE v.@cc == getvid(v)`: the same answers as one thread, through
 * a host that plays the other threads here (in reverse order) and on 1 and 2 query workers (also
 * over two vertex types at once, and over one of them while the other's cells keep a spilled
 * initial state); the
 * other walks where the run's state rules the source split out (spilled integer cells); no split
 * where the clause writes a vertex accumulator or sums floats.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Database } from '../../src/engine/database.js';
import { type AccumJob, type ParallelHost } from '../../src/query/index.js';
import { attachPool, QueryPool, releasePool } from '../../src/workers/index.js';
import {
  labelsQuery,
  LOWERED,
  type LoweredDb,
  loweredQueryDb,
  printedAnswer,
  ReverseHost,
  rnd,
} from './parallel-fixture.js';

const ENTRY = new URL('../../src/server/workers/thread.js', import.meta.url);
const N = 1200;

const SCHEMA = `
CREATE VERTEX V (PRIMARY_ID id INT, k INT, w DOUBLE)
CREATE VERTEX W (PRIMARY_ID id INT, k INT, w DOUBLE)
CREATE DIRECTED EDGE E (FROM V, TO V) WITH REVERSE_EDGE="rE"
CREATE GRAPH g (*)
`;

const QUERIES: [string, string][] = [
  ['wcc', labelsQuery('wcc', 'V.*, W.*', 'Roots')],
  [
    // Over one type of two: W's @cc cells keep MinAccum<INT>'s initial state, which spills; the
    // clause never reads them, so the split by sources stays open.
    'wcc_one_type',
    labelsQuery('wcc_one_type', 'V.*', 'Roots'),
  ],
  [
    'filter',
    `CREATE QUERY filter() FOR GRAPH g {
      SumAccum<INT> @@n; MaxAccum<INT> @@mx; MinAccum<INT> @@mn; OrAccum @@o; AndAccum @@a;
      All = {V.*};
      R = SELECT v FROM All:v WHERE v.k % 7 == 3 AND v.w > 100.0
          ACCUM @@n += 1, @@mx += v.k * 3, @@mn += v.k - 9, @@o += v.k == 45, @@a += v.w > 0.0;
      L = SELECT v FROM All:v WHERE v.k > 80 LIMIT 7;
      H = SELECT v FROM All:v WHERE v.k < 30 HAVING v.w < 2000.0;
      Both = {V.*, W.*};
      B = SELECT v FROM Both:v WHERE v.k % 5 == 1 ACCUM @@n += 1;
      PRINT R, L, H, B, @@n, @@mx, @@mn, @@o, @@a;
    }`,
  ],
  [
    // Cells past 32 bits spill: the source split is ruled out, the partition walks do the pass.
    'spilled',
    `CREATE QUERY spilled() FOR GRAPH g {
      MaxAccum<INT> @big; SumAccum<INT> @@n;
      All = {V.*};
      All = SELECT v FROM All:v POST-ACCUM v.@big = 8589934592 + v.k;
      R = SELECT v FROM All:v WHERE v.@big % 3 == 0 ACCUM @@n += 1;
      PRINT R, @@n;
    }`,
  ],
  [
    // Writes a vertex accumulator and sums floats: not split.
    'not_split',
    `CREATE QUERY not_split() FOR GRAPH g {
      SumAccum<INT> @x; SumAccum<DOUBLE> @@f;
      All = {V.*};
      R = SELECT v FROM All:v WHERE v.k > 5 ACCUM v.@x += 2, @@f += v.w;
      S = SELECT v FROM All:v WHERE v.k > 50 ACCUM @@f += v.w;
      PRINT R, @@f;
    }`,
  ],
];

let dir = '';
let db: Database;
let lowered: LoweredDb;
const edges: [number, number][] = [];

before(async () => {
  lowered = await loweredQueryDb('ocelot-wcc-', SCHEMA, QUERIES);
  ({ dir, db } = lowered);
  const r = rnd(2025);
  await db.write((tx) => {
    for (let i = 0; i < N; i++)
      tx.upsertVertex('V', i, { k: { value: r(100), op: 'set' }, w: { value: r(40_000) / 9, op: 'set' } });
    for (let i = 0; i < N / 2; i++) tx.upsertVertex('W', i, { k: { value: r(100), op: 'set' } });
    // Hubs at low ids, and many small components among the ids past N/2.
    for (let i = 0; i < N; i++) {
      const a = r(3) === 0 ? r(10) : r(N / 2);
      const b = r(N / 2);
      tx.upsertEdge('E', 'V', a, 'V', b, {});
      edges.push([a, b]);
    }
    for (let i = N / 2; i + 2 < N; i += 4) {
      tx.upsertEdge('E', 'V', i, 'V', i + 2, {});
      edges.push([i, i + 2]);
    }
  });
  await db.rebuild({ path: join(dir, 'summary') });
});

after(() => lowered.close());

const answer = (name: string, where: ParallelHost | 'here' | 'pool'): Promise<string> =>
  printedAnswer(db, name, where);

/** The walks of split ACCUM phases. */
function walks(jobs: AccumJob[]): Set<string> {
  return new Set(
    jobs.filter((j) => j.phase < 0).map((j) => (j.bySource ? 'sources' : j.pull ? 'pull' : 'push')),
  );
}

/** The walks of the vertex-only passes (jobs of an ACCUM phase without an edge step). */
function sourcePasses(jobs: AccumJob[]): string[] {
  return jobs
    .filter((j) => j.phase < 0 && j.steps.length === 0)
    .map((j) => (j.bySource ? 'sources' : j.pull ? 'pull' : 'push'));
}

function components(): number {
  const up = Array.from({ length: N }, (_, i) => i);
  const root = (x: number): number => (up[x] === x ? x : (up[x] = root(up[x])));
  for (const [a, b] of edges) up[root(a)] = root(b);
  return up.filter((_, i) => root(i) === i).length;
}

test('a vertex-only pass split by sources answers as one thread does', async () => {
  const wcc = JSON.parse(await answer('wcc', 'here')) as [{ '@@components': number }];
  // W's vertices have no edges: each is a component of its own.
  assert.equal(wcc[0]['@@components'], components() + N / 2);
  const passes: Record<string, string[]> = {};
  const all: Record<string, Set<string>> = {};
  for (const [name] of QUERIES) {
    const host = new ReverseHost();
    assert.equal(await answer(name, host), await answer(name, 'here'), name);
    passes[name] = sourcePasses(host.jobs);
    all[name] = walks(host.jobs);
  }
  assert.deepEqual(passes.wcc, ['sources']);
  assert.deepEqual(passes.wcc_one_type, ['sources']);
  assert.deepEqual(all.wcc_one_type, new Set(['sources']));
  assert.deepEqual(passes.filter, ['sources', 'sources', 'sources', 'sources']);
  assert.ok(passes.spilled.length === 1 && passes.spilled[0] !== 'sources', passes.spilled.join());
  assert.deepEqual(passes.not_split, []);
});

test('vertex-only passes give the same answers on 1 and 2 query workers', async () => {
  const reference = new Map<string, string>();
  for (const [name] of QUERIES) reference.set(name, await answer(name, 'here'));
  for (const threads of [1, 2]) {
    const pool = new QueryPool(db, { threads, entry: ENTRY, parallelSelect: LOWERED });
    attachPool(db, pool);
    try {
      for (const [name] of QUERIES)
        assert.equal(await answer(name, 'pool'), reference.get(name), `${name} on ${threads} threads`);
      if (threads > 1) assert.ok(pool.stats.helped > 0, 'some SELECT was split');
    } finally {
      await releasePool(db);
    }
  }
});
