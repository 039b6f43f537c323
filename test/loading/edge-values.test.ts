/**
 * Edge attributes as a loading job gives them (targets.ts AttrValues: values by shape, no record
 * per line), on the event loop and on parse threads: duplicate edges in one file and across
 * files follow the upsert rules (REDUCE add sums, a LIST accumulates, an empty token leaves a value
 * as it was, a plain value is overwritten), an undirected edge given both ways is one edge, a
 * reverse edge type reads what was loaded, missing endpoints are created, existing vertices are
 * upserted, the statistics count every line exactly, and a vertex deleted during the load and
 * created again by a later edge is a new vertex (the rows the writer remembers for ids are hints).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ReadTx } from '../../src/engine/api.js';
import { prepareJob, runJobOnFiles } from '../../src/loading/job.js';
import { ParseWorkers } from '../../src/loading/parse-workers.js';
import type { LoadStatistics } from '../../src/loading/statistics.js';
import { openTestDb } from './helpers.js';

const SCHEMA = `CREATE VERTEX person (PRIMARY_ID name STRING, age INT) WITH primary_id_as_attribute="true"
CREATE DIRECTED EDGE rates (FROM person, TO person, score INT, since DATETIME, tags LIST<STRING>) WITH REVERSE_EDGE="rated_by"
CREATE UNDIRECTED EDGE knows (FROM person, TO person, w DOUBLE)
CREATE GRAPH g (*)`;

const JOB = `CREATE LOADING JOB j FOR GRAPH g {
  DEFINE FILENAME people, r1, r2;
  LOAD people TO VERTEX person VALUES ($0, $1);
  LOAD r1 TO EDGE rates VALUES ($0, $1, REDUCE(add($2)), $3, SPLIT($4, "|")), TO EDGE knows VALUES ($0, $1, $2);
  LOAD r2 TO EDGE rates VALUES ($0, $1, REDUCE(add($2)), $3, SPLIT($4, "|"));
  DELETE VERTEX person (PRIMARY_ID $1) FROM r2 WHERE $2 == "0";
}`;

const PEOPLE = 'a,30\nb,40\nc,50\na,31\n';

const R1 = [
  'a,b,1,2024-01-01 00:00:00,x|y',
  // The same edge again: the score adds up, the empty DATETIME keeps the first, the list grows.
  'a,b,2,,z',
  // The other way round: another rates edge, the same knows edge (undirected).
  'b,a,5,2024-02-02 00:00:00,q',
  // Not an INT, not a DOUBLE: refused for both edge types.
  'c,a,bad,2024-03-03 00:00:00,r',
].join('\n');

// Across files: a-b again; d does not exist yet and is created.
const R2 = ['a,b,10,2025-01-01 00:00:00,w', 'd,a,1,2024-05-05 00:00:00,k'];

// Then z-b, b deleted with its edges (the score 0), and a-b creating b again as a new vertex:
// on parse threads, a row the writer remembered for b can be stale by then.
const R2_DELETE = [...R2, 'z,b,0,2024-07-07 00:00:00,m', 'a,b,7,2025-06-06 00:00:00,n'];

const epoch = (text: string): number => Date.parse(`${text.replace(' ', 'T')}Z`) / 1000;

function rates(r: ReadTx, from: string, to: string, type = 'rates'): Record<string, unknown>[] {
  const f = r.lookup('person', from) as number;
  const t = r.lookup('person', to) as number;
  return r.edgesBetween(type, 'person', f, 'person', t).map((e) => r.edgeRecord(e).attributes);
}

type Stats = ReturnType<LoadStatistics['toJSON']>;

/** Loads the three files at `threads` (parse threads even for these small inputs); checks, then closes. */
async function load(
  threads: number,
  r2: string[],
  check: (r: ReadTx, stats: Stats[]) => void,
): Promise<void> {
  const t = await openTestDb(SCHEMA);
  try {
    const job = prepareJob(JOB, 'g', t.db);
    const pieces = ParseWorkers.pieces;
    const results = await runJobOnFiles(t.db, job, {
      roots: t.roots,
      paths: new Map([
        ['people', await t.file('people.csv', PEOPLE)],
        ['r1', await t.file('r1.csv', R1)],
        ['r2', await t.file('r2.csv', r2.join('\n'))],
      ]),
      threads,
      parallelMinBytes: 1,
      // Pieces of a line or two.
      pieceBytes: 40,
    });
    assert.equal(ParseWorkers.pieces > pieces, threads > 1, 'parse threads used');
    const r = t.db.read();
    try {
      check(
        r,
        results.map((x) => x.stats.toJSON()),
      );
    } finally {
      r.release();
    }
  } finally {
    await t.close();
  }
}

const counts = (s: Stats, type: string): [number, number] => {
  const e = s.edge.find((x) => x.typeName === type);
  return [e?.validObject ?? -1, e?.invalidAttribute ?? -1];
};

for (const threads of [1, 3]) {
  const at = `${threads} thread${threads > 1 ? 's' : ''}`;

  test(`edge attributes by value: duplicates in a file and across files, reverse and undirected edges, statistics (${at})`, async () => {
    await load(threads, R2, (r, [people, r1, r2]) => {
      assert.equal(people.vertex[0].validObject, 4);
      assert.equal(r1.validLine, 4);
      assert.deepEqual(counts(r1, 'rates'), [3, 1]);
      assert.deepEqual(counts(r1, 'knows'), [3, 1]);
      assert.deepEqual(counts(r2, 'rates'), [2, 0]);
      assert.equal(r.vertexCount('person'), 4);
      assert.equal(r.attr('person', r.lookup('person', 'a') as number, 'age'), 31);
      assert.equal(r.attr('person', r.lookup('person', 'd') as number, 'age'), 0);
      assert.equal(r.edgeCount('rates'), 3);
      assert.equal(r.edgeCount('knows'), 1);
      const ab = { score: 13, since: epoch('2025-01-01 00:00:00'), tags: ['x', 'y', 'z', 'w'] };
      assert.deepEqual(rates(r, 'a', 'b'), [ab]);
      assert.deepEqual(rates(r, 'b', 'a'), [{ score: 5, since: epoch('2024-02-02 00:00:00'), tags: ['q'] }]);
      assert.deepEqual(rates(r, 'd', 'a'), [{ score: 1, since: epoch('2024-05-05 00:00:00'), tags: ['k'] }]);
      assert.deepEqual(rates(r, 'c', 'a'), []);
      // The reverse edge type reads the loaded edge from its target.
      assert.deepEqual(rates(r, 'b', 'a', 'rated_by'), [ab]);
      // a-b, a-b again and b-a are one undirected edge; the last value set wins.
      assert.deepEqual(rates(r, 'a', 'b', 'knows'), [{ w: 5 }]);
      assert.deepEqual(rates(r, 'b', 'a', 'knows'), [{ w: 5 }]);
    });
  });

  test(`a vertex deleted in the middle of a load and created again by a later edge (${at})`, async () => {
    await load(threads, R2_DELETE, (r, [, , r2]) => {
      assert.deepEqual(counts(r2, 'rates'), [4, 0]);
      assert.equal(r.vertexCount('person'), 5);
      assert.equal(r.attr('person', r.lookup('person', 'b') as number, 'age'), 0, 'b created again');
      assert.equal(r.edgeCount('rates'), 2);
      assert.equal(r.edgeCount('knows'), 0, "b's edges went with it");
      const ab = { score: 7, since: epoch('2025-06-06 00:00:00'), tags: ['n'] };
      assert.deepEqual(rates(r, 'a', 'b'), [ab]);
      assert.deepEqual(rates(r, 'b', 'a', 'rated_by'), [ab]);
      assert.deepEqual(rates(r, 'b', 'a'), []);
      assert.deepEqual(rates(r, 'z', 'b'), []);
      assert.deepEqual(rates(r, 'd', 'a'), [{ score: 1, since: epoch('2024-05-05 00:00:00'), tags: ['k'] }]);
    });
  });
}
