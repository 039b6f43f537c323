import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { GraphDef } from '../../src/catalog/types.js';
import { Database } from '../../src/engine/database.js';
import { allPaths } from '../../src/paths/all-paths.js';
import { Budget } from '../../src/paths/budget.js';
import { PathError } from '../../src/paths/errors.js';
import { PathGraph, type FilterSpec, type Path } from '../../src/paths/graph.js';
import { shortestPaths } from '../../src/paths/shortest.js';
import {
  generate,
  JUNE_2020,
  load,
  NO_FILTERS,
  networkxPaths,
  pathCatalog,
  referencePaths,
  referenceShortest,
  signature,
  type Filters,
  type GenGraph,
  type GVertex,
  type NxAnswer,
} from './fixture.js';

interface Case {
  name: string;
  vertexFilters: FilterSpec[];
  edgeFilters: FilterSpec[];
  filters: Filters;
}

const CASES: Case[] = [
  { name: 'no filters', vertexFilters: [], edgeFilters: [], filters: NO_FILTERS },
  {
    name: 'vertex and edge filters',
    vertexFilters: [
      { type: 'P', condition: "w >= 2 and name != 'p3'" },
      { type: 'P', condition: "born > '2020-06-01 00:00:00'" },
    ],
    edgeFilters: [
      { type: 'follows', condition: 'weight < 60' },
      { type: 'knows', condition: "kind = 'work' or since between 2 and 5" },
      { type: 'mutual' },
    ],
    filters: {
      vertex: (v) =>
        v.type !== 'P' ||
        ((v.attrs.w as number) >= 2 && v.attrs.name !== 'p3') ||
        (v.attrs.born as number) > JUNE_2020,
      arc: (a) => {
        const x = a.edge.attrs;
        if (a.name === 'follows') return (x.weight as number) < 60;
        if (a.name === 'knows')
          return x.kind === 'work' || ((x.since as number) >= 2 && (x.since as number) <= 5);
        return true;
      },
    },
  },
];

const SEEDS = [1, 2, 3];
const dbs: { db: Database; dir: string; g: GenGraph }[] = [];
const graphDef: GraphDef = pathCatalog().graphs[0];

before(async () => {
  for (const seed of SEEDS) {
    const dir = await mkdtemp(join(tmpdir(), 'ocelot-paths-'));
    const db = await Database.open({ dataDir: dir, sync: 'none', rebuildIntervalMs: 0 });
    await db.changeCatalog(pathCatalog());
    const g = generate(seed, 12, 5, 34);
    await db.write((tx) => load(tx, g));
    dbs.push({ db, dir, g });
  }
});

after(async () => {
  for (const { db, dir } of dbs) {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
});

function key(v: { type: string; id: string }): string {
  return `${v.type}:${v.id}`;
}

function sig(pg: PathGraph, p: Path): string {
  const vs = p.vertices.map((g) => {
    const r = pg.vertexRecord(g);
    return `${r.v_type}:${r.v_id}`;
  });
  return signature(
    vs,
    p.edges.map((e) => e.step.name),
  );
}

/** The "type:id" of a vertex given by its global number. */
function sig1(pg: PathGraph, g: number): string {
  const r = pg.vertexRecord(g);
  return `${r.v_type}:${r.v_id}`;
}

/** Collects engine paths grouped by "source -> target". */
function collector(pg: PathGraph): { paths: Map<string, string[]>; sink: { path(p: Path): void } } {
  const paths = new Map<string, string[]>();
  return {
    paths,
    sink: {
      path(p: Path) {
        const s = sig(pg, p);
        const vs = s.split(' / ')[0].split(' ');
        const k = `${vs[0]} -> ${vs[vs.length - 1]}`;
        paths.set(k, [...(paths.get(k) ?? []), s]);
      },
    },
  };
}

const budget = (): Budget => new Budget(20_000);

for (const c of CASES) {
  describe(`paths against the reference (${c.name})`, () => {
    test('all paths: every simple path up to maxLength, exactly', async () => {
      for (const { db, g } of dbs) {
        const tx = db.read();
        try {
          const pg = new PathGraph(tx, graphDef, c.vertexFilters, c.edgeFilters);
          const srcs = g.vertices.filter((_, i) => i % 3 === 0);
          const tgts = g.vertices.filter((_, i) => i % 4 === 1 || i === 0);
          for (const maxLength of [0, 1, 3, 4]) {
            const { paths, sink } = collector(pg);
            await allPaths(
              pg,
              srcs.map((v) => pg.resolve(v, 'source')),
              tgts.map((v) => pg.resolve(v, 'target')),
              { maxLength, budget: budget() },
              sink,
            );
            for (const s of srcs) {
              for (const t of tgts) {
                const want = referencePaths(g, c.filters, key(s), key(t), maxLength).sort();
                const got = (paths.get(`${key(s)} -> ${key(t)}`) ?? []).sort();
                assert.deepEqual(got, want, `${key(s)} -> ${key(t)} maxLength ${maxLength}`);
              }
            }
          }
        } finally {
          tx.release();
        }
      }
    });

    test('shortest paths: all of them, one per pair, single pair (bidirectional), unreachable pairs', async () => {
      for (const { db, g } of dbs) {
        const tx = db.read();
        try {
          const pg = new PathGraph(tx, graphDef, c.vertexFilters, c.edgeFilters);
          const srcs = g.vertices.filter((_, i) => i % 2 === 0);
          const tgts = g.vertices.filter((_, i) => i % 3 === 1);
          for (const maxLength of [1, 2, 6]) {
            const want = new Map<string, string[]>();
            for (const s of srcs) {
              for (const t of tgts) {
                const ref = referencePaths(g, c.filters, key(s), key(t), maxLength);
                if (ref.length > 0) want.set(`${key(s)} -> ${key(t)}`, referenceShortest(ref).sort());
              }
            }
            const S = srcs.map((v) => pg.resolve(v, 'source'));
            const T = tgts.map((v) => pg.resolve(v, 'target'));
            // Pair by pair (bidirectional), and one BFS per root (forced with pairwiseMax 0).
            for (const pairwiseMax of [undefined, 0]) {
              const all = collector(pg);
              await shortestPaths(
                pg,
                S,
                T,
                { maxLength, all: true, budget: budget(), pairwiseMax },
                all.sink,
              );
              assert.deepEqual(new Map([...all.paths].map(([k, v]) => [k, v.sort()])), want);
              const one = collector(pg);
              await shortestPaths(
                pg,
                S,
                T,
                { maxLength, all: false, budget: budget(), pairwiseMax },
                one.sink,
              );
              assert.deepEqual([...one.paths.keys()].sort(), [...want.keys()].sort());
              for (const [k, v] of one.paths) {
                assert.equal(v.length, 1, k);
                assert.ok(want.get(k)?.includes(v[0]), `${k}: ${v[0]} is not a shortest path`);
              }
            }
            // Fewer sources than targets: one BFS per source (above: per target, the smaller side).
            const bySource = collector(pg);
            await shortestPaths(
              pg,
              S.slice(0, 2),
              T,
              { maxLength, all: true, budget: budget(), pairwiseMax: 0 },
              bySource.sink,
            );
            const wantBySource = [...want].filter(([k]) =>
              S.slice(0, 2).some((v) => k.startsWith(`${sig1(pg, v)} `)),
            );
            assert.deepEqual(
              new Map([...bySource.paths].map(([k, v]) => [k, v.sort()])),
              new Map(wantBySource),
            );
            for (const s of srcs.slice(0, 4)) {
              for (const t of tgts.slice(0, 4)) {
                const single = collector(pg);
                const sp = pg.resolve(s, 'source');
                const tp = pg.resolve(t, 'target');
                await shortestPaths(pg, [sp], [tp], { maxLength, all: false, budget: budget() }, single.sink);
                const k = `${key(s)} -> ${key(t)}`;
                const got = single.paths.get(k) ?? [];
                if (!want.has(k)) assert.deepEqual(got, [], k);
                else assert.ok(got.length === 1 && want.get(k)?.includes(got[0]), `${k}: ${got.join()}`);
                const every = collector(pg);
                await shortestPaths(pg, [sp], [tp], { maxLength, all: true, budget: budget() }, every.sink);
                assert.deepEqual((every.paths.get(k) ?? []).sort(), want.get(k) ?? [], k);
                const union = new Set<string>();
                await shortestPaths(
                  pg,
                  [sp],
                  [tp],
                  { maxLength, all: true, budget: budget() },
                  {
                    edge: (e) => union.add(pg.edgeKey(e)),
                  },
                );
                const listed = new Set<string>();
                await shortestPaths(
                  pg,
                  [sp],
                  [tp],
                  { maxLength, all: true, budget: budget() },
                  {
                    path: (q) => q.edges.forEach((e) => listed.add(pg.edgeKey(e))),
                  },
                );
                assert.deepEqual(union, listed, k);
              }
            }
          }
        } finally {
          tx.release();
        }
      }
    });

    test('union mode reports exactly the vertices and edges of all shortest paths', async () => {
      const { db, g } = dbs[0];
      const tx = db.read();
      try {
        const pg = new PathGraph(tx, graphDef, c.vertexFilters, c.edgeFilters);
        const S = [pg.resolve(g.vertices[0], 'source'), pg.resolve(g.vertices[13], 'source')];
        const T = g.vertices.slice(3, 9).map((v) => pg.resolve(v, 'target'));
        const wantV = new Set<number>();
        const wantE = new Set<string>();
        await shortestPaths(
          pg,
          S,
          T,
          { maxLength: 6, all: true, budget: budget() },
          {
            path: (p) => {
              for (const v of p.vertices) wantV.add(v);
              for (const e of p.edges) wantE.add(pg.edgeKey(e));
            },
          },
        );
        assert.ok(wantE.size > 0);
        const gotV = new Set<number>();
        const gotE = new Set<string>();
        await shortestPaths(
          pg,
          S,
          T,
          { maxLength: 6, all: true, budget: budget() },
          {
            vertex: (v) => gotV.add(v),
            edge: (e) => gotE.add(pg.edgeKey(e)),
          },
        );
        assert.deepEqual(gotV, wantV);
        assert.deepEqual(gotE, wantE);
      } finally {
        tx.release();
      }
    });
  });
}

test('networkx agrees (skipped when python3 with networkx is missing)', async (t) => {
  const maxLength = 4;
  const jobs = CASES.flatMap((c) =>
    dbs.map(({ g }) => {
      const pairs: [string, string][] = [];
      for (let i = 0; i < g.vertices.length; i += 2) {
        for (let j = 1; j < g.vertices.length; j += 3) pairs.push([key(g.vertices[i]), key(g.vertices[j])]);
      }
      return { g, f: c.filters, pairs, maxLength };
    }),
  );
  const answers = networkxPaths(jobs);
  if (!answers) {
    t.skip('python3 -c "import networkx" failed: networkx cross-check skipped');
    return;
  }
  let n = 0;
  for (const c of CASES) {
    for (const { db, g } of dbs) {
      const { pairs } = jobs[n];
      const nx: NxAnswer = answers[n++];
      const tx = db.read();
      try {
        const pg = new PathGraph(tx, graphDef, c.vertexFilters, c.edgeFilters);
        const byKey = new Map(g.vertices.map((v) => [key(v), v]));
        for (let i = 0; i < pairs.length; i++) {
          const [s, tg] = pairs[i];
          const S = [pg.resolve(byKey.get(s) as GVertex, 'source')];
          const T = [pg.resolve(byKey.get(tg) as GVertex, 'target')];
          const all = collector(pg);
          await allPaths(pg, S, T, { maxLength, budget: budget() }, all.sink);
          assert.deepEqual(
            (all.paths.get(`${s} -> ${tg}`) ?? []).sort(),
            nx.all[i],
            `all ${s} -> ${tg} (${c.name})`,
          );
          const sp = collector(pg);
          await shortestPaths(pg, S, T, { maxLength, all: true, budget: budget() }, sp.sink);
          const nodes = [
            ...new Set((sp.paths.get(`${s} -> ${tg}`) ?? []).map((p) => p.split(' / ')[0])),
          ].sort();
          assert.deepEqual(nodes, nx.shortest[i], `shortest ${s} -> ${tg} (${c.name})`);
        }
      } finally {
        tx.release();
      }
    }
  }
});

describe('filters and errors', () => {
  test('a bad condition, an unknown attribute or type is a PathError naming the filter', () => {
    const tx = dbs[0].db.read();
    try {
      const mk = (vf: FilterSpec[], ef: FilterSpec[] = []): PathGraph => new PathGraph(tx, graphDef, vf, ef);
      assert.throws(
        () => mk([{ type: 'P', condition: 'w >' }]),
        (e: unknown) =>
          e instanceof PathError &&
          e.code === 'REST-30000' &&
          e.message.startsWith(
            "Invalid condition 'w >' in the vertex filter vertexFilters[0] on 'P': Syntax Error",
          ),
      );
      assert.throws(() => mk([{ type: 'P', condition: 'height > 3' }]), {
        message:
          "Invalid condition 'height > 3' in the vertex filter vertexFilters[0] on 'P': 'height' is not an attribute.",
      });
      assert.throws(() => mk([{ type: 'Nope' }]), {
        message: "vertexFilters[0]: 'Nope' is not a vertex type of the graph.",
      });
      assert.throws(() => mk([], [{ type: 'P' }]), {
        message: "edgeFilters[0]: 'P' is not an edge type of the graph.",
      });
      assert.throws(() => mk([], [{ type: 'knows', condition: 'kind = ' }]), PathError);
      assert.throws(() => mk([{ type: 'P', condition: 'w > 1 extra' }]), PathError);
      const pg = mk([]);
      assert.throws(() => pg.resolve({ type: 'P', id: 999 }, 'source'), {
        message: "The source vertex 'P' '999' does not exist.",
      });
      assert.throws(() => pg.resolve({ type: 'X', id: 1 }, 'target'), {
        message: "The target vertex type 'X' is not a vertex type of the graph.",
      });
    } finally {
      tx.release();
    }
  });

  test('an expired budget stops the enumeration with REST-3000', async () => {
    const tx = dbs[0].db.read();
    try {
      const pg = new PathGraph(tx, graphDef);
      const all = dbs[0].g.vertices.map((v) => pg.resolve(v, 'source'));
      const b = new Budget(0);
      await new Promise((r) => setTimeout(r, 5));
      await assert.rejects(
        (async () => {
          // Enough repetitions that the budget is consulted (it reads the clock every 4096 units).
          for (let i = 0; i < 200; i++)
            await allPaths(pg, all, all, { maxLength: 6, budget: b }, { path: () => {} });
        })(),
        (e: unknown) =>
          e instanceof PathError && e.code === 'REST-3000' && /timed out after 0 ms/.test(e.message),
      );
    } finally {
      tx.release();
    }
  });
});
