/**
 * Query forms of TigerGraph's reference examples (GSQL 2.x era), checked on our own library graph:
 * grouped edge alternations, seeds without braces, STRING COMPRESS element types, shifts, PRINT
 * keys, NULL parameters and COALESCE, and query variables assigned in ACCUM.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseQueryText } from '../../src/gsql/parser-query.js';
import { compileQuery } from '../../src/query/compile-query.js';
import { decodeRunArgs } from '../../src/query/params.js';
import { libraryGraph } from '../fixtures/query/library.js';
import { runText } from '../fixtures/query/run.js';

const q = (body: string, params = ''): string => `CREATE QUERY t(${params}) FOR GRAPH library {\n${body}\n}`;

test('a parenthesised edge-type alternation -((E1|E2):e)-> and a parenthesised target type', async () => {
  const out = await runText(
    libraryGraph(),
    q(`SumAccum<INT> @@rows;
       SetAccum<STRING> @@kinds;
       R = {reader.*};
       B = SELECT b FROM R:r -((borrowed|reviewed):e)-> (book):b
           ACCUM @@rows += 1, @@kinds += e.type;
       PRINT @@rows, @@kinds, B.size() AS books;`),
  );
  assert.equal((out[0] as { '@@rows': number })['@@rows'], 6);
  assert.deepEqual(
    new Set((out[0] as { '@@kinds': string[] })['@@kinds']),
    new Set(['borrowed', 'reviewed']),
  );
  assert.equal((out[0] as { books: number }).books, 3);
});

test('seeds without braces: T.*, ANY and _', async () => {
  const out = await runText(
    libraryGraph(),
    q(`Readers = reader.*;
       Everyone = ANY;
       Also = _;
       PRINT Readers.size() AS r, Everyone.size() AS e, Also.size() AS a;`),
  );
  assert.deepEqual(out, [{ r: 3, e: 6, a: 6 }]);
});

test('STRING COMPRESS is accepted as an element type and holds strings', async () => {
  const out = await runText(
    libraryGraph(),
    q(`SetAccum<STRING COMPRESS> @@cities;
       ListAccum<STRING COMPRESS> @@titles;
       R = SELECT r FROM reader:r ACCUM @@cities += r.city;
       B = SELECT b FROM book:b WHERE b.year < 1900 ACCUM @@titles += b.title;
       PRINT @@cities.size() AS n, @@titles;`),
  );
  assert.deepEqual(out, [{ n: 2, '@@titles': ['Emma'] }]);
});

test('<< and >> shift 64-bit integers, binding looser than + and tighter than & and |', async () => {
  const out = await runText(
    libraryGraph(),
    q(`PRINT 96 >> 3;
       PRINT 3 << 4;
       PRINT 1 + 31 >> 2;
       PRINT 1 | 1 << 3;
       PRINT 1 << 62 << 1;`),
  );
  assert.deepEqual(out, [
    { '96>>3': 12 },
    { '3<<4': 48 },
    { '1+31>>2': 8 },
    { '1|1<<3': 9 },
    { '1<<62<<1': -(2 ** 63) },
  ]);
});

test('PRINT keys drop blanks outside strings and show built-in functions in lower case', async () => {
  const out = await runText(
    libraryGraph(),
    q(`INT n = 4;
       PRINT ABS(n - 10) + 1;
       PRINT "a b" + to_string( n );`),
  );
  assert.deepEqual(out, [{ 'abs(n-10)+1': 7 }, { 'a b+to_string(n)': 'a b4' }]);
});

test('a parameter given no value is NULL: IS NULL holds and COALESCE skips it', async () => {
  const src = q(
    `IF n IS NULL THEN PRINT "none" AS n; ELSE PRINT n; END;
     PRINT COALESCE(n, 7.9) AS c, COALESCE(s, "dflt") AS s;`,
    'INT n, STRING s',
  );
  assert.deepEqual(await runText(libraryGraph(), src), [{ n: 'none' }, { c: 7, s: 'dflt' }]);
  assert.deepEqual(await runText(libraryGraph(), src, { n: 3, s: 'x' }), [{ n: 3 }, { c: 3, s: 'x' }]);
});

test('RUN QUERY arguments: _ leaves a parameter unset', () => {
  const [def] = parseQueryText(q('PRINT 1;', 'INT n, STRING s = "k"'));
  assert.equal(def.kind, 'createQuery');
  const compiled = compileQuery(
    (def as { query: Parameters<typeof compileQuery>[0] }).query,
    libraryGraph().catalog,
    'library',
  );
  const [run] = parseQueryText('RUN QUERY t(_, _)');
  assert.equal(run.kind, 'runQuery');
  assert.deepEqual(
    decodeRunArgs(compiled.params, (run as { args: Parameters<typeof decodeRunArgs>[1] }).args),
    {},
  );
  const [run2] = parseQueryText('RUN QUERY t(_, "z")');
  assert.deepEqual(
    decodeRunArgs(compiled.params, (run2 as { args: Parameters<typeof decodeRunArgs>[1] }).args),
    {
      s: 'z',
    },
  );
});

test('a query variable assigned in ACCUM: rows read the value from before the clause', async () => {
  const out = await runText(
    libraryGraph(),
    q(`INT rows = 10;
       STRING last;
       SetAccum<STRING> @@seen;
       MaxAccum<INT> @@local;
       B = SELECT b FROM reader:r -(borrowed:e)-> book:b
           ACCUM rows = rows + 1,
                 last = b.title,
                 @@seen += last,
                 INT y = b.year,
                 @@local += y;
       PRINT rows, @@seen, @@local;
       PRINT last == "Dune" OR last == "Emma" OR last == "Ulysses" AS assigned;`),
  );
  assert.deepEqual(out[0], { rows: 11, '@@seen': [''], '@@local': 1965 });
  assert.deepEqual(out[1], { assigned: true });
});
