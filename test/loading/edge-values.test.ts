/**
 * Edge attributes as a loading job gives them (targets.ts AttrValues: values by shape, no record
 * per line), on the event loop and on parse threads: duplicate edges in one file and across
 * files follow the upsert rules (REDUCE add sums, a LIST accumulates, an empty token leaves a value
 * as it was, a plain value is overwritten), an undirected edge given both ways is one edge, a
 * reverse edge type reads what was loaded, missing endpoints are created, existing vertices are
 * upserted, and the statistics count every line exactly.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ReadTx } from '../../src/engine/api.js';
import { prepareJob, runJobOnFiles } from '../../src/loading/job.js';
import { ParseWorkers } from '../../src/loading/parse-workers.js';
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

// Across files: a.b again; d does not exist yet and is created.
const R2 = 'a,b,10,2025-01-01 00:00:00,w\nd,a,1,2024-05-05 00:00:00,k\n';

const epoch = (text: string): number => Date.parse(`${text.replace(' ', 'T')}Z`) / 1000;

function rates(r: ReadTx, from: string, to: string, type = 'rates'): Record<string, unknown>[] {
  const f = r.lookup('person', from) as number;
  const t = r.lookup('person', to) as number;
  return r.edgesBetween(type, 'person', f, 'person', t).map((e) => r.edgeRecord(e).attributes);
}

for (const threads of [1, 3]) {
  test(`edge attributes by value: duplicates, reverse and undirected edges, statistics (${threads} thread${threads > 1 ? 's' : ''})`, async () => {
    const t = await openTestDb(SCHEMA);
    try {
      const job = prepareJob(JOB, 'g', t.db);
      const pieces = ParseWorkers.pieces;
      const results = await runJobOnFiles(t.db, job, {
        roots: t.roots,
        paths: new Map([
          ['people', await t.file('people.csv', PEOPLE)],
          ['r1', await t.file('r1.csv', R1)],
          ['r2', await t.file('r2.csv', R2)],
        ]),
        threads,
        // Parse threads for inputs this small too, in pieces of a line or two.
        parallelMinBytes: 1,
        pieceBytes: 40,
      });
      assert.equal(ParseWorkers.pieces > pieces, threads > 1, 'parse threads used');
      const [people, r1, r2] = results.map((x) => x.stats.toJSON());
      assert.equal(people.vertex[0].validObject, 4);
      const edge = (s: typeof r1, type: string) => s.edge.find((e) => e.typeName === type);
      assert.equal(r1.validLine, 4);
      assert.deepEqual([edge(r1, 'rates')?.validObject, edge(r1, 'rates')?.invalidAttribute], [3, 1]);
      assert.deepEqual([edge(r1, 'knows')?.validObject, edge(r1, 'knows')?.invalidAttribute], [3, 1]);
      assert.deepEqual([edge(r2, 'rates')?.validObject, edge(r2, 'rates')?.invalidAttribute], [2, 0]);

      const r = t.db.read();
      try {
        assert.equal(r.vertexCount('person'), 4);
        assert.equal(r.attr('person', r.lookup('person', 'a') as number, 'age'), 31);
        assert.equal(r.attr('person', r.lookup('person', 'd') as number, 'age'), 0);
        assert.equal(r.edgeCount('rates'), 3);
        assert.equal(r.edgeCount('knows'), 1);
        assert.deepEqual(rates(r, 'a', 'b'), [
          { score: 13, since: epoch('2025-01-01 00:00:00'), tags: ['x', 'y', 'z', 'w'] },
        ]);
        assert.deepEqual(rates(r, 'b', 'a'), [
          { score: 5, since: epoch('2024-02-02 00:00:00'), tags: ['q'] },
        ]);
        assert.deepEqual(rates(r, 'd', 'a'), [
          { score: 1, since: epoch('2024-05-05 00:00:00'), tags: ['k'] },
        ]);
        assert.deepEqual(rates(r, 'c', 'a'), []);
        // The reverse edge type reads the loaded edge from its target.
        assert.deepEqual(rates(r, 'b', 'a', 'rated_by'), [
          { score: 13, since: epoch('2025-01-01 00:00:00'), tags: ['x', 'y', 'z', 'w'] },
        ]);
        // a-b, a-b again and b-a are one undirected edge; the last value set wins.
        assert.deepEqual(rates(r, 'a', 'b', 'knows'), [{ w: 5 }]);
        assert.deepEqual(rates(r, 'b', 'a', 'knows'), [{ w: 5 }]);
      } finally {
        r.release();
      }
    } finally {
      await t.close();
    }
  });
}
