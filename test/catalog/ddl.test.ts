import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  createEdgeType,
  createGraph,
  createTupleType,
  createVertexType,
  dropAll,
  dropEdgeTypes,
  dropGraph,
  dropTupleTypes,
  dropVertexTypes,
} from '../../src/catalog/ddl.js';
import { CatalogError } from '../../src/catalog/errors.js';
import { findEdgeType, findGraphVertexType, graphTypes, nameUse } from '../../src/catalog/lookup.js';
import {
  EMPTY_CATALOG,
  type AttrType,
  type Catalog,
  type EdgeType,
  type VertexType,
} from '../../src/catalog/types.js';

const INT: AttrType = { kind: 'INT', bytes: 8 };
const STRING: AttrType = { kind: 'STRING', compress: false };

function vertex(name: string, extra: Partial<VertexType> = {}): VertexType {
  return {
    name,
    keyKind: 'primary_id',
    primaryId: { name: 'id', type: STRING },
    keyAttributes: [],
    primaryIdAsAttribute: false,
    attributes: [],
    stats: 'OUTDEGREE_BY_EDGETYPE',
    ...extra,
  };
}

function edge(name: string, from: string, to: string, extra: Partial<EdgeType> = {}): EdgeType {
  return { name, directed: true, pairs: [{ from, to }], attributes: [], discriminator: [], ...extra };
}

function rejects(fn: () => unknown, message: string): void {
  assert.throws(fn, (e: unknown) => e instanceof CatalogError && e.message === message);
}

/** Global P and C, edge knows(P->P) with reverse, graph g(*). */
function base(): Catalog {
  let c = createVertexType(EMPTY_CATALOG, vertex('P', { attributes: [{ name: 'age', type: INT }] }));
  c = createVertexType(c, vertex('C'));
  c = createEdgeType(c, edge('knows', 'P', 'P', { reverseEdge: 'known_by' }));
  return createGraph(c, 'g', '*');
}

test('every change returns a new catalog with the version bumped and leaves the old one alone', () => {
  const c1 = createVertexType(EMPTY_CATALOG, vertex('P'));
  assert.equal(c1.version, 1);
  assert.equal(EMPTY_CATALOG.vertexTypes.length, 0);
  const c2 = createGraph(c1, 'g', '*');
  assert.equal(c2.version, 2);
  assert.deepEqual(c2.graphs, [{ name: 'g', vertexTypes: ['P'], edgeTypes: [] }]);
  assert.deepEqual(c1.graphs, []);
});

test('names are unique across vertex types, edge types, reverse edges, tuples and graphs', () => {
  const c = base();
  rejects(
    () => createVertexType(c, vertex('knows')),
    "The name 'knows' already exists as an edge type; it cannot name a vertex type.",
  );
  rejects(
    () => createTupleType(c, { name: 'known_by', fields: [{ name: 'a', type: INT }] }),
    "The name 'known_by' already exists as a reverse edge type; it cannot name a tuple type.",
  );
  rejects(
    () => createGraph(c, 'P', []),
    "The name 'P' already exists as a vertex type; it cannot name a graph.",
  );
  rejects(() => createVertexType(c, vertex('bad-name')), "'bad-name' is not a valid vertex type name.");
  assert.equal(nameUse(c, 'g'), 'graph');
});

test('vertex type rules: keys, key types, duplicate attributes, STATS, attribute types, defaults', () => {
  const c = EMPTY_CATALOG;
  rejects(
    () => createVertexType(c, vertex('V', { primaryId: { name: 'id', type: { kind: 'DOUBLE' } } })),
    "The primary id 'id' of vertex type 'V': a primary id must be STRING, INT, UINT or DATETIME, not DOUBLE.",
  );
  rejects(
    () =>
      createVertexType(
        c,
        vertex('V', {
          keyKind: 'composite',
          keyAttributes: ['a', 'b'],
          attributes: [{ name: 'a', type: INT }],
        }),
      ),
    "vertex type 'V': the primary key attribute 'b' is not declared.",
  );
  rejects(
    () =>
      createVertexType(
        c,
        vertex('V', {
          attributes: [
            { name: 'a', type: INT },
            { name: 'a', type: STRING },
          ],
        }),
      ),
    "vertex type 'V' declares the attribute 'a' more than once.",
  );
  rejects(
    () => createVertexType(c, vertex('V', { stats: 'ALL' })),
    `vertex type 'V': STATS must be "OUTDEGREE_BY_EDGETYPE" or "NONE", not "ALL".`,
  );
  rejects(
    () =>
      createVertexType(
        c,
        vertex('V', { attributes: [{ name: 'l', type: { kind: 'LIST', element: { kind: 'FLOAT' } } }] }),
      ),
    "Attribute 'l' of vertex type 'V': FLOAT is not a valid LIST element type (INT, DOUBLE, STRING, DATETIME or a tuple).",
  );
  rejects(
    () =>
      createVertexType(
        c,
        vertex('V', {
          attributes: [{ name: 'm', type: { kind: 'MAP', key: { kind: 'DOUBLE' }, value: INT } }],
        }),
      ),
    "Attribute 'm' of vertex type 'V': DOUBLE is not a valid MAP key type (INT, STRING or DATETIME).",
  );
  rejects(
    () =>
      createVertexType(c, vertex('V', { attributes: [{ name: 'u', type: { kind: 'UDT', name: 'nope' } }] })),
    "Attribute 'u' of vertex type 'V': unknown type 'nope' (not a built-in type or a defined tuple).",
  );
  rejects(
    () => createVertexType(c, vertex('V', { attributes: [{ name: 'n', type: { kind: 'INT', bytes: 2 } }] })),
    "Attribute 'n' of vertex type 'V': INT(2) is only allowed in a tuple field; use INT.",
  );
  rejects(
    () => createVertexType(c, vertex('V', { attributes: [{ name: 'n', type: INT, defaultLiteral: 'abc' }] })),
    `Attribute 'n' of vertex type 'V': default value "abc" is not a valid INT.`,
  );
  rejects(() => createVertexType(c, vertex('V', { graph: 'nograph' })), "Graph 'nograph' does not exist.");
  const ok = createVertexType(
    c,
    vertex('V', {
      keyKind: 'composite',
      keyAttributes: ['a', 'b'],
      primaryId: { name: 'a', type: STRING },
      primaryIdAsAttribute: true,
      attributes: [
        { name: 'a', type: INT },
        { name: 'b', type: { kind: 'DATETIME' }, defaultLiteral: '2020-01-02 03:04:05' },
      ],
    }),
  );
  assert.equal(ok.vertexTypes[0].keyAttributes.length, 2);
});

test('edge rules: endpoints exist, reverse edges only on directed edges, discriminators declared', () => {
  const c = base();
  rejects(
    () => createEdgeType(c, edge('e', 'P', 'X')),
    "edge type 'e': the TO vertex type 'X' does not exist.",
  );
  rejects(
    () => createEdgeType(c, edge('e', 'P', 'C', { directed: false, reverseEdge: 'r' })),
    "edge type 'e': an UNDIRECTED edge type cannot have a REVERSE_EDGE.",
  );
  rejects(
    () => createEdgeType(c, edge('e', 'P', 'C', { discriminator: ['d'] })),
    "edge type 'e': the discriminator attribute 'd' is not declared.",
  );
  rejects(
    () =>
      createEdgeType(
        c,
        edge('e', 'P', 'C', { discriminator: ['d'], attributes: [{ name: 'd', type: { kind: 'DOUBLE' } }] }),
      ),
    "edge type 'e': the discriminator attribute 'd' is DOUBLE; it must be INT, UINT, STRING or DATETIME.",
  );
  const found = findEdgeType(c, 'known_by');
  assert.equal(found?.edge.name, 'knows');
  assert.equal(found?.reverse, true);
});

test('FROM * / TO * expand to every vertex type in scope; repeated pairs collapse', () => {
  const c = createEdgeType(base(), {
    ...edge('all', '*', '*'),
    pairs: [
      { from: '*', to: '*' },
      { from: 'P', to: 'C' },
    ],
  });
  assert.deepEqual(c.edgeTypes.find((e) => e.name === 'all')?.pairs, [
    { from: 'P', to: 'P' },
    { from: 'P', to: 'C' },
    { from: 'C', to: 'P' },
    { from: 'C', to: 'C' },
  ]);
});

test('local types: belong to their graph, may use its global types, are dropped with it', () => {
  let c = base();
  c = createVertexType(c, vertex('L', { graph: 'g' }));
  c = createEdgeType(c, edge('le', 'L', 'P', { graph: 'g' }));
  assert.deepEqual(
    graphTypes(c, 'g')?.vertexTypes.map((v) => v.name),
    ['P', 'C', 'L'],
  );
  assert.deepEqual(
    graphTypes(c, 'g')?.edgeTypes.map((e) => e.name),
    ['knows', 'le'],
  );
  assert.equal(findGraphVertexType(c, 'g', 'L')?.graph, 'g');
  rejects(
    () => createEdgeType(c, edge('ge', 'L', 'P')),
    "edge type 'ge': the FROM vertex type 'L' is local to a graph; a global edge type can only use global vertex types.",
  );
  c = createGraph(c, 'h', ['C']);
  rejects(
    () => createEdgeType(c, edge('he', 'C', 'P', { graph: 'h' })),
    "edge type 'he': the TO vertex type 'P' is not in graph 'h'.",
  );
  rejects(() => createGraph(c, 'k', ['L']), "Graph 'k': 'L' is a local type of graph 'g'.");
  const dropped = dropGraph(c, 'g');
  assert.deepEqual(
    dropped.vertexTypes.map((v) => v.name),
    ['P', 'C'],
  );
  assert.deepEqual(
    dropped.edgeTypes.map((e) => e.name),
    ['knows'],
  );
  assert.deepEqual(
    dropped.graphs.map((g) => g.name),
    ['h'],
  );
  rejects(() => dropGraph(dropped, 'g'), "Graph 'g' does not exist.");
});

test('CREATE GRAPH with a list needs the endpoints of each edge', () => {
  const c = base();
  rejects(
    () => createGraph(c, 'h', ['knows']),
    "Graph 'h': the edge type 'knows' connects vertex type 'P', which is not in the graph.",
  );
  rejects(() => createGraph(c, 'h', ['nope']), "Graph 'h': the vertex or edge type 'nope' does not exist.");
  assert.deepEqual(createGraph(c, 'h', ['P', 'known_by']).graphs[1], {
    name: 'h',
    vertexTypes: ['P'],
    edgeTypes: ['knows'],
  });
});

test('top-level DROP refuses types in use; a job drop takes dependent edges along', () => {
  const c = base();
  rejects(
    () => dropVertexTypes(c, ['P'], { mode: 'statement' }),
    "The vertex type 'P' is used by graph 'g'; it cannot be dropped.",
  );
  rejects(
    () => dropEdgeTypes(c, ['knows'], { mode: 'statement' }),
    "The edge type 'knows' is used by graph 'g'; it cannot be dropped.",
  );
  rejects(() => dropVertexTypes(c, ['Z'], { mode: 'statement' }), "The vertex type 'Z' does not exist.");
  rejects(
    () => dropEdgeTypes(c, ['known_by'], { mode: 'job' }),
    "'known_by' is the reverse edge of 'knows'; drop the edge type 'knows' instead.",
  );
  const noGraph = dropGraph(c, 'g');
  rejects(
    () => dropVertexTypes(noGraph, ['P'], { mode: 'statement' }),
    "The vertex type 'P' is used by edge type 'knows'; drop that first.",
  );
  const after = dropVertexTypes(c, ['P'], { mode: 'job' });
  assert.deepEqual(
    after.vertexTypes.map((v) => v.name),
    ['C'],
  );
  assert.deepEqual(after.edgeTypes, []);
  assert.deepEqual(after.graphs, [{ name: 'g', vertexTypes: ['C'], edgeTypes: [] }]);
  // A multi-pair edge keeps the pairs that do not touch the dropped type.
  const multi = createEdgeType(c, {
    ...edge('m', 'P', 'C'),
    pairs: [
      { from: 'P', to: 'C' },
      { from: 'C', to: 'C' },
    ],
  });
  const kept = dropVertexTypes(multi, ['P'], { mode: 'job' });
  assert.deepEqual(
    kept.edgeTypes.map((e) => [e.name, e.pairs]),
    [['m', [{ from: 'C', to: 'C' }]]],
  );
  rejects(
    () => dropVertexTypes(c, ['P'], { graph: 'g', mode: 'job' }),
    "The vertex type 'P' is global; change it with a global schema change job.",
  );
});

test('tuples: field types checked, cannot drop one in use, DROP ALL empties everything', () => {
  rejects(
    () =>
      createTupleType(EMPTY_CATALOG, {
        name: 't',
        fields: [{ name: 'l', type: { kind: 'LIST', element: INT } }],
      }),
    "Field 'l' of tuple type 't': LIST<INT> is not a valid tuple field type (INT, UINT, FLOAT, DOUBLE, DATETIME, BOOL or STRING).",
  );
  rejects(() => createTupleType(EMPTY_CATALOG, { name: 't', fields: [] }), "Tuple type 't' has no fields.");
  let c = createTupleType(EMPTY_CATALOG, {
    name: 't',
    fields: [{ name: 'a', type: { kind: 'INT', bytes: 1 } }],
  });
  c = createVertexType(
    c,
    vertex('V', {
      attributes: [{ name: 'x', type: { kind: 'MAP', key: INT, value: { kind: 'UDT', name: 't' } } }],
    }),
  );
  rejects(() => dropTupleTypes(c, ['t']), "The tuple type 't' is used by attribute 'x' of 'V'.");
  const empty = dropAll(c);
  assert.deepEqual({ ...empty, version: 0 }, EMPTY_CATALOG);
  assert.equal(empty.version, c.version + 1);
});

test("DROP GRAPH drops the graph's queries; DROP ALL drops every query", () => {
  let c = createGraph(base(), 'h', '*');
  c = {
    ...c,
    queries: [
      { name: 'q1', graph: 'g', text: 'CREATE QUERY q1() FOR GRAPH g { }', installed: true },
      { name: 'q2', graph: 'h', text: 'CREATE QUERY q2() FOR GRAPH h { }', installed: false },
    ],
  };
  assert.deepEqual(
    dropGraph(c, 'g').queries?.map((q) => q.name),
    ['q2'],
  );
  assert.deepEqual(dropAll(c).queries ?? [], []);
});
