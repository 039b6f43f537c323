import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VertexRef } from '../../src/catalog/value.js';
import { parseQueryText } from '../../src/gsql/parser-query.js';
import { compileQuery, type CompiledParam } from '../../src/query/compile-query.js';
import { decodeJsonParams, decodeQueryStringParams, decodeRunArgs } from '../../src/query/params.js';
import { runInstalledQuery, registryFor } from '../../src/query/registry.js';
import { parseJsonStrict } from '../../src/util/json-parse.js';
import { stringifyJson } from '../../src/util/json.js';
import { MemGraph, makeCatalog } from '../fixtures/query/mem-graph.js';

function testsGraph(): MemGraph {
  const g = new MemGraph(
    makeCatalog({
      graph: 'tests',
      vertices: { vertex4: { attrs: [['a01', 'INT']] }, vertex5: { attrs: [] } },
      edges: {},
    }),
  );
  for (let i = 1; i <= 5; i++) g.addVertex('vertex4', String(i), { a01: i });
  g.addVertex('vertex5', '1');
  return g;
}

const QUERY4 = `CREATE QUERY query4_all_param_types(INT p01_int, UINT p02_uint, FLOAT p03_float, DOUBLE p04_double,
  STRING p05_string, BOOL p06_bool, VERTEX p07_vertex, VERTEX<vertex4> p08_vertex_vertex4, DATETIME p09_datetime,
  SET<INT> p10_set_int, BAG<INT> p11_bag_int, SET<VERTEX> p13_set_vertex, SET<VERTEX<vertex4>> p14_set_vertex_vertex4) FOR GRAPH tests {
  PRINT p01_int; PRINT p02_uint; PRINT p03_float; PRINT p04_double; PRINT p05_string; PRINT p06_bool;
  PRINT p07_vertex; PRINT p08_vertex_vertex4; PRINT p09_datetime; PRINT p10_set_int; PRINT p11_bag_int;
  PRINT p13_set_vertex; PRINT p14_set_vertex_vertex4;
}`;

const EXPECTED =
  '[{"p01_int":7},{"p02_uint":18446744073709551615},{"p03_float":1.5},{"p04_double":2.25},{"p05_string":"50% a+b"},' +
  '{"p06_bool":true},{"p07_vertex":"1"},{"p08_vertex_vertex4":"2"},{"p09_datetime":"2024-06-15 12:30:45"},' +
  '{"p10_set_int":[1,2]},{"p11_bag_int":[3,3]},{"p13_set_vertex":["1","2"]},{"p14_set_vertex_vertex4":["4","5"]}]';

async function installQuery4(g: MemGraph): Promise<CompiledParam[]> {
  const [stmt] = parseQueryText(QUERY4);
  if (stmt.kind !== 'createQuery') throw new Error('parse');
  const reg = registryFor(g);
  await reg.create(stmt.query, 'tests', g.catalog, true);
  await reg.install('tests', ['query4_all_param_types'], g.catalog, false);
  return compileQuery(stmt.query, g.catalog, 'tests').params;
}

test('every parameter type decodes from a POST JSON body and prints back', async () => {
  const g = testsGraph();
  const params = await installQuery4(g);
  const body = parseJsonStrict(
    '{"p01_int": 7, "p02_uint": 18446744073709551615, "p03_float": 1.5, "p04_double": 2.25, "p05_string": "50%25 a+b",' +
      ' "p06_bool": true, "p07_vertex": {"id": 1, "type": "vertex4"}, "p08_vertex_vertex4": {"id": 2},' +
      ' "p09_datetime": "2024-06-15 12:30:45", "p10_set_int": [1, 2, 1], "p11_bag_int": [3, 3],' +
      ' "p13_set_vertex": [{"id": 1, "type": "vertex4"}, {"id": "2", "type": "vertex4"}], "p14_set_vertex_vertex4": [{"id": 4}, {"id": 5}]}',
  );
  const decoded = decodeJsonParams(params, body);
  const results = await runInstalledQuery(g, 'tests', 'query4_all_param_types', decoded);
  assert.equal(stringifyJson(results), EXPECTED);
});

test('every parameter type decodes from a query string', async () => {
  const g = testsGraph();
  const params = await installQuery4(g);
  const qs: Record<string, string[]> = {
    p01_int: ['7'],
    p02_uint: ['18446744073709551615'],
    p03_float: ['1.5'],
    p04_double: ['2.25'],
    p05_string: ['50% a+b'],
    p06_bool: ['True'],
    p07_vertex: ['1'],
    'p07_vertex.type': ['vertex4'],
    p08_vertex_vertex4: ['2'],
    'p08_vertex_vertex4.type': ['vertex5'],
    p09_datetime: ['2024-06-15 12:30:45'],
    p10_set_int: ['1', '2'],
    p11_bag_int: ['3', '3'],
    'p13_set_vertex[0]': ['1'],
    'p13_set_vertex[0].type': ['vertex4'],
    'p13_set_vertex[1]': ['2'],
    'p13_set_vertex[1].type': ['vertex4'],
    p14_set_vertex_vertex4: ['4', '5'],
  };
  const results = await runInstalledQuery(
    g,
    'tests',
    'query4_all_param_types',
    decodeQueryStringParams(params, qs),
  );
  assert.equal(stringifyJson(results), EXPECTED);
});

test('RUN QUERY argument syntax decodes positionally', () => {
  const params: CompiledParam[] = [
    { name: 'v', type: { kind: 'VERTEX' } },
    { name: 't', type: { kind: 'VERTEX', vertexType: 'vertex4' } },
    { name: 's', type: { kind: 'SET', elem: { kind: 'STRING' } } },
    { name: 'd', type: { kind: 'DATETIME' } },
  ];
  const [stmt] = parseQueryText('RUN QUERY q(("1", "vertex4"), 2, ["a%20", "b"], "2020-01-02")');
  if (stmt.kind !== 'runQuery') throw new Error('parse');
  assert.deepEqual(decodeRunArgs(params, stmt.args), {
    v: new VertexRef('vertex4', '1'),
    t: new VertexRef('vertex4', '2'),
    s: ['a%20', 'b'],
    d: 1577923200,
  });
  assert.throws(() => decodeRunArgs(params.slice(0, 1), stmt.args), {
    code: 'REST-30000',
    message: 'line 1, col 31: the query takes 1 parameter, but 4 arguments are given',
  });
});

test('parameter errors carry REST-30000 and name the parameter', () => {
  const p = (type: CompiledParam['type']): CompiledParam[] => [{ name: 'x', type }];
  assert.throws(() => decodeJsonParams(p({ kind: 'VERTEX', vertexType: 'vertex4' }), { x: 1 }), {
    code: 'REST-30000',
    message: "Failed to convert parameter x: 'id' is not found in the VERTEX parameter x.",
  });
  assert.throws(
    () => decodeJsonParams(p({ kind: 'VERTEX', vertexType: 'vertex4' }), { x: { id: 1, type: 'vertex5' } }),
    {
      message: 'Failed to convert parameter x: the vertex type vertex5 does not match vertex4.',
    },
  );
  assert.throws(() => decodeJsonParams(p({ kind: 'INT' }), { x: 'abc' }), {
    message: 'Failed to convert parameter x: "abc" is not a valid INT value.',
  });
  assert.throws(() => decodeJsonParams(p({ kind: 'UINT' }), { x: -1 }), {
    message: 'Failed to convert parameter x: -1 is out of the range of UINT.',
  });
  assert.throws(() => decodeQueryStringParams(p({ kind: 'VERTEX' }), { x: ['1'] }), {
    message: 'Failed to convert parameter x: x.type is missing for the VERTEX parameter.',
  });
  assert.throws(() => decodeQueryStringParams(p({ kind: 'DATETIME' }), { x: ['yesterday'] }), {
    message: 'Failed to convert parameter x: "yesterday" is not a valid DATETIME value.',
  });
});

test('runInstalledQuery refuses unknown graphs, unknown and uninstalled queries', async () => {
  const g = testsGraph();
  await assert.rejects(runInstalledQuery(g, 'nope', 'q', {}), {
    code: 'REST-1004',
    message: 'Graph nope does not exist.',
  });
  await assert.rejects(runInstalledQuery(g, 'tests', 'q', {}), {
    message: 'The query q does not exist in graph tests.',
  });
  const [stmt] = parseQueryText('CREATE QUERY q() FOR GRAPH tests { PRINT 1; }');
  if (stmt.kind !== 'createQuery') throw new Error('parse');
  await registryFor(g).create(stmt.query, 'tests', g.catalog, false);
  await assert.rejects(runInstalledQuery(g, 'tests', 'q', {}), {
    message: 'The query q is not installed. Run INSTALL QUERY q first.',
  });
  await assert.rejects(registryFor(g).create(stmt.query, 'tests', g.catalog, false), {
    message: 'The query q already exists in graph tests. Use CREATE OR REPLACE QUERY to replace it.',
  });
});

test('with a query list in the catalog, definitions live there and survive a new registry', async () => {
  const catalog = { ...testsGraph().catalog, queries: [] };
  const holder = {
    catalog: catalog as typeof catalog,
    changes: 0,
    async changeCatalog(next: typeof catalog): Promise<void> {
      this.catalog = next;
      this.changes++;
    },
  };
  const [stmt] = parseQueryText('CREATE QUERY q() FOR GRAPH tests { PRINT 1; }');
  if (stmt.kind !== 'createQuery') throw new Error('parse');
  const reg = registryFor(holder);
  await reg.create(stmt.query, 'tests', holder.catalog, false);
  await reg.install('tests', ['q'], holder.catalog, false);
  assert.deepEqual(holder.catalog.queries, [
    { name: 'q', graph: 'tests', text: stmt.query.text, installed: true },
  ]);
  assert.equal(holder.changes, 2);
  // A restarted server builds a new registry over the recovered catalog.
  const restarted = { ...holder, catalog: JSON.parse(JSON.stringify(holder.catalog)) as typeof catalog };
  assert.equal(registryFor(restarted).get('tests', 'q')?.installed, true);
  await registryFor(restarted).drop('tests', ['q']);
  assert.deepEqual(restarted.catalog.queries, []);
});

test('interpreted query text runs at once with query-string parameters', async () => {
  const { interpretQueryText } = await import('../../src/query/interpret.js');
  const g = testsGraph();
  const text = `INTERPRET QUERY (INT k, SET<VERTEX<vertex4>> vs) FOR GRAPH tests {
    SumAccum<INT> @@summa;
    start = {vertex4.*};
    res = SELECT src FROM start:src WHERE src.a01 >= k ACCUM @@summa += src.a01;
    S = {vs};
    PRINT @@summa AS ret, S.size() AS picked;
  }`;
  assert.deepEqual(await interpretQueryText(g, text, undefined, { k: ['2'], vs: ['1', '3'] }), [
    { ret: 14, picked: 2 },
  ]);
  await assert.rejects(interpretQueryText(g, 'INTERPRET QUERY () { PRINT 1; }', undefined, {}), {
    message: 'The query names no graph: write FOR GRAPH <graph>.',
  });
  await assert.rejects(interpretQueryText(g, 'RUN QUERY q()', 'tests', {}), {
    message:
      'Syntax Error: line 1, column 1: expected one INTERPRET QUERY () FOR GRAPH <graph> { … } or CREATE QUERY text',
  });
});

test('a query with RETURNS is called as a function from another stored query', async () => {
  const g = testsGraph();
  const reg = registryFor(g);
  const create = async (text: string): Promise<void> => {
    const [s] = parseQueryText(text);
    if (s.kind !== 'createQuery') throw new Error('parse');
    await reg.create(s.query, 'tests', g.catalog, false);
  };
  await create(`CREATE QUERY atLeast(INT k) FOR GRAPH tests RETURNS (SetAccum<VERTEX<vertex4>>) {
    S = SELECT v FROM vertex4:v WHERE v.a01 >= k;
    RETURN S;
  }`);
  await create(`CREATE QUERY total(SET<VERTEX<vertex4>> vs) FOR GRAPH tests RETURNS (INT) {
    SumAccum<INT> @@sum;
    S = {vs};
    S = SELECT v FROM S:v ACCUM @@sum += v.a01;
    RETURN @@sum;
  }`);
  await create(`CREATE QUERY caller() FOR GRAPH tests {
    SetAccum<VERTEX<vertex4>> @@big;
    @@big += atLeast(4);
    PRINT @@big, total(@@big) AS sum, total(atLeast(1)) AS all;
  }`);
  await reg.install('tests', 'all', g.catalog, false);
  const results = await runInstalledQuery(g, 'tests', 'caller', {});
  assert.deepEqual(JSON.parse(stringifyJson(results)), [{ '@@big': ['4', '5'], sum: 9, all: 15 }]);
  const [bad] = parseQueryText('CREATE QUERY loop() FOR GRAPH tests RETURNS (INT) { RETURN loop(); }');
  if (bad.kind !== 'createQuery') throw new Error('parse');
  await assert.rejects(reg.create(bad.query, 'tests', g.catalog, false), {
    message: 'Semantic Check Error in query loop: line 1, col 60\nunknown function loop()',
  });
});
