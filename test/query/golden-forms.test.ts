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
import { executeQuery } from '../../src/query/run.js';
import { registryFor, runInstalledQuery } from '../../src/query/registry.js';
import { stringifyJson } from '../../src/util/json.js';
import { libraryGraph } from '../fixtures/query/library.js';
import { compileErrorOf, runText, v } from '../fixtures/query/run.js';

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

test('(a, b, …) is a bag literal: assigned to Set/BagAccum, added with +=, and the right side of IN', async () => {
  const out = await runText(
    libraryGraph(),
    q(`SetAccum<INT> @@s;
       BagAccum<INT> @@b;
       @@s = (3, 1, 3);
       @@b += (2, 2, 5);
       B = SELECT b FROM book:b WHERE b.title IN ("Emma", "Dune");
       PRINT @@s.size() AS s, @@b.size() AS b, B.size() AS n, 4 NOT IN (1, 2) AS notIn;`),
  );
  assert.deepEqual(out, [{ s: 2, b: 3, n: 2, notIn: true }]);
});

test('UNION, INTERSECT and MINUS count duplicates when a bag takes part', async () => {
  const out = await runText(
    libraryGraph(),
    q(`SetAccum<INT> @@s1, @@s2;
       BagAccum<INT> @@b1, @@b2;
       ListAccum<INT> @@u, @@i, @@m, @@bs, @@ss;
       @@s1 = (1, 2, 3); @@s2 = (3, 4);
       @@b1 = (1, 1, 2, 3); @@b2 = (1, 3, 3);
       @@u = @@b1 UNION @@b2;
       @@i = @@b1 INTERSECT @@b2;
       @@m = @@b1 MINUS @@b2;
       @@bs = @@b1 MINUS @@s1;
       @@ss = @@s1 UNION @@s2;
       PRINT @@u, @@i, @@m, @@bs, @@ss;`),
  );
  const sorted = (xs: number[]): number[] => [...xs].sort((a, b) => a - b);
  const r = out[0] as Record<string, number[]>;
  assert.deepEqual(sorted(r['@@u']), [1, 1, 1, 2, 3, 3, 3]);
  assert.deepEqual(sorted(r['@@i']), [1, 3]);
  assert.deepEqual(sorted(r['@@m']), [1, 2]);
  assert.deepEqual(sorted(r['@@bs']), [1]);
  assert.deepEqual(sorted(r['@@ss']), [1, 2, 3, 4]);
});

test('count, sum, min, max and avg over collections; the average of integers is truncated', async () => {
  const out = await runText(
    libraryGraph(),
    q(
      `BagAccum<INT> @@ages;
       ListAccum<DOUBLE> @@d;
       R = SELECT r FROM reader:r ACCUM @@ages += r.age;
       @@d += 1.5; @@d += 2.0;
       PRINT count(@@ages), sum(@@ages), min(@@ages), max(@@ages), avg(@@ages), avg(@@d), max(xs), avg(xs);`,
      'LIST<INT> xs',
    ),
    { xs: [] },
  );
  assert.deepEqual(out, [
    {
      'count(@@ages)': 3,
      'sum(@@ages)': 103,
      'min(@@ages)': 27,
      'max(@@ages)': 45,
      'avg(@@ages)': 34,
      'avg(@@d)': 1.75,
      'max(xs)': 0,
      'avg(xs)': 0,
    },
  ]);
});

test('nested lists: += a list of lists adds each; string lists multiply; get() past the end is the default', async () => {
  const out = await runText(
    libraryGraph(),
    q(`ListAccum<ListAccum<INT>> @@grid;
       ListAccum<INT> @@row;
       ListAccum<STRING> @@a, @@b, @@ab;
       @@row += 7;
       @@grid += @@row;
       @@grid += [[1, 2], [3]];
       @@a += "x"; @@a += "y"; @@b += "1"; @@b += "2";
       @@ab = @@a * @@b;
       PRINT @@grid, @@ab, @@row.get(5), @@a.get(2), @@grid.get(9);`),
  );
  assert.deepEqual(out, [
    {
      '@@grid': [[7], [1, 2], [3]],
      '@@ab': ['x1', 'y1', 'x2', 'y2'],
      '@@row.get(5)': 0,
      '@@a.get(2)': '',
      '@@grid.get(9)': [],
    },
  ]);
});

test('BagAccum remove/removeAll, ListAccum update, HeapAccum top/pop when empty', async () => {
  const out = await runText(
    libraryGraph(),
    q(`TYPEDEF TUPLE<STRING title, INT year> Ed;
       HeapAccum<Ed>(2, year DESC) @@h;
       BagAccum<STRING> @@bag;
       ListAccum<INT> @@l;
       BOOL ok1, ok2;
       @@bag += ("a", "b", "a", "a");
       @@bag.remove("a");
       PRINT @@bag.size() AS afterRemove;
       @@bag.removeAll("a");
       @@l = [1, 2, 3];
       ok1 = @@l.update(2, 30);
       ok2 = @@l.update(3, 40);
       PRINT @@bag, @@l, ok1, ok2;
       PRINT @@h.top() AS top, @@h.pop() AS popped, @@h.size() AS n;`),
  );
  assert.deepEqual(out, [
    { afterRemove: 3 },
    { '@@bag': ['b'], '@@l': [1, 2, 30], ok1: true, ok2: false },
    { top: { title: '', year: 0 }, popped: { title: '', year: 0 }, n: 0 },
  ]);
});

test('PRINT keys come from the query text even when the query is not first in the parsed source', async () => {
  const src = `# a comment before the query shifts every offset\n\n${q('INT n = 2;\nPRINT n * 3 + 1;')}`;
  assert.deepEqual(await runText(libraryGraph(), src), [{ 'n*3+1': 7 }]);
});

test('WHERE reads accumulators as they were before the ACCUM clause (every row of a vertex passes)', async () => {
  const out = await runText(
    libraryGraph(),
    q(
      `OrAccum @seen;
       SumAccum<INT> @@rows;
       Start = {seed};
       B = SELECT b FROM Start -(:e)-> book:b
           WHERE b.@seen == false
           ACCUM b.@seen = true, @@rows += 1;
       PRINT @@rows;`,
      'VERTEX<reader> seed',
    ),
    { seed: v('reader', 'ann') },
  );
  // ann borrowed b1 and b2 and reviewed b1: three rows, although b1 is marked by the first of its two.
  assert.deepEqual(out, [{ '@@rows': 3 }]);
});

test('inside a SELECT the source set name stands for its alias (S.attr, SELECT S FROM S:s)', async () => {
  const db = libraryGraph();
  const out = await runText(
    db,
    q(`SumAccum<INT> @n;
       S = {reader.*};
       X = SELECT s FROM S:s WHERE S.city == "Oslo" POST-ACCUM S.@n += S.age;
       Y = SELECT S FROM S:s WHERE s.age > 40;
       PRINT X[X.@n], Y.size() AS y, S.size() AS all;`),
  );
  const rows = (out[0] as { X: { v_id: string; attributes: Record<string, number> }[] }).X;
  assert.deepEqual(rows.map((r) => [r.v_id, r.attributes['X.@n']]).sort(), [
    ['ann', 31],
    ['cid', 27],
  ]);
  assert.equal((out[0] as { y: number }).y, 1);
  assert.equal((out[0] as { all: number }).all, 3);
});

test('a STATIC global accumulator keeps its value from one run of the compiled query to the next', async () => {
  const [stmt] = parseQueryText(
    q(
      'STATIC ListAccum<INT> @@calls;\nSumAccum<INT> @@plain;\n@@calls += n; @@plain += n;\nPRINT @@calls, @@plain;',
      'INT n',
    ),
  );
  const db = libraryGraph();
  const compiled = compileQuery(
    (stmt as { query: Parameters<typeof compileQuery>[0] }).query,
    db.catalog,
    'library',
  );
  const first = await executeQuery(db, compiled, { n: 4 });
  const second = await executeQuery(db, compiled, { n: -2 });
  assert.deepEqual(first.results, [{ '@@calls': [4], '@@plain': 4 }]);
  assert.deepEqual(second.results, [{ '@@calls': [4, -2], '@@plain': -2 }]);
  assert.throws(
    () => parseQueryText(q('STATIC INT x;')),
    /STATIC must precede a global accumulator declaration/,
  );
});

test("vertices kept by a STATIC accumulator are this run's vertices in the next run, after the graph grew", async () => {
  const [stmt] = parseQueryText(
    q(
      `STATIC SetAccum<VERTEX> @@seen;
       SumAccum<INT> @n;
       SumAccum<INT> @@total;
       IF phase == 1 THEN
         B = SELECT b FROM book:b WHERE b.year > 1900 ACCUM @@seen += b;
       ELSE
         S = @@seen;
         S = SELECT s FROM S:s ACCUM s.@n += 1;
         A = SELECT b FROM book:b POST-ACCUM @@total += b.@n;
         PRINT @@total, A[A.title, A.@n];
       END;`,
      'INT phase',
    ),
  );
  const db = libraryGraph();
  const compiled = compileQuery(
    (stmt as { query: Parameters<typeof compileQuery>[0] }).query,
    db.catalog,
    'library',
  );
  await executeQuery(db, compiled, { phase: 1 });
  // A new reader moves every book's run index (readers come first) between the two runs.
  db.addVertex('reader', 'dee', { city: 'Kyiv', age: 50 });
  const second = await executeQuery(db, compiled, { phase: 2 });
  const out = second.results[0] as {
    '@@total': number;
    A: { v_id: string; attributes: { 'A.@n': number } }[];
  };
  assert.equal(out['@@total'], 2);
  assert.deepEqual(Object.fromEntries(out.A.map((b) => [b.v_id, b.attributes['A.@n']])), {
    b1: 1,
    b2: 0,
    b3: 1,
  });
});

test('a collection of vertices assigned to a vertex set: S (T) = setParam; S = @@set; ANY as a target type', async () => {
  const out = await runText(
    libraryGraph(),
    q(
      `SetAccum<VERTEX<reader>> @@picked;
       S0 (reader) = seeds;
       R = SELECT s FROM S0:s ACCUM @@picked += s;
       S1 = @@picked;
       T = SELECT t FROM S1:s -(ANY:e)-> ANY:t;
       PRINT S0.size() AS a, S1.size() AS b, T.size() AS c;`,
      'SET<VERTEX<reader>> seeds',
    ),
    { seeds: [v('reader', 'ann'), v('reader', 'cid'), v('reader', 'ann')] },
  );
  // ann: bob, b1, b2; cid: bob, b3 (knows is undirected).
  assert.deepEqual(out, [{ a: 2, b: 2, c: 4 }]);
});

test('PRINT S WHERE cond prints the vertices of S for which cond holds', async () => {
  const out = await runText(
    libraryGraph(),
    q(`SumAccum<INT> @loans;
       R = SELECT r FROM reader:r -(borrowed:e)-> book:b ACCUM r.@loans += 1;
       PRINT R WHERE R.@loans > 1 AND R.city == "Oslo";
       PRINT R[R.@loans AS n], 5 AS five WHERE R.age < 30;`),
  );
  const ids = (k: string, i: number): string[] =>
    ((out[i] as Record<string, { v_id: string }[]>)[k] ?? []).map((x) => x.v_id).sort();
  assert.deepEqual(ids('R', 0), ['ann']);
  assert.deepEqual(ids('R', 1), ['cid']);
  assert.equal((out[1] as { five: number }).five, 5);
});

test('to_vertex_set leaves out ids that are not vertices and reports them in the message', async () => {
  const [stmt] = parseQueryText(
    q('S = to_vertex_set(ids, "book");\nPRINT S.size() AS n;', 'SET<STRING> ids'),
  );
  const db = libraryGraph();
  const compiled = compileQuery(
    (stmt as { query: Parameters<typeof compileQuery>[0] }).query,
    db.catalog,
    'library',
  );
  const r = await executeQuery(db, compiled, { ids: ['b1', 'nope', 'b3', 'gone'] });
  assert.deepEqual(r.results, [{ n: 2 }]);
  assert.deepEqual(r.warnings, ['Runtime Warning: 2 ids are invalid book vertex ids.']);
  await assert.rejects(
    runText(db, q('S = to_vertex_set(ids, "shelf");\nPRINT S;', 'SET<STRING> ids'), { ids: ['b1'] }),
    /"shelf" is not a vertex type/,
  );
});

test('JSONOBJECT and JSONARRAY: parse_json_object/array, getters, printing, and a bad text is a run-time error', async () => {
  const src = q(
    `JSONOBJECT o, inner;
     JSONARRAY a;
     o = parse_json_object(text);
     a = o.getJsonArray("shelf");
     inner = o.getJsonObject("meta");
     PRINT o.getString("name") AS name, o.getInt("big") AS big, a.getDouble(1) AS d, a.size() AS n,
           inner.getBool("open") AS open, o.containsKey("nope") AS has, inner;
     PRINT parse_json_array(list) AS arr;`,
    'STRING text, STRING list',
  );
  const text = '{"name":"city","big":9007199254740993,"shelf":["x",2.5],"meta":{"open":true}}';
  const out = await runText(libraryGraph(), src, { text, list: '[1, "two"]' });
  assert.deepEqual(out[0], {
    name: 'city',
    big: 9007199254740992,
    d: 2.5,
    n: 2,
    open: true,
    has: false,
    inner: { open: true },
  });
  assert.deepEqual(out[1], { arr: [1, 'two'] });
  await assert.rejects(runText(libraryGraph(), src, { text, list: '{1}' }), {
    message: 'Runtime Error: {1} cannot be parsed as a json array.',
  });
});

test('GroupByAccum: get(k1, k2) gives the group as a tuple; FOREACH g IN @@group gives each group as a tuple', async () => {
  const out = await runText(
    libraryGraph(),
    q(`GroupByAccum<STRING city, INT decade, SumAccum<INT> n, MaxAccum<INT> oldest> @@g;
       ListAccum<STRING> @@seen;
       R = SELECT r FROM reader:r ACCUM @@g += (r.city, r.age / 10 * 10 -> 1, r.age);
       FOREACH grp IN @@g DO @@seen += grp.city + ":" + to_string(grp.decade) + ":" + to_string(grp.n); END;
       PRINT @@g.get("Oslo", 30) AS hit, @@g.get("Oslo", 30).oldest AS oldest, @@g.get("Nice", 10) AS miss,
             @@g.containsKey("Rome", 40) AS rome;
       PRINT @@seen;`),
  );
  assert.deepEqual(out[0], {
    hit: { n: 1, oldest: 31 },
    oldest: 31,
    miss: { n: 0, oldest: -(2 ** 63) },
    rome: true,
  });
  assert.deepEqual([...(out[1] as { '@@seen': string[] })['@@seen']].sort(), [
    'Oslo:20:1',
    'Oslo:30:1',
    'Rome:40:1',
  ]);
});

test('a stored query without RETURNS is called as a statement for its effects; its value cannot be used', async () => {
  const db = libraryGraph();
  const reg = registryFor(db);
  const create = async (text: string): Promise<void> => {
    const [s] = parseQueryText(text);
    if (s.kind !== 'createQuery') throw new Error('parse');
    await reg.create(s.query, 'library', db.catalog, false);
  };
  await create(`CREATE QUERY setYear(VERTEX<book> b, INT y) FOR GRAPH library {
    S = {b};
    S = SELECT x FROM S:x POST-ACCUM x.year = y;
  }`);
  await create(`CREATE QUERY retitle() FOR GRAPH library {
    FOREACH y IN RANGE[1, 2] DO setYear(to_vertex("b2", "book"), 2000 + y); END;
  }`);
  await create(`CREATE QUERY readYear() FOR GRAPH library {
    B = SELECT b FROM book:b WHERE b.title == "Emma";
    PRINT B[B.year];
  }`);
  await reg.install('library', 'all', db.catalog, false);
  await runInstalledQuery(db, 'library', 'retitle', {});
  const out = JSON.parse(stringifyJson(await runInstalledQuery(db, 'library', 'readYear', {}))) as {
    B: { attributes: { 'B.year': number } }[];
  }[];
  assert.equal(out[0].B[0].attributes['B.year'], 2002);
  const [bad] = parseQueryText(
    `CREATE QUERY useIt() FOR GRAPH library { INT n = setYear(to_vertex("b1", "book"), 1); }`,
  );
  if (bad.kind !== 'createQuery') throw new Error('parse');
  await assert.rejects(
    reg.create(bad.query, 'library', db.catalog, false),
    /the value of n needs INT, not no value/,
  );
});

test('neighbors().filter(), neighborAttribute() and edgeAttribute(): bags over out-edges, filtered by edge and neighbour', async () => {
  const out = await runText(
    libraryGraph(),
    q(`SetAccum<VERTEX<book>> @good;
       BagAccum<STRING> @titles, @oldTitles;
       BagAccum<INT> @stars, @newStars;
       SetAccum<STRING> @olderFriendCities;
       R = SELECT r FROM reader:r
           ACCUM r.@good += r.neighbors("reviewed").filter(reviewed.stars >= 3),
                 r.@titles += r.neighborAttribute("borrowed", "book", "title"),
                 r.@oldTitles += r.neighborAttribute("borrowed", "book", "title")
                                  .filter(book.year < 1900 OR r.city == "Rome"),
                 r.@stars += r.edgeAttribute("reviewed", "stars"),
                 r.@newStars += r.edgeAttribute("reviewed", "stars").filter(book.year > 1900 AND reviewed.stars > 2),
                 r.@olderFriendCities += r.neighborAttribute("knows", "reader", "city").filter(reader.age > r.age);
       PRINT R[R.@good, R.@titles, R.@oldTitles, R.@stars, R.@newStars, R.@olderFriendCities];`),
  );
  const rows = (out[0] as { R: { v_id: string; attributes: Record<string, unknown[]> }[] }).R;
  const by = Object.fromEntries(
    rows.map((r) => [r.v_id, Object.values(r.attributes).map((x) => [...x].sort())]),
  );
  assert.deepEqual(by, {
    ann: [['b1'], ['Dune', 'Emma'], ['Emma'], [5], [5], ['Rome']],
    bob: [[], ['Emma'], ['Emma'], [], [], []],
    cid: [[], ['Ulysses'], [], [2], [], ['Rome']],
  });
});

test('neighborAttribute(), edgeAttribute() and filter() misuse is refused at CREATE with its position', async () => {
  const db = libraryGraph();
  const err = (expr: string): string =>
    compileErrorOf(
      db,
      q(`BagAccum<STRING> @b;\nR = SELECT r FROM reader:r ACCUM r.@b += ${expr};`, 'STRING s'),
    );
  const at = (col: number, msg: string): string =>
    `Semantic Check Error in query t: line 3, col ${col}\n${msg}`;
  assert.equal(
    err('r.neighborAttribute("borrowed", "book", "pages")'),
    at(82, '"pages" is not an attribute of vertex type book'),
  );
  assert.equal(
    err('r.neighborAttribute("borrowed", "book")'),
    at(44, 'neighborAttribute() takes 3 arguments'),
  );
  assert.equal(err('r.edgeAttribute("lent", "day")'), at(58, '"lent" is not an edge type of graph library'));
  assert.equal(
    err('r.edgeAttribute(s, "day")'),
    at(58, 'edgeAttribute() needs the edge type as a string literal'),
  );
  assert.equal(
    err('r.neighborAttribute("borrowed", "book", "title").filter(borrowed.day)'),
    at(98, 'filter() needs BOOL, but this is DATETIME'),
  );
  assert.equal(
    err('r.neighbors(s).filter(true)'),
    at(54, 'neighbors() needs the edge type as a string literal'),
  );
});

test('ISEMPTY() of a set parameter, an accumulator and a vertex set; a non-collection is refused', async () => {
  const src = `CREATE QUERY e(SET<VERTEX<reader>> rs) FOR GRAPH library {
    SetAccum<INT> @@none;
    ListAccum<INT> @@some = [1];
    S = SELECT r FROM reader:r WHERE r.age > 100;
    PRINT ISEMPTY(rs) AS p, isEmpty(@@none) AS n, ISEMPTY(@@some) AS s, ISEMPTY(S) AS v;
  }`;
  assert.deepEqual(await runText(libraryGraph(), src, { rs: [] }), [{ p: true, n: true, s: false, v: true }]);
  assert.deepEqual(await runText(libraryGraph(), src, { rs: [v('reader', 'ann')] }), [
    { p: false, n: true, s: false, v: true },
  ]);
  assert.match(
    compileErrorOf(libraryGraph(), q('INT n = 3;\n PRINT ISEMPTY(n);')),
    /line 3, col 16\nISEMPTY\(\) needs a collection or a vertex set, not INT/,
  );
});
