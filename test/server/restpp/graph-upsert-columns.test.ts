import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GraphDef } from '../../../src/catalog/types.js';
import { RestError } from '../../../src/server/http/envelope.js';
import { readJsonText } from '../../../src/server/http/body.js';
import { applyUpsert, type UpsertFlags } from '../../../src/server/restpp/graph-upsert-apply.js';
import { decodeUpsertBody, decodeUpsertRest } from '../../../src/server/restpp/graph-upsert-body.js';
import { readVertexColumns } from '../../../src/server/restpp/graph-upsert-columns.js';
import { prepareUpsert } from '../../../src/server/restpp/graph-upsert.js';
import { freshDb, fullCatalog, graphSnapshot, tempDir } from '../../engine/fixtures.js';

const NO_FLAGS: UpsertFlags = {
  newVertexOnly: false,
  updateVertexOnly: false,
  vertexMustExist: false,
  sourceVertexMustExist: false,
  targetVertexMustExist: false,
};

const catalog = fullCatalog();
const graph = catalog.graphs[0] as GraphDef;

function fast(text: string) {
  const b = Buffer.from(text);
  return readVertexColumns(catalog, graph, b, b.toString('utf8'));
}

/** The request as the route prepares it: the fast reader's runs, and the rest read the general way. */
function prepareFast(text: string) {
  const f = fast(text);
  assert.ok(f !== undefined, `fast path taken for ${text}`);
  const rest = f.rest === undefined ? undefined : readJsonText(text, decodeUpsertRest, f.rest);
  return { runs: f.runs, plan: prepareUpsert(catalog, graph, rest ?? { vertices: [], edges: [] }) };
}

/** The request as the general path prepares it. */
function prepareGeneral(text: string) {
  return prepareUpsert(catalog, graph, readJsonText(text, decodeUpsertBody) ?? { vertices: [], edges: [] });
}

/**
 * Applies the bodies in order to two databases, the general way and the fast way, and checks that
 * each body took the fast path and that counts, data and the data after a WAL replay are the same.
 */
async function sameAsGeneral(bodies: string[], flags = NO_FLAGS): Promise<void> {
  const ta = tempDir();
  const tb = tempDir();
  try {
    const a = await freshDb(ta);
    let b = await freshDb(tb);
    for (const text of bodies) {
      const f = prepareFast(text);
      const plan = prepareGeneral(text);
      const want = await a.write((tx) => applyUpsert(tx, plan, flags));
      const got = await b.write((tx) => applyUpsert(tx, f.plan, flags, f.runs));
      assert.deepEqual(got, want, text);
    }
    const expected = graphSnapshot(a);
    assert.deepEqual(graphSnapshot(b), expected);
    await b.close();
    b = await tb.open();
    assert.deepEqual(graphSnapshot(b), expected, 'after WAL replay');
    await a.close();
    await b.close();
  } finally {
    ta.cleanup();
    tb.cleanup();
  }
}

test('INT ids: short decimals read as numbers, every other valid form as text, all as the general path stores them', async () => {
  await sameAsGeneral([
    JSON.stringify({
      vertices: {
        Num: {
          '1': { v: { value: 10 } },
          '-5': { v: { value: -5 } },
          '007': { v: { value: 7 } },
          '-0': {},
          '999999999999999': { v: { value: 15 } },
          '-999999999999999': {},
          '9007199254740991': { v: { value: 16 } },
          '9007199254740993': { v: { value: 17 } },
          '9223372036854775807': {},
          '-9223372036854775808': { v: { value: '-9223372036854775808' } },
          '+12': { v: { value: '12' } },
        },
      },
    }),
    // The same ids again, through ops, in another spelling: updates of the same vertices.
    '{"vertices":{"Num":{"0001":{"v":{"value":5,"op":"+"}},"-05":{"v":{"value":1,"op":"max"}},' +
      '"7":{"v":{"value":1,"op":"min"}},"0":{"v":{"value":3,"op":"~"}},"12":{"v":{"value":6,"op":"&"}},' +
      '"9007199254740993":{"v":{"value":1,"op":"add"}}}}}',
  ]);
});

test('UINT, STRING, DATETIME, composite and PRIMARY KEY ids', async () => {
  await sameAsGeneral([
    JSON.stringify({
      vertices: {
        UNum: { '5': {}, '0018446744073709551615': {}, '-0': {}, '18446744073709551615': {} },
        Person: {
          alice: { age: { value: 30 } },
          'an id longer than thirteen characters': { tag: { value: 'long' } },
          café: {},
          日本: { tag: { value: '語' } },
        },
        Day: { '2024-01-02 03:04:05': {} },
        Acct: { 'bob,3': { balance: { value: 9 }, no: { value: 99 } } },
        // The key attribute is ignored, its value unread.
        Item: { '12': { title: { value: 'twelve' }, sku: { value: 'not an int' } } },
      },
    }),
    '{"vertices":{"Person":{"caf\\u00e9":{"age":{"value":1}},"a\\"quote":{}}}}',
  ]);
});

test('every scalar attribute type, values in each form the general reader takes', async () => {
  await sameAsGeneral([
    '{"vertices":{"Person":{' +
      '"p1":{"age":{"value":41},"big":{"value":9007199254740993},"u":{"value":18446744073709551615},' +
      '"score":{"value":0.14285714285714285},"f":{"value":1.5},"ok":{"value":true},' +
      '"born":{"value":"2020-02-29 12:00:00"},"tag":{"value":"tag with \\"quotes\\" and \\\\ and é"},' +
      '"bin":{"value":"abcd"},"name2":{"value":"a name of more than thirteen characters"}},' +
      '"p2":{"age":{"value":"42"},"big":{"value":-9007199254740993},"u":{"value":"7"},"score":{"value":"2.5"},' +
      '"f":{"value":1e-7},"ok":{"value":"false"},"born":{"value":86400},"tag":{"value":12},' +
      '"name2":{"value":"n","op":null}},' +
      '"p3":{"ok":{"value":1},"score":{"value":-0},"f":{"value":3},"age":{"value":-0.0e0}}}}}',
  ]);
});

test('repeats: a key repeated in a vertex (last wins), an id repeated in a type, a type repeated; empty objects', async () => {
  await sameAsGeneral([
    '{"vertices":{"Num":{"1":{"v":{"value":1},"v":{"value":2,"op":"+"}},"1":{"v":{"value":10,"op":"add"}}},' +
      '"UNum":{},"Num":{"2":{"v":{"op":"max","value":4,"note":"ignored"}}}}}',
    '{"vertices":{}}',
    // Whitespace everywhere JSON allows it.
    ' \n{ "vertices" : {\t"Num" : { "3" : { "v" : { "value" : 3 , "op" : "+" } } , "4" : { } } } }\r\n',
  ]);
});

test('edge flags without vertex flags give the counts the general path gives', async () => {
  await sameAsGeneral(['{"vertices":{"Num":{"1":{}}}}'], { ...NO_FLAGS, vertexMustExist: true });
  await sameAsGeneral(['{"vertices":{"Num":{"1":{}}}}'], { ...NO_FLAGS, targetVertexMustExist: true });
});

test('anything else is left to the general path', () => {
  const general = [
    // Not starting with vertices.
    '{"edges":{}}',
    '{"edges":{},"vertices":{"Num":{"1":{}}}}',
    '{"other":{}}',
    '{}',
    '',
    '[]',
    // Shape and schema errors.
    '{"vertices":{"Nope":{"1":{}}}}',
    '{"vertices":{"Num":{"x1":{}}}}',
    '{"vertices":{"UNum":{"-1":{}}}}',
    '{"vertices":{"Person":{"":{}}}}',
    '{"vertices":{"Acct":{"bob":{}}}}',
    '{"vertices":{"Num":{"1":{"v":{"value":"ten"}}}}}',
    '{"vertices":{"Num":{"1":{"v":{"value":null}}}}}',
    '{"vertices":{"Num":{"1":{"v":{}}}}}',
    '{"vertices":{"Num":{"1":{"v":1}}}}',
    '{"vertices":{"Num":{"1":{"v":{"value":1,"value":2}}}}}',
    '{"vertices":{"Num":{"1":{"v":{"value":1,"op":"+","op":"+"}}}}}',
    '{"vertices":{"Num":{"1":{"v":{"value":1,"op":"times"}}}}}',
    '{"vertices":{"Num":{"1":{"v":{"value":1,"op":"constructor"}}}}}',
    '{"vertices":{"Person":{"p":{"score":{"value":1,"op":"&"}}}}}',
    '{"vertices":{"Num":[]}}',
    '{"vertices":{"Num":{"1":[]}}}',
    // Valid, but not read by the fast path: a collection value, an escaped attribute name, an
    // attribute name the type does not have (the general path ignores it).
    '{"vertices":{"Person":{"p":{"nums":{"value":[1,2]}}}}}',
    '{"vertices":{"Num":{"1":{"nosuch":{"value":1}}}}}',
    '{"vertices":{"Num":{"1":{"\\u0076":{"value":1}}}}}',
    '{"vertices":{"Num":{"2":{"v":{"value":4,"note":[1,{"x":2}]}}}}}',
    // Malformed JSON.
    '{"vertices":{"Num":{"1":{}}}',
    '{"vertices":{"Num":{"1":{},}}}',
    '{"vertices":{"Num":{"1":{}}}} x',
    '{"vertices":{"Num":{"1":{"v":{"value":01}}}}}',
  ];
  for (const text of general) assert.equal(fast(text), undefined, text);
});

test('vertices first, then edges (and more vertices): the rest is read from where the fast reader stopped', async () => {
  await sameAsGeneral([
    '{"vertices":{"Person":{"a":{"age":{"value":1}},"b":{}}},' +
      '"edges":{"Person":{"a":{"knows":{"Person":{"b":{"weight":{"value":0.5}},"c":{}}}}}},' +
      '"vertices":{"Person":{"c":{"age":{"value":3}}}}}',
    // Non-ASCII before the edges: the rest starts at a text offset other than its byte offset.
    '{ "vertices" : {"Person":{"日本":{"tag":{"value":"語"}},"é":{}}} ,\n "edges":{"Person":{"日本":{"knows":{"Person":{"é":{}}}}}}}',
    '{"vertices":{"Num":{"5":{}}},"edges":{}}',
  ]);
  // Endpoint flags see the vertices the fast reader wrote in the same request.
  await sameAsGeneral(
    [
      '{"vertices":{"Person":{"x":{}}},"edges":{"Person":{"x":{"knows":{"Person":{"y":{}}}},"y":{"follows":{"Person":{"x":{}}}}}}}',
    ],
    { ...NO_FLAGS, vertexMustExist: true },
  );
});

/** The error a request's preparation gives, or undefined. */
function errorOf(prepare: () => unknown): unknown {
  try {
    prepare();
    return undefined;
  } catch (e) {
    if (!(e instanceof RestError)) throw e;
    return { code: e.code, message: e.message };
  }
}

test('an error after the fast-read vertices is the one the general path reports', () => {
  const v = '{"vertices":{"Person":{"日本":{"age":{"value":1}}}}';
  const bodies = [
    `${v},"edges":{"Person":{"日本":{"knows":{"Person":{"b":{"weight":{"value":"heavy"}}}}}}}}`,
    `${v},"edges":{"Person":{"日本":{"nope":{"Person":{"b":{}}}}}}}`,
    `${v},"edges":[]}`,
    `${v},"bogus":{}}`,
    `${v},"vertices":{"Nope":{"1":{}}}}`,
    `${v},"vertices":{"Num":{"1":{"v":{"value":"x"}}}},"edges":{"Person":{"a":{"knows":{"Person":{"b":{"w":1}}}}}}}`,
    `${v},"edges":{}} x`,
    `${v},\n"edges":{"Person":{}},}`,
    `${v},"edges":{"Person":{"a":{"knows":{"Person":{"b":{"weight":{"value":1}}}}}}}`,
  ];
  for (const text of bodies) {
    const want = errorOf(() => prepareGeneral(text));
    assert.ok(want !== undefined, `the general path refuses ${text}`);
    assert.deepEqual(
      errorOf(() => prepareFast(text)),
      want,
      text,
    );
  }
});

test('vertex flags are not for column runs: their counts name each vertex', () => {
  const f = fast('{"vertices":{"Num":{"1":{}}}}');
  assert.ok(f);
  const plan = { vertexRuns: [], edges: [] };
  assert.throws(() => applyUpsert({} as never, plan, { ...NO_FLAGS, newVertexOnly: true }, f.runs));
});
