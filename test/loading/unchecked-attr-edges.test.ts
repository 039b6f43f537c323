/**
 * A loading job writes edges with attributes of a directed type without discriminator without
 * looking up their pairs first when the line sets every attribute (engine UpsertEdgeOptions.unchecked):
 * a repeated (FROM, TO) keeps one edge whose attributes are the last line's values, as TigerGraph's
 * loading jobs and the edge-by-edge upserts give it, with repeats inside a file, across the files of
 * a job, across jobs and against edges already merged into the base; lines that leave an attribute
 * unset (empty token) or REDUCE it, and an undirected edge type, keep the upsert; the reverse edges
 * agree; and the graph is the same after a restart (WAL replay) and after a rebuild. On the event
 * loop and on parse threads. The reference is a second database with the lines upserted one by one.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AttrUpdate } from '../../src/engine/api.js';
import { Database } from '../../src/engine/database.js';
import { prepareJob, runJobOnFiles } from '../../src/loading/job.js';
import { stringifyJson } from '../../src/util/json.js';
import { openTestDb } from './helpers.js';

const SCHEMA = `CREATE VERTEX person (PRIMARY_ID id STRING) WITH primary_id_as_attribute="true"
CREATE DIRECTED EDGE knows (FROM person, TO person, since DATETIME, w INT) WITH REVERSE_EDGE="known_by"
CREATE DIRECTED EDGE rates (FROM person, TO person, score INT)
CREATE UNDIRECTED EDGE near (FROM person, TO person, d INT)
CREATE GRAPH g (*)`;

const JOB = `CREATE LOADING JOB j FOR GRAPH g {
  DEFINE FILENAME a, b;
  LOAD a TO EDGE knows VALUES ($0, $1, $2, $3), TO EDGE near VALUES ($0, $1, $3) USING SEPARATOR=",";
  LOAD b TO EDGE knows VALUES ($0, $1, $2, $3), TO EDGE rates VALUES ($0, $1, REDUCE(max($3))) USING SEPARATOR=",";
}`;

interface Line {
  from: number;
  to: number;
  day: number;
  /** Empty: the line leaves `w` unset. */
  w: number | '';
}

/**
 * `n` lines over `ids` persons, skewed so that many pairs repeat, with changing values; with
 * `empties` a tenth leave `w` empty (those are upserted, which settles the block: the files without
 * them reach the merge after the load unsettled, which then drops the repeats).
 */
function lines(seed: number, n: number, ids: number, empties: boolean): Line[] {
  let s = seed >>> 0;
  const next = (): number => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  return Array.from({ length: n }, () => ({
    from: Math.floor(ids * next() ** 2),
    to: Math.floor(ids * next() ** 2),
    day: 1 + Math.floor(next() * 28),
    w: empties && next() < 0.1 ? '' : Math.floor(next() * 1000),
  }));
}

const text = (ls: Line[]): string =>
  ls.map((l) => `p${l.from},p${l.to},2024-02-${String(l.day).padStart(2, '0')} 00:00:00,${l.w}\n`).join('');

/** What a line upserts on `knows` (and `near`, `rates`), as the job's LOAD statements map it. */
function upsertLine(tx: Parameters<Parameters<Database['write']>[0]>[0], l: Line, file: 'a' | 'b'): void {
  const since: AttrUpdate = { value: Date.UTC(2024, 1, l.day) / 1000, op: 'set' };
  const w: Record<string, AttrUpdate> = l.w === '' ? {} : { w: { value: l.w, op: 'set' } };
  tx.upsertEdge('knows', 'person', `p${l.from}`, 'person', `p${l.to}`, { since, ...w });
  if (file === 'a')
    tx.upsertEdge(
      'near',
      'person',
      `p${l.from}`,
      'person',
      `p${l.to}`,
      l.w === '' ? {} : { d: { value: l.w, op: 'set' } },
    );
  else
    tx.upsertEdge(
      'rates',
      'person',
      `p${l.from}`,
      'person',
      `p${l.to}`,
      l.w === '' ? {} : { score: { value: l.w, op: 'max' } },
    );
}

/** The counts, then every person and its edges both ways (reverse edges too), sorted. */
function dump(db: Database): string[] {
  const r = db.read();
  try {
    const out: string[] = [];
    for (const row of r.rows('person')) {
      out.push(stringifyJson(r.vertex('person', row)));
      for (const e of r.edges('person', row, { direction: 'both' })) out.push(stringifyJson(r.edgeRecord(e)));
    }
    const counts = ['knows', 'near', 'rates'].map((t) => `${t} ${r.edgeCount(t)}`);
    return [...counts, String(r.vertexCount('person')), ...out.sort()];
  } finally {
    r.release();
  }
}

test('loading jobs keep the last line of a repeated attribute edge, as edge-by-edge upserts do, across files, jobs and the base, after a restart and a rebuild', async () => {
  const files = [
    lines(1, 3000, 50, true),
    lines(2, 2000, 60, false),
    lines(3, 2500, 70, true),
    lines(4, 1500, 55, false),
  ];
  for (const threads of [1, 2]) {
    const t = await openTestDb(SCHEMA + '\n' + JOB);
    const ref = await openTestDb(SCHEMA);
    try {
      const job = prepareJob(JOB, 'g', t.db);
      const paths = await Promise.all(files.map((f, i) => t.file(`f${i}.csv`, text(f))));
      const opts = { roots: t.roots, threads, parallelMinBytes: 0, batchSize: 700 };
      // Job 1: two files with repeats inside each and across both, then a merge before any reader.
      await runJobOnFiles(t.db, job, {
        ...opts,
        paths: new Map([
          ['a', paths[0]],
          ['b', paths[1]],
        ]),
      });
      await t.db.mergeFresh({ minDelta: 1, share: 1e9 });
      // Job 2: repeats of the first job's edges (now in the base) and of its own.
      await runJobOnFiles(t.db, job, {
        ...opts,
        paths: new Map([
          ['a', paths[2]],
          ['b', paths[3]],
        ]),
      });
      await t.db.mergeFresh({ minDelta: 1, share: 1e9 });
      for (const [i, f] of files.entries()) {
        await ref.db.write((tx) => {
          for (const l of f) upsertLine(tx, l, i % 2 === 0 ? 'a' : 'b');
        });
      }
      const pairs = files.flat().map((l) => `${l.from},${l.to}`);
      const distinct = new Set(pairs).size;
      assert.ok(distinct < pairs.length / 2, `the inputs repeat pairs (${distinct} distinct)`);
      const want = dump(ref.db);
      assert.equal(want[0], `knows ${distinct}`);
      assert.deepEqual(dump(t.db), want, `--threads ${threads}`);
      // A restart replays the log (the merges after the loads are not kept): the same graph.
      await t.db.close();
      t.db = await Database.open({ dataDir: `${t.dir}/data`, rebuildIntervalMs: 0 });
      assert.deepEqual(dump(t.db), want, `--threads ${threads}, after a restart`);
      await t.db.rebuild();
      assert.deepEqual(dump(t.db), want, `--threads ${threads}, after a rebuild`);
    } finally {
      await t.close();
      await ref.close();
    }
  }
});
