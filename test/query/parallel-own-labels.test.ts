/**
 * Label propagation split by sources with owner-only writes (query/parallel-labels.ts, the
 * `owned` walk): while the rows run, each thread writes only proposals of its own; the cells are
 * written when the ranges are listed. WCC in the bench's form (WHERE, `-(E>|<E)-`) and in the
 * algorithm library's (no WHERE, `HAVING t.@cc != t.@cc'`), over a directed edge both ways, an
 * undirected edge and two vertex types with isolated vertices, must equal union-find's components
 * and the one-thread answer: here, with a host playing 4 threads in reverse partition order, with
 * a host playing a helper thread through helpParallelAccum (whose rows must leave every shared
 * cell as it was), with compare-and-swap instead, and on 2 and 4 query workers, also over fresh
 * (unmerged) edges and deletions.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Database } from '../../src/engine/database.js';
import {
  helpParallelAccum,
  registryFor,
  type AccumJob,
  type CompiledQuery,
  type HelperOutcome,
  type ParallelHost,
} from '../../src/query/index.js';
import { labelWalks } from '../../src/query/parallel-labels.js';
import type { SelectKernel } from '../../src/query/select-kernel-types.js';
import {
  assertSameOnPools,
  type LoweredDb,
  loweredQueryDb,
  printedAnswer,
  ReverseHost,
  rnd,
} from './parallel-fixture.js';

const NV = 1200;
const NW = 500;

const SCHEMA = `
CREATE VERTEX V (PRIMARY_ID id INT, k INT)
CREATE VERTEX W (PRIMARY_ID id INT, k INT)
CREATE DIRECTED EDGE E (FROM V, TO V) WITH REVERSE_EDGE="rE"
CREATE UNDIRECTED EDGE U (FROM V, TO W)
CREATE UNDIRECTED EDGE UW (FROM W, TO W)
CREATE GRAPH g (*)
`;

/** The bench's form: a live monotone WHERE over E both ways and the undirected edges. */
const WHERE_FORM = `CREATE QUERY where_form() FOR GRAPH g {
  MinAccum<INT> @cc;
  All = {V.*, W.*};
  Changed = SELECT v FROM All:v POST-ACCUM v.@cc = v.k;
  WHILE Changed.size() > 0 DO
    Changed = SELECT t FROM Changed:v -(E>|<E|U|UW:e)- :t WHERE v.@cc < t.@cc ACCUM t.@cc += v.@cc;
  END;
  PRINT All[All.@cc];
}`;

/** The algorithm library's form: no WHERE, HAVING on the changed value, type sets as parameters. */
const HAVING_FORM = `CREATE QUERY having_form(SET<STRING> v_type_set, SET<STRING> e_type_set) FOR GRAPH g SYNTAX V1 {
  MinAccum<INT> @cc = 0; SumAccum<INT> @@rounds;
  Start = {v_type_set};
  S = SELECT x FROM Start:x POST-ACCUM x.@cc = x.k;
  WHILE Start.size() > 0 DO
    Start = SELECT t FROM Start:s -(e_type_set:e)- v_type_set:t
            ACCUM t.@cc += s.@cc
            HAVING t.@cc != t.@cc';
    @@rounds += 1;
  END;
  All = {v_type_set};
  PRINT All[All.@cc], @@rounds;
}`;

/** Max labels by a target-first filter over E both ways only (V alone). */
const MAX_FORM = `CREATE QUERY max_form() FOR GRAPH g {
  MaxAccum<INT> @hi;
  All = {V.*};
  Changed = SELECT v FROM All:v POST-ACCUM v.@hi = v.k;
  WHILE Changed.size() > 0 DO
    Changed = SELECT t FROM Changed:v -(E>|<E:e)- V:t WHERE t.@hi < v.@hi ACCUM t.@hi += v.@hi;
  END;
  PRINT All[All.@hi];
}`;

const QUERIES: [string, string][] = [
  ['where_form', WHERE_FORM],
  ['having_form', HAVING_FORM],
  ['max_form', MAX_FORM],
];

const HAVING_ARGS = { v_type_set: ['V', 'W'], e_type_set: ['E', 'rE', 'U', 'UW'] };
const argsOf = (name: string): Record<string, unknown> => (name === 'having_form' ? HAVING_ARGS : {});

/** Vertex keys: unique, in reverse of the ids, so the lowest labels sit at high run indexes. */
const keyOf = (type: 'V' | 'W', i: number): number => (type === 'V' ? 7 * (NV - i) : 7 * NV + 3 * (NW - i));

type Edge = [string, number, string, number];
let edges: Edge[] = [];
let db: Database;
let lowered: LoweredDb;

before(async () => {
  lowered = await loweredQueryDb('ocelot-own-labels-', SCHEMA, QUERIES);
  db = lowered.db;
  const r = rnd(2026);
  await db.write((tx) => {
    for (let i = 0; i < NV; i++) tx.upsertVertex('V', i, { k: { value: keyOf('V', i), op: 'set' } });
    for (let i = 0; i < NW; i++) tx.upsertVertex('W', i, { k: { value: keyOf('W', i), op: 'set' } });
    const add = (e: Edge): void => {
      tx.upsertEdge(e[0], typeOfFrom(e), e[1], typeOfTo(e), e[3], {});
      edges.push(e);
    };
    // Hubs at low ids and one large component in the first half of V; chains in the second half;
    // W joined to V by U and to itself by UW; the last 30 of each type isolated.
    for (let i = 0; i < NV; i++) add(['E', r(3) === 0 ? r(8) : r(NV / 2), 'V', r(NV / 2)]);
    for (let i = NV / 2; i + 3 < NV - 30; i += 3) {
      add(['E', i, 'V', i + 2]);
      add(['E', i + 1, 'V', i + 2]);
    }
    for (let i = 0; i < NW - 30; i += 2) add(['U', NV / 2 + r(NV / 2 - 30), 'W', i]);
    for (let i = 1; i + 1 < NW - 30; i += 4) add(['UW', i, 'W', i + 1]);
  });
  await db.rebuild({ path: join(lowered.dir, 'summary') });
});

after(() => lowered.close());

function typeOfFrom(e: Edge): string {
  return e[0] === 'UW' ? 'W' : 'V';
}

function typeOfTo(e: Edge): string {
  return e[2];
}

/** Each vertex's lowest (and highest) key in its component by union-find, over `kinds` of edges. */
function reference(kinds: string[], types: ('V' | 'W')[]): Map<string, [number, number]> {
  const id = (t: string, i: number): string => `${t}:${i}`;
  const up = new Map<string, string>();
  for (const t of types) for (let i = 0; i < (t === 'V' ? NV : NW); i++) up.set(id(t, i), id(t, i));
  const root = (x: string): string => {
    const u = up.get(x)!;
    if (u === x) return x;
    const r = root(u);
    up.set(x, r);
    return r;
  };
  for (const e of edges)
    if (kinds.includes(e[0])) up.set(root(id(typeOfFrom(e), e[1])), root(id(typeOfTo(e), e[3])));
  const lo = new Map<string, number>();
  const hi = new Map<string, number>();
  for (const x of up.keys()) {
    const [t, i] = x.split(':');
    const k = keyOf(t as 'V' | 'W', Number(i));
    const c = root(x);
    lo.set(c, Math.min(lo.get(c) ?? Infinity, k));
    hi.set(c, Math.max(hi.get(c) ?? -Infinity, k));
  }
  return new Map([...up.keys()].map((x) => [x, [lo.get(root(x))!, hi.get(root(x))!]]));
}

/**
 * Plays a helper thread: it takes every other source range first through the helper's own code
 * (helpParallelAccum), then the owner takes the rest. `clean`: for each label job (owned or not),
 * whether the helper's rows left every shared cell at its snapshot value.
 */
class HelperHost implements ParallelHost {
  readonly threads = 2;
  readonly jobs: AccumJob[] = [];
  readonly clean: { owned: boolean; clean: boolean }[] = [];
  private left: number[] = [];

  accum(query: CompiledQuery, job: AccumJob, ownShare: () => void): HelperOutcome[] {
    this.jobs.push(job);
    const parts = Array.from({ length: job.bounds.length - 1 }, (_, p) => p);
    const theirs = parts.filter((p) => p % 2 === 1);
    const snapshot = db.read();
    let outcome: HelperOutcome;
    try {
      outcome = helpParallelAccum(query, snapshot, job, () => theirs.shift() ?? -1);
    } finally {
      snapshot.release();
    }
    const labels = job.labels;
    if (labels) {
      const limit = job.listAfter!.ranges.at(-1)!;
      let same = true;
      for (let g = 0; g < limit && same; g++) same = labels.cells[g] === labels.snap[g];
      this.clean.push({ owned: labels.owned !== undefined, clean: same });
    }
    this.left = parts.filter((p) => p % 2 === 0);
    ownShare();
    return [outcome];
  }

  take(): number {
    return this.left.shift() ?? -1;
  }

  expect(): void {}
}

async function answer(name: string, where: ParallelHost | 'here' | 'pool'): Promise<string> {
  return printedAnswer(db, name, where, argsOf(name));
}

type Row = { v_id: string; v_type: string; attributes: Record<string, number> };

/** Checks a printed answer against union-find: every vertex of `types` with its component's label. */
function checkLabels(text: string, column: string, kinds: string[], types: ('V' | 'W')[], max = false): void {
  const want = reference(kinds, types);
  const rows = (JSON.parse(text) as { All: Row[] }[])[0].All;
  assert.equal(rows.length, want.size);
  for (const v of rows) {
    const [lo, hi] = want.get(`${v.v_type}:${v.v_id}`)!;
    assert.equal(v.attributes[column], max ? hi : lo, `${v.v_type} ${v.v_id}`);
  }
}

/** Every form against union-find, and the same answer through each host as on one thread. */
async function checkAll(): Promise<void> {
  const all = ['E', 'U', 'UW'];
  const here = new Map<string, string>();
  for (const [name] of QUERIES) here.set(name, await answer(name, 'here'));
  checkLabels(here.get('where_form')!, 'All.@cc', all, ['V', 'W']);
  checkLabels(here.get('having_form')!, 'All.@cc', all, ['V', 'W']);
  checkLabels(here.get('max_form')!, 'All.@hi', ['E'], ['V'], true);
  for (const [name] of QUERIES) {
    const reverse = new ReverseHost();
    assert.equal(await answer(name, reverse), here.get(name), `${name}, 4 threads played in reverse`);
    const walked = reverse.jobs.filter((j) => j.labels?.owned !== undefined);
    assert.ok(walked.length > 0, `${name}: some round took the owned walk`);
    assert.ok(
      walked.some((j) => j.labels!.owned!.applied[0] > 0),
      `${name}: cells changed from proposals`,
    );
    const helper = new HelperHost();
    assert.equal(await answer(name, helper), here.get(name), `${name}, a helper thread played`);
    const owned = helper.clean.filter((c) => c.owned);
    assert.ok(owned.length > 0, `${name}: the helper took owned rounds`);
    assert.ok(
      owned.every((c) => c.clean),
      `${name}: the helper's rows wrote no shared cell`,
    );
  }
}

test('both WCC forms split as label propagations, the library form too', () => {
  for (const [name] of QUERIES) {
    const query = registryFor(db).installed('g', name, db.catalog);
    const labels = ((query.kernels ?? []) as SelectKernel[]).flatMap(
      (k) => k.wide.parallel?.bySource?.labels ?? [],
    );
    assert.equal(labels.length, 1, `${name}: one label propagation`);
    assert.equal(labels[0].min, name !== 'max_form');
  }
});

test('owner-only writes give union-find’s components and the one-thread answers', async () => {
  await checkAll();
});

test('compare-and-swap instead gives the same answers and leaves the shared cells written by the rows', async () => {
  labelWalks.owned = false;
  try {
    for (const [name] of QUERIES) {
      const helper = new HelperHost();
      assert.equal(await answer(name, helper), await answer(name, 'here'));
      assert.ok(helper.clean.length > 0 && helper.clean.every((c) => !c.owned), name);
      // The observable above tells the walks apart: compare-and-swap rows write the shared cells.
      assert.ok(
        helper.clean.some((c) => !c.clean),
        `${name}: the helper's compare-and-swap rows changed shared cells`,
      );
    }
  } finally {
    labelWalks.owned = true;
  }
});

test('owner-only writes over fresh edges and deletions (not merged) agree with union-find', async () => {
  const r = rnd(99);
  const added: Edge[] = [];
  await db.write((tx) => {
    for (let i = 0; i < 200; i++) {
      const e: Edge = ['E', NV / 2 + r(NV / 2 - 30), 'V', r(NV)];
      if (e[3] >= NV - 30) continue;
      tx.upsertEdge('E', 'V', e[1], 'V', e[3], {});
      added.push(e);
    }
    for (let i = 0; i < 40; i++) {
      const e: Edge = ['U', r(NV - 30), 'W', r(NW - 30)];
      tx.upsertEdge('U', 'V', e[1], 'W', e[3], {});
      added.push(e);
    }
    // Deletions: the first 60 stored E edges and a few U edges.
    const gone = new Set<Edge>();
    for (const e of edges.filter((x) => x[0] === 'E').slice(0, 60)) {
      tx.deleteEdge('E', 'V', e[1], 'V', e[3]);
      gone.add(e);
    }
    for (const e of edges.filter((x) => x[0] === 'U').slice(0, 10)) {
      tx.deleteEdge('U', 'V', e[1], 'W', e[3]);
      gone.add(e);
    }
    // deleteEdge removes every edge between the pair: drop all copies from the reference.
    const pair = (e: Edge): string => `${e[0]}:${e[1]}:${e[3]}`;
    const deleted = new Set([...gone].map(pair));
    edges = edges.filter((e) => !deleted.has(pair(e)));
  });
  edges.push(...added);
  await checkAll();
});

test('owner-only label propagation gives the same answers on 2 and 4 query workers', async () => {
  await assertSameOnPools(
    db,
    QUERIES.map(([name]) => name),
    answer,
  );
});
