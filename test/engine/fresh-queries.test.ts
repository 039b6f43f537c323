/**
 * Queries straight after a load or a burst of small writes answer exactly what they answer after a
 * rebuild (/rebuildnow's merge), on the event loop and on worker threads, and the background
 * merge has happened by then: no delta edges, and the vertex tables' values and keyed ids in
 * their shared bases (so workers map them rather than receive copies).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { VertexRef } from '../../src/catalog/value.js';
import { Database, type DatabaseOptions } from '../../src/engine/database.js';
import { prepareJob, runJobOnData } from '../../src/loading/job.js';
import { type CompiledQuery, registryFor } from '../../src/query/index.js';
import { runScript } from '../../src/shell/run-script.js';
import { ValueColumn } from '../../src/store/columns.js';
import { JsonText } from '../../src/util/json.js';
import { attachPool, QueryPool, runQuery } from '../../src/workers/index.js';
import { tempDir } from './fixtures.js';
import { waitFor } from '../timing.js';

const ENTRY = new URL('../../src/server/workers/thread.js', import.meta.url);

const SCHEMA = `
CREATE VERTEX P (PRIMARY_ID id STRING, name STRING, tags SET<STRING>)
CREATE DIRECTED EDGE E (FROM P, TO P) WITH REVERSE_EDGE="rE"
CREATE GRAPH g (*)
CREATE LOADING JOB j FOR GRAPH g {
  DEFINE FILENAME f;
  LOAD f TO VERTEX P VALUES ($0, $2, SPLIT($3, ";")), TO EDGE E VALUES ($0, $1) USING SEPARATOR=",";
}
USE GRAPH g
CREATE QUERY wcc() FOR GRAPH g {
  MinAccum<INT> @cc; SumAccum<INT> @@components;
  All = {P.*};
  Changed = SELECT v FROM All:v POST-ACCUM v.@cc = getvid(v);
  WHILE Changed.size() > 0 DO
    Changed = SELECT t FROM Changed:v -(E>|<E:e)- P:t WHERE v.@cc < t.@cc ACCUM t.@cc += v.@cc;
  END;
  Roots = SELECT v FROM All:v WHERE v.@cc == getvid(v) POST-ACCUM @@components += 1;
  PRINT @@components;
}
CREATE QUERY reach(VERTEX<P> s, INT k) FOR GRAPH g {
  OrAccum @seen; SetAccum<STRING> @@names; INT i = 0;
  F = {s};
  F = SELECT v FROM F:v POST-ACCUM v.@seen += true;
  WHILE i < k DO
    F = SELECT t FROM F:v -(E>)- P:t WHERE t.@seen == false POST-ACCUM t.@seen += true, @@names += t.name;
    i = i + 1;
  END;
  PRINT @@names;
}
CREATE QUERY tagged(STRING tag) FOR GRAPH g {
  SumAccum<INT> @@n;
  S = SELECT v FROM P:v WHERE v.tags.contains(tag) ACCUM @@n += 1;
  PRINT @@n, S.size() AS size;
}
INSTALL QUERY wcc, reach, tagged
`;

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** `n` lines `from,to,name,tags` over `ids` persons. */
function csv(seed: number, n: number, ids: number): Buffer {
  const next = random(seed);
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const a = Math.floor(next() * ids);
    const b = Math.floor(next() * ids);
    lines.push(`p${a},p${b},name${a}_${i % 5},t${a % 3};t${i % 11}`);
  }
  return Buffer.from(lines.join('\n') + '\n');
}

const ARGS: [string, Record<string, unknown>][] = [
  ['wcc', {}],
  ['reach', { s: new VertexRef('P', 'p1'), k: 3 }],
  ['tagged', { tag: 't2' }],
];

async function answers(db: Database): Promise<string[]> {
  const registry = registryFor(db);
  const out: string[] = [];
  for (const [name, args] of ARGS) {
    const query: CompiledQuery = registry.installed('g', name, db.catalog);
    const r = await runQuery(db, { kind: 'installed', graph: 'g', query, args });
    out.push(r.results instanceof JsonText ? r.results.text : JSON.stringify(r.results));
  }
  return out;
}

/** Delta edges, and vertex values and keyed ids outside the shared bases. */
function unmerged(db: Database): number {
  const r = db.pin();
  try {
    let n = 0;
    for (const b of r.graphStore.blocks) n += b.dCount + b.tomb.size;
    for (const t of r.graphStore.tables.values()) {
      for (const c of [t.idColumn, ...t.columns.values()]) if (c instanceof ValueColumn) n += c.overlay;
      n += t.index.overlay;
    }
    return n;
  } finally {
    r.release();
  }
}

async function loaded(dir: string, opts: Partial<DatabaseOptions>): Promise<Database> {
  const db = await Database.open({ dataDir: dir, sync: 'none', rebuildIntervalMs: 0, ...opts });
  let out = '';
  assert.equal(await runScript(db, SCHEMA, { user: 'tigergraph' }, (t) => (out += t)), 0, out);
  const job = prepareJob(
    SCHEMA.slice(SCHEMA.indexOf('CREATE LOADING JOB'), SCHEMA.indexOf('USE GRAPH g')),
    'g',
    db,
  );
  const stats = await runJobOnData(db, job, 'f', csv(1, 1500, 1500));
  assert.equal(stats.validLine, 1500);
  return db;
}

/**
 * Upserts and deletions as REST++ batches make them: 5 batches of 60 vertices and 120 edges, a
 * deleted vertex and edge each. Each batch alone is more than a 32nd of what the load wrote, so
 * the idle merge takes whatever is left unmerged, however the batches fall between idle merges on
 * a slow machine (an idle merge may start between two batches).
 */
async function smallWrites(db: Database): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await db.write((tx) => {
      for (let j = 0; j < 60; j++) {
        const q = `q${i * 60 + j}`;
        tx.upsertVertex('P', q, { name: { value: `late${i}_${j}`, op: 'set' } });
        tx.upsertEdge('E', 'P', j === 0 ? 'p1' : `q${i * 60 + j - 1}`, 'P', q, {});
        tx.upsertEdge('E', 'P', q, 'P', `p${i * 7 + j}`, {});
      }
      tx.deleteVertex('P', `p${100 + i}`);
      tx.deleteEdge('E', 'P', 'p2', 'P', `p${i}`);
    });
  }
}

for (const threads of [0, 2]) {
  test(`right after a load and after small writes, queries answer as after a rebuild (${threads} worker threads)`, async () => {
    const t = tempDir();
    try {
      // The reference never merges and answers on the event loop.
      const ref = await loaded(join(t.dir, 'ref'), { freshMergeMinEdges: 2 ** 31, idleMergeMs: 0 });
      const db = await loaded(join(t.dir, 'db'), { freshMergeMinEdges: 1, idleMergeMs: 5 });
      const pool = threads > 0 ? new QueryPool(db, { threads, entry: ENTRY }) : undefined;
      if (pool) attachPool(db, pool);
      try {
        assert.equal(unmerged(db), 0, 'the load returned with everything merged');
        assert.ok(unmerged(ref) > 0);
        const fresh = await answers(db);
        assert.deepEqual(fresh, await answers(ref));
        await db.rebuild({ path: join(t.dir, 'summary') });
        assert.deepEqual(await answers(db), fresh);

        await smallWrites(db);
        await smallWrites(ref);
        await waitFor('the idle merge', () => unmerged(db) === 0);
        const after = await answers(db);
        assert.deepEqual(after, await answers(ref));
        assert.notDeepEqual(after, fresh, 'the small writes changed the answers');
        await db.rebuild({ path: join(t.dir, 'summary') });
        assert.deepEqual(await answers(db), after);
      } finally {
        await pool?.close();
        await db.close();
        await ref.close();
      }
    } finally {
      t.cleanup();
    }
  });
}
