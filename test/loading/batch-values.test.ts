/**
 * A batch keeps edge attribute values in a Float64Array while they are all numbers and moves them
 * to an array of values at the first one that is not (batch.ts): values written before and after
 * the move, and in the batches after it, land on their own edges, on the event loop and on parse
 * threads.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { prepareJob, runJobOnFiles } from '../../src/loading/job.js';
import { openTestDb } from './helpers.js';

const SCHEMA = `CREATE VERTEX person (PRIMARY_ID name STRING) WITH primary_id_as_attribute="true"
CREATE DIRECTED EDGE w (FROM person, TO person, n INT, at DATETIME)
CREATE DIRECTED EDGE label (FROM person, TO person, text STRING)
CREATE GRAPH g (*)`;

// Per line: a w edge (numbers only), then a label edge (a STRING) into the same batch.
const JOB = `CREATE LOADING JOB j FOR GRAPH g {
  DEFINE FILENAME f, g;
  LOAD f TO EDGE w VALUES ($0, $1, $2, $3), TO EDGE label VALUES ($0, $1, $4);
  LOAD g TO EDGE w VALUES ($0, $1, $2, $3);
}`;

const epoch = (text: string): number => Date.parse(`${text.replace(' ', 'T')}Z`) / 1000;

for (const threads of [1, 3]) {
  test(`numbers, then a string, then numbers again in later batches (${threads} thread${threads > 1 ? 's' : ''})`, async () => {
    const t = await openTestDb(SCHEMA);
    try {
      const job = prepareJob(JOB, 'g', t.db);
      const f = ['a,b,1,2024-01-01 00:00:00,x', 'b,c,2,2024-01-02 00:00:00,y', 'c,a,3,2024-01-03 00:00:00,z'];
      const g = ['a,c,4,2024-01-04 00:00:00', 'c,b,5,2024-01-05 00:00:00', 'b,a,6,2024-01-06 00:00:00'];
      await runJobOnFiles(t.db, job, {
        roots: t.roots,
        paths: new Map([
          ['f', await t.file('f.csv', f.join('\n'))],
          ['g', await t.file('g.csv', g.join('\n'))],
        ]),
        threads,
        parallelMinBytes: 1,
        pieceBytes: 40,
        // Batches of three operations: the move happens inside a batch, and later batches start over.
        batchSize: 3,
      });
      const r = t.db.read();
      try {
        const attrs = (type: string, from: string, to: string): Record<string, unknown>[] =>
          r
            .edgesBetween(
              type,
              'person',
              r.lookup('person', from) as number,
              'person',
              r.lookup('person', to) as number,
            )
            .map((e) => r.edgeRecord(e).attributes);
        const day = (d: number): number => epoch(`2024-01-0${d} 00:00:00`);
        assert.deepEqual(attrs('w', 'a', 'b'), [{ n: 1, at: day(1) }]);
        assert.deepEqual(attrs('w', 'b', 'c'), [{ n: 2, at: day(2) }]);
        assert.deepEqual(attrs('w', 'c', 'a'), [{ n: 3, at: day(3) }]);
        assert.deepEqual(attrs('w', 'a', 'c'), [{ n: 4, at: day(4) }]);
        assert.deepEqual(attrs('w', 'c', 'b'), [{ n: 5, at: day(5) }]);
        assert.deepEqual(attrs('w', 'b', 'a'), [{ n: 6, at: day(6) }]);
        assert.deepEqual(attrs('label', 'a', 'b'), [{ text: 'x' }]);
        assert.deepEqual(attrs('label', 'b', 'c'), [{ text: 'y' }]);
        assert.deepEqual(attrs('label', 'c', 'a'), [{ text: 'z' }]);
      } finally {
        r.release();
      }
    } finally {
      await t.close();
    }
  });
}
