/**
 * Forms the algorithm library's queries use: `{v_type.*}` seeds from a STRING parameter, TYPEDEF
 * TUPLE fields written name first, assignment to a FOREACH variable, the string functions
 * (instr, substr, …), and UDF arguments holding nested accumulators.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemGraph, makeCatalog } from '../fixtures/query/mem-graph.js';
import { runText } from '../fixtures/query/run.js';

function graph(udf = ''): MemGraph {
  const catalog = makeCatalog({
    graph: 'g',
    vertices: { A: { attrs: [['n', 'INT']] }, B: { attrs: [] } },
    edges: {},
  });
  const g = new MemGraph(udf ? { ...catalog, udfFiles: [{ name: 'ExprFunctions', text: udf }] } : catalog);
  return g.addVertex('A', 'a1', { n: 1 }).addVertex('A', 'a2', { n: 2 }).addVertex('B', 'b1');
}

const run = async (g: MemGraph, body: string, params = '', args: Record<string, unknown> = {}) =>
  (await runText(g, `CREATE QUERY q(${params}) FOR GRAPH g {\n${body}\n}`, args)) as Record<
    string,
    unknown
  >[];

test('a seed of every vertex of a type named by a STRING parameter', async () => {
  const [r] = await run(graph(), 'S = {v_type.*}; PRINT S.size() AS n;', 'STRING v_type', { v_type: 'A' });
  assert.deepEqual(r, { n: 2 });
  await assert.rejects(
    run(graph(), 'S = {v_type.*}; PRINT S.size() AS n;', 'STRING v_type', { v_type: 'C' }),
    {
      message: 'Runtime Error: "C" is not a vertex type of graph g.',
    },
  );
});

test('TYPEDEF TUPLE fields written name first, and assignment to a FOREACH variable', async () => {
  const [r] = await run(
    graph(),
    `TYPEDEF TUPLE <label STRING, score FLOAT> Scored;
     ListAccum<Scored> @@l; ListAccum<INT> @@seen;
     @@l += Scored("x", 1.5);
     FOREACH i IN RANGE[0, 2] DO
       @@seen += i;
       i = i + 10;
       @@seen += i;
     END;
     PRINT @@l, @@seen;`,
  );
  assert.deepEqual(r, { '@@l': [{ label: 'x', score: 1.5 }], '@@seen': [0, 10, 1, 11, 2, 12] });
});

test('string functions: instr, substr, left, right, pads, trims, replace, translate and others', async () => {
  const [r] = await run(
    graph(),
    `PRINT instr("This is the thing", "Th") AS i1, instr("This is the thing", "is", 3) AS i2,
           instr("a,b,c,d", ",", 0, 3) AS i3, instr("abc", "z") AS i4,
           substr("ABCDE", 2) AS s1, substr("ABCDE", 2, 2) AS s2, substr("ABCDE", -2, 1) AS s3,
           left("ABCDE", 2) AS l, right("ABCDE", 2) AS r, lpad("PQR", 5) AS lp, lpad("PQR", 10, "ABC") AS lp2,
           rpad("PQR", 2) AS rp, ltrim("xxaxx", "x") AS lt, rtrim("xxaxx", "x") AS rt,
           replace("SSQLL", "SQL", "Q") AS re, replace("SSQLL", "L") AS re2, reverse("abc") AS rv,
           repeat("ab", 3) AS rep, space(2) AS sp, ascii("A") AS asc, chr(322) AS ch,
           find_in_set("a", "b,a,d") AS fs, insert("Complete blank.", 9, "every ") AS ins,
           insert("tigergraph.com", 0, 10, "Example") AS ins2, translate("Hello world", "lo", "aU") AS tr;`,
  );
  assert.deepEqual(r, {
    i1: 0,
    i2: 5,
    i3: 5,
    i4: -1,
    s1: 'CDE',
    s2: 'CD',
    s3: 'D',
    l: 'AB',
    r: 'DE',
    lp: '  PQR',
    lp2: 'ABCABCAPQR',
    rp: 'PQ',
    lt: 'axx',
    rt: 'xxa',
    re: 'SQL',
    re2: 'SSQ',
    rv: 'cba',
    rep: 'ababab',
    sp: '  ',
    asc: 65,
    ch: 'B',
    fs: 1,
    ins: 'Complete every blank.',
    ins2: 'Example.com',
    tr: 'HeaaU wUrad',
  });
});

test('a UDF taking a map of lists receives a MapAccum of ListAccums as plain values', async () => {
  const udf = `export const sums = {
    params: ['MapAccum<INT, ListAccum<DOUBLE>>'],
    returns: 'MapAccum<INT, DOUBLE>',
    fn: (m) => new Map([...m].map(([k, xs]) => [k, xs.reduce((a, b) => a + b, 0)])),
  };`;
  const [r] = await run(
    graph(udf),
    `MapAccum<INT, ListAccum<DOUBLE>> @@m; MapAccum<INT, DOUBLE> @@out;
     @@m += (1 -> 0.5); @@m += (1 -> 1.5); @@m += (2 -> 4.0);
     @@out = sums(@@m);
     PRINT @@out;`,
  );
  assert.deepEqual(r, { '@@out': { '1': 2, '2': 4 } });
});
