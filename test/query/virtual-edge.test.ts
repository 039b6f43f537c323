/**
 * Virtual edges (CREATE DIRECTED|UNDIRECTED VIRTUAL EDGE in a DISTRIBUTED query): inserted in one
 * SELECT's ACCUM, walked by later SELECTs like a stored edge type, gone when the run ends. Answers
 * are derived here from the finance fixture's relations, independently of the engine.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parseQueryText } from '../../src/gsql/parser-query.js';
import { queryWrites } from '../../src/query/index.js';
import { financeDb, printedJson, type FinanceDb } from '../fixtures/query/finance.js';
import { compileErrorOf, runText } from '../fixtures/query/run.js';

// The finance fixture's accounts' phones and cities (test/fixtures/query/finance.ts).
const HAS_PHONE: [string, string][] = [
  ['Ava', '111'],
  ['Ben', '111'],
  ['Ben', '222'],
  ['Dan', '222'],
  ['Eli', '333'],
];
const CITY: Record<string, string> = {
  Ava: 'Oslo',
  Ben: 'Lima',
  Cleo: 'Lima',
  Dan: 'Oslo',
  Eli: 'Oslo',
  Fay: 'Lima',
};

/** City -> phone pairs with an account of the city having the phone, as "City->phone", sorted. */
function cityPhones(): string[] {
  return [...new Set(HAS_PHONE.map(([a, p]) => `${CITY[a]}->${p}`))].sort();
}

/** Pairs of distinct accounts sharing a phone, each pair once ("A-B" with A < B), sorted. */
function sharedPhonePairs(): string[] {
  const out = new Set<string>();
  for (const [a, p] of HAS_PHONE)
    for (const [b, q] of HAS_PHONE) if (p === q && a < b) out.add(`${a}-${b}:${p}`);
  return [...out].sort();
}

let f: FinanceDb;
before(async () => {
  f = await financeDb();
});
after(async () => {
  await f.close();
});

const CITY_PHONE = `CREATE OR REPLACE DISTRIBUTED QUERY city_phone() SYNTAX v2 {
  CREATE DIRECTED VIRTUAL EDGE CityPhone(FROM City, TO Phone, since DATETIME, hops INT DEFAULT 2);
  ListAccum<STRING> @@result;
  SumAccum<INT> @n;
  v = SELECT c FROM Phone:b -(hasPhone)- Account -(isLocatedIn>)- City:c
      ACCUM INSERT INTO CityPhone VALUES (c, b, to_datetime("2024-11-30"), 2);
  v = SELECT p FROM City:c -(CityPhone>:e)- Phone:p
      ACCUM @@result += c.name + "->" + p.number + " " + datetime_format(e.since, "%Y-%m-%d") + " " + to_string(e.hops),
            p.@n += 1;
  PRINT @@result, v[v.@n];
}`;

test('a directed virtual edge inserted in one block is walked by the next, attributes readable', async () => {
  const [out] = (await runText(f.db, CITY_PHONE)) as [
    { '@@result': string[]; v: { v_id: string; attributes: Record<string, number> }[] },
  ];
  assert.deepEqual(
    [...out['@@result']].sort(),
    cityPhones().map((s) => `${s} 2024-11-30 2`),
  );
  // Each phone is reached once per city that has an account with it.
  const perPhone = new Map<string, number>();
  for (const s of cityPhones()) perPhone.set(s.split('->')[1], (perPhone.get(s.split('->')[1]) ?? 0) + 1);
  assert.deepEqual(
    Object.fromEntries(out.v.map((x) => [x.v_id, x.attributes['v.@n']])),
    Object.fromEntries(perPhone),
  );
});

test('a run starts with no virtual edges and leaves nothing behind', async () => {
  const versionBefore = f.db.catalog.version;
  const first = await runText(f.db, CITY_PHONE);
  const second = await runText(f.db, CITY_PHONE);
  // Every path inserts the same edge again (one edge per pair), and the second run starts empty.
  assert.deepEqual(second, first);
  assert.equal(f.db.catalog.version, versionBefore);
  assert.ok(!f.db.catalog.edgeTypes.some((e) => e.name === 'CityPhone'));
  const read = f.db.read();
  try {
    assert.equal(read.edgeCount(), 5 + 6 + 8);
  } finally {
    read.release();
  }
});

test('a directed virtual edge is walked backwards with <Name, and a DEFAULT fills what INSERT leaves out', async () => {
  const [out] = (await runText(
    f.db,
    `CREATE DISTRIBUTED QUERY back(STRING num) SYNTAX v2 {
       CREATE DIRECTED VIRTUAL EDGE CityPhone(FROM City, TO Phone, hops INT DEFAULT 2, tag STRING DEFAULT "t");
       SetAccum<STRING> @@tags;
       v = SELECT c FROM Phone:b -(hasPhone)- Account -(isLocatedIn>)- City:c
           ACCUM INSERT INTO CityPhone (FROM, TO, tag) VALUES (c, b, "x" + b.number);
       r = SELECT c FROM Phone:p -(<CityPhone:e)- City:c WHERE p.number == num
           ACCUM @@tags += e.tag + to_string(e.hops);
       PRINT r, @@tags;
     }`,
    { num: '111' },
  )) as [{ r: { v_id: string }[]; '@@tags': string[] }];
  const cities = [...new Set(HAS_PHONE.filter(([, p]) => p === '111').map(([a]) => CITY[a]))].sort();
  assert.deepEqual(out.r.map((x) => x.v_id).sort(), cities);
  assert.deepEqual(out['@@tags'], ['x1112']);
});

test('an undirected virtual edge: one edge per pair of ends, walked from both, edge accumulators on it', async () => {
  const [out] = (await runText(
    f.db,
    `CREATE DISTRIBUTED QUERY shared() SYNTAX v2 {
       CREATE UNDIRECTED VIRTUAL EDGE SharePhone(FROM Account, TO Account, phone STRING);
       SumAccum<INT> @deg; SumAccum<INT> @@rows; SumAccum<INT> EDGE @walks; ListAccum<STRING> @@pairs;
       a = SELECT x FROM Account:x -(hasPhone)- Phone:p -(hasPhone)- Account:y WHERE x != y
           ACCUM INSERT INTO SharePhone VALUES (x, y, p.number);
       b = SELECT y FROM Account:x -(SharePhone:e)- Account:y ACCUM y.@deg += 1, @@rows += 1, e.@walks += 1;
       c = SELECT y FROM Account:x -(SharePhone:e)- Account:y WHERE x.name < y.name
           ACCUM @@pairs += x.name + "-" + y.name + ":" + e.phone + "/" + to_string(e.@walks);
       PRINT b[b.@deg], @@rows, @@pairs;
     }`,
  )) as [
    { b: { v_id: string; attributes: Record<string, number> }[]; '@@rows': number; '@@pairs': string[] },
  ];
  const pairs = sharedPhonePairs();
  // Each edge is walked once from each end.
  assert.deepEqual(
    [...out['@@pairs']].sort(),
    pairs.map((p) => `${p}/2`),
  );
  assert.equal(out['@@rows'], 2 * pairs.length);
  const deg = new Map<string, number>();
  for (const p of pairs) for (const a of p.split(':')[0].split('-')) deg.set(a, (deg.get(a) ?? 0) + 1);
  assert.deepEqual(
    Object.fromEntries(out.b.map((x) => [x.v_id, x.attributes['b.@deg']])),
    Object.fromEntries(deg),
  );
});

test('edges inserted while a block runs are walked from the next block on', async () => {
  const [out] = (await runText(
    f.db,
    `CREATE DISTRIBUTED QUERY staged() SYNTAX v2 {
       CREATE DIRECTED VIRTUAL EDGE Lives(FROM Account, TO City);
       SumAccum<INT> @@first; SumAccum<INT> @@second; SumAccum<INT> @@third;
       a = SELECT x FROM Account:x -(isLocatedIn>)- City:c WHERE c.name == "Oslo" ACCUM INSERT INTO Lives VALUES (x, c);
       b = SELECT x FROM Account:x -(Lives>)- City:c ACCUM @@first += 1;
       b = SELECT x FROM Account:x -(isLocatedIn>)- City:c WHERE c.name == "Lima"
           ACCUM INSERT INTO Lives VALUES (x, c), @@second += 0;
       b = SELECT x FROM Account:x -(Lives>)- City:c ACCUM @@second += 1;
       b = SELECT x FROM Account:x -(Lives>)- City:c ACCUM INSERT INTO Lives VALUES (x, c), @@third += 1;
       PRINT @@first, @@second, @@third;
     }`,
  )) as [Record<string, number>];
  const oslo = Object.values(CITY).filter((c) => c === 'Oslo').length;
  const all = Object.keys(CITY).length;
  assert.deepEqual(out, { '@@first': oslo, '@@second': all, '@@third': all });
});

test('printing a virtual edge shows it like a stored one', async () => {
  const [out] = (await runText(
    f.db,
    `CREATE DISTRIBUTED QUERY show_edges() SYNTAX v2 {
       CREATE DIRECTED VIRTUAL EDGE CityPhone(FROM City, TO Phone, w DOUBLE DEFAULT 0.5);
       ListAccum<EDGE> @@edges;
       v = SELECT c FROM Phone:b -(hasPhone)- Account:a -(isLocatedIn>)- City:c
           WHERE a.name == "Eli" ACCUM INSERT INTO CityPhone (FROM, TO) VALUES (c, b);
       v = SELECT p FROM City:c -(CityPhone>:e)- Phone:p ACCUM @@edges += e;
       PRINT @@edges;
     }`,
  )) as [{ '@@edges': unknown[] }];
  assert.deepEqual(out['@@edges'], [
    {
      e_type: 'CityPhone',
      from_id: 'Oslo',
      from_type: 'City',
      to_id: '333',
      to_type: 'Phone',
      directed: true,
      attributes: { w: 0.5 },
    },
  ]);
});

test('inserting into a virtual edge is no write to the graph (the query needs no CREATE_DATA)', () => {
  const [stmt] = parseQueryText(CITY_PHONE);
  assert.equal(stmt.kind, 'createQuery');
  if (stmt.kind !== 'createQuery') return;
  const none = { text: () => undefined, names: () => [] };
  assert.deepEqual([...queryWrites(stmt.query, none)], []);
});

/** The compile error of a query text: its first line (where) and its message. */
function errorOf(src: string): string {
  return compileErrorOf(f.db, src);
}

test('errors at CREATE name the place: unknown vertex types, clashing names, bad attribute types', () => {
  assert.match(
    errorOf(`CREATE DISTRIBUTED QUERY e() {
  CREATE DIRECTED VIRTUAL EDGE V(FROM City, TO Phone|Nope);
  PRINT 1;
}`),
    /line 2, col 54\n"Nope" is not a vertex type of graph finance/,
  );
  assert.match(
    errorOf(`CREATE DISTRIBUTED QUERY e() {
  CREATE UNDIRECTED VIRTUAL EDGE V(FROM Ghost, TO Phone);
  PRINT 1;
}`),
    /line 2, col 41\n"Ghost" is not a vertex type/,
  );
  assert.match(
    errorOf(
      `CREATE DISTRIBUTED QUERY e() { CREATE DIRECTED VIRTUAL EDGE hasPhone(FROM City, TO Phone); PRINT 1; }`,
    ),
    /"hasPhone" is already an edge type; a virtual edge needs a new name/,
  );
  assert.match(
    errorOf(
      `CREATE DISTRIBUTED QUERY e() { CREATE DIRECTED VIRTUAL EDGE transfer_reverse(FROM City, TO Phone); PRINT 1; }`,
    ),
    /"transfer_reverse" is already an edge type/,
  );
  assert.match(
    errorOf(
      `CREATE DISTRIBUTED QUERY e() { CREATE DIRECTED VIRTUAL EDGE City(FROM City, TO Phone); PRINT 1; }`,
    ),
    /"City" is a vertex type/,
  );
  assert.match(
    errorOf(`CREATE DISTRIBUTED QUERY e() {
  CREATE DIRECTED VIRTUAL EDGE V(FROM City, TO Phone);
  CREATE DIRECTED VIRTUAL EDGE V(FROM City, TO Phone);
  PRINT 1;
}`),
    /line 3, col 32\nthe virtual edge type V is already declared in this query/,
  );
  assert.match(
    errorOf(
      `CREATE DISTRIBUTED QUERY e() { CREATE DIRECTED VIRTUAL EDGE V(FROM City, TO Phone, xs LIST<INT>); PRINT 1; }`,
    ),
    /attribute xs of virtual edge V: its type must be INT, UINT, FLOAT, DOUBLE, STRING, BOOL or DATETIME/,
  );
  assert.match(
    errorOf(
      `CREATE DISTRIBUTED QUERY e() { CREATE DIRECTED VIRTUAL EDGE V(FROM City, TO Phone, n INT DEFAULT "one"); PRINT 1; }`,
    ),
    /the DEFAULT of attribute n needs INT, not STRING/,
  );
  assert.match(
    errorOf(`CREATE QUERY e() { CREATE DIRECTED VIRTUAL EDGE V(FROM City, TO Phone); PRINT 1; }`),
    /virtual edge V needs a distributed query: write CREATE DISTRIBUTED QUERY e/,
  );
  assert.match(
    errorOf(
      `CREATE DISTRIBUTED QUERY e() { v = SELECT c FROM City:c ACCUM CREATE DIRECTED VIRTUAL EDGE V(FROM City, TO Phone); PRINT 1; }`,
    ),
    /CREATE VIRTUAL EDGE is a statement of the query body, not of ACCUM or POST-ACCUM/,
  );
});

const INSERT_HEAD = `CREATE DISTRIBUTED QUERY e() SYNTAX v2 {
  CREATE DIRECTED VIRTUAL EDGE V(FROM City, TO Phone, n INT, s STRING);
  v = SELECT c FROM City:c -(<isLocatedIn)- Account:a -(hasPhone)- Phone:p
      ACCUM `;

test('errors of INSERT INTO a virtual edge: value count, attribute types, ends', () => {
  assert.match(
    errorOf(`${INSERT_HEAD}INSERT INTO V VALUES (c, p, 1);\n PRINT 1;\n}`),
    /line 4, col 13\nINSERT INTO V needs 4 values, but 3 are given/,
  );
  assert.match(
    errorOf(`${INSERT_HEAD}INSERT INTO V VALUES (c, p, "1", "s");\n PRINT 1;\n}`),
    /line 4, col 41\nattribute n of V needs INT, not STRING/,
  );
  assert.match(
    errorOf(`${INSERT_HEAD}INSERT INTO V VALUES (c, p, 1, 2);\n PRINT 1;\n}`),
    /attribute s of V needs STRING, not INT/,
  );
  assert.match(
    errorOf(`${INSERT_HEAD}INSERT INTO V VALUES (p, c, 1, "s");\n PRINT 1;\n}`),
    /V does not go from Phone: its FROM types are City/,
  );
  assert.match(
    errorOf(`${INSERT_HEAD}INSERT INTO V VALUES ("Oslo" City, p, 1, "s");\n PRINT 1;\n}`),
    /the FROM end of virtual edge V must be a vertex, not an id/,
  );
  assert.match(
    errorOf(`${INSERT_HEAD}INSERT INTO V (FROM, TO, m) VALUES (c, p, 1);\n PRINT 1;\n}`),
    /"m" is not an attribute of virtual edge V/,
  );
});

test('a virtual edge exists only in its own query, after its declaration, and cannot be changed', () => {
  assert.match(
    errorOf(
      `CREATE DISTRIBUTED QUERY other() SYNTAX v2 { v = SELECT c FROM City:c -(CityPhone>)- Phone:p; PRINT v; }`,
    ),
    /"CityPhone" is not an edge type of graph finance/,
  );
  assert.match(
    errorOf(`CREATE DISTRIBUTED QUERY early() SYNTAX v2 {
  v = SELECT c FROM City:c -(V>)- Phone:p;
  CREATE DIRECTED VIRTUAL EDGE V(FROM City, TO Phone);
  PRINT v;
}`),
    /line 2, col 30\n"V" is not an edge type/,
  );
  assert.match(
    errorOf(`CREATE DISTRIBUTED QUERY d() SYNTAX v2 {
  CREATE DIRECTED VIRTUAL EDGE V(FROM City, TO Phone);
  v = SELECT c FROM City:c -(V>:e)- Phone:p ACCUM DELETE (e);
  PRINT v;
}`),
    /a virtual edge \(V\) cannot be deleted; it ends with the query/,
  );
  assert.match(
    errorOf(`CREATE DISTRIBUTED QUERY u() SYNTAX v2 {
  CREATE DIRECTED VIRTUAL EDGE V(FROM City, TO Phone, n INT);
  v = SELECT c FROM City:c -(V>:e)- Phone:p ACCUM e.n = 3;
  PRINT v;
}`),
    /the attributes of virtual edge V are set by its INSERT only/,
  );
  assert.match(
    errorOf(`CREATE DISTRIBUTED QUERY dir() SYNTAX v2 {
  CREATE DIRECTED VIRTUAL EDGE V(FROM City, TO Phone);
  v = SELECT c FROM City:c -(V)- Phone:p;
  PRINT v;
}`),
    /the directed edge type V needs a direction in SYNTAX v2: "V>" or "<V"/,
  );
});

test('SYNTAX v3 patterns walk a virtual edge too, both ways', async () => {
  const [out] = (await runText(
    f.db,
    `CREATE DISTRIBUTED QUERY v3q() SYNTAX v3 {
       CREATE DIRECTED VIRTUAL EDGE CityPhone(FROM City, TO Phone, k INT);
       SetAccum<STRING> @@pairs;
       v = SELECT c FROM (b:Phone)-[:hasPhone]-(:Account)-[:isLocatedIn]->(c:City)
           ACCUM INSERT INTO CityPhone VALUES (c, b, 1);
       v = SELECT p FROM (c:City)-[e:CityPhone]->(p:Phone) ACCUM @@pairs += c.name + "->" + p.number;
       w = SELECT c FROM (p:Phone)<-[:CityPhone]-(c:City) WHERE p.number == "333";
       PRINT @@pairs, w;
     }`,
  )) as [{ '@@pairs': string[]; w: { v_id: string }[] }];
  assert.deepEqual([...out['@@pairs']].sort(), cityPhones());
  assert.deepEqual(
    out.w.map((x) => x.v_id),
    [...new Set(HAS_PHONE.filter(([, p]) => p === '333').map(([a]) => CITY[a]))],
  );
});

test('a virtual edge is declared at the top level of the body, not under control flow', () => {
  assert.match(
    errorOf(`CREATE DISTRIBUTED QUERY e(BOOL b) {
  IF b THEN
    CREATE DIRECTED VIRTUAL EDGE V(FROM City, TO Phone);
  END;
  PRINT 1;
}`),
    /line 3, col 5\nvirtual edge V must be declared at the top level of the query body/,
  );
});

test('a called query has virtual edges of its own, beside its caller’s', async () => {
  const { code, out } = await f.shell(`USE GRAPH finance
CREATE DISTRIBUTED QUERY phones_of_city(STRING city) FOR GRAPH finance RETURNS (INT) SYNTAX v2 {
  CREATE DIRECTED VIRTUAL EDGE Link(FROM City, TO Phone);
  SumAccum<INT> @@n;
  v = SELECT c FROM Phone:b -(hasPhone)- Account -(isLocatedIn>)- City:c ACCUM INSERT INTO Link VALUES (c, b);
  v = SELECT p FROM City:c -(Link>)- Phone:p WHERE c.name == city ACCUM @@n += 1;
  RETURN @@n;
}
CREATE DISTRIBUTED QUERY per_city() FOR GRAPH finance SYNTAX v2 {
  CREATE UNDIRECTED VIRTUAL EDGE Link(FROM Account, TO City);
  MapAccum<STRING, INT> @@phones;
  v = SELECT a FROM Account:a -(isLocatedIn>)- City:c ACCUM INSERT INTO Link VALUES (a, c);
  v = SELECT c FROM City:c -(Link)- Account:a POST-ACCUM @@phones += (c.name -> phones_of_city(c.name));
  PRINT @@phones;
}
INSTALL QUERY phones_of_city, per_city
RUN QUERY per_city()`);
  assert.equal(code, 0, out);
  const [env] = printedJson(out) as { results: { '@@phones': Record<string, number> }[] }[];
  const expected: Record<string, number> = {};
  for (const s of cityPhones()) expected[s.split('->')[0]] = (expected[s.split('->')[0]] ?? 0) + 1;
  assert.deepEqual(env.results[0]['@@phones'], expected);
});

test('an undirected virtual self-loop is walked once, as a stored one is', async () => {
  const [out] = (await runText(
    f.db,
    `CREATE DISTRIBUTED QUERY loops() SYNTAX v2 {
       CREATE UNDIRECTED VIRTUAL EDGE Self(FROM Account, TO Account);
       SumAccum<INT> @@rows; SumAccum<INT> @deg;
       a = SELECT x FROM Account:x ACCUM INSERT INTO Self VALUES (x, x);
       b = SELECT y FROM Account:x -(Self)- Account:y ACCUM @@rows += 1 POST-ACCUM y.@deg = y.outdegree("Self");
       PRINT @@rows, b[b.@deg];
     }`,
  )) as [{ '@@rows': number; b: { attributes: Record<string, number> }[] }];
  assert.equal(out['@@rows'], Object.keys(CITY).length);
  assert.deepEqual(
    out.b.map((x) => x.attributes['b.@deg']),
    Object.keys(CITY).map(() => 1),
  );
});
