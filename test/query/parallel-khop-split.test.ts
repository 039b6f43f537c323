/**
 * A k-hop's hops from a few sources with many rows (query/parallel.ts's worthSplitting): a clause
 * split by sources splits from 16 × minSources rows, however large the run, and its source ranges
 * (parallel-plan.ts's sourceBounds) cut a few sources into several, the large first. The frontiers and the Or, Min, Max and And cells the hops write must be what a
 * breadth-first search computes here, on one thread, with every partition taken in reverse, and
 * on 2 and 4 query workers: empty frontiers, hubs, and frontiers past the bottom-up threshold.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { VertexRef } from '../../src/catalog/value.js';
import type { Database } from '../../src/engine/database.js';
import { type ParallelHost, parallelSelect } from '../../src/query/index.js';
import { sourceBounds } from '../../src/query/parallel-plan.js';
import { bottomUpSteps } from '../../src/query/select-bottom-up.js';
import type { SelectRun } from '../../src/query/select-kernel-types.js';
import { HOPS, LOWERED, N, SCHEMA, writeHubGraph } from './hub-graph.js';
import {
  type LoweredDb,
  loweredQueryDb,
  printedAnswer,
  ReverseHost,
  withQueryPool,
} from './parallel-fixture.js';

/** The same walk carrying Min, Max and And cells from each frontier to the next. */
const KINDS = `CREATE QUERY kinds(VERTEX<V> s, INT k) FOR GRAPH g {
  OrAccum @seen; MinAccum<INT> @low = 1000000; MaxAccum<INT> @high = -1; AndAccum @all;
  ListAccum<INT> @@sizes; ListAccum<INT> @@lows; ListAccum<INT> @@highs; ListAccum<BOOL> @@alls;
  INT i = 0;
  All = {V.*};
  All = SELECT v FROM All:v POST-ACCUM v.@low = v.n, v.@high = v.n, v.@all = (v.k % 5 != 0);
  F = {s};
  F = SELECT v FROM F:v POST-ACCUM v.@seen += true;
  WHILE i < k AND F.size() > 0 DO
    F = SELECT t FROM F:v -(E>)- V:t WHERE t.@seen == false
        ACCUM t.@low += v.@low, t.@high += v.@high, t.@all += v.@all
        POST-ACCUM t.@seen += true;
    @@sizes += F.size();
    i = i + 1;
  END;
  R = SELECT v FROM All:v ACCUM @@lows += v.@low, @@highs += v.@high, @@alls += v.@all;
  PRINT @@sizes, @@lows, @@highs, @@alls;
}`;

/**
 * A walk whose POST-ACCUM reads `@low'`: the column keeps its previous values this run, which rules
 * the split by sources out at run time; cut by target, a hop from a few sources must then have a
 * row per run index to split (worthSplitting).
 */
const PRIMED = `CREATE QUERY primed(VERTEX<V> s, INT k) FOR GRAPH g {
  OrAccum @seen; MinAccum<INT> @low = 1000000; SumAccum<INT> @@lowered; ListAccum<INT> @@sizes;
  INT i = 0;
  All = {V.*};
  All = SELECT v FROM All:v POST-ACCUM v.@low = v.n;
  F = {s};
  F = SELECT v FROM F:v POST-ACCUM v.@seen += true;
  WHILE i < k AND F.size() > 0 DO
    F = SELECT t FROM F:v -(E>)- V:t WHERE t.@seen == false
        ACCUM t.@low += v.@low
        POST-ACCUM t.@seen += true, IF t.@low < t.@low' THEN @@lowered += 1 END;
    @@sizes += F.size();
    i = i + 1;
  END;
  PRINT @@sizes, @@lowered;
}`;

const QUERIES: [string, string][] = [
  ['hops', HOPS],
  ['kinds', KINDS],
  ['primed', PRIMED],
];

let lowered: LoweredDb;
let db: Database;
/** Out-neighbours and k by id, as written (the reference's own copy of the graph). */
let out: number[][];
let ks: number[];

before(async () => {
  lowered = await loweredQueryDb('ocelot-khop-split-', SCHEMA, QUERIES, LOWERED);
  db = lowered.db;
  ({ out, ks } = await writeHubGraph(lowered, N, 777));
});

after(() => lowered.close());

/** Breadth-first frontiers from s (k hops) in storage order, and the cells KINDS leaves. */
function reference(
  s: number,
  k: number,
): { hops: number[][]; low: number[]; high: number[]; all: boolean[]; lowered: number } {
  const low = Array.from({ length: N }, (_, v) => v);
  const high = [...low];
  const all = ks.map((x) => x % 5 !== 0);
  const seen = new Uint8Array(N);
  seen[s] = 1;
  let frontier = [s];
  const hops: number[][] = [];
  let lowered = 0;
  for (let i = 0; i < k && frontier.length > 0; i++) {
    const next = new Set<number>();
    const was = [...low];
    // Sources are seen and targets not: no row reads a cell another row of the hop writes.
    for (const v of frontier)
      for (const t of out[v])
        if (seen[t] === 0) {
          next.add(t);
          low[t] = Math.min(low[t], low[v]);
          high[t] = Math.max(high[t], high[v]);
          all[t] = all[t] && all[v];
        }
    frontier = [...next].sort((a, b) => a - b);
    for (const t of frontier) seen[t] = 1;
    lowered += frontier.filter((t) => low[t] < was[t]).length;
    hops.push(frontier);
  }
  return { hops, low, high, all, lowered };
}

function expected(name: string, s: number, k: number): unknown {
  const { hops, low, high, all, lowered } = reference(s, k);
  const sizes = hops.map((h) => h.length);
  if (name === 'hops') return [{ '@@sizes': sizes, '@@order': hops.flat() }];
  if (name === 'primed') return [{ '@@sizes': sizes, '@@lowered': lowered }];
  return [{ '@@sizes': sizes, '@@lows': low, '@@highs': high, '@@alls': all }];
}

async function answer(name: string, s: number, k: number, host?: ParallelHost | 'pool'): Promise<unknown> {
  const args = { s: new VertexRef('V', String(s)), k };
  return JSON.parse(await printedAnswer(db, name, host ?? 'here', args));
}

/** The distinct out-neighbours of s but s, and their out-edges: the second hop's sources and rows. */
function secondHop(s: number): { sources: number; rows: number } {
  const f = [...new Set(out[s])].filter((t) => t !== s);
  return { sources: f.length, rows: f.reduce((n, v) => n + out[v].length, 0) };
}

/**
 * Seeds whose second hop has fewer than minSources sources and rows from 16 × minSources up to
 * the run's size: split by sources now, run alone before.
 */
function fewSourceSeeds(): number[] {
  const seeds: number[] = [];
  for (let s = 0; s < N && seeds.length < 4; s++) {
    const { sources, rows } = secondHop(s);
    if (sources >= 2 && sources < LOWERED.minSources && rows >= LOWERED.minSources * 16 && rows < N)
      seeds.push(s);
  }
  assert.ok(seeds.length > 0, 'a seed whose second hop has a few sources with many rows');
  return seeds;
}

/** Seeds: hubs, a few-source second hop, and a vertex without out-edges (its first hop is empty). */
function seeds(): number[] {
  const lone = out.findIndex((o) => o.length === 0);
  assert.ok(lone >= 0, 'a vertex without out-edges');
  return [0, 7, 1234, lone, ...fewSourceSeeds()];
}

test('a few sources with many rows are cut into several source ranges, the smallest last', () => {
  // 20 sources: one hub of 10,000 rows among 19 of 300 (16 × minSources is 256).
  const degrees = Array.from({ length: 20 }, (_, i) => (i === 3 ? 10_000 : 300));
  const offsets = new Int32Array(degrees.length + 1);
  degrees.forEach((d, i) => (offsets[i + 1] = offsets[i] + d));
  const view = { clean: true, offsets };
  const st = {
    start: 0,
    end: 0,
    locate(this: { start: number; end: number }) {
      this.start = 0;
      this.end = degrees.length;
      return [[{ view, base: 0 }]];
    },
  } as unknown as SelectRun;
  const gids = Int32Array.from(degrees, (_, i) => i);
  const bounds = sourceBounds(st, gids, 2);
  assert.ok(bounds !== undefined);
  assert.equal(bounds[0], 0);
  assert.equal(bounds[bounds.length - 1], degrees.length);
  for (let i = 1; i < bounds.length; i++) assert.ok(bounds[i] > bounds[i - 1]);
  // Several partitions per thread (at least 64 sources a partition made this one), the large
  // ones first: the last weighs at most an eighth of the whole, so no thread ends long alone.
  assert.ok(bounds.length - 1 >= 4, `${bounds.length - 1} partitions`);
  const weight = (from: number, to: number): number => degrees.slice(from, to).reduce((w, d) => w + d + 1, 0);
  const last = weight(bounds[bounds.length - 2], degrees.length);
  assert.ok(last <= weight(0, degrees.length) / 8, `the last partition weighs ${last}`);
  // Too few rows: not split.
  assert.equal(sourceBounds(st, gids.subarray(0, 0), 2), undefined);
});

test('a second hop from a few sources splits by sources and gives what one thread does', async () => {
  for (const s of fewSourceSeeds()) {
    const { sources } = secondHop(s);
    for (const name of ['hops', 'kinds', 'primed']) {
      const want = expected(name, s, 2);
      assert.deepEqual(await answer(name, s, 2), want, `${name} from ${s}`);
      const host = new ReverseHost();
      assert.deepEqual(await answer(name, s, 2, host), want, `${name} from ${s}, split`);
      if (name === 'hops')
        assert.ok(
          host.jobs.some((j) => j.bySource && j.phase < 0 && j.count === sources && j.bounds.length > 2),
          `hops from ${s}: the second hop (${sources} sources) was split by sources`,
        );
    }
  }
});

test('a few-source hop the split by sources cannot take is not cut by target below a row per run index', async () => {
  for (const s of fewSourceSeeds()) {
    const { sources } = secondHop(s);
    const want = expected('primed', s, 2);
    assert.deepEqual(await answer('primed', s, 2), want, `from ${s}`);
    const host = new ReverseHost();
    assert.deepEqual(await answer('primed', s, 2, host), want, `from ${s}, split`);
    assert.ok(
      !host.jobs.some((j) => j.phase < 0 && j.count === sources),
      `from ${s}: the second hop (${sources} sources) ran alone`,
    );
  }
});

test('k-hop frontiers and cells equal a breadth-first search, on one thread and split in any order', async () => {
  const before = bottomUpSteps.runs;
  for (const name of ['hops', 'kinds', 'primed'])
    for (const s of seeds())
      for (const k of [0, 1, 2, 3, 4]) {
        const want = expected(name, s, k);
        assert.deepEqual(await answer(name, s, k), want, `${name} from ${s}, ${k} hops`);
        assert.deepEqual(
          await answer(name, s, k, new ReverseHost()),
          want,
          `${name} from ${s}, ${k} hops, split`,
        );
      }
  assert.ok(bottomUpSteps.runs > before, 'some frontier grew past the bottom-up threshold');
});

test('k-hop frontiers and cells equal a breadth-first search on 2 and 4 query workers', async () => {
  for (const threads of [2, 4])
    await withQueryPool(
      db,
      threads,
      async (pool) => {
        for (const name of ['hops', 'kinds', 'primed'])
          for (const s of seeds())
            for (const k of [1, 2, 3]) {
              assert.deepEqual(
                await answer(name, s, k, 'pool'),
                expected(name, s, k),
                `${name} from ${s}, ${k} hops, ${threads} threads`,
              );
            }
        assert.ok(pool.stats.helped > 0, 'some SELECT was split');
      },
      LOWERED,
    );
  assert.equal(parallelSelect.minSources, LOWERED.minSources);
});
