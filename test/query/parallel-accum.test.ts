/**
 * The split ACCUM's two cheap walks give the one-thread answer (query/parallel.ts): split by ranges
 * of the sources with updates several threads make at once (Or, And, Min and Max of 32-bit
 * integers: label propagation, k-hop frontiers, globals beside them), and the pull that reads its
 * values over the source from arrays filled once per source (PageRank's `s.@score / s.@out`, float
 * sums bit for bit, values that are NaN or cannot be computed for some source). Also that a clause
 * the source split must not take (an integer sum, `@x'`, spilled integer cells) still agrees.
 * Answers are compared with the event loop's on 1, 2 and 4 query workers (real threads), and
 * through a host that plays the other threads here (in reverse order), which shows which walk each
 * split took.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { VertexRef } from '../../src/catalog/value.js';
import { Database } from '../../src/engine/database.js';
import { executeQuery, registryFor, type ParallelHost } from '../../src/query/index.js';
import { JsonText } from '../../src/util/json.js';
import { attachPool, QueryPool, releasePool, runQuery } from '../../src/workers/index.js';
import { LOWERED, type LoweredDb, loweredQueryDb, ReverseHost, rnd } from './parallel-fixture.js';

const ENTRY = new URL('../../src/server/workers/thread.js', import.meta.url);
const N = 1500;

const SCHEMA = `
CREATE VERTEX V (PRIMARY_ID id INT, k INT, w DOUBLE)
CREATE DIRECTED EDGE E (FROM V, TO V) WITH REVERSE_EDGE="rE"
CREATE UNDIRECTED EDGE S (FROM V, TO V)
CREATE GRAPH g (*)
`;

const QUERIES: [string, string, Record<string, unknown>][] = [
  [
    'rank',
    `CREATE QUERY rank() FOR GRAPH g {
      SumAccum<DOUBLE> @s = 1; SumAccum<DOUBLE> @r; SumAccum<FLOAT> @rf; SumAccum<INT> @out;
      SumAccum<DOUBLE> @@total; INT i = 0;
      All = {V.*};
      All = SELECT v FROM All:v POST-ACCUM v.@out = v.outdegree("E");
      WHILE i < 4 DO
        X = SELECT t FROM All:v -(E>)- V:t ACCUM t.@r += v.@s / v.@out, t.@rf += v.@s / 7.0 + v.w;
        All = SELECT v FROM All:v POST-ACCUM v.@s = 0.15 + 0.85 * v.@r, v.@r = 0;
        i = i + 1;
      END;
      All = SELECT v FROM All:v POST-ACCUM @@total += v.@s;
      PRINT @@total, All;
    }`,
    {},
  ],
  [
    // Values over the source that are NaN for some (sqrt of a negative number), or that cannot be
    // computed for sources whose rows WHERE drops (division by zero): no error, same sums.
    'odd_values',
    `CREATE QUERY odd_values() FOR GRAPH g {
      SumAccum<DOUBLE> @n; SumAccum<DOUBLE> @z;
      All = {V.*};
      X = SELECT t FROM All:v -(E>)- V:t ACCUM t.@n += sqrt(v.w - 1500.0);
      Y = SELECT t FROM All:v -(E>)- V:t WHERE v.k % 5 != 0 OR t.k > 1000 ACCUM t.@z += v.w / (v.k % 5);
      PRINT X, Y;
    }`,
    {},
  ],
  [
    'labels',
    `CREATE QUERY labels() FOR GRAPH g {
      MinAccum<INT> @cc; SumAccum<INT> @@components; SumAccum<INT> @@rounds;
      All = {V.*};
      Changed = SELECT v FROM All:v POST-ACCUM v.@cc = getvid(v);
      WHILE Changed.size() > 0 DO
        Changed = SELECT t FROM Changed:v -(E>|<E|S:e)- V:t WHERE v.@cc < t.@cc ACCUM t.@cc += v.@cc;
        @@rounds += 1;
      END;
      Roots = SELECT v FROM All:v WHERE v.@cc == getvid(v) POST-ACCUM @@components += 1;
      PRINT @@components, @@rounds, All;
    }`,
    {},
  ],
  [
    'kinds',
    `CREATE QUERY kinds() FOR GRAPH g {
      MinAccum<INT> @mi; MaxAccum<INT> @ma; MaxAccum<INT> @seven = 0; OrAccum @o; AndAccum @a;
      SumAccum<INT> @@gs; MinAccum<INT> @@gmin; MaxAccum<INT> @@gmax; OrAccum @@gor; AndAccum @@gand;
      All = {V.*};
      All = SELECT v FROM All:v POST-ACCUM v.@mi = v.k, v.@ma = v.k;
      R = SELECT t FROM All:v -(E>|S)- V:t WHERE v.k % 3 != 1
          ACCUM t.@mi += v.@mi, t.@ma += v.@ma, t.@seven += 7, t.@o += v.k > 50, t.@a += v.k > 5,
                @@gs += v.k, @@gmin += v.k, @@gmax += v.k, @@gor += v.k == 7, @@gand += v.k >= 0;
      PRINT R, All;
      PRINT @@gs, @@gmin, @@gmax, @@gor, @@gand;
    }`,
    {},
  ],
  [
    'khop',
    `CREATE QUERY khop(VERTEX<V> s, INT k) FOR GRAPH g {
      OrAccum @visited; SumAccum<INT> @@reached; ListAccum<INT> @@sizes; INT i = 0;
      F = {s};
      F = SELECT v FROM F:v POST-ACCUM v.@visited += true;
      WHILE i < k AND F.size() > 0 DO
        F = SELECT t FROM F:v -(E>|S)- V:t WHERE t.@visited == false POST-ACCUM t.@visited += true;
        @@reached += F.size();
        @@sizes += F.size();
        i = i + 1;
      END;
      PRINT @@reached, @@sizes, F;
    }`,
    { s: new VertexRef('V', '3'), k: 3 },
  ],
  [
    // Not for the source split: an integer sum, a target collected on its first change (`@x'`),
    // and cells past 32 bits (they spill), as MaxAccum<INT>'s initial value does.
    'not_by_source',
    `CREATE QUERY not_by_source() FOR GRAPH g {
      SumAccum<INT> @si; MaxAccum<INT> @cc; MinAccum<INT> @big; MaxAccum<INT> @low; SumAccum<INT> @@changed;
      All = {V.*};
      X = SELECT t FROM All:v -(E>)- V:t ACCUM t.@si += v.k;
      All = SELECT v FROM All:v POST-ACCUM v.@cc = getvid(v), v.@big = 8589934592 + v.k;
      Start = All;
      WHILE Start.size() > 0 DO
        Start = SELECT t FROM Start:s -(E>|S)- V:t ACCUM t.@cc += s.@cc HAVING t.@cc != t.@cc';
        @@changed += Start.size();
      END;
      Y = SELECT t FROM All:v -(E>)- V:t ACCUM t.@big += v.@big;
      Z = SELECT t FROM All:v -(E>)- V:t WHERE v.k > 10 ACCUM t.@low += v.k;
      PRINT X, Y, Z, @@changed, All;
    }`,
    {},
  ],
];

let dir = '';
let db: Database;
let lowered: LoweredDb;
/** Edges of the graph, for the independent count of components. */
const edges: [number, number][] = [];

before(async () => {
  lowered = await loweredQueryDb('ocelot-accum-', SCHEMA, QUERIES);
  ({ dir, db } = lowered);
  const r = rnd(4242);
  await db.write((tx) => {
    for (let i = 0; i < N; i++)
      tx.upsertVertex('V', i, { k: { value: r(100), op: 'set' }, w: { value: r(30_000) / 7, op: 'set' } });
    // Hubs at low ids (as a load puts them), many small components (the ids past 3N/4 only meet
    // each other), duplicate edges and self-loops.
    for (let i = 0; i < N * 3; i++) {
      const a = r(4) === 0 ? r(20) : r((N * 3) / 4);
      const b = r(4) === 0 ? r(20) : r((N * 3) / 4);
      tx.upsertEdge('E', 'V', a, 'V', b, {});
      edges.push([a, b]);
    }
    for (let i = (N * 3) / 4; i + 1 < N; i += 3) {
      tx.upsertEdge('S', 'V', i, 'V', i + (i % 2), {});
      edges.push([i, i + (i % 2)]);
    }
  });
  await db.rebuild({ path: join(dir, 'summary') });
});

after(() => lowered.close());

/** Every query's answer, here (through `host` when given) or on the attached pool. */
async function answers(where: ParallelHost | 'here' | 'pool'): Promise<string[]> {
  const out: string[] = [];
  for (const [name, , args] of QUERIES) {
    const query = registryFor(db).installed('g', name, db.catalog);
    const r =
      where === 'pool'
        ? await runQuery(db, { kind: 'installed', graph: 'g', query, args })
        : await executeQuery(db, query, args, where === 'here' ? {} : { parallel: where });
    out.push(
      r.results instanceof JsonText
        ? r.results.text
        : JSON.stringify(r.results, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)),
    );
  }
  return out;
}

/** Components of the graph by union-find (every vertex, edges either way). */
function components(): number {
  const up = Array.from({ length: N }, (_, i) => i);
  const root = (x: number): number => (up[x] === x ? x : (up[x] = root(up[x])));
  for (const [a, b] of edges) up[root(a)] = root(b);
  return up.filter((_, i) => root(i) === i).length;
}

test('split ACCUMs by sources and hoisted pulls answer as one thread does, and are taken', async () => {
  const reference = await answers('here');
  const labels = JSON.parse(reference[2]) as [{ '@@components': number }];
  assert.equal(labels[0]['@@components'], components());
  const host = new ReverseHost();
  const got = await answers(host);
  QUERIES.forEach(([name], i) => assert.equal(got[i], reference[i], name));
  const split = host.jobs.filter((j) => j.phase < 0);
  assert.ok(
    split.some((j) => j.bySource),
    'some ACCUM split by sources',
  );
  assert.ok(
    split.some((j) => j.pull?.hoisted !== undefined),
    'some pull read hoisted values',
  );
  const bySource = split.filter((x) => x.bySource);
  for (const j of bySource) {
    assert.equal(j.bounds[0], 0);
    assert.equal(j.bounds[j.bounds.length - 1], j.count);
    assert.ok(
      j.bounds.every((b, i) => i === 0 || b > j.bounds[i - 1]),
      `ascending bounds ${j.bounds.join()}`,
    );
  }
  assert.ok(
    bySource.some((j) => j.bounds.length > 2),
    'several source ranges',
  );
});

test('a hoisting pull does not wait for a fill range another thread took', async () => {
  const reference = await answers('here');
  const host = new ReverseHost(true);
  const got = await answers(host);
  QUERIES.forEach(([name], i) => assert.equal(got[i], reference[i], name));
  assert.ok(host.jobs.some((j) => j.pull?.hoisted !== undefined));
});

test('which walk each clause takes: by sources only where every update may run at once', async () => {
  const host = new ReverseHost();
  const registry = registryFor(db);
  const walks = async (name: string, args: Record<string, unknown> = {}): Promise<Set<string>> => {
    host.jobs.length = 0;
    const query = registry.installed('g', name, db.catalog);
    await executeQuery(db, query, args, { parallel: host });
    return new Set(
      host.jobs
        .filter((j) => j.phase < 0)
        .map((j) =>
          j.bySource
            ? 'sources'
            : j.pull?.exists
              ? 'bottom-up'
              : j.pull?.hoisted
                ? 'hoisted pull'
                : j.pull
                  ? 'pull'
                  : 'push',
        ),
    );
  };
  assert.deepEqual(await walks('labels'), new Set(['sources']));
  assert.deepEqual(await walks('kinds'), new Set(['sources']));
  // k-hop's frontiers have no ACCUM: the large ones go bottom-up (select-bottom-up.ts).
  const khop = await walks('khop', { s: new VertexRef('V', '3'), k: 3 });
  assert.ok(
    khop.has('bottom-up') && [...khop].every((w) => w === 'bottom-up' || w === 'sources'),
    [...khop].join(),
  );
  assert.ok((await walks('rank')).has('hoisted pull'));
  const others = await walks('not_by_source');
  assert.ok(others.size > 0 && !others.has('sources'), [...others].join());
});

test('the same answers on 1, 2 and 4 query workers', async () => {
  let reference: string[] = [];
  for (const threads of [1, 2, 4]) {
    const pool = new QueryPool(db, { threads, entry: ENTRY, parallelSelect: LOWERED });
    attachPool(db, pool);
    try {
      const got = await answers('pool');
      // One worker splits nothing: its answers are the reference.
      if (threads === 1) reference = got;
      QUERIES.forEach(([name], i) => assert.equal(got[i], reference[i], `${name} on ${threads} threads`));
      if (threads > 1) assert.ok(pool.stats.helped > 0, 'some SELECT was split');
    } finally {
      await releasePool(db);
    }
  }
});
