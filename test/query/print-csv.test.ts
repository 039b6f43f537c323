/**
 * PRINT … TO_CSV on the library graph: one comma-separated line per run of the statement, sets and
 * lists space-separated, one line per vertex for a vertex-set expression, and the refusals at CREATE.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseQueryText } from '../../src/gsql/parser-query.js';
import { compileQuery } from '../../src/query/compile-query.js';
import { executeQuery } from '../../src/query/run.js';
import { libraryGraph } from '../fixtures/query/library.js';
import { compileErrorOf } from '../fixtures/query/run.js';

const q = (body: string, params = ''): string => `CREATE QUERY t(${params}) FOR GRAPH library {\n${body}\n}`;

async function runInto(
  src: string,
  args: Record<string, unknown> = {},
): Promise<{ dir: string; results: unknown[] }> {
  const [stmt] = parseQueryText(src);
  if (stmt.kind !== 'createQuery') throw new Error('expected CREATE QUERY');
  const db = libraryGraph();
  const dir = mkdtempSync(join(tmpdir(), 'ocelot-csv-'));
  const { results } = await executeQuery(db, compileQuery(stmt.query, db.catalog, 'library'), args, {
    outputDir: dir,
  });
  return { dir, results };
}

test('PRINT … TO_CSV a FILE: one line per statement, in order, and no JSON result', async () => {
  const { dir, results } = await runInto(
    q(`SetAccum<VERTEX<reader>> @@oslo;
       ListAccum<STRING> @@titles;
       SumAccum<INT> @@n;
       INT x = 7;
       FILE f ("out.csv");
       R = SELECT r FROM reader:r WHERE r.city == "Oslo" ACCUM @@oslo += r;
       B = SELECT b FROM book:b WHERE b.year < 1950 ACCUM @@titles += b.title, @@n += 1;
       PRINT "head" TO_CSV f;
       PRINT @@n, x, @@titles.size() > 1 TO_CSV f;
       PRINT x WHERE x < 0 TO_CSV f;
       PRINT x WHERE x > 0 TO_CSV f;
       PRINT @@oslo TO_CSV f;
       f.println("tail", [1, 2]);`),
  );
  try {
    assert.deepEqual(results, []);
    const lines = readFileSync(join(dir, 'out.csv'), 'utf8').split('\n');
    assert.equal(lines.length, 6);
    assert.deepEqual(lines.slice(0, 3), ['head', '2,7,true', '7']);
    assert.deepEqual(lines[3].split(' ').sort(), ['ann', 'cid']);
    assert.deepEqual(lines.slice(4), ['tail,1 2', '']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('TO_CSV a vertex-set expression prints one line per vertex; WHERE filters the vertices', async () => {
  const { dir } = await runInto(
    q(`SumAccum<INT> @lent;
       B = SELECT b FROM reader:r -(borrowed)-> book:b ACCUM b.@lent += 1;
       PRINT B[B.title, B.@lent] TO_CSV "pairs.csv";
       PRINT B.year WHERE B.@lent > 1 TO_CSV "pairs.csv";
       PRINT B.title TO_CSV "titles.csv";
       PRINT 1 WHERE B.size() > 5 TO_CSV "empty.csv";`),
  );
  try {
    const pairs = readFileSync(join(dir, 'pairs.csv'), 'utf8').split('\n');
    assert.deepEqual(pairs.slice(0, 3).sort(), ['Dune,1', 'Emma,2', 'Ulysses,1']);
    assert.deepEqual(pairs.slice(3), ['1815', '']);
    assert.deepEqual(readFileSync(join(dir, 'titles.csv'), 'utf8').split('\n').sort(), [
      '',
      'Dune',
      'Emma',
      'Ulysses',
    ]);
    // A skipped line still creates the named file, empty.
    assert.equal(readFileSync(join(dir, 'empty.csv'), 'utf8'), '');
    assert.equal(existsSync(join(dir, 'missing.csv')), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('TO_CSV misuse is refused at CREATE with its position', () => {
  const g = libraryGraph();
  assert.equal(
    compileErrorOf(g, q(`INT f = 1;\nPRINT 1 TO_CSV f;`)),
    'Semantic Check Error in query t: line 3, col 16\nTO_CSV needs a FILE object; f is INT',
  );
  assert.equal(
    compileErrorOf(g, q(`PRINT 1 TO_CSV nope;`)),
    'Semantic Check Error in query t: line 2, col 16\nnope is not declared',
  );
  assert.equal(
    compileErrorOf(g, q(`FILE f ("x");\nR = {reader.*};\nPRINT R TO_CSV f;`)),
    'Semantic Check Error in query t: line 4, col 7\na whole vertex set cannot be printed TO_CSV; print its attributes, e.g. PRINT R.attr TO_CSV f',
  );
  assert.equal(
    compileErrorOf(g, q(`MapAccum<STRING, INT> @@m;\nPRINT @@m TO_CSV "m.csv";`)),
    'Semantic Check Error in query t: line 3, col 7\nMAP<STRING, INT> cannot be printed TO_CSV; print values, sets or lists of values instead',
  );
  assert.throws(() => parseQueryText(q('PRINT 1 TO_CSV 5;')), {
    message: 'Syntax Error: line 2, column 16: TO_CSV needs a FILE object or a file path string',
  });
});
