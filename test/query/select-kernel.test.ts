/**
 * SELECT kernels (select-kernel.ts) against the closures they replace: every query runs twice over
 * the same graph, with kernels and without, and must give the same output, which is also checked
 * against the answer worked out by hand. The graph is a real database, once with its adjacency
 * compacted (the kernel walks the CSR arrays) and once with edges still in the delta.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Database } from '../../src/engine/database.js';
import { selectKernels } from '../../src/query/select-kernel.js';
import { runScript } from '../../src/shell/run-script.js';
import { runText, v } from '../fixtures/query/run.js';

const SCHEMA = `CREATE VERTEX node (PRIMARY_ID id STRING, w INT, f DOUBLE)
CREATE VERTEX hub (PRIMARY_ID id STRING)
CREATE DIRECTED EDGE link (FROM node, TO node)
CREATE UNDIRECTED EDGE tie (FROM node, TO node | FROM node, TO hub)
CREATE GRAPH g (node, hub, link, tie)`;

/**
 * link: a->b, a->c, b->c, c->a, c->c (a self-loop), d->a; e has no edges.
 * tie: a-b, b-hub1, c-hub1, c-c (an undirected self-loop).
 */
async function open(compact: boolean): Promise<{ db: Database; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'ocelot-kernel-'));
  const db = await Database.open({ dataDir: dir, sync: 'none', rebuildIntervalMs: 0 });
  let out = '';
  if ((await runScript(db, SCHEMA, { user: 'tigergraph' }, (t) => (out += t))) !== 0) throw new Error(out);
  const set = (value: number) => ({ value, op: 'set' as const });
  await db.write((tx) => {
    ['a', 'b', 'c', 'd', 'e'].forEach((id, i) =>
      tx.upsertVertex('node', id, { w: set(i + 1), f: set((i + 1) / 4) }),
    );
    tx.upsertVertex('hub', 'hub1', {});
    for (const [s, t] of [
      ['a', 'b'],
      ['a', 'c'],
      ['b', 'c'],
      ['c', 'a'],
      ['c', 'c'],
      ['d', 'a'],
    ])
      tx.upsertEdge('link', 'node', s, 'node', t, {});
    tx.upsertEdge('tie', 'node', 'a', 'node', 'b', {});
    tx.upsertEdge('tie', 'node', 'b', 'hub', 'hub1', {});
    tx.upsertEdge('tie', 'node', 'c', 'hub', 'hub1', {});
    tx.upsertEdge('tie', 'node', 'c', 'node', 'c', {});
  });
  if (compact) await db.rebuild();
  return { db, dir };
}

const dbs: { name: string; db: Database; dir: string }[] = [];
before(async () => {
  dbs.push({ name: 'compacted', ...(await open(true)) });
  dbs.push({ name: 'delta', ...(await open(false)) });
});
after(async () => {
  for (const d of dbs) {
    await d.db.close();
    await rm(d.dir, { recursive: true, force: true });
  }
});

const q = (body: string, params = ''): string => `CREATE QUERY t(${params}) FOR GRAPH g {\n${body}\n}`;

/**
 * Runs `src` on both databases with each kernel variant and without kernels; every output must
 * equal `expected`.
 */
async function same(src: string, expected: unknown, args: Record<string, unknown> = {}): Promise<void> {
  for (const { name, db } of dbs) {
    for (const mode of ['narrow', 'wide', 'off'] as const) {
      selectKernels.enabled = mode !== 'off';
      if (mode !== 'off') selectKernels.force = mode;
      const runsBefore = selectKernels.runs;
      try {
        const out = await runText(db, src, args);
        assert.deepEqual(out, expected, `${name} database, kernels ${mode}`);
        if (mode !== 'off') assert.ok(selectKernels.runs > runsBefore, 'the query ran through a kernel');
        else assert.equal(selectKernels.runs, runsBefore);
      } finally {
        selectKernels.enabled = true;
        delete selectKernels.force;
      }
    }
  }
}

test('PageRank-style propagation: source-only values per edge, FLOAT rounding, POST-ACCUM with @x', async () => {
  await same(
    q(`SumAccum<FLOAT> @score = 1;
       SumAccum<FLOAT> @recv;
       MaxAccum<FLOAT> @@diff;
       All = {node.*};
       INT i = 0;
       WHILE i < 3 DO
         @@diff = 0;
         V = SELECT s FROM All:s -(link:e)- node:t
             ACCUM t.@recv += s.@score / s.outdegree("link")
             POST-ACCUM s.@score = 0.15 + 0.85 * s.@recv, s.@recv = 0,
                        @@diff += abs(s.@score - s.@score');
         i = i + 1;
       END;
       R = SELECT s FROM All:s ORDER BY s.w;
       PRINT @@diff, R[R.@score];`),
    [
      {
        // By hand: a 1.140515625, b 0.60209375, c 2.107390625 after three rounds; d has no
        // in-edges; e has no edge, so the SELECT never reaches it and it keeps its initial 1.
        '@@diff': 0.1535313,
        R: [
          { v_id: 'a', v_type: 'node', attributes: { 'R.@score': 1.140516 } },
          { v_id: 'b', v_type: 'node', attributes: { 'R.@score': 0.6020938 } },
          { v_id: 'c', v_type: 'node', attributes: { 'R.@score': 2.107391 } },
          { v_id: 'd', v_type: 'node', attributes: { 'R.@score': 0.15 } },
          { v_id: 'e', v_type: 'node', attributes: { 'R.@score': 1 } },
        ],
      },
    ],
  );
});

test('WHERE reading what ACCUM updates sees the values from before the clause (label propagation)', async () => {
  await same(
    q(`MinAccum<INT> @cc;
       SumAccum<INT> @@rounds;
       All = {node.*, hub.*};
       Changed = SELECT s FROM All:s POST-ACCUM s.@cc = getvid(s);
       WHILE Changed.size() > 0 DO
         @@rounds += 1;
         Changed = SELECT t FROM Changed:s -((link>|<link|tie):e)- :t
                   WHERE s.@cc < t.@cc
                   ACCUM t.@cc += s.@cc;
       END;
       Roots = SELECT s FROM All:s WHERE s.@cc == getvid(s);
       PRINT @@rounds, Roots.size() AS components;`),
    [{ '@@rounds': 3, components: 2 }],
  );
});

test('SELECT results and POST-ACCUM walk vertices in storage order, not in the order rows found them', async () => {
  // Sources c then a: rows c->a, c->c, a->b, a->c find a, c, b; storage order is a, b, c (w 1, 2, 3).
  await same(
    q(
      `ListAccum<INT> @@post;
       Start = {c, a};
       T = SELECT t FROM Start:s -(link>:e)- node:t POST-ACCUM @@post += t.w;
       S = SELECT s FROM Start:s -(link>:e)- node:t;
       L = SELECT t FROM Start:s -(link>:e)- node:t LIMIT 2;
       PRINT @@post, T[T.w], S[S.w], L[L.w];`,
      'VERTEX<node> a, VERTEX<node> c',
    ),
    [
      {
        '@@post': [1, 2, 3],
        T: [1, 2, 3].map((w) => ({ v_id: 'abc'[w - 1], v_type: 'node', attributes: { 'T.w': w } })),
        S: [1, 3].map((w) => ({ v_id: 'abc'[w - 1], v_type: 'node', attributes: { 'S.w': w } })),
        L: [1, 2].map((w) => ({ v_id: 'abc'[w - 1], v_type: 'node', attributes: { 'L.w': w } })),
      },
    ],
    { a: v('node', 'a'), c: v('node', 'c') },
  );
});

test("label propagation as the library writes it: every row updates, HAVING keeps what @x' says changed", async () => {
  // Undirected over link and tie: {a, b, c, d, hub1} is one component, e is alone. getvid gives
  // a 0, hub1 1, b 2, c 4, d 6 (row and type). Round 1 moves b, c and d to 0 (hub1 keeps 1, below
  // b's and c's labels from before the clause); round 2 moves hub1; round 3 changes nothing.
  await same(
    q(`MinAccum<INT> @cc;
       SumAccum<INT> @@rounds;
       ListAccum<INT> @@sizes;
       All = {node.*, hub.*};
       S = SELECT s FROM All:s POST-ACCUM s.@cc = getvid(s);
       WHILE S.size() > 0 DO
         S = SELECT t FROM S:s -((link>|<link|tie):e)- :t
             ACCUM t.@cc += s.@cc
             HAVING t.@cc != t.@cc';
         @@rounds += 1;
         @@sizes += S.size();
       END;
       Roots = SELECT s FROM All:s WHERE s.@cc == getvid(s);
       PRINT @@rounds, @@sizes, Roots.size() AS components;`),
    [{ '@@rounds': 3, '@@sizes': [3, 1, 0], components: 2 }],
  );
});

test("HAVING on @x' still drops targets whose value changed and changed back", async () => {
  // Every link target (a, b, c) changes twice and ends where it started; WHERE keeps rows from a
  // and c only, so d's row to a is dropped before ACCUM.
  await same(
    q(`SumAccum<INT> @a;
       MinAccum<INT> @m = 100;
       S = {node.*};
       Back = SELECT t FROM S:s -(link>:e)- node:t ACCUM t.@a += 1, t.@a += -1 HAVING t.@a != t.@a';
       Low = SELECT t FROM S:s -(link>:e)- node:t WHERE s.w != 4 ACCUM t.@m += s.w HAVING t.@m' != t.@m;
       PRINT Back.size() AS back, Low[Low.@m];`),
    [
      {
        back: 0,
        Low: [
          { v_id: 'a', v_type: 'node', attributes: { 'Low.@m': 3 } },
          { v_id: 'b', v_type: 'node', attributes: { 'Low.@m': 1 } },
          { v_id: 'c', v_type: 'node', attributes: { 'Low.@m': 1 } },
        ],
      },
    ],
  );
});

test('Min/MaxAccum<INT> cells are 32-bit: values beyond it, and -2^31 itself, spill and read back', async () => {
  // link rows (s.w -> t): a1->b, a1->c, b2->c, c3->a, c3->c, d4->a. d and e are no link target:
  // they keep the declared initial values (the 64-bit extremes for @lo and @hi, which the printed
  // JSON, read back as JS numbers, rounds to ±2^63).
  const node = (id: string, lo: unknown, hi: unknown, m: unknown) => ({
    v_id: id,
    v_type: 'node',
    attributes: { 'R.@lo': lo, 'R.@hi': hi, 'R.@m': m },
  });
  await same(
    q(`MinAccum<INT> @lo;
       MaxAccum<INT> @hi;
       MinAccum<INT> @m = 0;
       S = {node.*};
       S = SELECT t FROM S:s -(link>:e)- node:t
           ACCUM t.@lo += s.w * -1073741824,
                 t.@hi += s.w * 1000000000 - 2147483648,
                 t.@m += s.w - 2147483649;
       R = {node.*};
       PRINT R[R.@lo, R.@hi, R.@m];`),
    [
      {
        R: [
          node('a', -4294967296, 1852516352, -2147483646),
          node('b', -1073741824, -1147483648, -2147483648),
          node('c', -3221225472, 852516352, -2147483648),
          node('d', 2 ** 63, -(2 ** 63), 0),
          node('e', 2 ** 63, -(2 ** 63), 0),
        ],
      },
    ],
  );
});

test("@x' of an integer accumulator past 2^53 reads the spilled previous value", async () => {
  // s.@v = w * 2^59 (spilled cells). Every link row adds 2^59 to its target: a 1 -> 3 (from c, d),
  // b 2 -> 3, c 3 -> 6 (from a, b, c). Only a has more than twice its previous value.
  const unit = 2 ** 59;
  await same(
    q(`SumAccum<INT> @v;
       S = {node.*};
       S = SELECT s FROM S:s POST-ACCUM s.@v = s.w * 576460752303423488;
       S = SELECT t FROM S:s -(link>:e)- node:t
           ACCUM t.@v += 576460752303423488
           HAVING t.@v' * 2 < t.@v;
       PRINT S[S.@v];`),
    [
      {
        S: [{ v_id: 'a', v_type: 'node', attributes: { 'S.@v': 3 * unit } }],
      },
    ],
  );
});

test('k-hop reach with an OrAccum flag and a vertex-only POST-ACCUM', async () => {
  await same(
    q(
      `OrAccum @seen;
       SumAccum<INT> @@reached;
       F = {s};
       F = SELECT v FROM F:v POST-ACCUM v.@seen += true;
       WHILE F.size() > 0 LIMIT 4 DO
         F = SELECT t FROM F:v -(link>:e)- node:t WHERE t.@seen == false POST-ACCUM t.@seen += true;
         @@reached += F.size();
       END;
       PRINT @@reached;`,
      'VERTEX<node> s',
    ),
    [{ '@@reached': 3 }],
    { s: v('node', 'd') },
  );
});

test('dynamic edge and target types, AndAccum, integer sums past 2^53, ACCUM on both aliases', async () => {
  await same(
    q(
      `SumAccum<INT> @big;
       AndAccum @all;
       SumAccum<INT> @deg;
       MaxAccum<DOUBLE> @best;
       S = {node.*};
       S = SELECT s FROM S:s -(et:e)- vt:t
           WHERE t.type == "hub" OR s.w < 3
           ACCUM t.@big += 9007199254740991, s.@deg += 1, s.@all += s.w > 1, t.@best += s.f * 2
           ORDER BY s.w;
       R = SELECT x FROM hub:x;
       PRINT S[S.@deg, S.@all], R[R.@big, R.@best];`,
      'SET<STRING> et, SET<STRING> vt',
    ),
    [
      {
        S: [
          { v_id: 'a', v_type: 'node', attributes: { 'S.@deg': 1, 'S.@all': false } },
          { v_id: 'b', v_type: 'node', attributes: { 'S.@deg': 2, 'S.@all': true } },
          { v_id: 'c', v_type: 'node', attributes: { 'S.@deg': 1, 'S.@all': true } },
        ],
        R: [{ v_id: 'hub1', v_type: 'hub', attributes: { 'R.@big': 18014398509481982, 'R.@best': 1.5 } }],
      },
    ],
    { et: ['tie'], vt: ['node', 'hub'] },
  );
});

test('a division by zero in a kernel stops the query with GSQL-2500', async () => {
  for (const enabled of [true, false]) {
    selectKernels.enabled = enabled;
    try {
      await assert.rejects(
        runText(
          dbs[0].db,
          q(`SumAccum<DOUBLE> @x;
             S = {node.*};
             S = SELECT t FROM S:s -(link:e)- node:t ACCUM t.@x += s.f / (s.w - 3);
             PRINT S;`),
        ),
        (e: Error & { code?: string }) => e.code === 'GSQL-2500' && /divider is zero/.test(e.message),
      );
    } finally {
      selectKernels.enabled = true;
    }
  }
});

test('a clause reading what it updates sees values from before it, spilled 64-bit values included', async () => {
  // Values are multiples of 2^59 (beyond 2^53, so the dense cells spill). Rows passing WHERE on the
  // values from before the clause: a->b, a->c, b->c, so b = 1 + 2, c = 3 + 1 + 2 (in 2^59).
  const unit = 2 ** 59;
  const expected = [
    {
      changed: 2,
      R: [1, 3, 6, 4, 5].map((k, i) => ({
        v_id: 'abcde'[i],
        v_type: 'node',
        attributes: { 'R.@v': k * unit },
      })),
    },
  ];
  // The first form is all inline (the kernel reads a snapshot); the second reads the values in a
  // closure (abs), so the kernel queues the updates as the closures do.
  for (const where of ['s.@v < t.@v', 'abs(s.@v) < abs(t.@v)']) {
    await same(
      q(`SumAccum<INT> @v;
         S = {node.*};
         S = SELECT s FROM S:s POST-ACCUM s.@v = s.w * 576460752303423488;
         S = SELECT t FROM S:s -(link:e)- node:t WHERE ${where} ACCUM t.@v += s.@v;
         R = SELECT s FROM node:s ORDER BY s.w;
         PRINT S.size() AS changed, R[R.@v];`),
      expected,
    );
  }
});

test('global accumulators updated in ACCUM and POST-ACCUM, read within the clause as before it', async () => {
  // link rows: a->b, a->c, b->c, c->a, c->c, d->a (t.w: 2, 3, 3, 1, 3, 1; s.f: .25 .25 .5 .75 .75 1).
  // @@m is read in the ACCUM that adds to it, so every row reads 100 (its value before the clause).
  await same(
    q(`SumAccum<INT> @@m = 100;
       MaxAccum<DOUBLE> @@top;
       MinAccum<FLOAT> @@low = 9;
       OrAccum @@big;
       SumAccum<INT> @seen;
       S = {node.*};
       S = SELECT t FROM S:s -(link:e)- node:t
           ACCUM @@m += t.w, t.@seen += @@m, @@top += s.f * 2, @@low += s.f
           POST-ACCUM @@big += t.@seen > 250;
       PRINT @@m, @@top, @@low, @@big, S.size() AS n;`),
    [{ '@@m': 113, '@@top': 2, '@@low': 0.25, '@@big': true, n: 3 }],
  );
});

test('POST-ACCUM on the alias the SELECT does not return, and on the one it does', async () => {
  // link: a->b, a->c, b->c, c->a, c->c, d->a. Sources with an edge: a, b, c, d; targets: a, b, c.
  await same(
    q(`SumAccum<INT> @src;
       SumAccum<INT> @tgt;
       OrAccum @flag;
       S = {node.*};
       T = SELECT t FROM S:s -(link:e)- node:t
           POST-ACCUM s.@src += s.w, t.@tgt += 10, t.@flag += t.w > 2;
       R = SELECT v FROM node:v ORDER BY v.w;
       PRINT T.size() AS n, R[R.@src, R.@tgt, R.@flag];`),
    [
      {
        n: 3,
        R: [
          { v_id: 'a', v_type: 'node', attributes: { 'R.@src': 1, 'R.@tgt': 10, 'R.@flag': false } },
          { v_id: 'b', v_type: 'node', attributes: { 'R.@src': 2, 'R.@tgt': 10, 'R.@flag': false } },
          { v_id: 'c', v_type: 'node', attributes: { 'R.@src': 3, 'R.@tgt': 10, 'R.@flag': true } },
          { v_id: 'd', v_type: 'node', attributes: { 'R.@src': 4, 'R.@tgt': 0, 'R.@flag': false } },
          { v_id: 'e', v_type: 'node', attributes: { 'R.@src': 0, 'R.@tgt': 0, 'R.@flag': false } },
        ],
      },
    ],
  );
});

test('vertex sets kept as run indexes read back as vertices: set operators, seeds, copies, ORDER BY, type sources', async () => {
  // `Start` and `One` are kept as run indexes (whole-type seed, kernel result); each reader below
  // gets them as it would a list of vertices.
  await same(
    q(`Start = {node.*};
       One = SELECT t FROM Start:s -(link:e)- node:t WHERE s.w <= 2;
       Copy = One;
       Again = {One};
       Both = One UNION Start;
       Inter = One INTERSECT Start;
       Minus = Start MINUS One;
       Top = SELECT t FROM One:t ORDER BY t.w DESC LIMIT 1;
       Big = SELECT p FROM node:p WHERE p.w > 3;
       PRINT One.size() AS one, Copy.size() AS copy, Again.size() AS again, Both.size() AS both,
             Inter.size() AS inter, Minus.size() AS minus;
       PRINT One[One.w], Minus[Minus.w], Top[Top.w], Big[Big.w];`),
    [
      { one: 2, copy: 2, again: 2, both: 5, inter: 2, minus: 3 },
      {
        One: [
          { v_id: 'b', v_type: 'node', attributes: { 'One.w': 2 } },
          { v_id: 'c', v_type: 'node', attributes: { 'One.w': 3 } },
        ],
        Minus: [
          { v_id: 'a', v_type: 'node', attributes: { 'Minus.w': 1 } },
          { v_id: 'd', v_type: 'node', attributes: { 'Minus.w': 4 } },
          { v_id: 'e', v_type: 'node', attributes: { 'Minus.w': 5 } },
        ],
        Top: [{ v_id: 'c', v_type: 'node', attributes: { 'Top.w': 3 } }],
        Big: [
          { v_id: 'd', v_type: 'node', attributes: { 'Big.w': 4 } },
          { v_id: 'e', v_type: 'node', attributes: { 'Big.w': 5 } },
        ],
      },
    ],
  );
});

test('label propagation on a MaxAccum: the same rows, order and values whether or not ACCUM also counts rows', async () => {
  // @m starts at 10 - w: a 9, b 8, c 7, d 6, e 5. Rows in order: a->b (9 > 8), a->c (9 > 7),
  // b->c (8 > 7 before the clause; c is 9 by then), c->a, c->c, d->a (no).
  const body = (accum: string): string =>
    q(`MaxAccum<INT> @m;
       SumAccum<INT> @@rows;
       All = {node.*};
       All = SELECT s FROM All:s POST-ACCUM s.@m = 10 - s.w;
       R = SELECT t FROM All:s -(link:e)- node:t WHERE s.@m > t.@m AND s.w > 0 ACCUM ${accum};
       PRINT R[R.@m], @@rows, All[All.@m];`);
  const expected = (rows: number): unknown[] => [
    {
      R: [
        { v_id: 'b', v_type: 'node', attributes: { 'R.@m': 9 } },
        { v_id: 'c', v_type: 'node', attributes: { 'R.@m': 9 } },
      ],
      '@@rows': rows,
      All: ['a', 'b', 'c', 'd', 'e'].map((id, i) => ({
        v_id: id,
        v_type: 'node',
        attributes: { 'All.@m': [9, 9, 9, 6, 5][i] },
      })),
    },
  ];
  await same(body('t.@m += s.@m'), expected(0));
  // Every row that passes on the values from before the clause counts, b->c included.
  await same(body('t.@m += s.@m, @@rows += 1'), expected(3));
});

test('getvid() of an alias in a kernel is the row made unique by the vertex type', async () => {
  await same(
    q(`SumAccum<INT> @vid;
       All = {node.*, hub.*};
       All = SELECT s FROM All:s POST-ACCUM s.@vid = getvid(s);
       PRINT All[All.@vid];`),
    [
      {
        All: [
          ...['a', 'b', 'c', 'd', 'e'].map((id, row) => ({
            v_id: id,
            v_type: 'node',
            attributes: { 'All.@vid': row * 2 },
          })),
          { v_id: 'hub1', v_type: 'hub', attributes: { 'All.@vid': 1 } },
        ],
      },
    ],
  );
});

test('outdegree() of an alias in a kernel: all edges, one type, types from a SET<STRING> parameter', async () => {
  // Out-edges: a link 2 + tie 1, b link 1 + tie 2, c link 2 + tie 2 (hub1 and its self-loop once),
  // d link 1, e none, hub1 tie 2.
  const row = (id: string, type: string, d: number, l: number): unknown => ({
    v_id: id,
    v_type: type,
    attributes: { 'All.@d': d, 'All.@l': l, 'All.@x': d },
  });
  await same(
    q(
      `SumAccum<INT> @d, @l, @x;
       All = {node.*, hub.*};
       All = SELECT s FROM All:s
             POST-ACCUM s.@d = s.outdegree(), s.@l = s.outdegree("link"), s.@x = s.outdegree(ets);
       PRINT All[All.@d, All.@l, All.@x];`,
      'SET<STRING> ets',
    ),
    [
      {
        All: [
          row('a', 'node', 3, 2),
          row('b', 'node', 3, 1),
          row('c', 'node', 4, 2),
          row('d', 'node', 1, 1),
          row('e', 'node', 0, 0),
          row('hub1', 'hub', 2, 0),
        ],
      },
    ],
    { ets: ['link', 'tie'] },
  );
});
