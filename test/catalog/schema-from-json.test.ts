import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { createGraph } from '../../src/catalog/ddl.js';
import { CatalogError } from '../../src/catalog/errors.js';
import { edgeTypeJson, vertexTypeJson } from '../../src/catalog/schema-json.js';
import {
  applySchemaChangeJson,
  edgeTypeFromJson,
  vertexTypeFromJson,
} from '../../src/catalog/schema-from-json.js';
import { EMPTY_CATALOG } from '../../src/catalog/types.js';
import { MemoryStore, run } from '../shell/memory-store.js';

test('every type of the test graph reads back from its own schema JSON unchanged', async () => {
  const store = new MemoryStore();
  await run(
    store,
    readFileSync(new URL('../../../test/fixtures/gsql/testserver.gsql', import.meta.url), 'utf8'),
  );
  assert.equal(store.catalog.vertexTypes.length, 7);
  for (const v of store.catalog.vertexTypes) {
    assert.deepEqual(vertexTypeFromJson(vertexTypeJson(v), 'v', v.graph), v, v.name);
  }
  assert.equal(store.catalog.edgeTypes.length, 6);
  for (const e of store.catalog.edgeTypes) {
    assert.deepEqual(edgeTypeFromJson(edgeTypeJson(e), 'e', e.graph), e, e.name);
  }
});

test('a JSON schema change document is applied as one local change', () => {
  const c0 = createGraph(EMPTY_CATALOG, 'g', []);
  const c1 = applySchemaChangeJson(
    c0,
    {
      addVertexTypes: [
        {
          Name: 'Person',
          PrimaryId: { AttributeName: 'id', AttributeType: { Name: 'STRING' } },
          Attributes: [{ AttributeName: 'name', AttributeType: { Name: 'STRING' } }],
          Config: { STATS: 'OUTDEGREE_BY_EDGETYPE', PRIMARY_ID_AS_ATTRIBUTE: 'true' },
        },
        {
          Name: 'Company',
          PrimaryId: { AttributeName: 'id', AttributeType: { Name: 'STRING' } },
          Attributes: [],
        },
      ],
      addEdgeTypes: [
        {
          Name: 'works_at',
          IsDirected: true,
          FromVertexTypeName: 'Person',
          ToVertexTypeName: 'Company',
          Attributes: [
            { AttributeName: 'since', AttributeType: { Name: 'DATETIME' }, IsDiscriminator: true },
            { AttributeName: 'country', AttributeType: { Name: 'STRING' } },
          ],
          Config: { REVERSE_EDGE: 'reverse_works_at' },
        },
      ],
    },
    'g',
  );
  assert.equal(c1.version, c0.version + 1);
  assert.deepEqual(c1.graphs, [{ name: 'g', vertexTypes: ['Person', 'Company'], edgeTypes: ['works_at'] }]);
  const person = c1.vertexTypes[0];
  assert.deepEqual([person.graph, person.primaryIdAsAttribute, person.keyKind], ['g', true, 'primary_id']);
  assert.deepEqual(c1.edgeTypes[0].discriminator, ['since']);
  assert.equal(c1.edgeTypes[0].reverseEdge, 'reverse_works_at');

  const c2 = applySchemaChangeJson(
    c1,
    {
      alterVertexTypes: [
        {
          name: 'Person',
          addAttributes: [{ AttributeName: 'age', AttributeType: { Name: 'UINT' }, DefaultValue: '0' }],
          dropAttributes: ['name'],
        },
      ],
      alterEdgeTypes: [{ name: 'works_at', dropAttributes: ['country'] }],
    },
    'g',
  );
  assert.deepEqual(c2.vertexTypes[0].attributes, [
    { name: 'age', type: { kind: 'UINT', bytes: 8 }, defaultLiteral: '0' },
  ]);
  assert.deepEqual(
    c2.edgeTypes[0].attributes.map((a) => a.name),
    ['since'],
  );
  const c3 = applySchemaChangeJson(c2, { dropEdgeTypes: ['works_at'], dropVertexTypes: ['Company'] }, 'g');
  assert.deepEqual(c3.graphs, [{ name: 'g', vertexTypes: ['Person'], edgeTypes: [] }]);
});

test('malformed documents name the bad field; nothing is applied', () => {
  const c0 = createGraph(EMPTY_CATALOG, 'g', []);
  const cases: [unknown, string][] = [
    [[], 'The schema change must be a JSON object.'],
    [
      { addVertices: [] },
      "Unknown schema change field 'addVertices'; expected one of addVertexTypes, addEdgeTypes, alterVertexTypes, alterEdgeTypes, dropVertexTypes, dropEdgeTypes.",
    ],
    [
      { addVertexTypes: [{ Name: 'V', PrimaryId: { AttributeName: 'id' } }] },
      'addVertexTypes[0].PrimaryId.AttributeType must be a JSON object.',
    ],
    [
      {
        addVertexTypes: [{ Name: 'V', PrimaryId: { AttributeName: 'id', AttributeType: { Name: 'LIST' } } }],
      },
      'addVertexTypes[0].PrimaryId.AttributeType.ValueTypeName must be a non-empty string.',
    ],
    [
      { addEdgeTypes: [{ Name: 'e', IsDirected: 'yes', FromVertexTypeName: 'a', ToVertexTypeName: 'b' }] },
      'addEdgeTypes[0].IsDirected must be true or false.',
    ],
    [{ dropVertexTypes: ['Nope'] }, "The vertex type 'Nope' does not exist."],
  ];
  for (const [body, message] of cases) {
    assert.throws(
      () => applySchemaChangeJson(c0, body, 'g'),
      (e: unknown) => e instanceof CatalogError && e.message === message,
      message,
    );
  }
});
