import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { okEnvelope } from '../../../src/server/http/envelope.js';
import { vertexJson } from '../../../src/server/restpp/graph-records.js';
import { vertexAttrTypes } from '../../../src/server/restpp/graph-schema.js';
import { stringifyJson } from '../../../src/util/json.js';
import { call, seed, startHarness, type Harness } from './graph-harness.js';

let h: Harness;
before(async () => {
  h = await startHarness();
  await seed(h);
});
after(async () => h.close());

const V = '/graph/tests/vertices/vertex4';

function ids(body: Record<string, unknown>): string[] {
  return (body.results as { v_id: string }[]).map((r) => r.v_id);
}

test('GET vertices lists records with string ids, on :9000 and :14240/restpp', async () => {
  for (const base of [h.rest, h.restpp]) {
    const r = await call(base, 'GET', `${V}?filter=a01%3C3`);
    assert.equal(r.status, 200);
    assert.equal(
      r.text,
      '{"version":{"edition":"enterprise","api":"v2","schema":0},"error":false,"message":"",' +
        '"results":[{"v_id":"1","v_type":"vertex4","attributes":{"a01":1}},' +
        '{"v_id":"2","v_type":"vertex4","attributes":{"a01":2}}],"code":"REST-0000"}',
    );
  }
});

test('select, filter, sort and limit as pyTigerGraph sends them', async () => {
  const r = await call(h.rest, 'GET', `${V}?select=a01&filter=a01%3E1,a01%3C5&limit=2&sort=-a01&timeout=5`);
  assert.equal(r.status, 200);
  assert.deepEqual(r.body.results, [
    { v_id: '4', v_type: 'vertex4', attributes: { a01: 4 } },
    { v_id: '3', v_type: 'vertex4', attributes: { a01: 3 } },
  ]);
  const all = await call(h.rest, 'GET', `${V}?sort=a01`);
  assert.deepEqual(ids(all.body), ['1', '2', '3', '4', '5']);
  const each = await call(h.rest, 'GET', `${V}?filter=a01!=3&filter=a01%3E=2&filter=a01%3C=4`);
  assert.deepEqual(ids(each.body), ['2', '4']);
  const eq = await call(h.rest, 'GET', `${V}?filter=a01=5`);
  assert.deepEqual(ids(eq.body), ['5']);
});

test('count_only counts the filter matches', async () => {
  const r = await call(h.rest, 'GET', `${V}?count_only=true&filter=a01%3E=3`);
  assert.deepEqual(r.body.results, [{ v_type: 'vertex4', count: 3 }]);
  const all = await call(h.rest, 'GET', `${V}?count_only=True`);
  assert.deepEqual(all.body.results, [{ v_type: 'vertex4', count: 5 }]);
});

test('GET one vertex by id; ids with special characters are path-decoded', async () => {
  const r = await call(h.rest, 'GET', `${V}/3`);
  assert.deepEqual(r.body.results, [{ v_id: '3', v_type: 'vertex4', attributes: { a01: 3 } }]);
  const up = await call(h.rest, 'POST', '/graph/tests', {
    vertices: { vertex1_all_types: { 'a b': { a07_string: { value: 's' } }, 'c/d': {} } },
  });
  assert.equal(up.status, 200);
  const sp = await call(h.rest, 'GET', '/graph/tests/vertices/vertex1_all_types/a%20b?select=a07_string');
  assert.deepEqual(sp.body.results, [
    { v_id: 'a b', v_type: 'vertex1_all_types', attributes: { a07_string: 's' } },
  ]);
  const sl = await call(h.rest, 'GET', '/graph/tests/vertices/vertex1_all_types/c%2Fd');
  assert.equal((sl.body.results as { v_id: string }[])[0].v_id, 'c/d');
});

test('bad requests: each gets a code, a non-404 status and names the offending item', async () => {
  const cases: [string, string, string, number][] = [
    ['/graph/tests/vertices/nope', 'REST-30000', "'nope'", 400],
    [`${V}?filter=zzz=1`, 'REST-30001', "'zzz'", 400],
    [`${V}?filter=a01%3Eabc`, 'REST-30001', "'abc'", 400],
    [`${V}?filter=a01`, 'REST-30001', "'a01'", 400],
    [`${V}?sort=-zzz`, 'REST-30001', "'zzz'", 400],
    [`${V}?select=zzz`, 'REST-30001', "'zzz'", 400],
    [`${V}?limit=-1`, 'REST-30001', "'limit'", 400],
    [`${V}?count_only=maybe`, 'REST-30001', "'count_only'", 400],
    [`${V}?timeout=soon`, 'REST-30001', "'timeout'", 400],
    [`${V}/999`, 'REST-30000', "'999'", 400],
    [`${V}/abc`, 'REST-30000', "'abc'", 400],
  ];
  for (const [path, code, fragment, status] of cases) {
    const r = await call(h.rest, 'GET', path);
    assert.equal(r.status, status, path);
    assert.equal(r.body.error, true, path);
    assert.equal(r.body.code, code, path);
    assert.ok(String(r.body.message).includes(fragment), `${path}: ${String(r.body.message)}`);
    assert.deepEqual(r.body.results, [], path);
  }
  const g = await call(h.rest, 'GET', '/graph/nograph/vertices/vertex4');
  assert.equal(g.body.code, 'REST-1004');
  assert.equal(g.body.error, true);
});

test('DELETE by filter with limit and sort deletes exactly the selected vertices', async () => {
  const up = await call(h.rest, 'POST', '/graph/tests', {
    vertices: {
      vertex4: Object.fromEntries(
        [300, 301, 302, 303, 304, 305].map((i) => [String(i), { a01: { value: i } }]),
      ),
    },
  });
  assert.equal(up.status, 200);
  const r = await call(h.rest, 'DELETE', `${V}?filter=a01%3E=303&limit=2&sort=-a01&permanent=true&timeout=5`);
  assert.equal(r.status, 200);
  assert.equal(
    r.text,
    '{"version":{"edition":"enterprise","api":"v2","schema":0},"error":false,"message":"",' +
      '"results":{"v_type":"vertex4","deleted_vertices":2},"code":"REST-0000"}',
  );
  const left = await call(h.rest, 'GET', `${V}?filter=a01%3E=300&sort=a01`);
  assert.deepEqual(ids(left.body), ['300', '301', '302', '303']);
  const one = await call(h.rest, 'DELETE', `${V}/300?permanent=true&timeout=3`);
  assert.deepEqual(one.body.results, { v_type: 'vertex4', deleted_vertices: 1 });
  const again = await call(h.rest, 'DELETE', `${V}/300`);
  assert.deepEqual(again.body.results, { v_type: 'vertex4', deleted_vertices: 0 });
  const rest = await call(h.rest, 'DELETE', `${V}?filter=a01%3E=300`);
  assert.deepEqual(rest.body.results, { v_type: 'vertex4', deleted_vertices: 3 });
  const count = await call(h.rest, 'GET', `${V}?count_only=true`);
  assert.deepEqual(count.body.results, [{ v_type: 'vertex4', count: 5 }]);
});

test('failed deletes change nothing', async () => {
  for (const path of [
    '/graph/tests/vertices/non_existent_vertex_type/1',
    '/graph/tests/vertices/nope',
    `${V}?filter=zzz=1`,
    `${V}?ack=maybe`,
    `${V}?permanent=perhaps`,
    '/graph/tests/delete_by_type/vertices/nope',
  ]) {
    const r = await call(h.rest, 'DELETE', path);
    assert.notEqual(r.status, 404, path);
    assert.ok(r.status >= 400, path);
    assert.equal(r.body.error, true, path);
  }
  const nx = await call(h.rest, 'DELETE', '/graph/tests/vertices/non_existent_vertex_type/1');
  assert.equal(nx.body.code, 'REST-30000');
  const count = await call(h.rest, 'GET', `${V}?count_only=true`);
  assert.deepEqual(count.body.results, [{ v_type: 'vertex4', count: 5 }]);
});

test('DELETE a whole type: ?ack=none on the list path and delete_by_type', async () => {
  const up = await call(h.rest, 'POST', '/graph/tests', {
    vertices: { vertex6: { '1': {}, '2': {}, '3': {} } },
  });
  assert.equal(up.status, 200);
  const r = await call(h.rest, 'DELETE', '/graph/tests/vertices/vertex6?ack=none&permanent=true');
  assert.deepEqual(r.body.results, { v_type: 'vertex6', deleted_vertices: 3 });
  await call(h.rest, 'POST', '/graph/tests', { vertices: { vertex6: { '7': {}, '8': {} } } });
  const t = await call(h.rest, 'DELETE', '/graph/tests/delete_by_type/vertices/vertex6?ack=all');
  assert.deepEqual(t.body.results, { v_type: 'vertex6', deleted_vertices: 2 });
  const c = await call(h.rest, 'GET', '/graph/tests/vertices/vertex6?count_only=true');
  assert.deepEqual(c.body.results, [{ v_type: 'vertex6', count: 0 }]);
});

test('a permanently deleted id cannot be upserted again', async () => {
  await call(h.rest, 'POST', '/graph/tests', { vertices: { vertex7: { '42': {} } } });
  const d = await call(h.rest, 'DELETE', '/graph/tests/vertices/vertex7/42?permanent=true');
  assert.deepEqual(d.body.results, { v_type: 'vertex7', deleted_vertices: 1 });
  const again = await call(h.rest, 'POST', '/graph/tests', { vertices: { vertex7: { '42': {} } } });
  const get = await call(h.rest, 'GET', '/graph/tests/vertices/vertex7?count_only=true');
  assert.equal(again.status, 200);
  assert.deepEqual(again.body.results, [{ accepted_vertices: 0, accepted_edges: 0 }]);
  assert.deepEqual(get.body.results, [{ v_type: 'vertex7', count: 0 }]);
});

test('GET /endpoints lists the vertex endpoints with their parameters', async () => {
  const r = await call(h.rest, 'GET', '/endpoints/tests?builtin=true');
  const list = r.body as Record<string, { parameters: Record<string, unknown> }>;
  const e = list['GET /graph/{graph_name}/vertices/{vertex_type}'];
  assert.ok(e);
  assert.deepEqual(Object.keys(e.parameters).sort(), [
    'count_only',
    'filter',
    'limit',
    'select',
    'sort',
    'timeout',
  ]);
  assert.ok(list['DELETE /graph/{graph_name}/delete_by_type/vertices/{vertex_type}']);
  assert.ok(list['POST /graph/{graph_name}'].parameters.vertex_must_exist);
});

test('paths without a graph name mean the only graph; with several graphs they are an error', async () => {
  const several = await call(h.rest, 'GET', '/graph/vertices/vertex4?count_only=true');
  assert.equal(several.status, 400);
  assert.equal(several.body.code, 'REST-30000');
  assert.ok(String(several.body.message).includes('there are 2 graphs'));
  const catalog = h.db.catalog;
  await h.db.changeCatalog({
    ...catalog,
    version: catalog.version + 1,
    graphs: catalog.graphs.filter((g) => g.name === 'tests'),
  });
  const up = await call(h.rest, 'POST', '/graph', { vertices: { vertex6: { '31': {} } } });
  assert.deepEqual(up.body.results, [{ accepted_vertices: 1, accepted_edges: 0 }]);
  const one = await call(h.rest, 'GET', '/graph/vertices/vertex6/31');
  assert.deepEqual(one.body.results, [{ v_id: '31', v_type: 'vertex6', attributes: {} }]);
  const del = await call(h.rest, 'DELETE', '/graph/vertices/vertex6/31');
  assert.deepEqual(del.body.results, { v_type: 'vertex6', deleted_vertices: 1 });
  const named = await call(h.rest, 'GET', '/graph/tests/vertices/vertex6?count_only=true');
  assert.deepEqual(named.body.results, [{ v_type: 'vertex6', count: 0 }]);
});

/** The answer the generic path writes: the envelope object through the reply serializer. */
function objectPathText(type: string, rows: number[], attrs?: string[]): string {
  const tx = h.db.read();
  try {
    const vt = tx.catalog.vertexTypes.find((t) => t.name === type)!;
    return stringifyJson(
      okEnvelope(rows.map((row) => vertexJson(tx.vertex(type, row, attrs), vertexAttrTypes(vt), tx.catalog))),
    );
  } finally {
    tx.release();
  }
}

function rowOf(type: string, id: string): number {
  const tx = h.db.read();
  try {
    return tx.lookup(type, id)!;
  } finally {
    tx.release();
  }
}

test('vertex reads written as text are byte for byte the envelope the serializer writes', async () => {
  const T = 'vertex1_all_types';
  const up = await call(
    h.rest,
    'POST',
    '/graph/tests',
    '{"vertices":{"vertex1_all_types":{"q\\"\\\\é\\u2028x":{' +
      '"a01_int":{"value":-9223372036854775808},"a02_uint":{"value":18446744073709551615},' +
      '"a03_float":{"value":0.1},"a04_double":{"value":-2.5e-7},"a05_datetime":{"value":"2024-06-15 12:30:45"},' +
      '"a06_bool":{"value":true},"a07_string":{"value":"tab\\tquote\\" 😀"},' +
      '"a10_udt":{"value":{"keylist":["field1","field2","field3"],"valuelist":[7,"ab","2020-01-01 00:00:00"]}},' +
      '"a11_list_int":{"value":[3,1,3]},"a19_set_int":{"value":[3,1]},' +
      '"a27_int_int":{"value":{"keylist":[1,2],"valuelist":[10,20]}},' +
      '"a41_string_string":{"value":{"keyList":["k\\"1"],"valueList":["v"]}}}}}}',
  );
  assert.equal(up.status, 200, up.text);
  const id = 'q"\\é\u2028x';
  const row = rowOf(T, id);
  const one = await call(h.rest, 'GET', `/graph/tests/vertices/${T}/${encodeURIComponent(id)}`);
  assert.equal(one.status, 200);
  assert.equal(one.text, objectPathText(T, [row]));
  assert.ok(one.text.includes('"a02_uint":18446744073709551615'), one.text);
  const sel = await call(
    h.rest,
    'GET',
    `/graph/tests/vertices/${T}/${encodeURIComponent(id)}?select=a07_string,a01_int`,
  );
  assert.equal(sel.text, objectPathText(T, [row], ['a07_string', 'a01_int']));
  const list = await call(h.rest, 'GET', `/graph/tests/vertices/${T}`);
  const tx = h.db.read();
  const rows = Array.from(tx.rows(T));
  tx.release();
  assert.equal(list.text, objectPathText(T, rows));
  assert.equal(rows.length > 1, true);
});

test('a limit without sort returns the first live rows in row order, also after deletes', async () => {
  const T = '/graph/tests/vertices/vertex5';
  const up = await call(h.rest, 'POST', '/graph/tests', {
    vertices: { vertex5: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [String(100 + i), {}])) },
  });
  assert.equal(up.status, 200, up.text);
  for (const id of ['1', '101', '102', '110']) {
    assert.equal((await call(h.rest, 'DELETE', `${T}/${id}`)).status, 200);
  }
  const all = ids((await call(h.rest, 'GET', T)).body);
  assert.equal(all.includes('101') || all.includes('1'), false);
  for (const limit of [0, 1, 3, 7, all.length, all.length + 5]) {
    const r = await call(h.rest, 'GET', `${T}?limit=${limit}`);
    assert.equal(r.status, 200);
    assert.deepEqual(ids(r.body), all.slice(0, limit), `limit=${limit}`);
  }
  const counted = await call(h.rest, 'GET', `${T}?limit=2&count_only=true`);
  assert.deepEqual(counted.body.results, [{ v_type: 'vertex5', count: all.length }]);
});
