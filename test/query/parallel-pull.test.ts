/**
 * A split ACCUM gives the one-thread answer whichever way it walks (query/parallel.ts): pushed
 * from every source into a partition's targets, or pulled from each target over its in-edges
 * (float sums bit for bit where one hop reaches the target type; Min/Max/Or/And over several
 * hops; sources a subset of their type; undirected edges with self-loops; two target types; the
 * sources as the result; k-hop frontiers with a POST-ACCUM). The partitions run here, in reverse
 * order, through a host that plays the other threads (no worker), so the test can also see which
 * walk each split took.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Database } from '../../src/engine/database.js';
import { executeQuery, registryFor, type ParallelHost } from '../../src/query/index.js';
import { JsonText } from '../../src/util/json.js';
import { type LoweredDb, loweredQueryDb, ReverseHost, rnd } from './parallel-fixture.js';

const SCHEMA = `
CREATE VERTEX V (PRIMARY_ID id INT, k INT, w DOUBLE)
CREATE VERTEX W (PRIMARY_ID id INT, k INT)
CREATE DIRECTED EDGE E (FROM V, TO V) WITH REVERSE_EDGE="rE"
CREATE DIRECTED EDGE L (FROM V, TO V)
CREATE UNDIRECTED EDGE S (FROM V, TO V)
CREATE UNDIRECTED EDGE U (FROM V, TO W)
CREATE GRAPH g (*)
`;

const QUERIES: [string, string][] = [
  [
    'rank',
    `CREATE QUERY rank() FOR GRAPH g {
      SumAccum<DOUBLE> @s = 1; SumAccum<DOUBLE> @r; SumAccum<FLOAT> @rf; SumAccum<INT> @out; INT i = 0;
      All = {V.*};
      All = SELECT v FROM All:v POST-ACCUM v.@out = v.outdegree("E");
      WHILE i < 3 DO
        X = SELECT t FROM All:v -(E>)- V:t ACCUM t.@r += v.@s / (v.@out + 1) + v.w, t.@rf += v.@s / 7.0;
        All = SELECT v FROM All:v POST-ACCUM v.@s = 0.15 + 0.85 * v.@r, v.@r = 0;
        i = i + 1;
      END;
      PRINT All;
    }`,
  ],
  [
    'reverse_rank',
    `CREATE QUERY reverse_rank() FOR GRAPH g {
      SumAccum<DOUBLE> @r; SumAccum<INT> @@rows;
      All = {V.*};
      X = SELECT t FROM All:v -(rE>)- V:t ACCUM t.@r += v.w / 3.0, @@rows += 1;
      PRINT X, @@rows;
    }`,
  ],
  [
    'two_hops_float',
    `CREATE QUERY two_hops_float() FOR GRAPH g {
      SumAccum<DOUBLE> @r;
      All = {V.*};
      X = SELECT t FROM All:v -(E>|L>)- V:t ACCUM t.@r += v.w / 3.0;
      PRINT X;
    }`,
  ],
  [
    'labels',
    `CREATE QUERY labels() FOR GRAPH g {
      MinAccum<INT> @cc; SumAccum<INT> @@rounds;
      All = {V.*};
      Changed = SELECT v FROM All:v POST-ACCUM v.@cc = getvid(v);
      WHILE Changed.size() > 0 DO
        Changed = SELECT t FROM Changed:v -(E>|<E|S:e)- V:t WHERE v.@cc < t.@cc ACCUM t.@cc += v.@cc;
        @@rounds += 1;
      END;
      PRINT All, @@rounds;
    }`,
  ],
  [
    'library_labels',
    `CREATE QUERY library_labels() FOR GRAPH g {
      MaxAccum<INT> @cc; MapAccum<INT, INT> @@sizes;
      Start = {V.*};
      S0 = SELECT x FROM Start:x POST-ACCUM x.@cc = getvid(x);
      WHILE Start.size() > 0 DO
        Start = SELECT t FROM Start:s -(E>|rE>|L>:e)- V:t ACCUM t.@cc += s.@cc HAVING t.@cc != t.@cc';
      END;
      Start = {V.*};
      Start = SELECT s FROM Start:s POST-ACCUM @@sizes += (s.@cc -> 1);
      PRINT @@sizes;
    }`,
  ],
  [
    'subset',
    `CREATE QUERY subset() FOR GRAPH g {
      SumAccum<DOUBLE> @f; SumAccum<INT> @n; OrAccum @o; MinAccum<DOUBLE> @m;
      SumAccum<INT> @@gs; MinAccum<INT> @@gmin; OrAccum @@gor;
      All = {V.*};
      Some = SELECT v FROM All:v WHERE v.k % 3 != 0;
      X = SELECT t FROM Some:v -(E>)- V:t ACCUM t.@f += v.w * 1.5, t.@n += v.k, @@gs += v.k, @@gmin += v.k;
      Y = SELECT t FROM Some:v -(S)- V:t WHERE v.k > 20 ACCUM t.@o += v.k > 60, t.@m += v.w, @@gor += v.k == 7;
      PRINT X, Y, @@gs, @@gmin, @@gor;
    }`,
  ],
  [
    'undirected',
    `CREATE QUERY undirected() FOR GRAPH g {
      SumAccum<DOUBLE> @f; MinAccum<INT> @lo; MaxAccum<INT> @hi; OrAccum @seen;
      All = {V.*};
      X = SELECT t FROM All:v -(S)- V:t ACCUM t.@f += v.w, t.@lo += v.k, t.@hi += v.k;
      Y = SELECT t FROM All:v -(U|S)- :t ACCUM t.@seen += v.k > 50;
      PRINT X, Y;
    }`,
  ],
  [
    'frontier',
    `CREATE QUERY frontier() FOR GRAPH g {
      OrAccum @visited; ListAccum<INT> @@sizes; INT i = 0;
      F = {V.*};
      F = SELECT v FROM F:v WHERE v.k < 5 POST-ACCUM v.@visited += true;
      WHILE i < 4 AND F.size() > 0 DO
        F = SELECT t FROM F:v -(E>|L>|S)- V:t WHERE t.@visited == false POST-ACCUM t.@visited += true;
        @@sizes += F.size();
        i = i + 1;
      END;
      PRINT @@sizes, F;
    }`,
  ],
  [
    'sources',
    `CREATE QUERY sources() FOR GRAPH g {
      SumAccum<DOUBLE> @f; AndAccum @all;
      All = {V.*};
      X = SELECT v FROM All:v -(E>)- V:t WHERE t.k > 30 ACCUM t.@f += v.w, t.@all += v.k > 2;
      PRINT X, All;
    }`,
  ],
];

let dir = '';
let db: Database;
let lowered: LoweredDb;

before(async () => {
  // No idle merge: the first test reads the deltas as written (a merge would let its SELECTs pull).
  lowered = await loweredQueryDb('ocelot-pull-', SCHEMA, QUERIES);
  ({ dir, db } = lowered);
  const r = rnd(12345);
  const n = 700;
  await db.write((tx) => {
    for (let i = 0; i < n; i++)
      tx.upsertVertex('V', i, { k: { value: r(100), op: 'set' }, w: { value: r(10_000) / 7, op: 'set' } });
    for (let j = 0; j < 40; j++) tx.upsertVertex('W', j, { k: { value: j, op: 'set' } });
    // Hubs at low ids (as a load puts them), duplicate edges and self-loops.
    for (let i = 0; i < n * 5; i++) {
      const a = r(3) === 0 ? r(20) : r(n);
      const b = r(3) === 0 ? r(20) : r(n);
      tx.upsertEdge('E', 'V', a, 'V', b, {});
    }
    for (let i = 0; i < n; i++) tx.upsertEdge('L', 'V', r(n), 'V', r(n), {});
    for (let i = 0; i < n; i++) tx.upsertEdge('S', 'V', r(n), 'V', i % 9 === 0 ? i : r(n), {});
    for (let i = 0; i < n; i++) tx.upsertEdge('U', 'V', r(n), 'W', r(40), {});
  });
});

after(() => lowered.close());

async function answer(name: string, host?: ParallelHost): Promise<string> {
  const query = registryFor(db).installed('g', name, db.catalog);
  const r = await executeQuery(db, query, {}, host ? { parallel: host } : {});
  return r.results instanceof JsonText
    ? r.results.text
    : JSON.stringify(r.results, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
}

async function compare(): Promise<ReverseHost> {
  const host = new ReverseHost();
  for (const [name] of QUERIES) assert.equal(await answer(name, host), await answer(name), name);
  return host;
}

test('split ACCUMs answer as one thread does with deltas unmerged (they push)', async () => {
  const host = await compare();
  const split = host.jobs.filter((j) => j.phase < 0);
  assert.ok(split.length > 0, 'some ACCUM was split');
  assert.ok(
    split.every((j) => j.pull === undefined),
    'no pull over an uncompacted adjacency',
  );
});

test('split ACCUMs answer as one thread does once merged, pulling where they may', async () => {
  await db.rebuild({ path: join(dir, 'summary') });
  const host = await compare();
  const split = host.jobs.filter((j) => j.phase < 0);
  const pulled = split.filter((j) => j.pull !== undefined);
  assert.ok(pulled.length > 0, 'some ACCUM pulled');
  assert.ok(
    pulled.some((j) => j.pull!.member !== null),
    'a pull from a subset of a type',
  );
  assert.ok(
    pulled.some((j) => j.pull!.member === null),
    'a pull from a whole type',
  );
  assert.ok(split.length > pulled.length, 'some ACCUM pushed (float sums over two hops)');
  for (const j of split) {
    assert.equal(j.bounds[0], 0);
    assert.ok(
      j.bounds.every((b, i) => i === 0 || b > j.bounds[i - 1]),
      `ascending bounds ${j.bounds.join()}`,
    );
  }
});
