import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createEdgeType, createGraph, createVertexType } from '../../src/catalog/ddl.js';
import { CatalogError } from '../../src/catalog/errors.js';
import {
  addEdgePairs,
  addTypesToGraph,
  dropEdgePairs,
  dropTypesFromGraph,
} from '../../src/catalog/membership.js';
import { EMPTY_CATALOG, type Catalog, type VertexType } from '../../src/catalog/types.js';

function vertex(name: string, graph?: string): VertexType {
  const v: VertexType = {
    name,
    keyKind: 'primary_id',
    primaryId: { name: 'id', type: { kind: 'INT', bytes: 8 } },
    keyAttributes: [],
    primaryIdAsAttribute: false,
    attributes: [],
    stats: 'OUTDEGREE_BY_EDGETYPE',
  };
  if (graph) v.graph = graph;
  return v;
}

function rejects(fn: () => unknown, message: string): void {
  assert.throws(fn, (e: unknown) => e instanceof CatalogError && e.message === message);
}

function base(): Catalog {
  let c = createVertexType(EMPTY_CATALOG, vertex('A'));
  c = createVertexType(c, vertex('B'));
  c = createEdgeType(c, {
    name: 'e',
    directed: true,
    pairs: [{ from: 'A', to: 'B' }],
    attributes: [],
    discriminator: [],
  });
  return createGraph(c, 'g', []);
}

test('edge pairs are added and dropped; at least one stays', () => {
  const c = addEdgePairs(base(), 'e', [{ from: 'B', to: 'A' }], undefined);
  assert.deepEqual(c.edgeTypes[0].pairs, [
    { from: 'A', to: 'B' },
    { from: 'B', to: 'A' },
  ]);
  rejects(
    () => addEdgePairs(c, 'e', [{ from: 'B', to: 'A' }], undefined),
    "The edge type 'e' already has the pair (FROM B, TO A).",
  );
  rejects(
    () => addEdgePairs(c, 'e', [{ from: 'B', to: 'X' }], undefined),
    "The vertex type 'X' does not exist.",
  );
  assert.deepEqual(dropEdgePairs(c, 'e', [{ from: 'A', to: 'B' }], undefined).edgeTypes[0].pairs, [
    { from: 'B', to: 'A' },
  ]);
  rejects(
    () => dropEdgePairs(base(), 'e', [{ from: 'A', to: 'B' }], undefined),
    "Dropping every pair of edge type 'e' would leave it empty; drop the edge type instead.",
  );
  rejects(
    () => addEdgePairs(base(), 'e', [{ from: 'B', to: 'A' }], 'g'),
    "The edge type 'e' is global; change it with a global schema change job.",
  );
});

test('global types join and leave graphs; an edge needs its endpoints and leaves with them', () => {
  const c0 = base();
  rejects(
    () => addTypesToGraph(c0, 'g', 'edge', ['e']),
    "The edge type 'e' connects vertex type 'A', which is not in graph 'g'.",
  );
  let c = addTypesToGraph(c0, 'g', 'vertex', ['A', 'B']);
  c = addTypesToGraph(c, 'g', 'edge', ['e']);
  assert.deepEqual(c.graphs[0], { name: 'g', vertexTypes: ['A', 'B'], edgeTypes: ['e'] });
  rejects(() => addTypesToGraph(c, 'g', 'vertex', ['A']), "Graph 'g' already has the vertex type 'A'.");
  const out = dropTypesFromGraph(c, 'g', 'vertex', ['B']);
  assert.deepEqual(out.graphs[0], { name: 'g', vertexTypes: ['A'], edgeTypes: [] });
  assert.equal(out.vertexTypes.length, 2, 'the type itself stays');
  rejects(() => dropTypesFromGraph(out, 'g', 'edge', ['e']), "Graph 'g' has no edge type 'e'.");
  const withLocal = createVertexType(c, vertex('L', 'g'));
  rejects(
    () => addTypesToGraph(withLocal, 'g', 'vertex', ['L']),
    "The vertex type 'L' is local to graph 'g'.",
  );
});
