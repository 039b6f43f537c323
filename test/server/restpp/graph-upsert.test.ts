import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GraphDef } from '../../../src/catalog/types.js';
import { RestError } from '../../../src/server/http/envelope.js';
import { JsonReader } from '../../../src/util/json-parse.js';
import { decodeUpsertBody, parseOp } from '../../../src/server/restpp/graph-upsert-body.js';
import { prepareUpsert } from '../../../src/server/restpp/graph-upsert.js';
import { testCatalog } from './graph-fixture.js';

const catalog = testCatalog();
const graph = catalog.graphs[0] as GraphDef;

function body(text: string) {
  return decodeUpsertBody(new JsonReader(text));
}

function prepare(text: string) {
  return prepareUpsert(catalog, graph, body(text));
}

function isError(code: string, fragment: string) {
  return (e: unknown): boolean => e instanceof RestError && e.code === code && e.message.includes(fragment);
}

test('decodeUpsertBody flattens vertices and edges in body order', () => {
  const b = body(
    '{"vertices":{"vertex4":{"1":{"a01":{"value":1}},"2":{}}},' +
      '"edges":{"vertex4":{"1":{"edge1_undirected":{"vertex5":{"3":{"a01":{"value":7,"op":"+"}}}}}}}}',
  );
  assert.deepEqual(b.vertices, [
    {
      type: 'vertex4',
      ids: ['1', '2'],
      attrStart: [0, 1, 1],
      attrNames: ['a01'],
      attrValues: [1],
      attrOps: ['set'],
    },
  ]);
  assert.deepEqual(b.edges, [
    {
      srcType: 'vertex4',
      srcId: '1',
      edgeType: 'edge1_undirected',
      tgtType: 'vertex5',
      tgtId: '3',
      attrs: [{ name: 'a01', value: 7, op: 'add' }],
    },
  ]);
});

test('a repeated target id yields one edge per occurrence (pyTigerGraph multi-edges)', () => {
  const b = body(
    '{"edges":{"vertex4":{"1":{"edge7_multi":{"vertex5":{"2":{"d":{"value":1}},"2":{"d":{"value":2}}}}}}}}',
  );
  assert.deepEqual(
    b.edges.map((e) => [e.tgtId, e.attrs[0].value]),
    [
      ['2', 1],
      ['2', 2],
    ],
  );
});

test('ids keep body order (numeric keys are not sorted) and a repeated id is met each time', () => {
  const b = body(
    '{"vertices":{"vertex4":{"10":{},"2":{"a01":{"op":"+","value":1,"x":[]}},"10":{}},"vertex5":{},"vertex4":{"3":{}}}}',
  );
  // One run per vertex type object that holds vertices, a repeated type key included.
  assert.deepEqual(
    b.vertices.map((v) => [v.type, v.ids, v.attrStart, v.attrNames, v.attrValues, v.attrOps]),
    [
      ['vertex4', ['10', '2', '10'], [0, 0, 1, 1], ['a01'], [1], ['add']],
      ['vertex4', ['3'], [0, 0], [], [], []],
    ],
  );
});

test('an attribute object gives "value" once and "op" at most once', () => {
  const spec = (attr: string) => body(`{"vertices":{"vertex4":{"1":{"a01":${attr}}}}}`);
  assert.throws(() => spec('{"op":"+"}'), isError('REST-30000', 'must be an object {"value"'));
  assert.throws(() => spec('{"op":"+","op":"+"}'), isError('REST-30000', 'must be an object {"value"'));
  assert.throws(() => spec('{"value":1,"value":2}'), isError('REST-30000', 'gives "value" more than once'));
  assert.throws(
    () => spec('{"value":1,"op":"+","op":"-"}'),
    isError('REST-30000', 'gives "op" more than once'),
  );
  assert.throws(() => spec('[1]'), isError('REST-30000', 'must be an object {"value"'));
});

test('every op literal maps to its operation; unknown ops are rejected', () => {
  const expected: [string, string][] = [
    ['ignore_if_exists', 'ignore_if_exists'],
    ['~', 'ignore_if_exists'],
    ['add', 'add'],
    ['+', 'add'],
    ['and', 'and'],
    ['&', 'and'],
    ['or', 'or'],
    ['|', 'or'],
    ['max', 'max'],
    ['>', 'max'],
    ['min', 'min'],
    ['<', 'min'],
    ['ADD', 'add'],
  ];
  for (const [lit, op] of expected) assert.equal(parseOp(lit, 'x'), op, lit);
  assert.equal(parseOp(undefined, 'x'), 'set');
  assert.throws(
    () => parseOp('-', "attribute 'a01'"),
    isError('REST-30000', 'unknown op "-" for attribute \'a01\''),
  );
});

test('malformed bodies are REST-30000 naming the place', () => {
  assert.throws(() => body('[1]'), isError('REST-30000', 'the body must be a JSON object'));
  assert.throws(() => body('{"vertex":{}}'), isError('REST-30000', "unknown top-level key 'vertex'"));
  assert.throws(
    () => body('{"vertices":{"vertex4":{"1":{"a01":5}}}}'),
    isError('REST-30000', "attribute 'a01' of vertex '1'"),
  );
  assert.throws(
    () => body('{"vertices":{"vertex4":[1]}}'),
    isError('REST-30000', "vertex type 'vertex4' must be a JSON object"),
  );
});

test('prepareUpsert converts values and keeps ops', () => {
  const plan = prepare(
    '{"vertices":{"vertex4":{"1":{"a01":{"value":3,"op":"max"}}},' +
      '"vertex3_primary_key_composite":{"1,a,2020-01-01 00:00:00":{"a01":{"value":1},"a04":{"value":true}}}}}',
  );
  assert.deepEqual(plan.vertexRuns[0], {
    type: 'vertex4',
    ids: ['1'],
    attrs: [{ a01: { value: 3, op: 'max' } }],
  });
  // Key attributes come from the composite id and are not written separately.
  assert.deepEqual(plan.vertexRuns[1].attrs, [{ a04: { value: true, op: 'set' } }]);
});

test('prepareUpsert leaves out attribute names the type does not have', () => {
  const plan = prepare(
    '{"vertices":{"vertex4":{"1":{"zzz":{"value":1},"a01":{"value":2}},"2":{"zzz":{"value":1}}}}}',
  );
  assert.deepEqual(plan.vertexRuns[0].attrs, [{ a01: { value: 2, op: 'set' } }, {}]);
});

test('prepareUpsert rejects schema violations with REST-30200 naming the item', () => {
  assert.throws(() => prepare('{"vertices":{"nope":{"1":{}}}}'), isError('REST-30200', "'nope'"));
  assert.throws(
    () => prepare('{"vertices":{"vertex4":{"1":{"a01":{"value":"x"}}}}}'),
    isError('REST-30200', `Invalid value "x" for attribute 'a01' of type INT`),
  );
  assert.throws(() => prepare('{"vertices":{"vertex4":{"abc":{}}}}'), isError('REST-30200', "'abc'"));
  assert.throws(
    () => prepare('{"edges":{"vertex4":{"1":{"nope":{"vertex5":{"2":{}}}}}}}'),
    isError('REST-30200', "Invalid edge type 'nope'"),
  );
  assert.throws(
    () => prepare('{"edges":{"vertex4":{"1":{"edge2_directed":{"vertex6":{"2":{}}}}}}}'),
    isError('REST-30200', "from vertex type 'vertex4' to vertex type 'vertex6'"),
  );
  assert.throws(
    () => prepare('{"edges":{"nope":{"1":{"edge2_directed":{"vertex5":{"2":{}}}}}}}'),
    isError('REST-30200', "source vertex type 'nope'"),
  );
  assert.throws(
    () => prepare('{"edges":{"vertex4":{"1":{"edge2_directed":{"nope":{"2":{}}}}}}}'),
    isError('REST-30200', "target vertex type 'nope'"),
  );
  assert.throws(
    () => prepare('{"vertices":{"vertex7":{"1":{"name":{"value":"a","op":"and"}}}}}'),
    isError('REST-30200', "Operation 'and' does not apply to attribute 'name' of type STRING"),
  );
  // A type of another graph is not visible.
  assert.throws(
    () => prepareUpsert(catalog, catalog.graphs[1] as GraphDef, body('{"vertices":{"vertex5":{"1":{}}}}')),
    isError('REST-30200', "not a vertex type of graph 'other'"),
  );
});

test('prepareUpsert accepts undirected edges in either orientation and reverse edge names', () => {
  const plan = prepare(
    '{"edges":{"vertex5":{"1":{"edge1_undirected":{"vertex4":{"2":{}}},' +
      '"edge3_directed_with_reverse_reverse_edge":{"vertex4":{"3":{}}}}}}}',
  );
  assert.deepEqual(
    plan.edges.map((e) => [e.edgeType.name, e.edgeType.reverse]),
    [
      ['edge1_undirected', false],
      ['edge3_directed_with_reverse_reverse_edge', true],
    ],
  );
});
