import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemGraph, makeCatalog } from '../fixtures/query/mem-graph.js';
import { socialNet } from '../fixtures/query/social-net.js';
import { runText, v } from '../fixtures/query/run.js';

const q = (body: string, params = '', syntax = ''): string =>
  `CREATE QUERY t(${params}) FOR GRAPH socialNet ${syntax}{\n${body}\n}`;

test('V1 SELECT with arrow, vertex accumulators, HAVING, ORDER BY DESC and PRINT of a vertex set', async () => {
  const out = await runText(
    socialNet(),
    q(`SumAccum<INT> @postCount;
       Persons = {person.*};
       Active = SELECT src FROM Persons:src -(posted:e)-> post:tgt
                ACCUM src.@postCount += 1
                HAVING src.@postCount >= 1
                ORDER BY src.@postCount DESC, src.gender ASC;
       PRINT Active;`),
  );
  assert.deepEqual(out, [
    {
      Active: [
        { v_id: 'person1', v_type: 'person', attributes: { gender: 'Male', '@postCount': 2 } },
        { v_id: 'person2', v_type: 'person', attributes: { gender: 'Female', '@postCount': 1 } },
        { v_id: 'person3', v_type: 'person', attributes: { gender: 'Male', '@postCount': 1 } },
      ],
    },
  ]);
});

test('ACCUM reads the state from before the clause; POST-ACCUM sees the reduced values', async () => {
  const out = await runText(
    socialNet(),
    q(
      `SumAccum<INT> @likes;
       SumAccum<INT> @@seenDuringAccum, @@seenAfter;
       Posts = {post.*};
       R = SELECT t FROM Posts:t -(<liked:e)- person:s
           ACCUM t.@likes += 1, @@seenDuringAccum += t.@likes
           POST-ACCUM @@seenAfter += t.@likes;
       PRINT @@seenDuringAccum, @@seenAfter;`,
      '',
      'SYNTAX v2 ',
    ),
  );
  assert.deepEqual(out, [{ '@@seenDuringAccum': 0, '@@seenAfter': 5 }]);
});

test('V2 direction markers, reverse edges, edge attributes and DATETIME functions', async () => {
  const out = await runText(
    socialNet(),
    q(
      `ListAccum<STRING> @@authors;
       MapAccum<STRING, STRING> @@likedAt;
       SetAccum<INT> @@years;
       Start = {p};
       Authors = SELECT a FROM Start:s -(<posted)- person:a ACCUM @@authors += a.gender;
       Back = SELECT a FROM Start:s -(reverse_posted:e)- person:a;
       Likers = SELECT a FROM Start:s -(<liked:e)- person:a
                ACCUM @@likedAt += (a.gender -> to_string(e.action_time)),
                      @@years += year(e.action_time)
                ORDER BY a.gender;
       PRINT @@authors, Back.size() AS backCount, @@likedAt, @@years;
       PRINT datetime_diff(to_datetime("2010-01-13 03:00:00"), to_datetime("2010-01-11 11:00:00")) AS secs;`,
      'VERTEX<post> p',
      'SYNTAX v2 ',
    ),
    { p: v('post', '0') },
  );
  assert.deepEqual(out, [
    {
      '@@authors': ['Male'],
      backCount: 1,
      '@@likedAt': { Female: '2010-01-11 11:00:00', Male: '2010-01-13 03:00:00' },
      '@@years': [2010],
    },
    { secs: 144000 },
  ]);
});

test('LIMIT k, LIMIT j, k and LIMIT k OFFSET j keep the ORDER BY order', async () => {
  const body = (limit: string): string => `Persons = {person.*};
       R = SELECT s FROM Persons:s ORDER BY s.gender DESC, s.@n ASC ${limit};
       PRINT R[R.gender];`;
  const ids = async (limit: string): Promise<string[]> => {
    const out = (await runText(socialNet(), q(`SumAccum<INT> @n;\n` + body(limit)))) as {
      R: { v_id: string }[];
    }[];
    return out[0].R.map((r) => r.v_id);
  };
  assert.deepEqual(await ids('LIMIT 2'), ['person1', 'person3']);
  assert.deepEqual(await ids('LIMIT 1, 2'), ['person3', 'person2']);
  assert.deepEqual(await ids('LIMIT 2 OFFSET 2'), ['person2', 'person4']);
});

test('PRINT projections name columns by expression text or AS; .type and outdegree()', async () => {
  const out = await runText(
    socialNet(),
    q(
      `SumAccum<INT> @deg;
       S = {p};
       S = SELECT s FROM S:s POST-ACCUM s.@deg = s.outdegree();
       PRINT S[S.gender, S.@deg AS degree, S.type, S.outdegree("friend") AS friends];`,
      'VERTEX<person> p',
    ),
    { p: v('person', 'person1') },
  );
  assert.deepEqual(out, [
    {
      S: [
        {
          v_id: 'person1',
          v_type: 'person',
          attributes: { 'S.gender': 'Male', degree: 5, 'S.type': 'person', friends: 2 },
        },
      ],
    },
  ]);
});

test('vertex-set UNION, INTERSECT and MINUS; WHILE with LIMIT; BFS over friends', async () => {
  const out = await runText(
    socialNet(),
    q(
      `OrAccum @visited;
       Men = SELECT s FROM person:s WHERE s.gender == "Male";
       Friends1 = SELECT t FROM Men:s -(friend)- person:t;
       Both = Men INTERSECT Friends1;
       Only = Friends1 MINUS Men;
       All = Men UNION Friends1;
       PRINT Both.size() AS both, Only.size() AS only, All.size() AS all;
       Frontier = {p};
       Reached = {p};
       WHILE Frontier.size() > 0 LIMIT 1 DO
         Frontier = SELECT t FROM Frontier:s -(friend:e)- person:t
                    WHERE t.@visited == false
                    ACCUM t.@visited += true, s.@visited += true;
         Reached = Reached UNION Frontier;
       END;
       PRINT Reached.size() AS reached;`,
      'VERTEX<person> p',
    ),
    { p: v('person', 'person4') },
  );
  assert.deepEqual(out, [{ both: 2, only: 2, all: 4 }, { reached: 2 }]);
});

test("POST-ACCUM sees a vertex's own new values at once; globals still reduce at the end", async () => {
  const out = await runText(
    socialNet(),
    q(`SumAccum<INT> @a, @b;
       SumAccum<INT> @@sumB, @@readDuring;
       S = {person.*};
       S = SELECT s FROM S:s
           POST-ACCUM s.@a = 2, s.@b = s.@a * 10, @@sumB += s.@b, @@readDuring += @@sumB;
       PRINT @@sumB, @@readDuring;`),
  );
  assert.deepEqual(out, [{ '@@sumB': 80, '@@readDuring': 0 }]);
});

test('SetAccum<EDGE> keeps each edge once and prints edges as TigerGraph does', async () => {
  const out = await runText(
    socialNet(),
    q(
      `SetAccum<EDGE> @@edges;
       S = {p};
       R = SELECT t FROM S:s -(friend:e)- person:t WHERE t.gender == "Female" ACCUM @@edges += e, @@edges += e;
       PRINT @@edges;`,
      'VERTEX<person> p',
    ),
    { p: v('person', 'person1') },
  );
  assert.deepEqual(out, [
    {
      '@@edges': [
        {
          e_type: 'friend',
          directed: false,
          from_id: 'person1',
          from_type: 'person',
          to_id: 'person2',
          to_type: 'person',
          attributes: { since: 2010 },
        },
      ],
    },
  ]);
});

test('steps whose edge alias is not read walk the adjacency views; reading it uses edge handles', async () => {
  const fastGraph = socialNet();
  const fast = await runText(
    fastGraph,
    q(`S = {person.*};
       R = SELECT t FROM S:s -(friend:e)- person:t WHERE s.gender == "Male";
       PRINT R.size() AS n;`),
  );
  const slowGraph = socialNet();
  const slow = await runText(
    slowGraph,
    q(`S = {person.*};
       R = SELECT t FROM S:s -(friend:e)- person:t WHERE s.gender == "Male" AND e.since > 0;
       PRINT R.size() AS n;`),
  );
  assert.deepEqual(fast, [{ n: 4 }]);
  assert.deepEqual(slow, fast);
  assert.ok(fastGraph.stats.adjacencyCalls > 0);
  assert.equal(slowGraph.stats.adjacencyCalls, 0);
});

test('seeds from accumulators and vertex variables; vertices print as ids inside collections and maps', async () => {
  const out = await runText(
    socialNet(),
    q(
      `SetAccum<VERTEX<person>> @@picked;
       MapAccum<VERTEX, INT> @@degree;
       ListAccum<VERTEX> @@order;
       SumAccum<INT> @n;
       VERTEX<person> first;
       S = {person.*};
       S = SELECT s FROM S:s WHERE s.gender == "Female" ACCUM @@picked += s, @@degree += (s -> s.outdegree("friend"));
       P = {@@picked};
       FOREACH v IN P DO
         v.@n += 10;
         @@order += v;
       END;
       first = p;
       PRINT P.size() AS n, @@degree, @@order, first, p.neighbors("friend").size() AS friends;
       PRINT P[P.@n];`,
      'VERTEX<person> p',
    ),
    { p: v('person', 'person3') },
  );
  assert.deepEqual(out, [
    {
      n: 2,
      '@@degree': { person2: 2, person4: 1 },
      '@@order': ['person2', 'person4'],
      first: 'person3',
      friends: 3,
    },
    {
      P: [
        { v_id: 'person2', v_type: 'person', attributes: { 'P.@n': 10 } },
        { v_id: 'person4', v_type: 'person', attributes: { 'P.@n': 10 } },
      ],
    },
  ]);
});

test('a primary id declared WITH primary_id_as_attribute reads as an attribute', async () => {
  const g = new MemGraph(
    makeCatalog({ graph: 'G', vertices: { Item: { attrs: [['w', 'INT']], idAsAttr: true } }, edges: {} }),
  );
  g.addVertex('Item', 'i1', { w: 1 }).addVertex('Item', 'i2', { w: 2 });
  const out = await runText(
    g,
    `CREATE QUERY t() FOR GRAPH G { S = SELECT s FROM Item:s WHERE s.id == "i1"; PRINT S; }`,
  );
  assert.deepEqual(out, [{ S: [{ v_id: 'i1', v_type: 'Item', attributes: { id: 'i1', w: 1 } }] }]);
});

test('several POST-ACCUM clauses run in order, each over the alias it uses (V2)', async () => {
  const out = await runText(
    socialNet(),
    q(
      `SumAccum<INT> @likes, @rank;
       SumAccum<INT> @@total, @@seen;
       Posts = {post.*};
       R = SELECT t FROM Posts:t -(<liked:e)- person:s
           ACCUM t.@likes += 1
           POST-ACCUM (t) @@total += t.@likes
           POST-ACCUM (t) t.@rank = t.@likes * 10, @@seen += @@total;
       PRINT @@total, @@seen;
       PRINT R[R.@rank];`,
      '',
      'SYNTAX v2 ',
    ),
  );
  assert.equal((out[0] as Record<string, unknown>)['@@total'], 5);
  // The second clause reads @@total after the first clause has finished.
  assert.equal((out[0] as Record<string, unknown>)['@@seen'], 20);
  const ranks = (out[1] as { R: { v_id: string; attributes: { 'R.@rank': number } }[] }).R.map(
    (r) => `${r.v_id}:${r.attributes['R.@rank']}`,
  ).sort();
  assert.deepEqual(ranks, ['0:20', '1:10', '2:10', '3:10']);
});
