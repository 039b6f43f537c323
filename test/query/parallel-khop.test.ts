/**
 * A SELECT's result list is written once (query/run-buffers.ts's piecesList, storage-order.ts's
 * sortedList): a split's partitions' listed targets become the result in one copy, and a SELECT on
 * one thread lists a dense result from its marks straight into the list it returns. k-hop reach
 * (each hop's result is the next hop's sources, and its POST-ACCUM walks it) must give the
 * frontiers a breadth-first search computes here, in storage order, on one thread, with every
 * partition taken in reverse, and on 2 and 4 query workers.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { VertexRef } from '../../src/catalog/value.js';
import type { Database } from '../../src/engine/database.js';
import { type ParallelHost, parallelSelect } from '../../src/query/index.js';
import { guidedCuts, weightedBounds } from '../../src/query/parallel-plan.js';
import type { SelectRun } from '../../src/query/select-kernel-types.js';
import { newGidList, piecesList, resultLists, RunBuffers } from '../../src/query/run-buffers.js';
import { sortedList } from '../../src/query/storage-order.js';
import { HOPS, LOWERED, N, SCHEMA, writeHubGraph } from './hub-graph.js';
import {
  type LoweredDb,
  loweredQueryDb,
  printedAnswer,
  ReverseHost,
  rnd,
  withQueryPool,
} from './parallel-fixture.js';

/** The same walk keeping only targets with an even k (HAVING compacts the result list in place). */
const EVEN = `CREATE QUERY even(VERTEX<V> s, INT k) FOR GRAPH g {
  OrAccum @seen; ListAccum<INT> @@sizes; INT i = 0;
  F = {s};
  F = SELECT v FROM F:v POST-ACCUM v.@seen += true;
  WHILE i < k AND F.size() > 0 DO
    F = SELECT t FROM F:v -(E>)- V:t WHERE t.@seen == false POST-ACCUM t.@seen += true HAVING t.k % 2 == 0;
    @@sizes += F.size();
    i = i + 1;
  END;
  PRINT @@sizes, F.size() AS last;
}`;

/**
 * A pulled ACCUM whose row calls a closure over the source (`floor`: no inline code), beside a
 * hoisted float value: the pull binds the source per in-edge for the closure.
 */
const PULLED = `CREATE QUERY pulled() FOR GRAPH g {
  MaxAccum<INT> @m = -1; SumAccum<DOUBLE> @r;
  All = {V.*};
  X = SELECT t FROM All:v -(E>)- V:t ACCUM t.@m += floor(v.k * 1.5), t.@r += v.k / 4.0;
  All = SELECT v FROM All:v ACCUM @@m += v.@m, @@r += v.@r;
  PRINT @@m, @@r;
}`.replace('MaxAccum<INT> @m = -1;', 'MaxAccum<INT> @m = -1; ListAccum<INT> @@m; ListAccum<DOUBLE> @@r;');

const QUERIES: [string, string][] = [
  ['hops', HOPS],
  ['even', EVEN],
  ['pulled', PULLED],
];

let lowered: LoweredDb;
let db: Database;
/** Out-neighbours and k by id, as written (the reference's own copy of the graph). */
let out: number[][];
let ks: number[];

before(async () => {
  lowered = await loweredQueryDb('ocelot-khop-', SCHEMA, QUERIES, LOWERED);
  db = lowered.db;
  ({ out, ks } = await writeHubGraph(lowered, N, 4242));
});

after(() => lowered.close());

/** Breadth-first frontiers from s (k hops), each in storage order (ids were inserted in order). */
function bfs(s: number, k: number, keep: (v: number) => boolean = () => true): number[][] {
  const seen = new Uint8Array(N);
  seen[s] = 1;
  let frontier = [s];
  const hops: number[][] = [];
  for (let i = 0; i < k && frontier.length > 0; i++) {
    const next: number[] = [];
    for (const v of frontier)
      for (const t of out[v])
        if (seen[t] === 0) {
          seen[t] = 1;
          next.push(t);
        }
    frontier = next.filter(keep).sort((a, b) => a - b);
    hops.push(frontier);
  }
  return hops;
}

async function answer(
  name: string,
  args: Record<string, unknown>,
  host?: ParallelHost | 'pool',
): Promise<unknown> {
  return JSON.parse(await printedAnswer(db, name, host ?? 'here', args));
}

/** The k-hop queries (checked against bfs). */
const WALKS = ['hops', 'even'];

/** Seeds: hubs and vertices a few hops from them. */
const SEEDS = [0, 3, 17, 250, 1234, 2999];

/** SEEDS and a vertex without out-edges (its first hop is empty). */
function withLone(): number[] {
  const lone = out.findIndex((o) => o.length === 0);
  assert.ok(lone >= 0, 'a vertex without out-edges');
  return [...SEEDS, lone];
}

function expected(name: string, s: number, k: number): unknown {
  if (name === 'hops') {
    const hops = bfs(s, k);
    return [{ '@@sizes': hops.map((h) => h.length), '@@order': hops.flat() }];
  }
  const hops = bfs(s, k, (v) => ks[v] % 2 === 0);
  return [{ '@@sizes': hops.map((h) => h.length), last: hops[hops.length - 1].length }];
}

test('guided cuts end in equal partitions of at most the least size, never growing', () => {
  for (const total of [1000, 12_345.6, 1e6])
    for (const threads of [2, 4])
      for (const most of [3, 64, 1000, 1e9]) {
        const cuts = guidedCuts(total, threads, most);
        const sizes = [...cuts, total].map((c, i) => c - (i === 0 ? 0 : cuts[i - 1]));
        const least = total / Math.min(most, parallelSelect.tailParts);
        const what = `${total} on ${threads} threads, at most ${most}`;
        assert.ok(
          sizes.length <= Math.min(most, parallelSelect.tailParts),
          `${what}: ${sizes.length} partitions`,
        );
        sizes.forEach((size, i) => {
          assert.ok(size > 0, what);
          if (i > 0) assert.ok(size <= sizes[i - 1] * (1 + 1e-9), `${what}: partition ${i} grows`);
        });
        // The last is one of the tail's: no larger than the least, no smaller than half of it.
        const last = sizes[sizes.length - 1];
        assert.ok(last <= least * (1 + 1e-9) && last >= least / 2, `${what}: last ${last} of least ${least}`);
      }
  assert.equal(guidedCuts(1000, 2, 1000)[0], 250);
  assert.deepEqual(guidedCuts(0, 2, 100), []);
  assert.deepEqual(guidedCuts(1000, 2, 1), []);
});

test('weighted bounds: a target weighs perTarget in-edges, so the tail of few in-edges is cut finer', () => {
  // 64 hubs of 20,000 in-edges each, then 19,936 targets of one in-edge (RMAT's shape).
  const limit = 20_000;
  const offsets = new Int32Array(limit + 1);
  for (let g = 0; g < limit; g++) offsets[g + 1] = offsets[g] + (g < 64 ? 20_000 : 1);
  const st = {
    start: 0,
    end: 0,
    pullPlan(this: { start: number; end: number }) {
      this.start = 0;
      this.end = limit;
      return [{ view: { offsets }, base: 0 }];
    },
  } as unknown as SelectRun;
  const saved = parallelSelect.minPartition;
  parallelSelect.minPartition = 64;
  try {
    const last = (b: number[]): number => b[b.length - 1] - b[b.length - 2];
    const byEdges = weightedBounds(st, limit, 2);
    const byTargets = weightedBounds(st, limit, 2, 32);
    for (const b of [byEdges, byTargets]) {
      assert.equal(b[0], 0);
      assert.equal(b[b.length - 1], limit);
      for (let i = 1; i < b.length; i++) assert.ok(b[i] > b[i - 1]);
      for (let i = 1; i + 1 < b.length; i++) assert.equal(b[i] % 64, 0);
    }
    // One in-edge per target: the targets past the hubs weigh almost nothing, and the last
    // partition holds thousands of them; weighed by target it holds a few hundred.
    assert.ok(last(byEdges) > 2000, `last partition by edges: ${last(byEdges)}`);
    assert.ok(last(byTargets) <= 400, `last partition by targets: ${last(byTargets)}`);
  } finally {
    parallelSelect.minPartition = saved;
  }
});

test('piecesList: the pieces in order, in one list of their total length', () => {
  const r = rnd(9);
  const list = new Int32Array(1000).map(() => r(1 << 20));
  const bounds = [0, 100, 350, 351, 700, 1000];
  const counts = new Int32Array([40, 0, 1, 349, 300]);
  const want: number[] = [];
  for (let p = 0; p + 1 < bounds.length; p++) want.push(...list.subarray(bounds[p], bounds[p] + counts[p]));
  assert.deepEqual([...piecesList(list, bounds, counts)], want);
  assert.equal(piecesList(list, [0, 1000], new Int32Array([0])).length, 0);
});

test('sortedList: ascending, exactly the listed cells, whether sorted, dense or sparse', () => {
  const r = rnd(11);
  const mark = new Uint8Array(1 << 16);
  for (const [count, range] of [
    [0, 10],
    [1, 10],
    [5000, 20_000],
    [300, 60_000],
    [2000, 1 << 16],
  ]) {
    const picked = new Set<number>();
    while (picked.size < count) picked.add(r(range));
    const list = newGidList(count + 7);
    let n = 0;
    for (const g of picked) {
      list[n++] = g;
      mark[g] = 1;
    }
    list.fill(-1, n);
    const want = [...picked].sort((a, b) => a - b);
    assert.deepEqual([...sortedList(list, count, mark)], want, `${count} of ${range}`);
    list.set(want);
    assert.deepEqual([...sortedList(list, count, mark)], want, `${count} of ${range}, sorted`);
    for (const g of picked) mark[g] = 0;
  }
});

test('a pulled row whose closure reads the source gets it bound', async () => {
  const m = new Array<number>(N).fill(-1);
  const sum = new Array<number>(N).fill(0);
  for (let v = 0; v < N; v++)
    for (const t of [...out[v]].sort((a, b) => a - b)) {
      m[t] = Math.max(m[t], Math.floor(ks[v] * 1.5));
      sum[t] += ks[v] / 4;
    }
  const host = new ReverseHost();
  const got = (await answer('pulled', {}, host)) as [{ '@@m': number[]; '@@r': number[] }];
  assert.ok(
    host.jobs.some((j) => j.pull),
    'the ACCUM was pulled',
  );
  assert.deepEqual(got[0]['@@m'], m);
  assert.deepEqual(
    got[0]['@@r'].map((x) => Math.round(x * 1e6)),
    sum.map((x) => Math.round(x * 1e6)),
  );
  assert.deepEqual(await answer('pulled', {}), got);
});

test('k-hop frontiers equal a breadth-first search, on one thread and split in any order', async () => {
  let fused = 0;
  for (const name of WALKS)
    for (const s of SEEDS)
      for (const k of [1, 2, 3]) {
        const args = { s: new VertexRef('V', String(s)), k };
        const want = expected(name, s, k);
        assert.deepEqual(await answer(name, args), want, `${name} from ${s}, ${k} hops`);
        const host = new ReverseHost();
        assert.deepEqual(await answer(name, args, host), want, `${name} from ${s}, ${k} hops, split`);
        if (s === 0 && k === 3)
          assert.ok(
            host.jobs.some((j) => j.listing),
            `${name}: a split listed its targets`,
          );
        // A split by sources that ran the POST-ACCUM as it listed: no split POST-ACCUM after it.
        host.jobs.forEach((j, i) => {
          if (!j.fusedPost) return;
          fused++;
          assert.ok(j.bySource && j.listAfter, `${name} from ${s}: fused without a listing`);
          assert.ok(
            !(host.jobs[i + 1]?.phase >= 0),
            `${name} from ${s}: a POST-ACCUM split after a fused one`,
          );
        });
      }
  assert.ok(fused > 0, 'some hop ran its POST-ACCUM in the listing');
});

test('result lists from the kept arrays: large ones, a few per run, none shared within a run', () => {
  const saved = { ...resultLists };
  Object.assign(resultLists, { min: 100, perRun: 2 });
  try {
    const a = new RunBuffers();
    const small = a.resultList(99, 1000);
    const first = a.resultList(500, 1000);
    const second = a.resultList(100, 1000);
    const third = a.resultList(700, 1000);
    assert.deepEqual([small.length, first.length, second.length, third.length], [99, 500, 100, 700]);
    // Kept arrays hold a run's limit: two views of at least that, never the same memory in one run.
    assert.ok(first.buffer.byteLength >= 4000 && second.buffer.byteLength >= 4000);
    assert.notEqual(first.buffer, second.buffer);
    // Past perRun, and below min, lists are made fresh at their size.
    assert.equal(third.buffer.byteLength, 700 * 4);
    assert.equal(small.buffer.byteLength, 99 * 4);
    a.release(false);
    // The next run takes kept arrays again (the ones given back, or others as large).
    const b = new RunBuffers();
    const again = [b.resultList(400, 1000), b.resultList(400, 1000)];
    assert.ok(again.every((l) => l.length === 400 && l.buffer.byteLength >= 4000));
    assert.notEqual(again[0].buffer, again[1].buffer);
    b.release(false);
  } finally {
    Object.assign(resultLists, saved);
  }
});

test('k-hop frontiers equal a breadth-first search with result lists from the kept arrays', async () => {
  const saved = { ...resultLists };
  // Every list from the kept arrays, up to two per run (the third hop's is made fresh).
  Object.assign(resultLists, { min: 1, perRun: 2 });
  try {
    for (const s of withLone())
      for (const k of [0, 1, 2, 3, 4]) {
        const args = { s: new VertexRef('V', String(s)), k };
        const want = expected('hops', s, k);
        assert.deepEqual(await answer('hops', args), want, `from ${s}, ${k} hops`);
        assert.deepEqual(await answer('hops', args, new ReverseHost()), want, `from ${s}, ${k} hops, split`);
      }
  } finally {
    Object.assign(resultLists, saved);
  }
});

test('k-hop frontiers equal a breadth-first search on 2 and 4 query workers', async () => {
  for (const threads of [2, 4]) {
    await withQueryPool(
      db,
      threads,
      async (pool) => {
        for (const name of WALKS)
          for (const s of withLone())
            // No hop, hops whose frontier empties (a seed without out-edges), and 3 hops.
            for (const k of name === 'hops' ? [0, 1, 2, 3] : [3]) {
              const args = { s: new VertexRef('V', String(s)), k };
              assert.deepEqual(
                await answer(name, args, 'pool'),
                expected(name, s, k),
                `${name} from ${s}, ${k} hops, ${threads} threads`,
              );
            }
        assert.ok(pool.stats.helped > 0, 'some SELECT was split');
      },
      LOWERED,
    );
  }
});
