/**
 * The pyTigerGraph test graph script (test/fixtures/gsql/testserver.gsql) runs unchanged and yields
 * the schema the client's tests expect, field for field.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { graphSchemaJson, udtListJson } from '../../src/catalog/schema-json.js';
import { MemoryStore, run } from './memory-store.js';

const SCRIPT = readFileSync(new URL('../../../test/fixtures/gsql/testserver.gsql', import.meta.url), 'utf8');

type J = Record<string, unknown>;

function attr(name: string, type: J, flags: Partial<Record<string, boolean>> = {}): J {
  return {
    AttributeType: type,
    IsPartOfCompositeKey: flags.composite ?? false,
    PrimaryIdAsAttribute: flags.asAttr ?? false,
    AttributeName: name,
    HasIndex: false,
    IsPrimaryKey: flags.pk ?? false,
  };
}

const T = (Name: string): J => ({ Name });
const UDT = { Name: 'UDT', TupleName: 'tuple2_simple' };
const coll = (Name: string, v: string): J =>
  v === 'UDT'
    ? { Name, ValueTypeName: 'UDT', ValueTypeTupleName: 'tuple2_simple' }
    : { Name, ValueTypeName: v };
const map = (k: string, v: string): J =>
  v === 'UDT'
    ? { Name: 'MAP', KeyTypeName: k, ValueTypeName: 'UDT', ValueTypeTupleName: 'tuple2_simple' }
    : { Name: 'MAP', KeyTypeName: k, ValueTypeName: v };

const VERTEX1_ATTRS: [string, J][] = [
  ['a01_int', T('INT')],
  ['a02_uint', T('UINT')],
  ['a03_float', T('FLOAT')],
  ['a04_double', T('DOUBLE')],
  ['a05_datetime', T('DATETIME')],
  ['a06_bool', T('BOOL')],
  ['a07_string', T('STRING')],
  ['a09_fixed_binary100', { Name: 'FIXED_BINARY', FixedSize: 100 }],
  ['a10_udt', UDT],
  ['a11_list_int', coll('LIST', 'INT')],
  ['a14_list_double', coll('LIST', 'DOUBLE')],
  ['a15_list_datetime', coll('LIST', 'DATETIME')],
  ['a16_list_string', coll('LIST', 'STRING')],
  ['a18_list_udt', coll('LIST', 'UDT')],
  ['a19_set_int', coll('SET', 'INT')],
  ['a22_set_double', coll('SET', 'DOUBLE')],
  ['a23_set_datetime', coll('SET', 'DATETIME')],
  ['a24_set_string', coll('SET', 'STRING')],
  ['a26_set_udt', coll('SET', 'UDT')],
  ['a27_int_int', map('INT', 'INT')],
  ['a28_int_double', map('INT', 'DOUBLE')],
  ['a29_int_string', map('INT', 'STRING')],
  ['a31_int_datetime', map('INT', 'DATETIME')],
  ['a32_int_udt', map('INT', 'UDT')],
  ['a33_datetime_int', map('DATETIME', 'INT')],
  ['a34_datetime_double', map('DATETIME', 'DOUBLE')],
  ['a35_datetime_string', map('DATETIME', 'STRING')],
  ['a37_datetime_datetime', map('DATETIME', 'DATETIME')],
  ['a38_datetime_udt', map('DATETIME', 'UDT')],
  ['a39_string_int', map('STRING', 'INT')],
  ['a40_string_double', map('STRING', 'DOUBLE')],
  ['a41_string_string', map('STRING', 'STRING')],
  ['a43_string_datetime', map('STRING', 'DATETIME')],
  ['a44_string_udt', map('STRING', 'UDT')],
];

const CONFIG = (asAttr: boolean): J => ({ STATS: 'OUTDEGREE_BY_EDGETYPE', PRIMARY_ID_AS_ATTRIBUTE: asAttr });

function plainVertex(name: string, attrs: J[]): J {
  return {
    Config: CONFIG(false),
    IsLocal: true,
    Attributes: attrs,
    PrimaryId: attr('id', T('INT')),
    Name: name,
  };
}

function edge(
  name: string,
  directed: boolean,
  from: string,
  to: string,
  config: J = {},
  attrs = [attr('a01', T('INT'))],
): J {
  return {
    IsDirected: directed,
    ToVertexTypeName: to,
    Config: config,
    IsLocal: true,
    Attributes: attrs,
    FromVertexTypeName: from,
    Name: name,
  };
}

const V = [
  'vertex1_all_types',
  'vertex2_primary_key',
  'vertex3_primary_key_composite',
  'vertex4',
  'vertex5',
  'vertex6',
  'vertex7',
];

const EXPECTED: J = {
  GraphName: 'tests',
  VertexTypes: [
    {
      Config: CONFIG(false),
      IsLocal: true,
      Attributes: VERTEX1_ATTRS.map(([n, t]) => attr(n, t)),
      PrimaryId: attr('id', T('STRING')),
      Name: 'vertex1_all_types',
    },
    {
      Config: CONFIG(true),
      IsLocal: true,
      Attributes: [
        attr('id', T('INT'), { asAttr: true, pk: true }),
        attr('a01', T('STRING')),
        attr('a02', T('DATETIME')),
      ],
      PrimaryId: attr('id', T('INT'), { asAttr: true, pk: true }),
      Name: 'vertex2_primary_key',
    },
    {
      Config: CONFIG(true),
      IsLocal: true,
      Attributes: [
        attr('a01', T('INT'), { composite: true, asAttr: true }),
        attr('a02', T('STRING'), { composite: true, asAttr: true }),
        attr('a03', T('DATETIME'), { composite: true, asAttr: true }),
        attr('a04', T('BOOL')),
      ],
      PrimaryId: attr('a01', T('INT'), { composite: true, asAttr: true }),
      CompositeKeys: ['a01', 'a02', 'a03'],
      Name: 'vertex3_primary_key_composite',
    },
    plainVertex('vertex4', [attr('a01', T('INT'))]),
    plainVertex('vertex5', []),
    plainVertex('vertex6', []),
    plainVertex('vertex7', []),
  ],
  EdgeTypes: [
    edge('edge1_undirected', false, 'vertex4', 'vertex5'),
    edge('edge2_directed', true, 'vertex4', 'vertex5'),
    edge('edge3_directed_with_reverse', true, 'vertex4', 'vertex5', {
      REVERSE_EDGE: 'edge3_directed_with_reverse_reverse_edge',
    }),
    {
      ...edge('edge4_many_to_many', true, '*', '*', {}, []),
      EdgePairs: [
        { From: 'vertex4', To: 'vertex5' },
        { From: 'vertex4', To: 'vertex6' },
        { From: 'vertex4', To: 'vertex7' },
        { From: 'vertex5', To: 'vertex6' },
        { From: 'vertex6', To: 'vertex7' },
      ],
    },
    {
      ...edge('edge5_all_to_all', true, '*', '*', {}, []),
      EdgePairs: V.flatMap((from) => V.map((to) => ({ From: from, To: to }))),
    },
    edge('edge6_loop', true, 'vertex4', 'vertex4'),
  ],
};

test('testserver.gsql builds the pyTigerGraph test schema, field for field', async () => {
  const store = new MemoryStore();
  const r = await run(store, SCRIPT);
  // The first run finds no graph to drop; exit_on_error = FALSE carries on past it.
  assert.ok(
    r.output.startsWith(
      'Semantic Check Fails: The graph tests does not exist. (line 3, column 1)\nThe graph tests is created.\n',
    ),
  );
  assert.match(
    r.output,
    /Graph tests updated to new version \d+\nThe job setup completes in [\d.]+ seconds!\n/,
  );
  assert.match(
    r.output,
    /Graph tests updated to new version \d+\nThe job setup2 completes in [\d.]+ seconds!\n/,
  );
  assert.doesNotMatch(r.output, /Syntax Error/);
  assert.equal(r.session.graph, 'tests');

  // Edge insertion order inside the JSON object does not matter to clients, but every field does.
  assert.deepEqual(graphSchemaJson(store.catalog, 'tests'), EXPECTED);
  // The reverse edge is not an edge type of its own (pyTigerGraph's getEdgeTypes expects six).
  assert.equal((EXPECTED.EdgeTypes as J[]).length, 6);

  assert.deepEqual(udtListJson(store.catalog), [
    {
      name: 'tuple1_all_types',
      fields: [
        { fieldName: 'f01_int', fieldType: 'INT' },
        { fieldName: 'f02_int1', fieldType: 'INT', length: 1 },
        { fieldName: 'f03_int2', fieldType: 'INT', length: 2 },
        { fieldName: 'f04_int4', fieldType: 'INT', length: 4 },
        { fieldName: 'f05_int8', fieldType: 'INT' },
        { fieldName: 'f06_uint', fieldType: 'UINT' },
        { fieldName: 'f07_uint1', fieldType: 'UINT', length: 1 },
        { fieldName: 'f08_uint2', fieldType: 'UINT', length: 2 },
        { fieldName: 'f09_uint4', fieldType: 'UINT', length: 4 },
        { fieldName: 'f10_uint8', fieldType: 'UINT' },
        { fieldName: 'f11_float', fieldType: 'FLOAT' },
        { fieldName: 'f12_double', fieldType: 'DOUBLE' },
        { fieldName: 'f13_datetime', fieldType: 'DATETIME' },
        { fieldName: 'f14_bool', fieldType: 'BOOL' },
        { fieldName: 'f15_string30', fieldType: 'STRING', length: 30 },
      ],
    },
    {
      name: 'tuple2_simple',
      fields: [
        { fieldName: 'field1', fieldType: 'INT' },
        { fieldName: 'field2', fieldType: 'STRING', length: 10 },
        { fieldName: 'field3', fieldType: 'DATETIME' },
      ],
    },
  ]);

  assert.deepEqual(
    store.catalog.jobs.map((j) => [j.name, j.graph, j.kind]),
    [
      ['setup', 'tests', 'schema_change'],
      ['setup2', 'tests', 'schema_change'],
    ],
  );
});

test('running testserver.gsql a second time drops the graph and rebuilds the same schema', async () => {
  const store = new MemoryStore();
  await run(store, SCRIPT);
  const r = await run(store, SCRIPT);
  assert.ok(
    r.output.startsWith('The graph tests is dropped.\nThe graph tests is created.\n'),
    r.output.slice(0, 200),
  );
  // The tuples are global and survive DROP GRAPH, so TYPEDEF fails the second time (as in TigerGraph).
  assert.match(r.output, /The tuple type 'tuple1_all_types' already exists\./);
  assert.deepEqual(graphSchemaJson(store.catalog, 'tests'), EXPECTED);
});
