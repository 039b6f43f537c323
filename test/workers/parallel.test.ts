/**
 * The same answers at any thread count: queries covering every accumulator kind a SELECT kernel
 * updates (sums of FLOAT, DOUBLE and INT, Min/Max of INT and floats, Or, And, `@x'`, globals in
 * ACCUM), every other accumulator kind (List, Set, Bag, Map, Avg, Heap, BitwiseAnd/Or, GroupBy,
 * Array, vertex-attached and global), PageRank-like iterations, label propagation over a snapshot,
 * k-hop frontiers (from a hub too: one source, a row per vertex), POST-ACCUM groups with exact
 * globals, `@x'` and own cells (split by ranges) and with order-sensitive globals (not split), and
 * clauses that cannot be split (they must still agree), run over generated graphs on the event
 * loop, on one worker and on three, one query at a time and several at once. The split thresholds
 * are lowered so that small graphs are split (query/parallel.ts), and the test checks that
 * helpers were given.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { VertexRef } from '../../src/catalog/value.js';
import { Database } from '../../src/engine/database.js';
import { type CompiledQuery, registryFor } from '../../src/query/index.js';
import { runScript } from '../../src/shell/run-script.js';
import { JsonText } from '../../src/util/json.js';
import { attachPool, QueryPool, runQuery } from '../../src/workers/index.js';

const ENTRY = new URL('../../src/server/workers/thread.js', import.meta.url);

const SCHEMA = `
CREATE VERTEX V (PRIMARY_ID id INT, k INT, w DOUBLE, name STRING)
CREATE VERTEX W (PRIMARY_ID id STRING, k INT)
CREATE DIRECTED EDGE E (FROM V, TO V, weight DOUBLE) WITH REVERSE_EDGE="rE"
CREATE DIRECTED EDGE L (FROM V, TO V)
CREATE UNDIRECTED EDGE U (FROM V, TO W)
CREATE GRAPH g (*)
`;

/** Each query prints what it computed; vertex sets print their accumulators. */
const QUERIES = [
  `CREATE QUERY floats(INT iters) FOR GRAPH g {
    SumAccum<DOUBLE> @s = 1; SumAccum<DOUBLE> @r; SumAccum<FLOAT> @rf; INT i = 0;
    All = {V.*};
    WHILE i < iters DO
      X = SELECT t FROM All:v -(E>)- V:t ACCUM t.@r += v.@s / 3.0 + v.w, t.@rf += v.@s / 7.0;
      All = SELECT v FROM All:v POST-ACCUM v.@s = 0.15 + 0.85 * v.@r, v.@r = 0;
      i = i + 1;
    END;
    PRINT All;
  }`,
  `CREATE QUERY kinds() FOR GRAPH g {
    SumAccum<INT> @si; MinAccum<INT> @mi; MaxAccum<INT> @ma; MinAccum<DOUBLE> @mf; MaxAccum<FLOAT> @xf;
    OrAccum @o; AndAccum @a; SumAccum<INT> @@gs; MinAccum<INT> @@gmin; MaxAccum<DOUBLE> @@gmax;
    OrAccum @@gor; AndAccum @@gand;
    All = {V.*};
    R = SELECT t FROM All:v -(E>|L>)- V:t WHERE v.k % 3 != 1
        ACCUM t.@si += v.k, t.@mi += v.k, t.@ma += v.k, t.@mf += v.w, t.@xf += v.w,
              t.@o += v.k > 50, t.@a += v.k > 5, @@gs += v.k, @@gmin += v.k, @@gmax += v.w,
              @@gor += v.k == 7, @@gand += v.k >= 0;
    PRINT R;
    PRINT @@gs, @@gmin, @@gmax, @@gor, @@gand;
  }`,
  `CREATE QUERY labels() FOR GRAPH g {
    MinAccum<INT> @cc; SumAccum<INT> @@rounds;
    All = {V.*};
    Changed = SELECT v FROM All:v POST-ACCUM v.@cc = getvid(v);
    WHILE Changed.size() > 0 DO
      Changed = SELECT t FROM Changed:v -(E>|<E:e)- V:t WHERE v.@cc < t.@cc ACCUM t.@cc += v.@cc;
      @@rounds += 1;
    END;
    PRINT All, @@rounds;
  }`,
  `CREATE QUERY library_labels() FOR GRAPH g {
    MinAccum<INT> @cc; MapAccum<INT, INT> @@sizes;
    Start = {V.*};
    S = SELECT x FROM Start:x POST-ACCUM x.@cc = getvid(x);
    WHILE Start.size() > 0 DO
      Start = SELECT t FROM Start:s -(E>|rE>:e)- V:t ACCUM t.@cc += s.@cc HAVING t.@cc != t.@cc';
    END;
    Start = {V.*};
    Start = SELECT s FROM Start:s POST-ACCUM @@sizes += (s.@cc -> 1);
    PRINT @@sizes;
  }`,
  `CREATE QUERY hops(VERTEX<V> s, INT k) FOR GRAPH g {
    OrAccum @visited; SumAccum<INT> @@reached; ListAccum<INT> @@sizes; INT i = 0;
    Frontier = {s};
    Frontier = SELECT v FROM Frontier:v POST-ACCUM v.@visited += true;
    WHILE i < k AND Frontier.size() > 0 DO
      Frontier = SELECT t FROM Frontier:v -(E>|L>)- V:t WHERE t.@visited == false POST-ACCUM t.@visited += true;
      @@reached += Frontier.size(); @@sizes += Frontier.size();
      i = i + 1;
    END;
    PRINT @@reached, @@sizes, Frontier;
  }`,
  `CREATE QUERY mixed() FOR GRAPH g {
    SumAccum<DOUBLE> @@total; ListAccum<INT> @l; SumAccum<INT> @deg; SumAccum<DOUBLE> @u;
    All = {V.*};
    R = SELECT t FROM All:v -(U)- W:t ACCUM t.@deg += 1, @@total += v.w, t.@u += v.w * 0.1;
    Q = SELECT t FROM All:v -(E>:e)- V:t ACCUM t.@l += v.k, t.@deg += 1 ORDER BY t.@deg DESC, t.k LIMIT 7;
    Z = SELECT t FROM All:v -(L>)- V:t ACCUM t.@deg += 2 LIMIT 5;
    PRINT R, Q, Z, @@total;
  }`,
  `CREATE QUERY others() FOR GRAPH g {
    TYPEDEF TUPLE<INT k, DOUBLE w> KW;
    ListAccum<INT> @li; SetAccum<INT> @se; BagAccum<INT> @ba; MapAccum<INT, SumAccum<INT>> @ma;
    AvgAccum @av; HeapAccum<KW>(3, k DESC, w ASC) @he; BitwiseOrAccum @bo; BitwiseAndAccum @bn;
    SetAccum<STRING> @@names; BagAccum<INT> @@bag; MapAccum<INT, MaxAccum<DOUBLE>> @@map; AvgAccum @@avg;
    HeapAccum<KW>(5, w DESC, k ASC) @@heap; BitwiseOrAccum @@bor; BitwiseAndAccum @@band;
    GroupByAccum<INT m, SumAccum<INT> n, MaxAccum<DOUBLE> top> @@groups; ArrayAccum<SumAccum<INT>> @@arr[4];
    All = {V.*};
    R = SELECT t FROM All:v -(E>|L>)- V:t
        ACCUM t.@li += v.k, t.@se += v.k % 5, t.@ba += v.k % 3, t.@ma += (v.k % 4 -> 1), t.@av += v.k,
              t.@he += KW(v.k, v.w), t.@bo += v.k, t.@bn += v.k + 1024,
              @@names += v.name, @@bag += v.k % 7, @@map += (v.k % 6 -> v.w), @@avg += v.w,
              @@heap += KW(v.k, v.w), @@bor += v.k, @@band += v.k + 4096,
              @@groups += (v.k % 4 -> 1, v.w), @@arr[v.k % 4] += 1;
    PRINT R[R.@se, R.@ba, R.@ma, R.@av, R.@he, R.@bo, R.@bn, R.@li];
    PRINT @@names, @@bag, @@map, @@avg, @@heap, @@bor, @@band, @@groups, @@arr;
  }`,
  `CREATE QUERY edge_marks() FOR GRAPH g {
    OrAccum EDGE @seen; SumAccum<DOUBLE> EDGE @w; SumAccum<INT> @@unseen; SumAccum<DOUBLE> @@total;
    All = {V.*};
    R = SELECT t FROM All:v -(E>:e)- V:t WHERE v.k % 2 == 0 ACCUM e.@seen += TRUE, e.@w += e.weight * 2;
    R = SELECT t FROM All:v -(E>:e)- V:t WHERE NOT e.@seen ACCUM @@unseen += 1;
    R = SELECT t FROM All:v -(U:e)- W:t ACCUM e.@w += v.w;
    R = SELECT t FROM All:v -(E>|U:e)- :t ACCUM @@total += e.@w;
    PRINT @@unseen, @@total;
  }`,
  // POST-ACCUM groups: exact globals, own float/bool cells and their `@x'` split by ranges;
  // `@@g =`, float sums, lists and integer cells (they may spill) not.
  `CREATE QUERY posts() FOR GRAPH g {
    SumAccum<INT> @deg; SumAccum<DOUBLE> @s = 1; MaxAccum<INT> @best; OrAccum @big;
    SumAccum<INT> @@edges; MaxAccum<DOUBLE> @@top; MinAccum<INT> @@low; OrAccum @@any; AndAccum @@all;
    SumAccum<DOUBLE> @@fsum; SumAccum<INT> @@last; ListAccum<INT> @@order; SumAccum<INT> @@changed;
    All = {V.*};
    All = SELECT v FROM All:v
          POST-ACCUM v.@deg = v.outdegree("E"), v.@s = v.w / 7.0 + v.@deg, @@edges += v.@deg,
                     @@top += v.@s, @@low += v.k, @@any += v.k > 90, @@all += v.k >= 0;
    R = SELECT t FROM All:v -(E>|L>)- V:t ACCUM t.@best += v.k
        POST-ACCUM t.@big += t.@best' < t.@best, t.@s = t.@s * 0.5 + t.@best, @@changed += 1;
    R = SELECT v FROM All:v -(E>)- V:t ACCUM t.@deg += 1
        POST-ACCUM v.@best += v.@deg, @@changed += v.@deg;
    R = SELECT t FROM All:v -(E>)- V:t ACCUM t.@s += v.w POST-ACCUM t.@big += t.@s' * 2 < t.@s;
    X = SELECT v FROM All:v POST-ACCUM @@fsum += v.@s, @@last = v.k, @@order += v.k;
    PRINT All, @@edges, @@top, @@low, @@any, @@all, @@fsum, @@last, @@order, @@changed;
  }`,
  `CREATE QUERY bigints() FOR GRAPH g {
    MaxAccum<INT> @big; MinAccum<INT> @low; MaxAccum<INT> @@top;
    All = {V.*};
    // Cells past the 32-bit range live in the owner's spill maps; a split ACCUM must read and
    // update them from their true values.
    All = SELECT v FROM All:v POST-ACCUM v.@big += 5000000000 + v.k, v.@low += -5000000000 - v.k;
    R = SELECT t FROM All:v -(E>)- V:t
        ACCUM t.@big += v.@big - 1, t.@low += v.@low + 1, @@top += v.@big;
    PRINT All, @@top;
  }`,
];

const RUNS: [string, Record<string, unknown>][] = [
  ['others', {}],
  ['floats', { iters: 4 }],
  ['kinds', {}],
  ['labels', {}],
  ['library_labels', {}],
  ['hops', { s: new VertexRef('V', '0'), k: 3 }],
  ['mixed', {}],
  ['edge_marks', {}],
  ['posts', {}],
  ['bigints', {}],
  // From the hub: one source with a row per vertex (split by rows, not sources).
  ['hops', { s: new VertexRef('V', '1'), k: 3 }],
];

interface Graph {
  n: number;
  w: number;
  e: [number, number, number][];
  l: [number, number][];
  u: [number, number][];
  k: number[];
  wt: number[];
}

const graphArb: fc.Arbitrary<Graph> = fc
  .record({ n: fc.integer({ min: 300, max: 900 }), w: fc.integer({ min: 5, max: 60 }), seed: fc.integer() })
  .map(({ n, w, seed }) => {
    let x = seed | 1;
    const rnd = (m: number): number => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return (x >>> 0) % m;
    };
    const e: [number, number, number][] = [];
    for (let i = 0; i < n * 4; i++) e.push([rnd(n), rnd(n), rnd(1000) / 7]);
    // A hub (vertex 1) with an edge to every vertex.
    for (let i = 0; i < n; i++) e.push([1, i, rnd(1000) / 7]);
    const l: [number, number][] = [];
    for (let i = 0; i < n; i++) l.push([rnd(n), rnd(n)]);
    const u: [number, number][] = [];
    for (let i = 0; i < n; i++) u.push([rnd(n), rnd(w)]);
    return {
      n,
      w,
      e,
      l,
      u,
      k: Array.from({ length: n }, () => rnd(100)),
      wt: Array.from({ length: n }, () => rnd(10_000) / 3),
    };
  });

async function load(db: Database, g: Graph): Promise<void> {
  await db.write((tx) => {
    for (let i = 0; i < g.n; i++)
      tx.upsertVertex('V', i, {
        k: { value: g.k[i], op: 'set' },
        w: { value: g.wt[i], op: 'set' },
        name: { value: `n${g.k[i] % 10}`, op: 'set' },
      });
    for (let j = 0; j < g.w; j++) tx.upsertVertex('W', `w${j}`, { k: { value: j, op: 'set' } });
    for (const [a, b, wt] of g.e) tx.upsertEdge('E', 'V', a, 'V', b, { weight: { value: wt, op: 'set' } });
    for (const [a, b] of g.l) tx.upsertEdge('L', 'V', a, 'V', b, {});
    for (const [a, b] of g.u) tx.upsertEdge('U', 'V', a, 'W', `w${b}`, {});
  });
}

/** Every query's JSON answer. */
async function answers(db: Database): Promise<string[]> {
  const registry = registryFor(db);
  const out: string[] = [];
  for (const [name, args] of RUNS) {
    const query: CompiledQuery = registry.installed('g', name, db.catalog);
    const r = await runQuery(db, { kind: 'installed', graph: 'g', query, args });
    out.push(r.results instanceof JsonText ? r.results.text : JSON.stringify(r.results));
  }
  return out;
}

test('every kernel and accumulator kind answers the same on 0, 1 and 3 threads, merged or not', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ocelot-par-'));
  let run = 0;
  try {
    await fc.assert(
      fc.asyncProperty(graphArb, fc.boolean(), async (g, merged) => {
        const db = await Database.open({
          dataDir: join(dir, `db${run++}`),
          sync: 'none',
          rebuildIntervalMs: 0,
          // The storage stays as loaded (or rebuilt) between the reference and the runs compared
          // with it: a merge reorders edges, and order-sensitive results follow the storage order.
          idleMergeMs: 0,
        });
        try {
          let out = '';
          assert.equal(await runScript(db, SCHEMA, { user: 'tigergraph' }, (t) => (out += t)), 0, out);
          const registry = registryFor(db);
          for (const q of QUERIES) {
            assert.equal(
              await runScript(db, `USE GRAPH g\n${q}`, { user: 'tigergraph' }, (t) => (out += t)),
              0,
              out,
            );
          }
          await registry.install('g', 'all', db.catalog, true);
          await load(db, g);
          if (merged) await db.rebuild({ path: join(dir, `summary${run}`) });
          const reference = await answers(db);
          if (process.env.PEEK) console.log(reference.map((r) => r.slice(0, 300)).join('\n'));
          for (const threads of [1, 3]) {
            const pool = new QueryPool(db, {
              threads,
              entry: ENTRY,
              parallelSelect: { minSources: 16, minPartition: 64, sourceCost: 2, pullCost: 1 },
            });
            attachPool(db, pool);
            try {
              const got = await answers(db);
              RUNS.forEach(([name], i) =>
                assert.equal(got[i], reference[i], `${name} on ${threads} threads`),
              );
              // Queries at once: a waiting task takes back the workers serving another's SELECTs.
              const together = await Promise.all([answers(db), answers(db)]);
              for (const g of together)
                RUNS.forEach(([name], i) =>
                  assert.equal(g[i], reference[i], `${name} at once on ${threads}`),
                );
              if (threads > 1 && merged) assert.ok(pool.stats.helped > 0, 'some SELECT was split');
            } finally {
              await pool.close();
            }
          }
        } finally {
          await db.close();
        }
      }),
      { numRuns: 4 },
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
