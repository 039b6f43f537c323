import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addIndex } from '../../src/catalog/alter.js';
import { createEdgeType, createVertexType } from '../../src/catalog/ddl.js';
import {
  attrTypeJson,
  edgeTypeJson,
  globalSchemaJson,
  graphSchemaJson,
  vertexTypeJson,
} from '../../src/catalog/schema-json.js';
import { EMPTY_CATALOG, type AttrType } from '../../src/catalog/types.js';

const INT: AttrType = { kind: 'INT', bytes: 8 };

test('AttributeType forms', () => {
  assert.deepEqual(attrTypeJson(INT), { Name: 'INT' });
  assert.deepEqual(attrTypeJson({ kind: 'STRING', compress: true }), { Name: 'STRING COMPRESS' });
  assert.deepEqual(attrTypeJson({ kind: 'LIST', element: { kind: 'DATETIME' } }), {
    Name: 'LIST',
    ValueTypeName: 'DATETIME',
  });
  assert.deepEqual(attrTypeJson({ kind: 'MAP', key: INT, value: { kind: 'DOUBLE' } }), {
    Name: 'MAP',
    KeyTypeName: 'INT',
    ValueTypeName: 'DOUBLE',
  });
  assert.deepEqual(attrTypeJson({ kind: 'UDT', name: 't' }), { Name: 'UDT', TupleName: 't' });
});

test('vertex type with PRIMARY_ID_AS_ATTRIBUTE, a default and an index; global types are not IsLocal', () => {
  let c = createVertexType(EMPTY_CATALOG, {
    name: 'P',
    keyKind: 'primary_id',
    primaryId: { name: 'name', type: { kind: 'STRING', compress: false } },
    keyAttributes: [],
    primaryIdAsAttribute: true,
    attributes: [{ name: 'age', type: INT, defaultLiteral: '18' }],
    stats: 'NONE',
  });
  c = addIndex(c, 'P', 'age_ix', 'age', undefined);
  assert.deepEqual(vertexTypeJson(c.vertexTypes[0]), {
    Config: { STATS: 'NONE', PRIMARY_ID_AS_ATTRIBUTE: true },
    Attributes: [
      {
        AttributeType: { Name: 'INT' },
        IsPartOfCompositeKey: false,
        PrimaryIdAsAttribute: false,
        AttributeName: 'age',
        HasIndex: true,
        IsPrimaryKey: false,
        DefaultValue: '18',
      },
    ],
    PrimaryId: {
      AttributeType: { Name: 'STRING' },
      IsPartOfCompositeKey: false,
      PrimaryIdAsAttribute: true,
      AttributeName: 'name',
      HasIndex: false,
      IsPrimaryKey: false,
    },
    Name: 'P',
  });
  assert.deepEqual(globalSchemaJson(c), { VertexTypes: [vertexTypeJson(c.vertexTypes[0])], EdgeTypes: [] });
  assert.equal(graphSchemaJson(c, 'nope'), undefined);
});

test('a multi-edge type shows DiscriminatorCount, IsDiscriminator and CompositeDiscriminator', () => {
  let c = createVertexType(EMPTY_CATALOG, {
    name: 'A',
    keyKind: 'primary_id',
    primaryId: { name: 'id', type: INT },
    keyAttributes: [],
    primaryIdAsAttribute: false,
    attributes: [],
    stats: 'OUTDEGREE_BY_EDGETYPE',
  });
  c = createEdgeType(c, {
    name: 'pays',
    directed: true,
    pairs: [{ from: 'A', to: 'A' }],
    attributes: [
      { name: 'at', type: { kind: 'DATETIME' } },
      { name: 'amount', type: { kind: 'DOUBLE' } },
    ],
    discriminator: ['at'],
    reverseEdge: 'paid_by',
  });
  const base = {
    IsPartOfCompositeKey: false,
    PrimaryIdAsAttribute: false,
    HasIndex: false,
    IsPrimaryKey: false,
  };
  assert.deepEqual(edgeTypeJson(c.edgeTypes[0]), {
    IsDirected: true,
    ToVertexTypeName: 'A',
    Config: { REVERSE_EDGE: 'paid_by' },
    DiscriminatorCount: 1,
    Attributes: [
      { AttributeType: { Name: 'DATETIME' }, ...base, AttributeName: 'at', IsDiscriminator: true },
      { AttributeType: { Name: 'DOUBLE' }, ...base, AttributeName: 'amount' },
    ],
    FromVertexTypeName: 'A',
    CompositeDiscriminator: ['at'],
    Name: 'pays',
  });
});
