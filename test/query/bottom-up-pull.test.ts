/**
 * The bottom-up step of existence-only SELECT hops (query/select-bottom-up.ts): a hop with no
 * ACCUM whose WHERE reads only the target walks the targets' in-edges back to the frontier,
 * stopping at the first source found. Its frontiers must equal a breadth-first search computed
 * here and the push's (the step switched off), in the same order, on one thread, with a host
 * playing the other threads (partitions in reverse), and on 1, 2 and 4 query workers; over a
 * directed edge with and without a reverse edge type, `<E`, an undirected edge (self-loops
 * included), two edge types in one step, a target type other than the source's, every vertex as
 * the sources, an empty frontier, and data written after the last merge (new edges, a deleted
 * vertex). The planner's choice is checked through the step's counter and the host's jobs.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { VertexRef } from '../../src/catalog/value.js';
import type { Database } from '../../src/engine/database.js';
import { type ParallelHost, parallelSelect } from '../../src/query/index.js';
import { bottomUpSteps } from '../../src/query/select-bottom-up.js';
import {
  type LoweredDb,
  loweredQueryDb,
  printedAnswer,
  ReverseHost,
  rnd,
  withQueryPool,
} from './parallel-fixture.js';

const N = 2000;
const M = 400;
/** Splits on a small graph; the step from frontiers whose out-edges reach 1/14 of the in-edges. */
const LOWERED = { minSources: 16, minPartition: 16, sourceCost: 2, pullCost: 1, bottomUpAlpha: 14 };

const SCHEMA = `
CREATE VERTEX V (PRIMARY_ID id INT, n INT, k INT)
CREATE VERTEX W (PRIMARY_ID id INT, n INT, k INT)
CREATE DIRECTED EDGE E (FROM V, TO V) WITH REVERSE_EDGE="rE"
CREATE DIRECTED EDGE F (FROM V, TO V)
CREATE UNDIRECTED EDGE U (FROM V, TO V)
CREATE DIRECTED EDGE VW (FROM V, TO W) WITH REVERSE_EDGE="rVW"
CREATE GRAPH g (*)
`;

/** k hops over `step` from s, each frontier listed in the order the SELECT returns it. */
function hops(name: string, step: string, where = 't.@seen == false'): [string, string] {
  return [
    name,
    `CREATE QUERY ${name}(VERTEX<V> s, INT k) FOR GRAPH g {
  OrAccum @seen; ListAccum<INT> @@sizes; ListAccum<INT> @@order; INT i = 0;
  F = {s};
  F = SELECT v FROM F:v POST-ACCUM v.@seen += true;
  WHILE i < k AND F.size() > 0 DO
    F = SELECT t FROM F:v -(${step})- V:t WHERE ${where} POST-ACCUM t.@seen += true;
    @@sizes += F.size();
    Order = SELECT v FROM F:v ACCUM @@order += v.n;
    i = i + 1;
  END;
  PRINT @@sizes, @@order;
}`,
  ];
}

/**
 * One hop into W from every V, from V's with odd k, and from none; WHERE on the target. The
 * POST-ACCUM over the target runs once per target (fused into the step when it updates no global,
 * on its own when it does).
 */
const INTO_W = `CREATE QUERY into_w() FOR GRAPH g {
  ListAccum<INT> @@all; ListAccum<INT> @@odd; ListAccum<INT> @@none; SumAccum<INT> @hits;
  SumAccum<INT> @@hitSum; SumAccum<INT> @@inW;
  All = {V.*};
  A = SELECT t FROM All:v -(VW>)- W:t WHERE t.k % 3 != 0 POST-ACCUM t.@hits += 1;
  X = SELECT v FROM A:v ACCUM @@all += v.n;
  D = SELECT t FROM All:v -(VW>)- W:t POST-ACCUM t.@hits += 1, @@inW += 1;
  X = SELECT v FROM D:v ACCUM @@hitSum += v.@hits;
  Odd = SELECT v FROM All:v WHERE v.k % 2 == 1;
  B = SELECT t FROM Odd:v -(VW>)- W:t;
  X = SELECT v FROM B:v ACCUM @@odd += v.n;
  None = SELECT v FROM All:v WHERE v.k < 0;
  C = SELECT t FROM None:v -(E>)- V:t;
  X = SELECT v FROM C:v ACCUM @@none += v.n;
  PRINT @@all, @@odd, @@none, @@hitSum, @@inW;
}`;

/**
 * Every V as the sources, over E (self-loops included) with WHERE on the target's attribute; then
 * the V's with odd k, then those with even k (the second step must not see the first's sources).
 */
const ALL_E = `CREATE QUERY all_e() FOR GRAPH g {
  ListAccum<INT> @@order; ListAccum<INT> @@odd; ListAccum<INT> @@even;
  All = {V.*};
  T = SELECT t FROM All:v -(E>)- V:t WHERE t.k > 50;
  X = SELECT v FROM T:v ACCUM @@order += v.n;
  Odd = SELECT v FROM All:v WHERE v.k % 2 == 1;
  Even = SELECT v FROM All:v WHERE v.k % 2 == 0;
  A = SELECT t FROM Odd:v -(E>)- V:t;
  X = SELECT v FROM A:v ACCUM @@odd += v.n;
  B = SELECT t FROM Even:v -(E>)- V:t;
  X = SELECT v FROM B:v ACCUM @@even += v.n;
  PRINT @@order, @@odd, @@even;
}`;

const WALKS: [string, string][] = [
  hops('out_e', 'E>'),
  hops('out_f', 'F>'),
  hops('in_e', '<E'),
  hops('undirected', 'U'),
  hops('two_types', 'E>|F>'),
  hops('even_k', 'E>', 't.@seen == false AND t.k % 2 == 0'),
];
const QUERIES: [string, string][] = [...WALKS, ['into_w', INTO_W], ['all_e', ALL_E]];

let lowered: LoweredDb;
let db: Database;
/** The graph as written, per edge type: [from, to] pairs (the reference's own copy). */
const edges: Record<'E' | 'F' | 'U' | 'VW', [number, number][]> = { E: [], F: [], U: [], VW: [] };
const ks: number[] = [];
const wk: number[] = [];
/** Vertices of V deleted (after the merge). */
const deleted = new Set<number>();

before(async () => {
  lowered = await loweredQueryDb('ocelot-bottom-up-', SCHEMA, QUERIES, LOWERED);
  db = lowered.db;
  const r = rnd(777);
  await db.write((tx) => {
    for (let i = 0; i < N; i++) {
      ks.push(r(100));
      tx.upsertVertex('V', i, { n: { value: i, op: 'set' }, k: { value: ks[i], op: 'set' } });
    }
    for (let i = 0; i < M; i++) {
      wk.push(r(100));
      tx.upsertVertex('W', i, { n: { value: i, op: 'set' }, k: { value: wk[i], op: 'set' } });
    }
    // Hubs at low ids (as an RMAT load puts them): frontiers grow large within a few hops.
    const pick = (n: number): number => (r(3) === 0 ? r(30) : r(n));
    const add = (type: keyof typeof edges, count: number, to: number): void => {
      const seen = new Set<number>();
      for (let i = 0; i < count; i++) {
        const a = pick(N);
        const b = r(50) === 0 && type !== 'VW' ? a : pick(to);
        if (seen.has(a * to + b) || (type === 'U' && seen.has(b * to + a))) continue;
        seen.add(a * to + b);
        edges[type].push([a, b]);
        tx.upsertEdge(type, 'V', a, type === 'VW' ? 'W' : 'V', b, {});
      }
    };
    add('E', N * 4, N);
    add('F', N * 2, N);
    add('U', N * 2, N);
    add('VW', N, M);
  });
  await db.rebuild({ path: join(lowered.dir, 'summary') });
});

after(() => lowered.close());

/** Out-neighbours per vertex for a step of the WALKS (live vertices only). */
function neighbours(name: string): number[][] {
  const out: number[][] = Array.from({ length: N }, () => []);
  const add = (list: [number, number][], back: boolean): void => {
    for (const [a, b] of list) out[back ? b : a].push(back ? a : b);
  };
  if (name === 'in_e') add(edges.E, true);
  else if (name === 'undirected') {
    add(edges.U, false);
    add(edges.U, true);
  } else {
    add(edges.E, false);
    if (name === 'two_types') add(edges.F, false);
  }
  if (name === 'out_f') {
    out.forEach((l) => (l.length = 0));
    add(edges.F, false);
  }
  return out.map((l, v) => (deleted.has(v) ? [] : l.filter((t) => !deleted.has(t))));
}

/** Breadth-first frontiers from s (k hops), each in storage order (ids were inserted in order). */
function bfs(name: string, s: number, k: number): unknown {
  const out = neighbours(name);
  const keep = name === 'even_k' ? (v: number) => ks[v] % 2 === 0 : () => true;
  const seen = new Uint8Array(N);
  seen[s] = 1;
  let frontier = [s];
  const sizes: number[] = [];
  const order: number[] = [];
  for (let i = 0; i < k && frontier.length > 0; i++) {
    const next = new Set<number>();
    for (const v of frontier) for (const t of out[v]) if (seen[t] === 0 && keep(t)) next.add(t);
    frontier = [...next].sort((a, b) => a - b);
    for (const t of frontier) seen[t] = 1;
    sizes.push(frontier.length);
    order.push(...frontier);
  }
  return [{ '@@sizes': sizes, '@@order': order }];
}

/** into_w and all_e, computed here. */
function oneHops(): { into_w: unknown; all_e: unknown } {
  const live = (v: number): boolean => !deleted.has(v);
  const w = (pred: (v: number) => boolean): number[] =>
    [...new Set(edges.VW.filter(([a]) => live(a) && pred(a)).map(([, b]) => b))].sort((a, b) => a - b);
  const e = (pred: (v: number, t: number) => boolean): number[] =>
    [...new Set(edges.E.filter(([a, b]) => live(a) && live(b) && pred(a, b)).map(([, b]) => b))].sort(
      (a, b) => a - b,
    );
  return {
    into_w: [
      {
        '@@all': w(() => true).filter((t) => wk[t] % 3 !== 0),
        '@@odd': w((v) => ks[v] % 2 === 1),
        '@@none': [],
        // A's targets got two hits, D's others one.
        '@@hitSum': w(() => true).length + w(() => true).filter((t) => wk[t] % 3 !== 0).length,
        '@@inW': w(() => true).length,
      },
    ],
    all_e: [
      {
        '@@order': e((_, t) => ks[t] > 50),
        '@@odd': e((v) => ks[v] % 2 === 1),
        '@@even': e((v) => ks[v] % 2 === 0),
      },
    ],
  };
}

async function answer(
  name: string,
  args: Record<string, unknown>,
  host?: ParallelHost | 'pool',
): Promise<unknown> {
  return JSON.parse(await printedAnswer(db, name, host ?? 'here', args));
}

/** Seeds: hubs, ordinary vertices, and the hops worth checking from them. */
const SEEDS = [0, 7, 345, 1999];
const K = [1, 2, 3, 4];

/** Every query and its arguments, with the answer computed here. */
function cases(): { name: string; args: Record<string, unknown>; want: unknown }[] {
  const list: { name: string; args: Record<string, unknown>; want: unknown }[] = [];
  for (const [name] of WALKS)
    for (const s of SEEDS)
      for (const k of K) {
        if (deleted.has(s)) continue;
        list.push({ name, args: { s: new VertexRef('V', String(s)), k }, want: bfs(name, s, k) });
      }
  const one = oneHops();
  list.push({ name: 'into_w', args: {}, want: one.into_w });
  list.push({ name: 'all_e', args: {}, want: one.all_e });
  return list;
}

/** Runs the cases one way; returns how many SELECTs went bottom-up meanwhile. */
async function check(how: string, host?: () => ParallelHost | 'pool'): Promise<number> {
  const before = bottomUpSteps.runs;
  for (const { name, args, want } of cases())
    assert.deepEqual(await answer(name, args, host?.()), want, `${name} ${JSON.stringify(args)} ${how}`);
  return bottomUpSteps.runs - before;
}

test('bottom-up hops equal a breadth-first search and the push, on one thread and split in any order', async () => {
  // The planner picks the step per hop: each walk from a hub takes it for some hop, and so do the
  // one-hop queries from every V.
  const chosen = async (name: string, args: Record<string, unknown>): Promise<boolean> => {
    const before = bottomUpSteps.runs;
    await answer(name, args);
    return bottomUpSteps.runs > before;
  };
  for (const [name] of WALKS)
    assert.ok(await chosen(name, { s: new VertexRef('V', '0'), k: 4 }), `${name} went bottom-up`);
  assert.ok(await chosen('into_w', {}), 'into_w went bottom-up');
  // A small frontier pushes.
  assert.equal(
    await chosen('out_e', { s: new VertexRef('V', '1999'), k: 1 }),
    false,
    'one hop from one vertex',
  );
  assert.ok(await chosen('all_e', {}), 'all_e went bottom-up');
  assert.ok((await check('on one thread')) > 0);
  const hosts: ReverseHost[] = [];
  assert.ok(
    (await check('split in reverse', () => {
      hosts.push(new ReverseHost());
      return hosts[hosts.length - 1];
    })) > 0,
  );
  const jobs = hosts.flatMap((h) => h.jobs).filter((j) => j.pull?.exists);
  assert.ok(jobs.length > 0, 'some bottom-up step was split');
  assert.ok(
    jobs.some((j) => j.pull?.member === null),
    'every vertex as the sources: no member marks',
  );
  assert.ok(
    jobs.some((j) => j.listing && j.bounds.length > 3),
    'several target ranges listed by their threads',
  );
  // The push: the same answers with the step switched off.
  const alpha = parallelSelect.bottomUpAlpha;
  parallelSelect.bottomUpAlpha = 0;
  try {
    assert.equal(await check('pushed'), 0);
    assert.equal(await check('pushed, split', () => new ReverseHost()), 0);
  } finally {
    parallelSelect.bottomUpAlpha = alpha;
  }
});

test('bottom-up hops equal a breadth-first search on 1, 2 and 4 query workers', async () => {
  for (const threads of [1, 2, 4]) {
    await withQueryPool(
      db,
      threads,
      async (pool) => {
        await check(`on ${threads} workers`, () => 'pool');
        if (threads > 1) assert.ok(pool.stats.helped > 0, 'some SELECT was split');
      },
      LOWERED,
    );
  }
});

test('data written after the last merge: new edges and a deleted vertex', async () => {
  const r = rnd(99);
  await db.write((tx) => {
    for (let i = 0; i < 300; i++) {
      const a = r(N);
      const b = r(N);
      edges.E.push([a, b]);
      tx.upsertEdge('E', 'V', a, 'V', b, {});
    }
    tx.deleteVertex('V', 5);
  });
  deleted.add(5);
  // Duplicate pairs of the new edges are kept once, as the store keeps one edge per pair.
  edges.E = [...new Map(edges.E.map(([a, b]) => [`${a},${b}`, [a, b] as [number, number]])).values()];
  await check('after new writes');
  await check('after new writes, split in reverse', () => new ReverseHost());
  await withQueryPool(
    db,
    2,
    async () => {
      await check('after new writes on 2 workers', () => 'pool');
    },
    LOWERED,
  );
});
