/**
 * A catalog shaped like pyTigerGraph's test graph (tests/testserver.gsql), trimmed to what the
 * graph data endpoints need, plus a discriminated edge type for multi-edges.
 */
import type { Attribute, AttrType, Catalog, EdgeType, VertexType } from '../../../src/catalog/types.js';
import { EMPTY_CATALOG } from '../../../src/catalog/types.js';

const INT: AttrType = { kind: 'INT', bytes: 8 };
const STRING: AttrType = { kind: 'STRING', compress: false };
const DATETIME: AttrType = { kind: 'DATETIME' };

function attr(name: string, type: AttrType, defaultLiteral?: string): Attribute {
  return defaultLiteral === undefined ? { name, type } : { name, type, defaultLiteral };
}

function vertex(name: string, idType: AttrType, attributes: Attribute[]): VertexType {
  return {
    name,
    keyKind: 'primary_id',
    primaryId: { name: 'id', type: idType },
    keyAttributes: [],
    primaryIdAsAttribute: false,
    attributes,
    stats: 'OUTDEGREE_BY_EDGETYPE',
    graph: 'tests',
  };
}

function edge(
  name: string,
  directed: boolean,
  pairs: [string, string][],
  attributes: Attribute[],
  extra: Partial<EdgeType> = {},
): EdgeType {
  return {
    name,
    directed,
    pairs: pairs.map(([from, to]) => ({ from, to })),
    attributes,
    discriminator: [],
    graph: 'tests',
    ...extra,
  };
}

export function testCatalog(): Catalog {
  const vertexTypes: VertexType[] = [
    vertex('vertex1_all_types', STRING, [
      attr('a01_int', INT),
      attr('a02_uint', { kind: 'UINT', bytes: 8 }),
      attr('a03_float', { kind: 'FLOAT' }),
      attr('a04_double', { kind: 'DOUBLE' }),
      attr('a05_datetime', DATETIME),
      attr('a06_bool', { kind: 'BOOL' }),
      attr('a07_string', STRING),
      attr('a10_udt', { kind: 'UDT', name: 'tuple2_simple' }),
      attr('a11_list_int', { kind: 'LIST', element: INT }),
      attr('a19_set_int', { kind: 'SET', element: INT }),
      attr('a27_int_int', { kind: 'MAP', key: INT, value: INT }),
      attr('a41_string_string', { kind: 'MAP', key: STRING, value: STRING }),
    ]),
    {
      name: 'vertex3_primary_key_composite',
      keyKind: 'composite',
      primaryId: { name: 'a01', type: STRING },
      keyAttributes: ['a01', 'a02', 'a03'],
      primaryIdAsAttribute: false,
      attributes: [
        attr('a01', INT),
        attr('a02', STRING),
        attr('a03', DATETIME),
        attr('a04', { kind: 'BOOL' }),
      ],
      stats: 'OUTDEGREE_BY_EDGETYPE',
      graph: 'tests',
    },
    vertex('vertex4', INT, [attr('a01', INT)]),
    vertex('vertex5', INT, []),
    vertex('vertex6', INT, []),
    vertex('vertex7', INT, [attr('name', STRING, 'none'), attr('score', { kind: 'DOUBLE' })]),
  ];
  const edgeTypes: EdgeType[] = [
    edge('edge1_undirected', false, [['vertex4', 'vertex5']], [attr('a01', INT)]),
    edge('edge2_directed', true, [['vertex4', 'vertex5']], [attr('a01', INT)]),
    edge('edge3_directed_with_reverse', true, [['vertex4', 'vertex5']], [attr('a01', INT)], {
      reverseEdge: 'edge3_directed_with_reverse_reverse_edge',
    }),
    edge(
      'edge4_many_to_many',
      true,
      [
        ['vertex4', 'vertex5'],
        ['vertex4', 'vertex6'],
        ['vertex4', 'vertex7'],
        ['vertex5', 'vertex6'],
        ['vertex6', 'vertex7'],
      ],
      [],
    ),
    edge('edge6_loop', true, [['vertex4', 'vertex4']], [attr('a01', INT)]),
    edge('edge7_multi', true, [['vertex4', 'vertex5']], [attr('d', INT), attr('a01', INT)], {
      discriminator: ['d'],
    }),
  ];
  return {
    ...EMPTY_CATALOG,
    version: 1,
    vertexTypes,
    edgeTypes,
    tuples: [
      {
        name: 'tuple2_simple',
        fields: [
          { name: 'field1', type: INT },
          { name: 'field2', type: { kind: 'STRING', compress: false, maxLength: 10 } },
          { name: 'field3', type: DATETIME },
        ],
      },
    ],
    graphs: [
      {
        name: 'tests',
        vertexTypes: vertexTypes.map((v) => v.name),
        edgeTypes: edgeTypes.map((e) => e.name),
      },
      { name: 'other', vertexTypes: ['vertex4'], edgeTypes: [] },
    ],
  };
}
