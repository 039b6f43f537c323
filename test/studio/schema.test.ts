import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSchema, reverseEdgeMap, schemaLinks, typeText } from '../../studio/src/model/schema.js';

const attr = (name: string, type: object, flags: object = {}) => ({
  AttributeName: name,
  AttributeType: type,
  HasIndex: false,
  IsPartOfCompositeKey: false,
  IsPrimaryKey: false,
  ...flags,
});

const RESULTS = {
  GraphName: 'Social',
  VertexTypes: [
    {
      Name: 'person',
      PrimaryId: attr('id', { Name: 'STRING' }),
      Config: { PRIMARY_ID_AS_ATTRIBUTE: true },
      Attributes: [
        attr('name', { Name: 'STRING' }, { HasIndex: true }),
        attr('tags', { Name: 'LIST', ValueTypeName: 'STRING' }),
      ],
    },
    {
      Name: 'city',
      PrimaryId: attr('a', { Name: 'STRING' }),
      CompositeKeys: ['a', 'b'],
      Config: {},
      Attributes: [
        attr('a', { Name: 'STRING' }, { IsPartOfCompositeKey: true }),
        attr('m', { Name: 'MAP', KeyTypeName: 'STRING', ValueTypeName: 'INT' }),
      ],
    },
  ],
  EdgeTypes: [
    {
      Name: 'born_in',
      IsDirected: true,
      FromVertexTypeName: 'person',
      ToVertexTypeName: 'city',
      Config: { REVERSE_EDGE: 'reverse_born_in' },
      Attributes: [attr('at', { Name: 'DATETIME' }, { IsDiscriminator: true })],
    },
    {
      Name: 'knows',
      IsDirected: false,
      FromVertexTypeName: 'person',
      ToVertexTypeName: 'person',
      Config: {},
      Attributes: [],
    },
    {
      Name: 'near',
      IsDirected: true,
      FromVertexTypeName: '*',
      ToVertexTypeName: '*',
      EdgePairs: [
        { From: 'person', To: 'city' },
        { From: 'city', To: 'city' },
      ],
      Config: {},
      Attributes: [],
    },
  ],
};

test('the schema JSON becomes types with primary ids, keys, indexes and pairs', () => {
  const s = parseSchema(RESULTS);
  assert.equal(s.graph, 'Social');
  assert.deepEqual(s.vertexTypes[0], {
    name: 'person',
    primaryId: { name: 'id', type: 'STRING', asAttribute: true },
    attributes: [
      { name: 'name', type: 'STRING', indexed: true, key: false, discriminator: false },
      { name: 'tags', type: 'LIST<STRING>', indexed: false, key: false, discriminator: false },
    ],
  });
  assert.deepEqual(s.vertexTypes[1].compositeKey, ['a', 'b']);
  assert.equal(s.vertexTypes[1].attributes[1].type, 'MAP<STRING,INT>');
  assert.deepEqual(s.edgeTypes[0].reverseEdge, 'reverse_born_in');
  assert.equal(s.edgeTypes[0].attributes[0].discriminator, true);
  assert.deepEqual(s.edgeTypes[2].pairs, [
    { from: 'person', to: 'city' },
    { from: 'city', to: 'city' },
  ]);
  assert.deepEqual([...reverseEdgeMap(s)], [['reverse_born_in', 'born_in']]);
});

test('links: one per edge type and pair, with direction and reverse edge', () => {
  const links = schemaLinks(parseSchema(RESULTS));
  assert.deepEqual(
    links.map((l) => [l.id, l.source, l.target, l.directed, l.reverseEdge]),
    [
      ['born_in:person->city', 'person', 'city', true, 'reverse_born_in'],
      ['knows:person->person', 'person', 'person', false, undefined],
      ['near:person->city', 'person', 'city', true, undefined],
      ['near:city->city', 'city', 'city', true, undefined],
    ],
  );
});

test('a FROM * end links to every vertex type; odd type JSON still reads', () => {
  const s = parseSchema({
    VertexTypes: [{ Name: 'a' }, { Name: 'b' }],
    EdgeTypes: [{ Name: 'any', IsDirected: false, FromVertexTypeName: '*', ToVertexTypeName: 'a' }],
  });
  assert.deepEqual(
    schemaLinks(s).map((l) => l.id),
    ['any:a->a', 'any:b->a'],
  );
  assert.equal(typeText({ Name: 'UDT', TupleName: 'tup' }), 'tup');
  assert.equal(typeText({ Name: 'FIXED_BINARY', FixedSize: 8 }), 'FIXED_BINARY(8)');
  assert.equal(typeText({ Name: 'SET', ValueTypeName: 'UDT', ValueTypeTupleName: 'tup' }), 'SET<tup>');
  assert.deepEqual(parseSchema(null), { graph: '', vertexTypes: [], edgeTypes: [] });
});
