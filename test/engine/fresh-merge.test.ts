/**
 * The background merge after a load (Database.mergeFresh, engine/fresh-merge.ts): every answer is
 * the same before and after it, writes made while the merge thread runs stay as deltas over the
 * new base, and neither a restart nor a crash during or after a merge loses acknowledged data.
 * The reference is a second database given the same writes that never merges.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { FaultyFileLayer } from '../../src/durability/faulty-file-layer.js';
import type { WriteTx } from '../../src/engine/api.js';
import { Database } from '../../src/engine/database.js';
import {
  installMerged,
  installTables,
  planMerge,
  planTables,
  prepareMerged,
  prepareTables,
} from '../../src/engine/fresh-merge.js';
import { ReadTxImpl } from '../../src/engine/read-tx.js';
import { buildBase } from '../../src/store/base-builder.js';
import type { GraphStore } from '../../src/store/graph-store.js';
import { mergeBlock } from '../../src/store/edge-block.js';
import { ValueColumn } from '../../src/store/columns.js';
import type { VertexTable } from '../../src/store/vertex-table.js';
import { prepareJob, runJobOnData } from '../../src/loading/job.js';
import { runScript } from '../../src/shell/run-script.js';
import { silentLogger } from '../../src/util/logger.js';
import { freshDb, graphSnapshot, tempDir, type TempDb } from './fixtures.js';
import { waitFor } from '../timing.js';

/** Merges every block with a delta. */
const EAGER = { freshMergeMinEdges: 1, idleMergeMs: 0 };
/** Never merges in the background (the reference). */
const NEVER = { freshMergeMinEdges: 2 ** 31, idleMergeMs: 0 };

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** `ops` random edge upserts, attribute updates, edge and vertex deletions over 150 persons. */
function randomOps(tx: WriteTx, next: () => number, ops: number): void {
  const p = (): string => `p${Math.floor(next() * 150)}`;
  for (let i = 0; i < ops; i++) {
    const x = next();
    if (x < 0.55) tx.upsertEdge('follows', 'Person', p(), 'Person', p(), {});
    else if (x < 0.75)
      tx.upsertEdge('knows', 'Person', p(), 'Person', p(), {
        weight: { value: Math.round(next() * 1000) / 8, op: 'set' },
      });
    else if (x < 0.85)
      tx.upsertEdge('owns', 'Num', Math.floor(next() * 40), 'Item', Math.floor(next() * 40), {});
    else if (x < 0.97) tx.deleteEdge('follows', 'Person', p(), 'Person', p());
    else tx.deleteVertex('Person', p());
  }
}

/** `ops` upserts of persons with string, list and set values, and vertex deletions, over 400 persons. */
function vertexOps(tx: WriteTx, next: () => number, ops: number): void {
  for (let i = 0; i < ops; i++) {
    const id = `v${Math.floor(next() * 400)}`;
    const x = next();
    if (x < 0.92) {
      tx.upsertVertex('Person', id, {
        name2: { value: `n${Math.floor(next() * 1e6)}`, op: 'set' },
        tags: { value: [`t${i % 7}`], op: 'set' },
        nums: { value: [i, Math.floor(next() * 100)], op: 'set' },
      });
    } else tx.deleteVertex('Person', id);
  }
}

/** Vertex transactions `from..to` with `seed`, all issued at once. */
function vertexWorkload(db: Database, seed: number, from: number, to: number): Promise<void>[] {
  const out: Promise<void>[] = [];
  for (let t = from; t < to; t++) {
    const next = random(seed * 1000 + t);
    out.push(db.write((tx) => vertexOps(tx, next, 60)));
  }
  return out;
}

/** What the vertex tables hold outside their shared bases: value-column rows and keyed ids. */
function overlays(db: Database): { values: number; keys: number; keyLog: number } {
  const r = db.pin();
  try {
    let values = 0;
    let keys = 0;
    let keyLog = 0;
    for (const t of r.graphStore.tables.values()) {
      for (const c of [t.idColumn, ...t.columns.values()]) if (c instanceof ValueColumn) values += c.overlay;
      keys += t.index.overlay;
      keyLog += t.index.logKeys.length;
    }
    return { values, keys, keyLog };
  } finally {
    r.release();
  }
}

/** Applies transactions `from..to` of the workload with `seed` (all issued at once, committed in order). */
function workload(db: Database, seed: number, from: number, to: number): Promise<void>[] {
  const out: Promise<void>[] = [];
  for (let t = from; t < to; t++) {
    const next = random(seed * 1000 + t);
    out.push(db.write((tx) => randomOps(tx, next, 150)));
  }
  return out;
}

/**
 * graphSnapshot with each vertex's edges sorted: a merge, like a rebuild, stores a vertex's edges
 * by target rather than in insertion order, and an edge listing has no defined order.
 */
function answers(db: Database): unknown {
  const flat = graphSnapshot(db, { edges: true }) as unknown[];
  const out: unknown[] = [];
  let edges: string[] = [];
  for (const x of flat) {
    const isEdge = typeof x === 'object' && x !== null && 'e_type' in x;
    if (isEdge) edges.push(JSON.stringify(x));
    else {
      out.push(...edges.sort(), x);
      edges = [];
    }
  }
  return out;
}

/** Delta edges and tombstones of every block of the published store, and their base edges. */
function layout(db: Database): { base: number; delta: number; tombs: number } {
  const r = db.pin();
  try {
    let base = 0;
    let delta = 0;
    let tombs = 0;
    for (const b of r.graphStore.blocks) {
      base += b.nBase;
      delta += b.dCount;
      tombs += b.tomb.size;
    }
    return { base, delta, tombs };
  } finally {
    r.release();
  }
}

async function reference(seed: number, txs: number): Promise<{ t: TempDb; db: Database }> {
  const t = tempDir();
  const db = await freshDb(t, NEVER);
  await Promise.all(workload(db, seed, 0, txs));
  return { t, db };
}

test('a background merge leaves every answer as it was and no delta behind; pinned readers keep theirs', async () => {
  const t = tempDir();
  try {
    const db = await freshDb(t, EAGER);
    await Promise.all(workload(db, 1, 0, 12));
    const before = answers(db);
    const pinned = db.pin();
    const pinnedCount = pinned.edgeCount('follows');
    const was = layout(db);
    assert.ok(was.delta > 0 && was.tombs > 0, 'the workload leaves deltas and tombstones');
    // What the rebuild's merge makes of the same blocks: the background merge must store the same.
    const rebuilt = pinned.graphStore.blocks.map((b) => {
      const m = mergeBlock(
        b,
        pinned.version,
        (pinned.graphStore.tables.get(b.fromType) as VertexTable).count,
        (pinned.graphStore.tables.get(b.toType) as VertexTable).count,
      );
      return [m.outOffsets, m.outTargets, m.inOffsets, m.inSources, m.inEids].map((a) => [...a]);
    });
    await db.mergeFresh();
    const after = db.pin();
    assert.deepEqual(
      after.graphStore.blocks.map((m) =>
        [m.outOffsets, m.outTargets, m.inOffsets, m.inSources, m.inEids].map((a) => [...a]),
      ),
      rebuilt,
    );
    after.release();
    assert.deepEqual(answers(db), before);
    const now = layout(db);
    assert.equal(now.delta, 0);
    assert.equal(now.tombs, 0);
    assert.ok(now.base > 0);
    assert.equal(pinned.edgeCount('follows'), pinnedCount);
    pinned.release();
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('writes made while the merge thread runs stay as deltas over the new base', async () => {
  const t = tempDir();
  const ref = await reference(2, 20);
  try {
    const db = await freshDb(t, EAGER);
    await Promise.all(workload(db, 2, 0, 10));
    const merged = layout(db);
    const merge = db.mergeFresh();
    // Issued before the merge thread answers: these are later than the version being merged.
    const racing = workload(db, 2, 10, 20);
    await Promise.all([merge, ...racing]);
    const after = layout(db);
    assert.ok(after.base > 0 && after.base <= merged.base + merged.delta);
    assert.ok(after.delta > 0, 'the racing edges are deltas over the new base');
    assert.ok(after.tombs > 0, 'racing deletions of base edges are tombstones on the new base');
    assert.deepEqual(answers(db), answers(ref.db));
    // A second merge folds the racing writes in too.
    await db.mergeFresh();
    assert.equal(layout(db).delta, 0);
    assert.deepEqual(answers(db), answers(ref.db));
    await db.close();
  } finally {
    await ref.db.close();
    ref.t.cleanup();
    t.cleanup();
  }
});

test('a catalog change that keeps the stored types does not stop a merge running over it', async () => {
  const t = tempDir();
  try {
    const db = await freshDb(t, EAGER);
    await Promise.all(workload(db, 6, 0, 6));
    const before = answers(db);
    const merge = db.mergeFresh();
    await db.changeCatalog({ ...db.catalog, jobs: [] });
    await merge;
    assert.equal(layout(db).delta, 0);
    assert.deepEqual(answers(db), before);
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('values, edges and deletions written after the columns were carried are applied at the switch', async () => {
  const t = tempDir();
  const ref = await reference(5, 16);
  try {
    const db = await freshDb(t, NEVER);
    await Promise.all(workload(db, 5, 0, 8));
    // The steps of Database.mergeFresh, with writes between carrying and switching.
    const pin = db.pin();
    const store = pin.graphStore;
    const jobs = planMerge(store, pin.version, { minDelta: 1, share: 8 });
    const built = jobs.map((j) => buildBase(j.source));
    const prepared = await prepareMerged(jobs, built, pin.version);
    await Promise.all(workload(db, 5, 8, 16));
    const next = installMerged(store, pin.version, db.version, jobs, built, prepared) as GraphStore;
    const merged = new ReadTxImpl(next, db.version, () => undefined);
    const view = { read: () => merged } as unknown as Database;
    assert.deepEqual(answers(view), answers(ref.db));
    const knows = next.blocks.find((b) => b.edgeType.name === 'knows');
    assert.ok(knows && knows.nBase > 0 && knows.dCount > 0);
    pin.release();
    await db.close();
  } finally {
    await ref.db.close();
    ref.t.cleanup();
    t.cleanup();
  }
});

test('a merged database reopens with the same answers, and merges what recovery replayed', async () => {
  const t = tempDir();
  const ref = await reference(3, 16);
  try {
    let db = await freshDb(t, EAGER);
    await Promise.all(workload(db, 3, 0, 8));
    const merge = db.mergeFresh();
    await Promise.all([merge, ...workload(db, 3, 8, 16)]);
    await db.close();
    db = await t.open(EAGER);
    assert.deepEqual(answers(db), answers(ref.db));
    // Opening started a merge of the replayed deltas; the next one queues behind it.
    await db.mergeFresh();
    assert.equal(layout(db).delta, 0);
    assert.deepEqual(answers(db), answers(ref.db));
    await db.close();
  } finally {
    await ref.db.close();
    ref.t.cleanup();
    t.cleanup();
  }
});

for (const when of ['during', 'after'] as const) {
  test(`a crash ${when} a background merge keeps every acknowledged write`, async () => {
    const t = tempDir();
    const ref = await reference(4, 14);
    try {
      const fs = new FaultyFileLayer();
      let db = await freshDb(t, { ...EAGER, fileLayer: fs });
      await Promise.all(workload(db, 4, 0, 8));
      const merge = db.mergeFresh();
      await Promise.all(workload(db, 4, 8, 14));
      if (when === 'after') await merge;
      await fs.crash();
      await db.close().catch(() => undefined);
      await merge;
      db = await t.open({ ...EAGER, fileLayer: fs });
      assert.deepEqual(answers(db), answers(ref.db));
      await db.close();
    } finally {
      await ref.db.close();
      ref.t.cleanup();
      t.cleanup();
    }
  });
}

test('a loading job returns with its edges merged', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ocelot-fresh-'));
  try {
    const db = await Database.open({ dataDir: join(dir, 'data'), rebuildIntervalMs: 0, ...EAGER });
    const schema = `CREATE VERTEX N (PRIMARY_ID id INT)
CREATE DIRECTED EDGE E (FROM N, TO N) WITH REVERSE_EDGE="rE"
CREATE GRAPH g (N, E)`;
    assert.equal(await runScript(db, schema, { user: 'tigergraph' }, () => undefined), 0);
    const job = prepareJob(
      `CREATE LOADING JOB j FOR GRAPH g { DEFINE FILENAME f; LOAD f TO EDGE E VALUES ($0, $1) USING SEPARATOR=","; }`,
      'g',
      db,
    );
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++) lines.push(`${(i * 7919) % 500},${(i * 104729) % 500}`);
    const stats = await runJobOnData(db, job, 'f', Buffer.from(lines.join('\n') + '\n'));
    assert.equal(stats.validLine, 3000);
    const l = layout(db);
    assert.equal(l.delta, 0);
    const r = db.read();
    assert.equal(l.base, r.edgeCount('E'));
    r.release();
    await db.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the merge folds vertex tables: values and keyed ids go to shared bases, later writes stay overlaid', async () => {
  const t = tempDir();
  const rt = tempDir();
  try {
    const db = await freshDb(t, NEVER);
    const ref = await freshDb(rt, NEVER);
    await Promise.all([...vertexWorkload(db, 6, 0, 10), ...vertexWorkload(ref, 6, 0, 10)]);
    const was = overlays(db);
    assert.ok(was.values > 0 && was.keys > 0, 'the workload leaves overlays');
    // The steps of Database.mergeFresh for tables, with writes between folding and installing.
    const pin = db.pin();
    const folds = planTables(pin.graphStore, { minDelta: 1, share: Infinity });
    assert.ok(folds.length > 0);
    const during = db.pin();
    const refDuring = ref.read();
    const atDuring = graphSnapshot(ref);
    await prepareTables(folds);
    await Promise.all([...vertexWorkload(db, 6, 10, 14), ...vertexWorkload(ref, 6, 10, 14)]);
    await db.settled();
    installTables(pin.graphStore, folds);
    pin.release();
    assert.deepEqual(graphSnapshot(db), graphSnapshot(ref));
    const left = overlays(db);
    assert.ok(left.values < was.values && left.keys < was.keys, 'most rows and keys are in the bases');
    // A reader pinned before the later writes still sees its version, by row and by id.
    const view = { read: () => new ReadTxImpl(during.graphStore, during.version, () => undefined) };
    assert.deepEqual(graphSnapshot(view as unknown as Database), atDuring);
    const now = db.read();
    const expected = ref.read();
    for (let i = 0; i < 400; i++) {
      const id = `v${i}`;
      const a = during.lookup('Person', id);
      assert.equal(a !== undefined, refDuring.vertexExists('Person', id), id);
      if (a !== undefined) assert.equal(during.vertexIdValue('Person', a), id);
      assert.equal(now.vertexExists('Person', id), expected.vertexExists('Person', id), id);
    }
    now.release();
    expected.release();
    refDuring.release();
    during.release();
    await db.mergeFresh({ minDelta: 1, share: Infinity });
    assert.deepEqual(overlays(db), { values: 0, keys: 0, keyLog: 0 });
    assert.deepEqual(graphSnapshot(db), graphSnapshot(ref));
    await db.close();
    await ref.close();
  } finally {
    t.cleanup();
    rt.cleanup();
  }
});

test('small writes are merged in the background once writes pause: same answers as after a rebuild', async () => {
  const t = tempDir();
  const ref = await reference(7, 6);
  try {
    const db = await freshDb(t, { idleMergeMs: 5 });
    await Promise.all(workload(db, 7, 0, 6));
    await waitFor('the idle merge', () => {
      const l = layout(db);
      const o = overlays(db);
      return l.delta === 0 && l.tombs === 0 && o.values === 0 && o.keys === 0;
    });
    const merged = answers(db);
    assert.deepEqual(merged, answers(ref.db));
    await db.rebuild({ path: join(t.dir, 'summary') });
    assert.deepEqual(answers(db), merged);
    await db.close();
  } finally {
    await ref.db.close();
    ref.t.cleanup();
    t.cleanup();
  }
});

test('an idle merge that finds writes went on meanwhile installs nothing', async () => {
  const t = tempDir();
  try {
    const lines: string[] = [];
    const info = (a: unknown, b?: string): void => void lines.push(b ?? String(a));
    const logger = { ...silentLogger, info };
    const db = await freshDb(t, { ...NEVER, logger });
    const edges = (from: number, n: number) => (tx: WriteTx) => {
      for (let i = from; i < from + n; i++)
        tx.upsertEdge('follows', 'Person', `p${i % 3000}`, 'Person', `q${i}`, {});
    };
    await db.write(edges(0, 60_000));
    const before = layout(db);
    const merge = db.mergeFresh({ minDelta: 1, share: Infinity, idle: true });
    // Once the merge thread builds, a load-sized write comes in.
    const building = (): boolean =>
      (db as unknown as { merges: { building?: unknown } }).merges.building !== undefined;
    while (!building()) await new Promise((r) => setImmediate(r));
    await db.write(edges(60_000, 20_000));
    await merge;
    assert.ok(
      lines.some((l) => /background merge at version \d+ dropped/.test(l)),
      lines.join('\n'),
    );
    assert.deepEqual(layout(db), { base: before.base, delta: before.delta + 20_000, tombs: 0 });
    // A merge after writes paused takes it all.
    await db.mergeFresh({ minDelta: 1, share: Infinity, idle: true });
    assert.deepEqual(layout(db), { base: before.delta + 20_000, delta: 0, tombs: 0 });
    await db.close();
  } finally {
    t.cleanup();
  }
});
