/**
 * The 4.x schema endpoints (/gsql/v1/schema/vertices|edges|graphs|change|check|recover) over a real
 * Database: exact bodies, what the catalog holds afterwards, and refused requests that change nothing.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { call, startHarness, type Harness } from '../restpp/graph-harness.js';

let h: Harness;
let gsql: string;

before(async () => {
  h = await startHarness();
  gsql = h.servers.urls.gsql;
});
after(async () => h.close());

type Rec = Record<string, unknown>;

const names = (r: { body: Rec }) => (r.body.results as Rec[]).map((t) => t.Name);
const get = (path: string) => call(gsql, 'GET', path);
const post = (path: string, body: unknown) =>
  call(gsql, 'POST', path, body, { 'Content-Type': 'application/json' });

/** A refused request: 400, REST-30000 (unless given), a message containing `fragment`, catalog unchanged. */
async function refused(
  r: Promise<{ status: number; body: Rec; text: string }>,
  fragment: string,
  code = 'REST-30000',
) {
  const version = h.db.catalog.version;
  const answer = await r;
  assert.equal(answer.status, 400, answer.text);
  assert.equal(answer.body.error, true);
  assert.equal(answer.body.code, code);
  assert.ok(String(answer.body.message).includes(fragment), String(answer.body.message));
  assert.equal(h.db.catalog.version, version, 'nothing changed');
}

test('vertices: create from GSQL and from JSON, list, read one', async () => {
  const one = await post('/gsql/v1/schema/vertices?gsql=true', {
    gsql: ['CREATE VERTEX TestVertex1 (PRIMARY_ID id UINT, name STRING)'],
  });
  assert.deepEqual(one.body, { error: false, message: 'Successfully create vertices: [TestVertex1]' });
  const two = await post('/gsql/v1/schema/vertices?gsql=true', {
    gsql: [
      'CREATE VERTEX TestVertex2 (PRIMARY_ID id UINT, name STRING)',
      'CREATE VERTEX TestVertex3 (PRIMARY_ID id UINT, age UINT)',
    ],
  });
  assert.equal(two.body.message, 'Successfully create vertices: [TestVertex2, TestVertex3]');
  const json = await post('/gsql/v1/schema/vertices', {
    createVertices: [
      {
        Config: { STATS: 'OUTDEGREE_BY_EDGETYPE' },
        Attributes: [{ AttributeType: { Name: 'STRING' }, AttributeName: 'name' }],
        PrimaryId: { AttributeType: { Name: 'UINT' }, AttributeName: 'user_id' },
        Name: 'TestJsonVertex1',
      },
    ],
  });
  assert.deepEqual(json.body, { error: false, message: 'Successfully create vertices: [TestJsonVertex1]' });
  const global = await get('/gsql/v1/schema/vertices');
  // The fixture's types are all local to graph tests; these are the only global ones.
  assert.deepEqual(names(global), ['TestVertex1', 'TestVertex2', 'TestVertex3', 'TestJsonVertex1']);
  const read = (await get('/gsql/v1/schema/vertices/TestJsonVertex1')).body.results as Rec;
  assert.equal(read.Name, 'TestJsonVertex1');
  const pid = read.PrimaryId as Rec;
  assert.deepEqual([pid.AttributeName, pid.AttributeType], ['user_id', { Name: 'UINT' }]);
  assert.deepEqual(
    (read.Attributes as Rec[]).map((a) => [a.AttributeName, (a.AttributeType as Rec).Name]),
    [['name', 'STRING']],
  );
  // The new types are global: not in graph tests until added.
  assert.ok(!names(await get('/gsql/v1/schema/vertices?graph=tests')).includes('TestVertex1'));
});

test('vertices: bad requests are refused whole', async () => {
  await refused(
    post('/gsql/v1/schema/vertices?gsql=true', {
      gsql: ['CREATE VERTEX Fresh (PRIMARY_ID id UINT)', 'CREATE VERTEX TestVertex1 (PRIMARY_ID id UINT)'],
    }),
    "The vertex type 'TestVertex1' already exists.",
  );
  assert.equal((await get('/gsql/v1/schema/vertices/Fresh')).status, 400, 'the first one was not created');
  await refused(post('/gsql/v1/schema/vertices?gsql=true', { gsql: 'INVALID COMMAND' }), 'Syntax Error');
  await refused(
    post('/gsql/v1/schema/vertices?gsql=true', { gsql: ['DROP ALL'] }),
    'is not a CREATE VERTEX statement',
  );
  await refused(
    post('/gsql/v1/schema/vertices', { createVertices: [{ Name: 'InvalidVertex' }] }),
    'createVertices[0].PrimaryId must be a JSON object.',
  );
  await refused(post('/gsql/v1/schema/vertices', { something: 1 }), '{"createVertices": [schema objects]}');
  await refused(post('/gsql/v1/schema/vertices', '[1]'), 'must be a JSON object');
  await refused(
    get('/gsql/v1/schema/vertices/nope'),
    "The vertex type 'nope' does not exist among the global types.",
  );
  await refused(
    get('/gsql/v1/schema/vertices?graph=nograph'),
    'The graph nograph does not exist.',
    'REST-1004',
  );
});

test('vertices: add global types to a graph, alter, take out of the graph, drop', async () => {
  const added = await post('/gsql/v1/schema/vertices?graph=tests', {
    addVertices: ['TestVertex1', 'TestVertex2'],
  });
  assert.deepEqual(added.body, {
    error: false,
    message: 'Successfully add vertices: [TestVertex1, TestVertex2] on graph tests',
  });
  const inGraph = names(await get('/gsql/v1/schema/vertices?graph=tests'));
  assert.deepEqual(inGraph.slice(-2), ['TestVertex1', 'TestVertex2']);
  assert.ok(inGraph.includes('vertex3_primary_key_composite'), 'local types are listed too');
  await refused(
    post('/gsql/v1/schema/vertices?graph=tests', { addVertices: ['TestVertex1'] }),
    'already has',
  );
  await refused(post('/gsql/v1/schema/vertices?graph=tests', { addVertices: [] }), "'addVertices' must be");

  const altered = await call(gsql, 'PUT', '/gsql/v1/schema/vertices/TestVertex2', {
    dropAttributes: ['name'],
    addAttributes: [{ AttributeType: { Name: 'INT' }, AttributeName: 'rank' }],
  });
  assert.deepEqual(altered.body, { error: false, message: 'Successfully update vertex: TestVertex2' });
  const attrs = (await get('/gsql/v1/schema/vertices/TestVertex2')).body.results as Rec;
  assert.deepEqual(
    (attrs.Attributes as Rec[]).map((a) => [a.AttributeName, (a.AttributeType as Rec).Name]),
    [['rank', 'INT']],
  );
  await refused(
    call(gsql, 'PUT', '/gsql/v1/schema/vertices/TestVertex2', { dropAttributes: ['gone'] }),
    "has no attribute 'gone'",
  );
  await refused(call(gsql, 'PUT', '/gsql/v1/schema/vertices/TestVertex2', { rename: 'x' }), "not 'rename'");

  // With a graph, a global type leaves the graph and stays global.
  const out = await call(
    gsql,
    'DELETE',
    '/gsql/v1/schema/vertices?vertex=TestVertex1,TestVertex2&graph=tests',
  );
  assert.deepEqual(out.body, {
    error: false,
    message: 'Vertices [TestVertex1, TestVertex2] deleted successfully.',
  });
  assert.ok(!names(await get('/gsql/v1/schema/vertices?graph=tests')).includes('TestVertex1'));
  assert.ok(names(await get('/gsql/v1/schema/vertices')).includes('TestVertex1'));
  await refused(
    call(gsql, 'DELETE', '/gsql/v1/schema/vertices?vertex=TestVertex1&graph=tests'),
    "The vertex type 'TestVertex1' does not exist in graph 'tests'.",
  );
  // Without a graph, global types are dropped.
  const dropped = await call(gsql, 'DELETE', '/gsql/v1/schema/vertices/TestVertex1');
  assert.equal(dropped.body.message, 'Vertices [TestVertex1] deleted successfully.');
  assert.ok(!names(await get('/gsql/v1/schema/vertices')).includes('TestVertex1'));
  await refused(
    call(gsql, 'DELETE', '/gsql/v1/schema/vertices'),
    "The parameter 'vertex' is required.",
    'REST-30001',
  );
  await refused(
    call(gsql, 'DELETE', '/gsql/v1/schema/vertices?vertex=nope'),
    "The vertex type 'nope' does not exist.",
  );
});

test('edges: create, add to a graph, drop', async () => {
  await post('/gsql/v1/schema/vertices?graph=tests', { addVertices: ['TestVertex3'] });
  const created = await post('/gsql/v1/schema/edges?gsql=true', {
    gsql: ['CREATE UNDIRECTED EDGE test_edge (FROM TestVertex3, TO TestVertex3, w FLOAT)'],
  });
  assert.deepEqual(created.body, { error: false, message: 'Successfully create edges: [test_edge]' });
  const json = await post('/gsql/v1/schema/edges', {
    createEdges: [
      {
        IsDirected: true,
        FromVertexTypeName: 'TestVertex3',
        ToVertexTypeName: 'TestVertex3',
        Config: { REVERSE_EDGE: 'rev_json_edge' },
        Attributes: [],
        Name: 'json_edge',
      },
    ],
  });
  assert.equal(json.body.message, 'Successfully create edges: [json_edge]');
  const added = await post('/gsql/v1/schema/edges?graph=tests', { addEdges: ['test_edge', 'json_edge'] });
  assert.deepEqual(added.body, {
    error: false,
    message: 'Successfully added edges [test_edge, json_edge] to graph tests.',
  });
  const edge = (await get('/gsql/v1/schema/edges/test_edge?graph=tests')).body.results as Rec;
  assert.equal(edge.IsDirected, false);
  assert.equal(edge.FromVertexTypeName, 'TestVertex3');
  // An edge whose vertex type is not in the graph cannot join it.
  await post('/gsql/v1/schema/edges?gsql=true', {
    gsql: ['CREATE DIRECTED EDGE lonely (FROM TestJsonVertex1, TO TestVertex3)'],
  });
  await refused(post('/gsql/v1/schema/edges?graph=tests', { addEdges: ['lonely'] }), "'TestJsonVertex1'");
  const out = await call(gsql, 'DELETE', '/gsql/v1/schema/edges?edge=json_edge&graph=tests');
  assert.deepEqual(out.body, { error: false, message: 'Edges [json_edge] deleted successfully.' });
  const dropped = await call(gsql, 'DELETE', '/gsql/v1/schema/edges/json_edge');
  assert.equal(dropped.body.message, 'Edges [json_edge] deleted successfully.');
  assert.ok(!(await get('/gsql/v1/schema/edges')).text.includes('json_edge'));
  // Dropping a global vertex type takes it out of its graphs, with the edges that need it.
  await call(gsql, 'DELETE', '/gsql/v1/schema/vertices?vertex=TestVertex3');
  assert.ok(!(await get('/gsql/v1/schema/edges?graph=tests')).text.includes('test_edge'));
});

test('a local type of the graph is dropped with graph=…', async () => {
  const r = await call(gsql, 'DELETE', '/gsql/v1/schema/vertices/vertex3_primary_key_composite?graph=tests');
  assert.equal(r.body.message, 'Vertices [vertex3_primary_key_composite] deleted successfully.');
  assert.ok(!h.db.catalog.vertexTypes.some((v) => v.name === 'vertex3_primary_key_composite'));
  await refused(
    call(gsql, 'DELETE', '/gsql/v1/schema/vertices/vertex4?graph=nograph'),
    'The graph nograph does not exist.',
    'REST-1004',
  );
});

test('graphs: list, create (GSQL and JSON), drop with and without cascade', async () => {
  const list = await get('/gsql/v1/schema/graphs');
  assert.deepEqual(list.body, {
    graphs: [
      {
        graphName: 'tests',
        vertices: h.db.catalog.graphs[0].vertexTypes,
        edges: [
          'edge1_undirected',
          'edge2_directed',
          'edge3_directed_with_reverse',
          'edge3_directed_with_reverse_reverse_edge',
          'edge4_many_to_many',
          'edge6_loop',
          'edge7_multi',
        ],
      },
      { graphName: 'other', vertices: ['vertex4'], edges: [] },
    ],
    error: false,
    message: '',
  });
  await post('/gsql/v1/schema/vertices?gsql=true', {
    gsql: ['CREATE VERTEX GV1 (PRIMARY_ID id INT)', 'CREATE VERTEX GV2 (PRIMARY_ID id INT)'],
  });
  await post('/gsql/v1/schema/edges?gsql=true', { gsql: ['CREATE DIRECTED EDGE GE (FROM GV1, TO GV2)'] });
  const g1 = await post('/gsql/v1/schema/graphs?gsql=true&graphName=g1', {
    gsql: 'CREATE GRAPH g1(GV1, GV2, GE)',
  });
  assert.deepEqual(g1.body, { error: false, message: 'Successfully created graph: [g1].' });
  const g2 = await post('/gsql/v1/schema/graphs?graphName=g2', {
    VertexTypes: ['GV1'],
    EdgeTypes: [],
  });
  assert.deepEqual(g2.body, { error: false, message: 'Successfully created graph: [g2].' });
  const g1Schema = (await get('/gsql/v1/schema/graphs/g1')).body.results as Rec;
  assert.deepEqual(
    (g1Schema.EdgeTypes as Rec[]).map((e) => e.Name),
    ['GE'],
  );
  await refused(
    post('/gsql/v1/schema/graphs?gsql=true&graphName=g1', { gsql: 'CREATE GRAPH g1(*)' }),
    'already exists',
  );
  await refused(
    post('/gsql/v1/schema/graphs?graphName=g3', { VertexTypes: ['nope'] }),
    "'nope' does not exist",
  );
  await refused(post('/gsql/v1/schema/graphs', { VertexTypes: [] }), "'graphName' is required", 'REST-30001');
  await refused(
    post('/gsql/v1/schema/graphs?gsql=true&graphName=g4', { gsql: 'CREATE GRAPH g5(*)' }),
    'does not match',
  );

  // The fixture's graph 'other' lists a type local to 'tests': the consistency check finds it.
  await refused(
    post('/gsql/v1/schema/check', ''),
    "Schema Check failed: Graph 'other' lists vertex type 'vertex4', which is local to graph 'tests'.",
  );
  await refused(post('/gsql/v1/schema/recover', ''), 'Recover schema failed: ');
  // A graph with a query is only dropped with cascade=true, and the query goes with it.
  const q = await call(
    gsql,
    'POST',
    '/gsql/v1/queries?graph=g1',
    'CREATE QUERY q1() FOR GRAPH g1 { PRINT 1; }',
  );
  assert.equal(q.status, 200, q.text);
  await refused(call(gsql, 'DELETE', '/gsql/v1/schema/graphs/g1'), 'still has 1 queries and 0 loading jobs');
  const dropped = await call(gsql, 'DELETE', '/gsql/v1/schema/graphs/g1?cascade=true');
  assert.deepEqual(dropped.body, { error: false, message: 'Successfully dropped graph: g1.' });
  assert.ok(!(h.db.catalog.queries ?? []).some((x) => x.graph === 'g1'));
  const many = await call(gsql, 'DELETE', '/gsql/v1/schema/graphs?graphNames=g2,other');
  assert.deepEqual(many.body, { error: false, message: 'Successfully dropped graphs: [g2, other].' });
  assert.deepEqual(
    h.db.catalog.graphs.map((g) => g.name),
    ['tests'],
  );
  await refused(call(gsql, 'DELETE', '/gsql/v1/schema/graphs/g2'), 'The graph g2 does not exist.');
});

test('schema change document, check, recover; a query broken by a change turns INVALID', async () => {
  const q = await call(
    gsql,
    'POST',
    '/gsql/v1/queries?graph=tests',
    'CREATE QUERY uses_a01() FOR GRAPH tests { S = {vertex4.*}; PRINT S[S.a01 AS a]; }',
  );
  assert.equal(q.status, 200, q.text);
  const status = async () =>
    ((await get('/gsql/v1/queries/info?graph=tests&query=uses_a01')).body.results as Rec[])[0].status;
  assert.equal(await status(), 'VALID');
  const change = await post('/gsql/v1/schema/change?graph=tests', {
    alterVertexTypes: [{ name: 'vertex4', dropAttributes: ['a01'] }],
  });
  assert.deepEqual(change.body, { error: false, message: 'Schema change job runs successfully' });
  assert.equal(await status(), 'INVALID');
  const invalid = await get('/gsql/v1/queries/info?graph=tests&status=INVALID');
  assert.deepEqual(
    (invalid.body.results as Rec[]).map((r) => r.name),
    ['uses_a01'],
  );
  assert.equal((await get('/gsql/v1/queries/uses_a01?graph=tests')).body.status, 'INVALID');
  await refused(
    post('/gsql/v1/schema/change', { renameVertexTypes: [] }),
    "Unknown schema change field 'renameVertexTypes'",
  );

  const global = await post('/gsql/v1/schema/change', {
    addVertexTypes: [
      {
        Name: 'ByChange',
        PrimaryId: { AttributeName: 'id', AttributeType: { Name: 'STRING' } },
        Attributes: [],
      },
    ],
  });
  assert.deepEqual(global.body, { error: false, message: 'Global schema change runs successfully' });
  assert.ok(h.db.catalog.vertexTypes.some((v) => v.name === 'ByChange' && v.graph === undefined));
  const check = await post('/gsql/v1/schema/check', '');
  assert.deepEqual(check.body, { error: false, message: 'Schema Check succeeded.' });
  const recover = await call(gsql, 'POST', '/gsql/v1/schema/recover', '', { 'Content-Type': 'text/plain' });
  assert.deepEqual(recover.body, { error: false, message: 'Recover schema succeed!' });
});
