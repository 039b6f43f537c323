/**
 * Label propagation split by sources (query/parallel-labels.ts, ParallelAccum's bySource
 * `labels`): the rows set no result marks, and the result is listed from the cells that changed.
 * Min labels (WCC, source-first filter) and Max labels (target-first filter) must equal the
 * components found by union-find and the one-thread answers, through a host that runs every
 * partition here and on 2 and 4 query workers (twice: each WHILE round's result feeds the next,
 * so a wrong listing ends the loop early or never). A clause with any other WHERE term keeps the
 * marking walk.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Database } from '../../src/engine/database.js';
import { registryFor } from '../../src/query/index.js';
import type { SelectKernel } from '../../src/query/select-kernel-types.js';
import {
  assertSameOnPools,
  type LoweredDb,
  loweredQueryDb,
  printedAnswer,
  ReverseHost,
  rnd,
} from './parallel-fixture.js';

const N = 1500;

const SCHEMA = `
CREATE VERTEX V (PRIMARY_ID id INT, k INT)
CREATE DIRECTED EDGE E (FROM V, TO V) WITH REVERSE_EDGE="rE"
CREATE GRAPH g (*)
`;

/** Min labels by a source-first filter, then Max labels by a target-first one. */
const LABELS = `CREATE QUERY labels() FOR GRAPH g {
  MinAccum<INT> @lo; MaxAccum<INT> @hi;
  All = {V.*};
  Changed = SELECT v FROM All:v POST-ACCUM v.@lo = v.k, v.@hi = v.k;
  WHILE Changed.size() > 0 DO
    Changed = SELECT t FROM Changed:v -(E>|<E:e)- V:t WHERE v.@lo < t.@lo ACCUM t.@lo += v.@lo;
  END;
  Changed = All;
  WHILE Changed.size() > 0 DO
    Changed = SELECT t FROM Changed:v -(E>|<E:e)- V:t WHERE t.@hi < v.@hi ACCUM t.@hi += v.@hi;
  END;
  PRINT All[All.@lo, All.@hi];
}`;

/** A second WHERE term: the rows into other targets need it, so no proposals. */
const FILTERED = `CREATE QUERY filtered() FOR GRAPH g {
  MinAccum<INT> @lo;
  All = {V.*};
  Changed = SELECT v FROM All:v POST-ACCUM v.@lo = v.k;
  WHILE Changed.size() > 0 DO
    Changed = SELECT t FROM Changed:v -(E>|<E:e)- V:t WHERE v.@lo < t.@lo AND t.k % 5 != 1 ACCUM t.@lo += v.@lo;
  END;
  PRINT All[All.@lo];
}`;

const QUERIES: [string, string][] = [
  ['labels', LABELS],
  ['filtered', FILTERED],
];

let db: Database;
let lowered: LoweredDb;
const edges: [number, number][] = [];

before(async () => {
  lowered = await loweredQueryDb('ocelot-labels-', SCHEMA, QUERIES);
  db = lowered.db;
  const r = rnd(77);
  await db.write((tx) => {
    // Keys in reverse of the ids: the smallest label sits at the highest run indexes.
    for (let i = 0; i < N; i++) tx.upsertVertex('V', i, { k: { value: 5 * (N - i), op: 'set' } });
    // Hubs at the lowest ids, one large component among the first half, small ones after it,
    // and the last vertices without edges.
    for (let i = 0; i < N; i++) {
      const a = r(3) === 0 ? r(8) : r(N / 2);
      const b = r(N / 2);
      tx.upsertEdge('E', 'V', a, 'V', b, {});
      edges.push([a, b]);
    }
    for (let i = N / 2; i + 3 < N - 40; i += 3) {
      tx.upsertEdge('E', 'V', i, 'V', i + 2, {});
      tx.upsertEdge('E', 'V', i + 1, 'V', i + 2, {});
      edges.push([i, i + 2], [i + 1, i + 2]);
    }
  });
  await db.rebuild({ path: join(lowered.dir, 'summary') });
});

after(() => lowered.close());

/** Each vertex's lowest and highest key in its component, by union-find. */
function reference(): Map<number, [number, number]> {
  const up = Array.from({ length: N }, (_, i) => i);
  const root = (x: number): number => (up[x] === x ? x : (up[x] = root(up[x])));
  for (const [a, b] of edges) up[root(a)] = root(b);
  const k = (i: number): number => 5 * (N - i);
  const lo = new Map<number, number>();
  const hi = new Map<number, number>();
  for (let i = 0; i < N; i++) {
    const c = root(i);
    lo.set(c, Math.min(lo.get(c) ?? Infinity, k(i)));
    hi.set(c, Math.max(hi.get(c) ?? -Infinity, k(i)));
  }
  return new Map(Array.from({ length: N }, (_, i) => [i, [lo.get(root(i))!, hi.get(root(i))!]]));
}

const answer = (name: string, where: ReverseHost | 'here' | 'pool'): Promise<string> =>
  printedAnswer(db, name, where);

type Printed = [{ All: { v_id: string; attributes: Record<string, number> }[] }];

test('label propagation listed from changed cells gives the union-find labels and one thread’s answer', async () => {
  const want = reference();
  const here = await answer('labels', 'here');
  const printed = (JSON.parse(here) as Printed)[0].All;
  assert.equal(printed.length, N);
  for (const v of printed) {
    const [lo, hi] = want.get(Number(v.v_id))!;
    assert.deepEqual([v.attributes['All.@lo'], v.attributes['All.@hi']], [lo, hi], `vertex ${v.v_id}`);
  }
  const query = registryFor(db).installed('g', 'labels', db.catalog);
  const labels = ((query.kernels ?? []) as SelectKernel[]).flatMap(
    (k) => k.wide.parallel?.bySource?.labels ?? [],
  );
  assert.deepEqual(
    labels.map((l) => l.min),
    [true, false],
    'both loops are label propagations (Min, Max)',
  );
  const host = new ReverseHost();
  assert.equal(await answer('labels', host), here);
  const listed = host.jobs.filter((j) => j.labels !== undefined);
  assert.ok(listed.length >= 2, 'rounds of both loops split');
  for (const j of listed) assert.ok(j.bySource && j.listAfter !== undefined);
});

test('a clause with another WHERE term keeps the marking walk, same answers', async () => {
  const query = registryFor(db).installed('g', 'filtered', db.catalog);
  const kernels = (query.kernels ?? []) as SelectKernel[];
  assert.ok(
    kernels.some((k) => k.wide.parallel?.bySource !== undefined),
    'split by sources',
  );
  assert.ok(
    kernels.every((k) => k.wide.parallel?.bySource?.labels === undefined),
    'no label walk',
  );
  const host = new ReverseHost();
  assert.equal(await answer('filtered', host), await answer('filtered', 'here'));
  assert.ok(host.jobs.some((j) => j.bySource) && host.jobs.every((j) => j.labels === undefined));
});

test('label propagation gives the same answers on 2 and 4 query workers', async () => {
  await assertSameOnPools(
    db,
    QUERIES.map(([name]) => name),
    answer,
  );
});
