/**
 * SelectVertex() seeds and LOADACCUM(): input files read from the query file directory, columns by
 * position or header name, fields kept verbatim, unknown ids left out with a warning, errors for
 * files outside the directory, and column counts checked at CREATE.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { parseQueryText } from '../../src/gsql/parser-query.js';
import { compileQuery } from '../../src/query/compile-query.js';
import { executeQuery } from '../../src/query/run.js';
import { libraryGraph } from '../fixtures/query/library.js';
import { compileErrorOf, runText } from '../fixtures/query/run.js';

const dir = mkdtempSync(join(tmpdir(), 'ocelot-file-seeds-'));
const outside = mkdtempSync(join(tmpdir(), 'ocelot-file-seeds-out-'));
after(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});
writeFileSync(join(dir, 'picks.csv'), 'who|kind|book\nann|reader|b2\nzed|reader|b9\ncid|reader|b3\n');
writeFileSync(join(dir, 'loans.txt'), 'ann;b1;"first";4\nbob;b2;second;5\nann;b3;third;x\n');
writeFileSync(join(dir, 'ghost.txt'), 'nobody;b1;x;1\ncid;b1;"q";2\n');
writeFileSync(join(outside, 'secret.txt'), 'ann\n');
symlinkSync(join(outside, 'secret.txt'), join(dir, 'link.txt'));

const opts = { outputDir: dir };

const SELECT = `CREATE QUERY sv(STRING f) FOR GRAPH library {
  S = { SelectVertex(f, $"who", $1, "|", true), SelectVertex(f, $2, book, "|", true) };
  PRINT S.size() AS n;
  PRINT S;
}`;

test('SelectVertex reads ids by header name or position, types from a column or given', async () => {
  const out = (await runText(libraryGraph(), SELECT, { f: 'picks.csv' }, undefined, opts)) as [
    { n: number },
    { S: { v_id: string; v_type: string }[] },
  ];
  assert.equal(out[0].n, 4);
  assert.deepEqual(out[1].S.map((v) => `${v.v_type}:${v.v_id}`).sort(), [
    'book:b2',
    'book:b3',
    'reader:ann',
    'reader:cid',
  ]);
});

test('SelectVertex(…) without braces is a one-item seed', async () => {
  const q = `CREATE QUERY sv1(STRING f) FOR GRAPH library {
  S = SelectVertex(f, $2, book, "|", true);
  PRINT S.size() AS n;
}`;
  assert.deepEqual(await runText(libraryGraph(), q, { f: 'picks.csv' }, undefined, opts), [{ n: 2 }]);
});

test('ids that are not vertices are left out with a run-time warning', async () => {
  const [stmt] = parseQueryText(SELECT);
  if (stmt.kind !== 'createQuery') throw new Error('expected CREATE QUERY');
  const q = compileQuery(stmt.query, libraryGraph().catalog, 'library');
  const run = await executeQuery(libraryGraph(), q, { f: join(dir, 'picks.csv') }, opts);
  assert.deepEqual(run.warnings, ['Runtime Warning: 1 ids in the file of SelectVertex() are not vertices.']);
});

const LOAD = `CREATE QUERY la(STRING f, STRING g = "") FOR GRAPH library {
  TYPEDEF TUPLE<STRING note, INT n> Note;
  MapAccum<VERTEX<reader>, MapAccum<VERTEX<book>, Note>> @@m;
  GroupByAccum<STRING who, SumAccum<INT> total> @@g;
  SetAccum<STRING> @@s;
  @@s += "old";
  @@m = { LOADACCUM(f, $0, $1, $2, $3, ";", false) };
  @@g = { LOADACCUM(f, $0, $3, ";", false), LOADACCUM(g, $0, $3, ";", false) };
  @@s = { LOADACCUM(f, $2, ";", false) };
  PRINT @@m, @@g, @@s;
}`;

test('LOADACCUM fills nested maps, tuples and GroupByAccum, replacing what the accumulator held', async () => {
  writeFileSync(join(dir, 'ok.txt'), 'ann;b1;"first";4\nbob;b2;second;5\nann;b3;third;6\n');
  const out = (await runText(libraryGraph(), LOAD, { f: 'ok.txt', g: 'ghost.txt' }, undefined, opts)) as [
    { '@@m': unknown; '@@g': { who: string; total: number }[]; '@@s': string[] },
  ];
  assert.deepEqual(out[0]['@@m'], {
    ann: { b1: { note: '"first"', n: 4 }, b3: { note: 'third', n: 6 } },
    bob: { b2: { note: 'second', n: 5 } },
  });
  assert.deepEqual(out[0]['@@g'].map((g) => `${g.who}=${g.total}`).sort(), [
    'ann=10',
    'bob=5',
    'cid=2',
    'nobody=1',
  ]);
  assert.deepEqual(out[0]['@@s'].sort(), ['"first"', 'second', 'third']);
});

test('a field that does not convert, a missing column and files outside the directory are run-time errors', async () => {
  await assert.rejects(runText(libraryGraph(), LOAD, { f: 'loans.txt', g: 'ok.txt' }, undefined, opts), {
    message: 'Runtime Error: LOADACCUM: line 3: "x" is not a INT value.',
  });
  await assert.rejects(runText(libraryGraph(), SELECT, { f: join(outside, 'secret.txt') }, undefined, opts), {
    message:
      /^Runtime Error: SelectVertex\(\) cannot read ".*secret.txt": it is outside the output directory/,
  });
  await assert.rejects(
    runText(libraryGraph(), SELECT, { f: 'link.txt' }, undefined, opts),
    /cannot read "link.txt": it leads out of the output directory .* through a symbolic link/,
  );
  await assert.rejects(
    runText(libraryGraph(), SELECT, { f: '../secret.txt' }, undefined, opts),
    /cannot read "..\/secret.txt": a path may not contain '..'/,
  );
  await assert.rejects(runText(libraryGraph(), SELECT, { f: 'none.txt' }, undefined, opts), /no such file/);
  await assert.rejects(runText(libraryGraph(), SELECT, { f: 'picks.csv' }), /start it with --output-dir/);
  const q = `CREATE QUERY sv2(STRING f) FOR GRAPH library {
    S = { SelectVertex(f, $"who", $1, ",", false) };
    PRINT S.size() AS n;
  }`;
  await assert.rejects(
    runText(libraryGraph(), q, { f: 'picks.csv' }, undefined, opts),
    /needs a header line/,
  );
  const q2 = `CREATE QUERY sv3(STRING f) FOR GRAPH library {
    S = { SelectVertex(f, $7, reader, "|", true) };
    PRINT S.size() AS n;
  }`;
  await assert.rejects(
    runText(libraryGraph(), q2, { f: 'picks.csv' }, undefined, opts),
    /column 7 is missing/,
  );
  const q3 = `CREATE QUERY sv4(STRING f) FOR GRAPH library {
    S = { SelectVertex(f, $0, reader, "||", false) };
    PRINT S.size() AS n;
  }`;
  await assert.rejects(runText(libraryGraph(), q3, { f: 'picks.csv' }, undefined, opts), /one character/);
});

test('CREATE checks column counts, types, generic VERTEX and where LOADACCUM may stand', () => {
  const q = (body: string): string => `CREATE QUERY c(STRING f) FOR GRAPH library {\n${body}\n}`;
  const g = libraryGraph();
  assert.match(
    compileErrorOf(g, q(`MapAccum<STRING, INT> @@m;\n@@m = { LOADACCUM(f, $0, ",", false) };`)),
    /line 3, col 9\nLOADACCUM for MapAccum<STRING, INT> needs 2 columns, not 1/,
  );
  assert.match(
    compileErrorOf(g, q(`SetAccum<VERTEX> @@s;\n@@s = { LOADACCUM(f, $0, ",", false) };`)),
    /generic VERTEX/,
  );
  assert.match(
    compileErrorOf(g, q(`S = { SelectVertex(f, $0, shelf, ",", false) };`)),
    /line 2, col 27\n"shelf" is not a vertex type/,
  );
  assert.match(compileErrorOf(g, q(`S = { SelectVertex(f, $0, book, 1, false) };`)), /line 2, col 33/);
  assert.match(
    compileErrorOf(g, q(`SetAccum<STRING> @@s;\n@@s += { LOADACCUM(f, $0, ",", false) };`)),
    /line 3, col 1\nLOADACCUM\(…\) fills a global accumulator/,
  );
  assert.match(compileErrorOf(g, q(`S = { LOADACCUM(f, $0, ",", false) };`)), /fills a global accumulator/);
  assert.match(
    compileErrorOf(
      g,
      q(`SetAccum<STRING> @@s;\nS = SELECT r FROM reader:r ACCUM @@s = { LOADACCUM(f, $0, ",", false) };`),
    ),
    /line 3/,
  );
  assert.match(compileErrorOf(g, q(`S = { SelectVertex(f, 0, book, ",", false) };`)), /"\$"/);
});
