import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  addAttributes,
  addIndex,
  dropAttributes,
  dropIndex,
  dropJobs,
  findJob,
  saveJob,
} from '../../src/catalog/alter.js';
import { createEdgeType, createGraph, createVertexType } from '../../src/catalog/ddl.js';
import { CatalogError } from '../../src/catalog/errors.js';
import { EMPTY_CATALOG, type AttrType, type Catalog } from '../../src/catalog/types.js';

const INT: AttrType = { kind: 'INT', bytes: 8 };

function rejects(fn: () => unknown, message: string): void {
  assert.throws(fn, (e: unknown) => e instanceof CatalogError && e.message === message);
}

function base(): Catalog {
  let c = createGraph(EMPTY_CATALOG, 'g', []);
  c = createVertexType(c, {
    name: 'V',
    keyKind: 'primary_key',
    primaryId: { name: 'id', type: INT },
    keyAttributes: ['id'],
    primaryIdAsAttribute: true,
    attributes: [
      { name: 'id', type: INT },
      { name: 'a', type: INT },
    ],
    stats: 'OUTDEGREE_BY_EDGETYPE',
    graph: 'g',
  });
  return createEdgeType(c, {
    name: 'E',
    directed: false,
    pairs: [{ from: 'V', to: 'V' }],
    attributes: [{ name: 'd', type: { kind: 'DATETIME' } }],
    discriminator: ['d'],
    graph: 'g',
  });
}

test('ADD ATTRIBUTE appends in order and checks names, types and defaults', () => {
  const c = addAttributes(
    base(),
    'vertex',
    'V',
    [{ name: 'b', type: { kind: 'BOOL' }, defaultLiteral: 'true' }],
    'g',
  );
  assert.deepEqual(
    c.vertexTypes[0].attributes.map((a) => a.name),
    ['id', 'a', 'b'],
  );
  rejects(
    () => addAttributes(c, 'vertex', 'V', [{ name: 'a', type: INT }], 'g'),
    "vertex type 'V' already has an attribute 'a'.",
  );
  rejects(
    () => addAttributes(c, 'edge', 'E', [{ name: 'w', type: { kind: 'DOUBLE' }, defaultLiteral: 'x' }], 'g'),
    `Attribute 'w' of edge type 'E': default value "x" is not a valid DOUBLE.`,
  );
  rejects(
    () => addAttributes(c, 'vertex', 'V', [{ name: 'z', type: INT }], undefined),
    "The vertex type 'V' is local to graph 'g'; alter it in a job of that graph.",
  );
  rejects(() => addAttributes(c, 'vertex', 'Nope', [], 'g'), "The vertex type 'Nope' does not exist.");
});

test('DROP ATTRIBUTE refuses key and discriminator attributes', () => {
  const c = base();
  assert.deepEqual(
    dropAttributes(c, 'vertex', 'V', ['a'], 'g').vertexTypes[0].attributes.map((a) => a.name),
    ['id'],
  );
  rejects(
    () => dropAttributes(c, 'vertex', 'V', ['id'], 'g'),
    "The attribute 'id' is part of the primary key of vertex type 'V'; it cannot be dropped.",
  );
  rejects(
    () => dropAttributes(c, 'edge', 'E', ['d'], 'g'),
    "The attribute 'd' is a discriminator of edge type 'E'; it cannot be dropped.",
  );
  rejects(() => dropAttributes(c, 'edge', 'E', ['q'], 'g'), "edge type 'E' has no attribute 'q'.");
});

test('indexes are recorded, unique by name, and go away with their attribute', () => {
  const c = addIndex(base(), 'V', 'ix', 'a', 'g');
  assert.deepEqual(c.vertexTypes[0].indexes, [{ name: 'ix', attribute: 'a' }]);
  rejects(() => addIndex(c, 'V', 'ix', 'id', 'g'), "The index name 'ix' is already used on vertex type 'V'.");
  rejects(() => addIndex(c, 'V', 'iy', 'nope', 'g'), "The vertex type 'V' has no attribute 'nope' to index.");
  assert.equal(dropIndex(c, 'V', 'ix', 'g').vertexTypes[0].indexes, undefined);
  assert.equal(dropAttributes(c, 'vertex', 'V', ['a'], 'g').vertexTypes[0].indexes, undefined);
  rejects(() => dropIndex(base(), 'V', 'ix', 'g'), "The vertex type 'V' has no index 'ix'.");
});

test('jobs are unique per graph and can be dropped one by one or all at once', () => {
  let c = saveJob(base(), {
    name: 'j',
    graph: 'g',
    kind: 'schema_change',
    text: 'CREATE SCHEMA_CHANGE JOB j {}',
  });
  c = saveJob(c, { name: 'j', kind: 'global_schema_change', text: 'CREATE GLOBAL SCHEMA_CHANGE JOB j {}' });
  rejects(
    () => saveJob(c, { name: 'j', graph: 'g', kind: 'schema_change', text: '' }),
    "The job name 'j' is already used in graph 'g'.",
  );
  rejects(
    () => saveJob(c, { name: 'k', graph: 'x', kind: 'schema_change', text: '' }),
    "Graph 'x' does not exist.",
  );
  assert.equal(findJob(c, 'j', 'g')?.kind, 'schema_change');
  assert.equal(findJob(c, 'j', undefined)?.kind, 'global_schema_change');
  rejects(() => dropJobs(c, ['k'], 'g'), "The job 'k' does not exist in graph 'g'.");
  const dropped = dropJobs(c, '*', 'g');
  assert.deepEqual(
    dropped.jobs.map((j) => [j.name, j.graph]),
    [['j', undefined]],
  );
  assert.deepEqual(
    dropJobs(c, ['j'], undefined).jobs.map((j) => j.graph),
    ['g'],
  );
});
