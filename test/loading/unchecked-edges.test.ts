/**
 * A loading job writes edges of a type without attributes and discriminator without looking up
 * their pairs first (engine UpsertEdgeOptions.unchecked): the loaded graph is the one the pairs'
 * upserts give, edge by edge, with repeated pairs inside one file, across the files of a job,
 * across jobs, and against edges already merged into the base (the reference: the same lines
 * upserted one by one in a second database), and every line counts as a loaded edge, on the
 * event loop and on parse threads.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Database } from '../../src/engine/database.js';
import { prepareJob, runJobOnFiles } from '../../src/loading/job.js';
import { stringifyJson } from '../../src/util/json.js';
import { openTestDb } from './helpers.js';

const SCHEMA = `CREATE VERTEX num (PRIMARY_ID id INT)
CREATE DIRECTED EDGE link (FROM num, TO num) WITH REVERSE_EDGE="rlink"
CREATE GRAPH g (*)`;

const JOB = `CREATE LOADING JOB j FOR GRAPH g {
  DEFINE FILENAME a, b;
  LOAD a TO EDGE link VALUES ($0, $1) USING SEPARATOR=",";
  LOAD b TO EDGE link VALUES ($0, $1) USING SEPARATOR=",";
}`;

/** `n` lines of pairs over `ids` vertices, skewed so that many pairs repeat. */
function lines(seed: number, n: number, ids: number): [number, number][] {
  let s = seed >>> 0;
  const next = (): number => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  return Array.from({ length: n }, () => [Math.floor(ids * next() ** 2), Math.floor(ids * next() ** 2)]);
}

const text = (pairs: [number, number][]): string => pairs.map(([f, t]) => `${f},${t}\n`).join('');

/**
 * The counts, then every vertex and its out- and in-edges (through the reverse edge type), sorted:
 * the order of edges depends on when merges ran, which the loader decides by size.
 */
function dump(db: Database): string[] {
  const r = db.read();
  try {
    const out: string[] = [];
    for (const row of r.rows('num')) {
      out.push(stringifyJson(r.vertex('num', row)));
      for (const e of r.edges('num', row, { direction: 'both' })) out.push(stringifyJson(r.edgeRecord(e)));
    }
    return [String(r.edgeCount('link')), String(r.vertexCount('num')), ...out.sort()];
  } finally {
    r.release();
  }
}

test('loading jobs give the graph of edge-by-edge upserts, repeats within a file, across files and jobs, and against the base', async () => {
  const files = [lines(1, 3000, 60), lines(2, 2000, 80), lines(3, 2500, 90), lines(4, 1500, 70)];
  for (const threads of [1, 2]) {
    const t = await openTestDb(SCHEMA + '\n' + JOB);
    const ref = await openTestDb(SCHEMA);
    try {
      const job = prepareJob(JOB, 'g', t.db);
      const paths = await Promise.all(files.map((f, i) => t.file(`f${i}.csv`, text(f))));
      const opts = { roots: t.roots, threads, parallelMinBytes: 0, batchSize: 700 };
      // Job 1: two files with repeats inside each and across both; it ends with the merge.
      const first = await runJobOnFiles(t.db, job, {
        ...opts,
        paths: new Map([
          ['a', paths[0]],
          ['b', paths[1]],
        ]),
      });
      await t.db.mergeFresh({ minDelta: 1, share: 1e9 });
      // Job 2: repeats of the first job's edges (now in the base) and of its own.
      const second = await runJobOnFiles(t.db, job, {
        ...opts,
        paths: new Map([
          ['a', paths[2]],
          ['b', paths[3]],
        ]),
      });
      const stats = [...first, ...second].map((x) => x.stats.toJSON().edge[0].validObject);
      assert.deepEqual(
        stats,
        files.map((f) => f.length),
        'every line is a loaded edge',
      );
      for (const [i, f] of files.entries()) {
        await ref.db.write((tx) => {
          for (const [from, to] of f) tx.upsertEdge('link', 'num', from, 'num', to, {});
        });
        if (i === 1 || i === 3) await ref.db.mergeFresh({ minDelta: 1, share: 1e9 });
      }
      const distinct = new Set(files.flat().map(([f, to]) => `${f},${to}`)).size;
      assert.ok(distinct < files.flat().length / 2, `the inputs repeat pairs (${distinct} distinct)`);
      const want = dump(ref.db);
      assert.equal(want[0], String(distinct));
      assert.deepEqual(dump(t.db), want, `--threads ${threads}`);
    } finally {
      await t.close();
      await ref.close();
    }
  }
});
