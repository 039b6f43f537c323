/**
 * SYNTAX v2 pattern matching: multi-hop patterns, repetition with shortest-path semantics, `.`
 * chains, alternation, vertex sets as endpoints, conjunctive patterns, PER, POST-ACCUM per alias,
 * and the errors of each. The graphs are TigerGraph's documentation figures for shortest paths.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemGraph, makeCatalog } from '../fixtures/query/mem-graph.js';
import { compileErrorOf, runText } from '../fixtures/query/run.js';
import type { Expr, Stmt } from '../../src/gsql/ast-query.js';
import { parseQueryText } from '../../src/gsql/parser-query.js';
import { repeatInsensitive } from '../../src/query/select-clauses.js';

/**
 * Nodes 1..12. Directed E: 1→2→3→4, 3→5→6→2 (a cycle through 2 and 3). Undirected U: the figure
 * with two shortest paths 1-2-3-4-5 and 1-2-6-4-5, a longer one through 9..12 and a cycle 3-7-8-3.
 * Directed F: node → item. Node 1 is `kind` "start"; nodes carry `w = id`.
 */
function figures(): MemGraph {
  const g = new MemGraph(
    makeCatalog({
      graph: 'fig',
      vertices: {
        Node: {
          attrs: [
            ['w', 'INT'],
            ['kind', 'STRING'],
          ],
        },
        Item: { attrs: [['price', 'INT']] },
      },
      edges: {
        E: { from: 'Node', to: 'Node', directed: true, reverse: 'rE', attrs: [['k', 'INT']] },
        U: { from: 'Node', to: 'Node', directed: false },
        F: { from: 'Node', to: 'Item', directed: true },
      },
    }),
  );
  for (let i = 1; i <= 12; i++) g.addVertex('Node', String(i), { w: i, kind: i === 1 ? 'start' : 'other' });
  for (const [a, b] of [
    [1, 2],
    [2, 3],
    [3, 4],
    [3, 5],
    [5, 6],
    [6, 2],
  ])
    g.addEdge('E', String(a), String(b), { k: a * 10 + b });
  for (const [a, b] of [
    [1, 2],
    [2, 3],
    [3, 4],
    [4, 5],
    [2, 6],
    [6, 4],
    [2, 9],
    [9, 10],
    [10, 11],
    [11, 12],
    [12, 4],
    [3, 7],
    [7, 8],
    [8, 3],
  ])
    g.addEdge('U', String(a), String(b));
  for (const [n, item, price] of [
    [2, 'a', 5],
    [3, 'b', 7],
    [3, 'c', 9],
    [6, 'd', 11],
  ] as const) {
    g.addVertex('Item', item, { price });
    g.addEdge('F', String(n), item);
  }
  return g;
}

const q = (body: string, params = ''): string =>
  `CREATE QUERY q(${params}) FOR GRAPH fig SYNTAX v2 {\n${body}\n}`;

/** The ids of a printed vertex set, sorted. */
const ids = (printed: unknown): string[] =>
  (printed as { v_id: string }[])
    .map((v) => v.v_id)
    .sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));

async function run(g: MemGraph, body: string): Promise<Record<string, unknown>[]> {
  return (await runText(g, q(body))) as Record<string, unknown>[];
}

test('a two-hop pattern: the targets two steps away, ACCUM once per path', async () => {
  const g = figures();
  const [r, n] = await run(
    g,
    `SumAccum<INT> @@paths; SumAccum<INT> @via;
     S = {Node.*};
     T = SELECT t FROM S:s -(E>)- Node:m -(E>)- Node:t WHERE s.kind == "start" ACCUM @@paths += 1, t.@via += m.w;
     PRINT T; PRINT @@paths;`,
  );
  assert.deepEqual(ids(r.T), ['3']);
  assert.deepEqual(n, { '@@paths': 1 });
  // From every node: 1-2-3, 2-3-4, 2-3-5, 3-5-6, 5-6-2, 6-2-3: six paths to five targets.
  const [all] = await run(
    g,
    `SumAccum<INT> @@paths;
     T = SELECT t FROM Node:s -(E>)- Node:m -(E>)- Node:t ACCUM @@paths += 1;
     PRINT @@paths;`,
  );
  assert.deepEqual(all, { '@@paths': 6 });
});

test('SELECT any alias of a pattern; POST-ACCUM per distinct vertex of the alias it names', async () => {
  const g = figures();
  const [mid, counts] = await run(
    g,
    `SumAccum<INT> @seen; SumAccum<INT> @@middles, @@ends;
     M = SELECT m FROM Node:s -(E>)- Node:m -(E>)- Node:t
         ACCUM m.@seen += 1
         POST-ACCUM (m) @@middles += 1
         POST-ACCUM (t) @@ends += 1;
     PRINT M[M.@seen]; PRINT @@middles, @@ends;`,
  );
  // Middles: 2 (1-2-3, 6-2-3), 3 (2-3-4, 2-3-5), 5 (3-5-6), 6 (5-6-2).
  assert.deepEqual(
    (mid.M as { v_id: string; attributes: Record<string, number> }[])
      .map((v) => [v.v_id, v.attributes['M.@seen']])
      .sort(),
    [
      ['2', 2],
      ['3', 2],
      ['5', 1],
      ['6', 1],
    ],
  );
  assert.deepEqual(counts, { '@@middles': 4, '@@ends': 5 });
});

test('repetition: shortest paths only, zero hops included by *, bounds on the shortest distance', async () => {
  const g = figures();
  const reach = async (pattern: string): Promise<string[]> =>
    ids(
      (await run(g, `S = SELECT t FROM Node:s -(${pattern})- Node:t WHERE s.kind == "start"; PRINT S;`))[0].S,
    );
  assert.deepEqual(await reach('E>*'), ['1', '2', '3', '4', '5', '6']);
  assert.deepEqual(await reach('E>*1..'), ['2', '3', '4', '5', '6']);
  assert.deepEqual(await reach('E>*2'), ['3']);
  assert.deepEqual(await reach('E>*..1'), ['1', '2']);
  assert.deepEqual(await reach('E>*3..4'), ['4', '5', '6']);
  assert.deepEqual(await reach('<E*'), ['1']);
  // 2 is on the cycle 2-3-5-6-2: *1.. reaches it again at distance 4, *1..3 does not.
  const from2 = async (pattern: string): Promise<string[]> =>
    ids((await run(g, `S = SELECT t FROM Node:s -(${pattern})- Node:t WHERE s.w == 2; PRINT S;`))[0].S);
  assert.deepEqual(await from2('E>*1..'), ['2', '3', '4', '5', '6']);
  assert.deepEqual(await from2('E>*4'), ['2']);
  assert.deepEqual(await from2('E>*1..3'), ['3', '4', '5', '6']);
  assert.deepEqual(await from2('<E*1..'), ['1', '2', '3', '5', '6']);
  // Undirected steps walk back over the edge they left by: the start is not reached again.
  assert.deepEqual(await from2('U*1..1'), ['1', '3', '6', '9']);
  // Figure 3: two shortest paths from 1 to 5 (1-2-3-4-5, 1-2-6-4-5): ACCUM runs once per path.
  const [paths] = await run(
    g,
    `SumAccum<INT> @@n;
     S = SELECT t FROM Node:s -(U*)- Node:t WHERE s.w == 1 AND t.w == 5 ACCUM @@n += 1;
     PRINT @@n;`,
  );
  assert.deepEqual(paths, { '@@n': 2 });
});

test('a repeated step inside a longer pattern, and its end typed only at the end', async () => {
  const g = figures();
  const [r] = await run(
    g,
    `SumAccum<INT> @@total;
     I = SELECT i FROM Node:s -(E>*1..2)- Node:n -(F>)- Item:i WHERE s.kind == "start" ACCUM @@total += i.price;
     PRINT I, @@total;`,
  );
  // From 1: 2 (d=1) and 3 (d=2) have items a, b, c.
  assert.deepEqual(ids(r.I), ['a', 'b', 'c']);
  assert.equal(r['@@total'], 5 + 7 + 9);
});

test('edge-path concatenation equals the pattern with an unnamed middle vertex', async () => {
  const g = figures();
  const [chain] = await run(g, 'S = SELECT t FROM Node:s -(E>.E>.F>)- :t WHERE s.w == 1; PRINT S;');
  const [spelled] = await run(
    g,
    'S = SELECT t FROM Node:s -(E>)- :a -(E>)- :b -(F>)- :t WHERE s.w == 1; PRINT S;',
  );
  assert.deepEqual(ids(chain.S), ['b', 'c']);
  assert.deepEqual(chain, spelled);
});

test('alternation of directions and of vertex types; an untyped alias', async () => {
  const g = figures();
  const [both] = await run(g, 'S = SELECT t FROM Node:s -(E>|<E)- Node:t WHERE s.w == 2; PRINT S;');
  assert.deepEqual(ids(both.S), ['1', '3', '6']);
  const [mixed] = await run(g, 'S = SELECT t FROM Node:s -(E>|F>)- (Node|Item):t WHERE s.w == 3; PRINT S;');
  assert.deepEqual(ids(mixed.S), ['4', '5', 'b', 'c']);
  const [any] = await run(g, 'S = SELECT t FROM Node:s -(F>)- :t WHERE s.w == 3; PRINT S;');
  assert.deepEqual(ids(any.S), ['b', 'c']);
});

test('a vertex set as a pattern endpoint: only its members match, from either end', async () => {
  const g = figures();
  const [r] = await run(
    g,
    `Ends = SELECT n FROM Node:n WHERE n.w == 3 OR n.w == 6;
     A = SELECT s FROM Node:s -(E>)- Ends:t; 
     B = SELECT t FROM Ends:t -(<E)- Node:s;
     PRINT A, B;`,
  );
  // Edges into 3 or 6: 2→3, 5→6.
  assert.deepEqual(ids(r.A), ['2', '5']);
  assert.deepEqual(ids(r.B), ['3', '6']);
});

test('conjunctive patterns join on their shared aliases; WHERE may span hops and patterns', async () => {
  const g = figures();
  const [r] = await run(
    g,
    `SumAccum<INT> @@rows;
     S = SELECT m FROM Node:s -(E>)- Node:m -(F>)- Item:i, Node:m -(E>)- Node:t
         WHERE i.price > s.w AND t.w != s.w
         ACCUM @@rows += 1;
     PRINT S, @@rows;`,
  );
  // m=2 (from 1, 6): item a (5); out to 3.  m=3 (from 2): items b, c; out to 4, 5.  m=6 (from 5): item d; out to 2.
  // Rows: (1,2,a,3), (6,2,a,3) [5 > 6? no], (2,3,b,4), (2,3,b,5), (2,3,c,4), (2,3,c,5), (5,6,d,2).
  assert.deepEqual(ids(r.S), ['2', '3', '6']);
  assert.equal(r['@@rows'], 6);
});

test('PER: ACCUM once per distinct binding of the named aliases', async () => {
  const g = figures();
  const [r] = await run(
    g,
    `SumAccum<INT> @@perRow, @@perEnd, @@perPair;
     A = SELECT t FROM Node:s -(E>)- Node:m -(E>)- Node:t ACCUM @@perRow += 1;
     B = SELECT t FROM Node:s -(E>)- Node:m -(E>)- Node:t PER (t) ACCUM @@perEnd += 1;
     C = SELECT t FROM Node:s -(U*)- Node:t WHERE s.w == 1 AND t.w == 5 PER (s, t) ACCUM @@perPair += 1;
     PRINT @@perRow, @@perEnd, @@perPair;`,
  );
  assert.deepEqual(r, { '@@perRow': 6, '@@perEnd': 5, '@@perPair': 1 });
  assert.match(
    compileErrorOf(g, q('S = SELECT t FROM Node:s -(E>)- Node:t PER (s) ACCUM t.@x += 1; PRINT S;')),
    /@x|the alias t is used in ACCUM but is not in the PER clause/,
  );
  assert.match(
    compileErrorOf(
      g,
      q('SumAccum<INT> @x; S = SELECT t FROM Node:s -(E>)- Node:t PER (s) ACCUM t.@x += 1; PRINT S;'),
    ),
    /line 2, col \d+\nthe alias t is used in ACCUM but is not in the PER clause/,
  );
  assert.match(
    compileErrorOf(g, q('S = SELECT s FROM Node:s -(E>)- Node:t PER (x) ACCUM s.@x += 1; PRINT S;')),
    /"x" in PER is not an alias of the FROM clause/,
  );
});

test('the same answers with SELECT kernels off (chains run frontier steps then a one-hop block)', async () => {
  const { selectKernels } = await import('../../src/query/index.js');
  const body = `SumAccum<INT> @via; SumAccum<INT> @@n;
     T = SELECT t FROM Node:s -(E>)- Node:m -(E>)- Node:t ACCUM t.@via += m.w, @@n += s.w;
     PRINT T[T.@via], @@n;`;
  const on = await run(figures(), body);
  selectKernels.enabled = false;
  try {
    assert.deepEqual(await run(figures(), body), on);
  } finally {
    selectKernels.enabled = true;
  }
  assert.deepEqual(on[0]['@@n'], 1 + 2 + 2 + 3 + 5 + 6);
});

test('pattern errors: at CREATE, with line and column', () => {
  const g = figures();
  assert.match(
    compileErrorOf(g, q('S = SELECT t FROM Node:s -(E)- Node:t; PRINT S;')),
    /needs a direction in SYNTAX v2: "E>" or "<E"/,
  );
  assert.match(
    compileErrorOf(g, q('S = SELECT t FROM Node:s -(E>)- Node:t, Item:i -(<F)- Node:n; PRINT S;')),
    /each pattern of FROM must share a vertex alias/,
  );
  assert.match(
    compileErrorOf(g, q('S = SELECT t FROM Node:s -(E>:e)- Node:t POST-ACCUM t.@x += e.k; PRINT S;')),
    /the edge alias e cannot be used in POST-ACCUM/,
  );
  assert.match(compileErrorOf(g, q('S = SELECT x FROM Node:s -(E>)- Node:t; PRINT S;')), /"x" is not one/);
  assert.throws(
    () => parseQueryText(q('S = SELECT t FROM Node:s -(E>|<E*)- Node:t;')),
    /write "\(E1\|E2\)\*"/,
  );
  assert.throws(
    () => parseQueryText(q('S = SELECT t FROM Node:s -(E>.F>:e)- :t;')),
    /not allowed on a "\." chain/,
  );
  assert.throws(
    () => parseQueryText(q('S = SELECT t FROM Node:s -(E>)-> Node:m -(E>)- Node:t;')),
    /only allowed in a one-step FROM/,
  );
});

test('V2 forms around patterns: SYNTAX("v2"), typed vertex-set declarations, PRINT S.@acc', async () => {
  const g = figures();
  const text = `CREATE QUERY q() FOR GRAPH fig SYNTAX("v2") {
    SumAccum<INT> @n;
    M (Node|Item) = {Node.*};
    M = SELECT m FROM M:m -(F>)- Item:i ACCUM m.@n += i.price;
    PRINT M.@n;
  }`;
  const [r] = (await runText(g, text)) as Record<
    string,
    { v_id: string; attributes: Record<string, number> }[]
  >[];
  assert.deepEqual(r.M.map((v) => [v.v_id, v.attributes['M.@n']]).sort(), [
    ['2', 5],
    ['3', 16],
    ['6', 11],
  ]);
  assert.match(
    compileErrorOf(g, q('M (Item) = {Node.*}; PRINT M;')),
    /the vertex set M holds Item vertices, not Node/,
  );
});

test('a SET<VERTEX> accumulator assigned to a vertex set; LIST.remove(i) on a list variable', async () => {
  const g = figures();
  const [r] = await run(
    g,
    `SetAccum<VERTEX<Node>> @@picked; ListAccum<INT> @@left;
     S = {Node.*};
     S = SELECT s FROM S:s WHERE s.w < 3 ACCUM @@picked += s;
     T = {Node.*};
     T = @@picked;
     FOREACH l IN [[1, 2, 3], [4, 5]] DO
       l.remove(0);
       FOREACH x IN l DO @@left += x; END;
     END;
     PRINT T, @@left;`,
  );
  assert.deepEqual(ids(r.T), ['1', '2']);
  assert.deepEqual(r['@@left'], [2, 3, 5]);
});

test('ACCUM runs once per path unless running it again changes nothing', () => {
  const kinds: Record<string, string> = {
    '@or': 'OrAccum',
    '@mx': 'MaxAccum',
    '@@set': 'SetAccum',
    '@sum': 'SumAccum',
    '@@list': 'ListAccum',
  };
  const kindOf = (t: Expr): string | undefined =>
    t.kind === 'vattach' ? kinds['@' + t.name] : t.kind === 'global' ? kinds['@@' + t.name] : undefined;
  const accumOf = (clause: string): Stmt[] => {
    const [c] = parseQueryText(q(`S = SELECT t FROM Node:s -(E>)- Node:m -(E>)- Node:t ACCUM ${clause};`));
    assert.ok(c.kind === 'createQuery');
    const st = c.query.body[0];
    assert.ok(st.kind === 'vsetAssign' && st.value.kind === 'select');
    return st.value.select.accum;
  };
  const insensitive = (clause: string): boolean => repeatInsensitive(accumOf(clause), kindOf);
  assert.equal(insensitive('t.@or += s.w > 1, t.@mx += m.w, @@set += t'), true);
  assert.equal(insensitive('t.@sum += 1'), false);
  assert.equal(insensitive('@@list += t'), false);
  assert.equal(insensitive('t.@or = true'), false);
  assert.equal(insensitive('t.@mx += abs(m.w)'), false);
  assert.equal(insensitive('t.@or += true, t.@sum += 1'), false);
});
