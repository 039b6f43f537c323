/**
 * User-defined functions: Ocelot's ExprFunctions module (a JavaScript module of typed exports),
 * its checks when loaded, its isolation, and queries calling its functions.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isBuiltinFunction } from '../../src/query/functions.js';
import { udfFunctions } from '../../src/query/udf.js';
import { MemGraph, makeCatalog } from '../fixtures/query/mem-graph.js';
import { compileErrorOf, runText } from '../fixtures/query/run.js';

const MODULE = `
// helpers stay private
const sep = ';';
export const join_ints = { params: ['LIST<INT>'], returns: 'STRING', fn: (xs) => xs.join(sep) };
export const parse_pairs = {
  params: ['STRING'],
  returns: 'MapAccum<INT, INT>',
  fn: (s) => new Map(s.split(sep).map((p) => p.split(',').map(BigInt))),
};
export const half = { params: ['INT'], returns: 'DOUBLE', fn: (x) => Number(x) / 2 };
export const big = { params: [], returns: 'INT', fn: () => 2n ** 62n };
export const wrong = { params: [], returns: 'INT', fn: () => 'not a number' };
export const globals = { params: [], returns: 'STRING', fn: () => [typeof process, typeof require, typeof fetch, typeof setTimeout].join() };
export const spin = { params: [], returns: 'BOOL', fn: () => { for (;;); } };
`;

function graph(udf: string): MemGraph {
  const catalog = makeCatalog({ graph: 'g', vertices: { V: { attrs: [['n', 'INT']] } }, edges: {} });
  return new MemGraph({ ...catalog, udfFiles: [{ name: 'ExprFunctions', text: udf }] }).addVertex('V', 'a', {
    n: 7,
  });
}

test('queries call UDFs by name, type checked; results are checked against the declared type', async () => {
  const g = graph(MODULE);
  const [r] = (await runText(
    g,
    `CREATE QUERY q() FOR GRAPH g {
       MapAccum<INT, INT> @@m;
       ListAccum<INT> @@xs;
       @@xs += 4; @@xs += 5;
       @@m = parse_pairs("1,10;2,20");
       PRINT join_ints(@@xs) AS joined, @@m AS m, half(7) AS h, big() AS b;
     }`,
  )) as Record<string, unknown>[];
  assert.deepEqual(r, { joined: '4;5', m: { '1': 10, '2': 20 }, h: 3.5, b: 2 ** 62 });
  assert.match(
    compileErrorOf(g, 'CREATE QUERY q() FOR GRAPH g { PRINT half("x"); }'),
    /argument 1 of half\(\) needs INT, not STRING/,
  );
  assert.match(
    compileErrorOf(g, 'CREATE QUERY q() FOR GRAPH g { PRINT half(1, 2); }'),
    /half\(\) takes 1 arguments, not 2/,
  );
  await assert.rejects(runText(g, 'CREATE QUERY q() FOR GRAPH g { PRINT wrong(); }'), {
    message: 'Runtime Error: wrong() returned "not a number", not INT.',
  });
});

test('a built-in function of the same name is called instead of a UDF; a bad type refuses the module', async () => {
  const text = `export const abs = { params: ['INT'], returns: 'INT', fn: (x) => 99n };
export const twice = { params: ['INT'], returns: 'INT', fn: (x) => x * 2 };`;
  const fns = udfFunctions(text, isBuiltinFunction);
  assert.deepEqual(fns.shadowed, ['abs']);
  assert.deepEqual([...fns.functions.keys()], ['twice']);
  assert.deepEqual(
    await runText(graph(text), 'CREATE QUERY q() FOR GRAPH g { PRINT abs(-3) AS a, twice(4) AS t; }'),
    [{ a: 3, t: 8 }],
  );
  assert.throws(
    () =>
      udfFunctions(`export const f = { params: ['EDGE'], returns: 'INT', fn: (x) => x };`, isBuiltinFunction),
    {
      message:
        'parameter 1 of f: a UDF takes and returns base types, VERTEX and collections and maps of them, and takes TUPLE; not EDGE',
    },
  );
  const g = graph(`export const f = { params: ['INT'], returns: 'NOPE', fn: (x) => '' + x };`);
  assert.match(
    compileErrorOf(g, 'CREATE QUERY q() FOR GRAPH g { PRINT nothing(); }'),
    /the ExprFunctions file does not load: the return type of f: a UDF takes and returns base types, VERTEX and collections and maps of them, and takes TUPLE; not NOPE/,
  );
});

test('a TUPLE parameter takes any tuple, as an object keyed by field name', async () => {
  const g = graph(
    `export const key_of = { params: ['TUPLE'], returns: 'INT', fn: (t) => t.pattern_key * 10 + t.suffix_key };`,
  );
  assert.deepEqual(
    await runText(
      g,
      `CREATE QUERY q() FOR GRAPH g {
         TYPEDEF TUPLE<INT pattern_key, INT suffix_key> key_pair;
         MaxAccum<key_pair> @@best;
         MapAccum<INT, MaxAccum<key_pair>> @@m;
         @@best += key_pair(3, 4);
         @@best += key_pair(7, 1);
         @@m += (1 -> key_pair(2, 5));
         PRINT key_of(@@best) AS a, key_of(@@m.get(1)) AS b;
       }`,
    ),
    [{ a: 71, b: 25 }],
  );
  assert.match(
    compileErrorOf(g, 'CREATE QUERY q() FOR GRAPH g { PRINT key_of(3); }'),
    /argument 1 of key_of\(\) needs a tuple, not INT/,
  );
  assert.throws(
    () =>
      udfFunctions(`export const f = { params: [], returns: 'TUPLE', fn: () => ({}) };`, isBuiltinFunction),
    /the return type of f: a UDF takes and returns base types, VERTEX and collections and maps of them, and takes TUPLE; not TUPLE/,
  );
});

test('a VERTEX crosses as its getvid() number, and a returned number must be a live vertex', async () => {
  const g = graph(
    `export const same = { params: ['VERTEX'], returns: 'VERTEX<V>', fn: (v) => v };
export const to_list = { params: ['ListAccum<INT>'], returns: 'ListAccum<VERTEX>', fn: (l) => l };
export const nowhere = { params: [], returns: 'VERTEX', fn: () => 12345 };`,
  ).addVertex('V', 'b', { n: 8 });
  assert.deepEqual(
    await runText(
      g,
      `CREATE QUERY q() FOR GRAPH g {
         ListAccum<INT> @@vids;
         ListAccum<VERTEX> @@back;
         S = {V.*};
         S = SELECT s FROM S:s ACCUM @@vids += getvid(s);
         VERTEX<V> x = same(to_vertex("b", "V"));
         @@back = to_list(@@vids);
         PRINT x.n AS n, @@back AS back;
       }`,
    ),
    [{ n: 8, back: ['a', 'b'] }],
  );
  await assert.rejects(runText(g, 'CREATE QUERY q() FOR GRAPH g { PRINT nowhere(); }'), {
    message: 'Runtime Error: nowhere() returned a vertex: 12345 is not the getvid() of a vertex.',
  });
});
