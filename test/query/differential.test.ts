/**
 * The same questions in SYNTAX V2 (vertex sets and accumulators), SYNTAX V3 (SQL-like SELECT over
 * V3 patterns) and openCypher give the same answers on generated social graphs, for several
 * parameters each. The V2 twins use accumulators, so the tables, projections and pattern
 * desugaring of V3 and openCypher are checked against an independent computation.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { generatedSocial, type GeneratedSocial } from '../fixtures/query/generated-social.js';
import { runText } from '../fixtures/query/run.js';

interface Question {
  name: string;
  params: string;
  args: Record<string, unknown>[];
  v2: string;
  v3: string;
  cypher: string;
}

const QUESTIONS: Question[] = [
  {
    name: 'out-neighbours older than x, counted per person',
    params: 'INT x',
    args: [{ x: 30 }, { x: 55 }],
    v2: `SumAccum<INT> @n;
      R = SELECT p FROM Person:p -(KNOWS>)- Person:q WHERE q.age > x ACCUM p.@n += 1;
      PRINT R[R.@n AS n];`,
    v3: `SELECT p AS id, count(*) AS n INTO T FROM (p:Person)-[:KNOWS]->(q:Person) WHERE q.age > x GROUP BY p;
      PRINT T;`,
    cypher: 'MATCH (p:Person)-[:KNOWS]->(q:Person) WHERE q.age > $x RETURN p AS id, count(*) AS n',
  },
  {
    name: 'people two KNOWS hops away',
    params: 'STRING sid',
    args: [{ sid: 'p0' }, { sid: 'p7' }, { sid: 'p33' }],
    v2: `R = SELECT c FROM Person:a -(KNOWS>)- Person:b -(KNOWS>)- Person:c WHERE a.id == sid;
      PRINT R[R.name AS name];`,
    v3: `SELECT DISTINCT c AS id, c.name AS name INTO T
        FROM (a:Person {id: sid})-[:KNOWS]->(b:Person)-[:KNOWS]->(c:Person);
      PRINT T;`,
    cypher:
      'MATCH (a:Person {id: $sid})-[:KNOWS]->(b:Person)-[:KNOWS]->(c:Person) RETURN DISTINCT c.id AS id, c.name AS name',
  },
  {
    name: 'shortest paths of 1 to 3 KNOWS hops, counted per person reached',
    params: 'STRING sid',
    args: [{ sid: 'p0' }, { sid: 'p7' }, { sid: 'p33' }],
    v2: `SumAccum<INT> @paths;
      R = SELECT c FROM Person:a -(KNOWS>*1..3)- Person:c WHERE a.id == sid ACCUM c.@paths += 1;
      PRINT R[R.@paths AS paths];`,
    v3: `SELECT c AS id, count(*) AS paths INTO T FROM (a:Person {id: sid})-[:KNOWS*1..3]->(c:Person) GROUP BY c;
      PRINT T;`,
    cypher: 'MATCH (a:Person {id: $sid})-[:KNOWS*1..3]->(c:Person) RETURN c AS id, count(*) AS paths',
  },
  {
    name: 'other people of the same city',
    params: 'STRING sid',
    args: [{ sid: 'p0' }, { sid: 'p7' }],
    v2: `R = SELECT b FROM Person:a -(LIVES_IN>)- City:c -(<LIVES_IN)- Person:b WHERE a.id == sid AND b.id != sid;
      PRINT R[R.age AS age];`,
    v3: `SELECT DISTINCT b AS id, b.age AS age INTO T
        FROM (a:Person {id: sid})-[:LIVES_IN]->(c:City)<-[:LIVES_IN]-(b:Person) WHERE b.id != sid;
      PRINT T;`,
    cypher: `MATCH (a:Person {id: $sid})-[:LIVES_IN]->(c:City)<-[:LIVES_IN]-(b:Person) WHERE b.id <> $sid
      RETURN DISTINCT b.id AS id, b.age AS age`,
  },
  {
    name: 'friends (undirected) per person: how many, youngest and oldest',
    params: '',
    args: [{}],
    v2: `SumAccum<INT> @deg; MinAccum<INT> @lo; MaxAccum<INT> @hi;
      R = SELECT p FROM Person:p -(FRIEND)- Person:q ACCUM p.@deg += 1, p.@lo += q.age, p.@hi += q.age;
      PRINT R[R.@deg AS deg, R.@lo AS lo, R.@hi AS hi];`,
    v3: `SELECT p AS id, count(*) AS deg, min(q.age) AS lo, max(q.age) AS hi INTO T
        FROM (p:Person)~[:FRIEND]~(q:Person) GROUP BY p;
      PRINT T;`,
    cypher:
      'MATCH (p:Person)-[:FRIEND]-(q:Person) RETURN p AS id, count(*) AS deg, min(q.age) AS lo, max(q.age) AS hi',
  },
  {
    name: 'average age and head count per city',
    params: '',
    args: [{}],
    v2: `AvgAccum @avg; SumAccum<INT> @n;
      R = SELECT c FROM Person:p -(LIVES_IN>)- City:c ACCUM c.@avg += p.age, c.@n += 1;
      PRINT R[R.@avg AS avg, R.@n AS n];`,
    v3: `SELECT c AS id, avg(p.age) AS avg, count(p) AS n INTO T FROM (p:Person)-[:LIVES_IN]->(c:City) GROUP BY c;
      PRINT T;`,
    cypher: 'MATCH (p:Person)-[:LIVES_IN]->(c:City) RETURN c AS id, avg(p.age) AS avg, count(p) AS n',
  },
  {
    name: 'incoming KNOWS since a year, counted per person',
    params: 'INT y',
    args: [{ y: 2010 }, { y: 2020 }],
    v2: `SumAccum<INT> @n;
      R = SELECT q FROM Person:q -(<KNOWS:e)- Person:p WHERE e.since >= y ACCUM q.@n += 1;
      PRINT R[R.@n AS n];`,
    v3: `SELECT q AS id, count(*) AS n INTO T FROM (q:Person)<-[e:KNOWS]-(p:Person) WHERE e.since >= y GROUP BY q;
      PRINT T;`,
    cypher: 'MATCH (q:Person)<-[e:KNOWS]-(p:Person) WHERE e.since >= $y RETURN q AS id, count(*) AS n',
  },
  {
    name: 'people with a friend who knows them (two patterns joined)',
    params: '',
    args: [{}],
    v2: `R = SELECT p FROM Person:p -(FRIEND)- Person:f, Person:f -(KNOWS>)- Person:p;
      PRINT R[R.age AS age];`,
    v3: `SELECT DISTINCT p AS id, p.age AS age INTO T FROM (p:Person)-[:FRIEND]-(f:Person), (f)-[:KNOWS]->(p);
      PRINT T;`,
    cypher:
      'MATCH (p:Person)-[:FRIEND]-(f:Person), (f)-[:KNOWS]->(p) RETURN DISTINCT p.id AS id, p.age AS age',
  },
];

type Json = Record<string, unknown>;

/** The printed rows as sorted canonical text: a vertex set's vertices become rows with their id. */
function rows(out: unknown[]): string[] {
  assert.equal(out.length, 1);
  const value = Object.values(out[0] as Json)[0];
  const list = (Array.isArray(value) ? value : [value]) as Json[];
  return list
    .map((r) => ('v_id' in r ? { id: r.v_id, ...(r.attributes as Json) } : r))
    .map((r) =>
      JSON.stringify(
        Object.keys(r)
          .sort()
          .map((k) => [k, typeof r[k] === 'number' ? Number((r[k] as number).toPrecision(12)) : r[k]]),
      ),
    )
    .sort();
}

for (const seed of [11, 2024]) {
  let g: GeneratedSocial;
  before(async () => {
    g = await generatedSocial(seed);
  });
  after(async () => {
    await g.close();
  });
  for (const q of QUESTIONS) {
    test(`seed ${seed}: ${q.name}: V2, V3 and openCypher agree`, async () => {
      for (const args of q.args) {
        const v2 = await runText(g.db, `CREATE QUERY q(${q.params}) SYNTAX v2 {\n${q.v2}\n}`, args);
        const v3 = await runText(g.db, `CREATE QUERY q(${q.params}) SYNTAX v3 {\n${q.v3}\n}`, args);
        const cy = await runText(g.db, `CREATE OPENCYPHER QUERY q(${q.params}) {\n${q.cypher}\n}`, args);
        const expected = rows(v2);
        assert.ok(expected.length > 0, `the question has answers (${JSON.stringify(args)})`);
        assert.deepEqual(rows(v3), expected, `V3 ${JSON.stringify(args)}`);
        assert.deepEqual(rows(cy), expected, `openCypher ${JSON.stringify(args)}`);
      }
    });
  }
}
