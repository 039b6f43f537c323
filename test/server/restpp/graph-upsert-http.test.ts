import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { call, startHarness, type Harness } from './graph-harness.js';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => h.close());

async function upsert(body: unknown, query = '', headers: Record<string, string> = {}) {
  return call(h.rest, 'POST', `/graph/tests${query}`, body, headers);
}

async function vertex(type: string, id: string): Promise<unknown> {
  const r = await call(h.rest, 'GET', `/graph/tests/vertices/${type}/${encodeURIComponent(id)}`);
  return r.status === 200 ? (r.body.results as unknown[])[0] : undefined;
}

async function count(type: string): Promise<number> {
  const r = await call(h.rest, 'GET', `/graph/tests/vertices/${type}?count_only=true`);
  return (r.body.results as { count: number }[])[0].count;
}

test("pyTigerGraph's upsertData sequence gives exactly TigerGraph's counts", async () => {
  const first = await upsert(
    {
      vertices: {
        vertex4: { '7000': { a01: { value: 7000 } }, '7001': { a01: { value: 7000 } } },
        vertex5: { '7000': {}, '7001': {} },
      },
      edges: {
        vertex4: {
          '7000': {
            edge2_directed: {
              vertex5: { '7000': { a01: { value: 7000 } }, '7001': { a01: { value: 7000 } } },
            },
          },
          '7001': { edge2_directed: { vertex5: { '7000': { a01: { value: 7000 } } } } },
        },
      },
    },
    '?ack=all',
    { 'gsql-atomic-level': 'atomic' },
  );
  assert.equal(first.status, 200);
  assert.equal(
    first.text,
    '{"version":{"edition":"enterprise","api":"v2","schema":0},"error":false,"message":"",' +
      '"results":[{"accepted_vertices":4,"accepted_edges":3}],"code":"REST-0000"}',
  );

  const newOnly = await upsert(
    {
      vertices: {
        vertex4: {
          '7000': { a01: { value: 7010 } },
          '7001': { a01: { value: 7010 } },
          '7002': { a01: { value: 7010 } },
        },
      },
    },
    '?new_vertex_only=True',
  );
  assert.deepEqual(newOnly.body.results, [
    {
      accepted_vertices: 1,
      skipped_vertices: 2,
      vertices_already_exist: [
        { v_type: 'vertex4', v_id: '7000' },
        { v_type: 'vertex4', v_id: '7001' },
      ],
      accepted_edges: 0,
    },
  ]);
  assert.deepEqual(await vertex('vertex4', '7000'), {
    v_id: '7000',
    v_type: 'vertex4',
    attributes: { a01: 7000 },
  });

  const mustExist = await upsert(
    {
      edges: {
        vertex4: {
          '7002': {
            edge2_directed: {
              vertex5: { '7001': { a01: { value: 7000 } }, '7002': { a01: { value: 7000 } } },
            },
          },
          '7003': { edge2_directed: { vertex5: { '7003': { a01: { value: 7000 } } } } },
        },
      },
    },
    '?vertex_must_exist=True',
  );
  assert.equal(mustExist.status, 200);
  assert.equal(mustExist.body.code, 'REST-0003');
  assert.equal(mustExist.body.error, false);
  assert.deepEqual(mustExist.body.results, [
    {
      accepted_vertices: 0,
      accepted_edges: 1,
      skipped_edges: 2,
      edge_vertices_not_exist: [
        { v_type: 'vertex5', v_id: '7002' },
        { v_type: 'vertex4', v_id: '7003' },
        { v_type: 'vertex5', v_id: '7003' },
      ],
    },
  ]);
  assert.equal(await vertex('vertex4', '7003'), undefined);

  const updateOnly = await upsert(
    {
      vertices: {
        vertex4: {
          '7000': { a01: { value: 7020 } },
          '7001': { a01: { value: 7020 } },
          '7003': { a01: { value: 7020 } },
        },
      },
    },
    '?update_vertex_only=1',
  );
  assert.deepEqual(updateOnly.body.results, [
    {
      accepted_vertices: 2,
      skipped_vertices: 1,
      vertices_not_exist: [{ v_type: 'vertex4', v_id: '7003' }],
      accepted_edges: 0,
    },
  ]);
  assert.equal(await vertex('vertex4', '7003'), undefined);
  const del = await call(h.rest, 'DELETE', '/graph/tests/vertices/vertex4?filter=a01%3E=7000,a01%3C8000');
  assert.deepEqual(del.body.results, { v_type: 'vertex4', deleted_vertices: 3 });
});

test('op codes: words and symbols combine with the stored value', async () => {
  await upsert({ vertices: { vertex7: { '1': { name: { value: 'm' }, score: { value: 5 } } } } });
  const steps: [string, unknown, string, unknown][] = [
    ['+', 2, 'score', 7],
    ['add', 1.5, 'score', 8.5],
    ['max', 3, 'score', 8.5],
    ['>', 10, 'score', 10],
    ['min', 12, 'score', 10],
    ['<', -1, 'score', -1],
    ['~', 99, 'score', -1],
    ['ignore_if_exists', 99, 'score', -1],
    ['add', 'x', 'name', 'mx'],
    ['max', 'z', 'name', 'z'],
  ];
  for (const [op, value, attr, expected] of steps) {
    const r = await upsert({ vertices: { vertex7: { '1': { [attr]: { value, op } } } } });
    assert.equal(r.status, 200, `${op}: ${r.text}`);
    const v = (await vertex('vertex7', '1')) as { attributes: Record<string, unknown> };
    assert.equal(v.attributes[attr], expected, `${op} ${String(value)}`);
  }
  await upsert({ vertices: { vertex4: { '50': { a01: { value: 12 } } } } });
  for (const [op, value, expected] of [
    ['&', 10, 8],
    ['and', 12, 8],
    ['|', 3, 11],
    ['or', 4, 15],
  ] as const) {
    await upsert({ vertices: { vertex4: { '50': { a01: { value, op } } } } });
    assert.deepEqual(await vertex('vertex4', '50'), {
      v_id: '50',
      v_type: 'vertex4',
      attributes: { a01: expected },
    });
  }
  // ignore_if_exists initialises a new vertex.
  await upsert({ vertices: { vertex4: { '51': { a01: { value: 5, op: '~' } } } } });
  assert.deepEqual(await vertex('vertex4', '51'), { v_id: '51', v_type: 'vertex4', attributes: { a01: 5 } });
  // pyTigerGraph's "+" on a new vertex sets the value.
  await upsert({ vertices: { vertex4: { '100': { a01: { value: 100 } } } } });
  await upsert({ vertices: { vertex4: { '100': { a01: { value: 11, op: '+' } } } } });
  assert.deepEqual(await vertex('vertex4', '100'), {
    v_id: '100',
    v_type: 'vertex4',
    attributes: { a01: 111 },
  });
});

test('new vertices get defaults; an empty attribute object leaves an existing vertex unchanged', async () => {
  const r = await upsert({ vertices: { vertex7: { '2': {} } } });
  assert.deepEqual(r.body.results, [{ accepted_vertices: 1, accepted_edges: 0 }]);
  assert.deepEqual(await vertex('vertex7', '2'), {
    v_id: '2',
    v_type: 'vertex7',
    attributes: { name: 'none', score: 0 },
  });
  await upsert({ vertices: { vertex7: { '2': { score: { value: 4 } } } } });
  await upsert({ vertices: { vertex7: { '2': {} } } });
  assert.deepEqual(await vertex('vertex7', '2'), {
    v_id: '2',
    v_type: 'vertex7',
    attributes: { name: 'none', score: 4 },
  });
});

test('attribute values in every JSON form round-trip', async () => {
  const r = await upsert({
    vertices: {
      vertex1_all_types: {
        v1: {
          a01_int: { value: 9223372036854775807n.toString() },
          a02_uint: { value: 18446744073709551615n.toString() },
          a04_double: { value: 1.25 },
          a05_datetime: { value: '2024-06-15 12:30:45' },
          a06_bool: { value: true },
          a07_string: { value: 'héllo' },
          a10_udt: {
            value: { keylist: ['field1', 'field2', 'field3'], valuelist: [1, 'ab', '2020-01-01 00:00:00'] },
          },
          a11_list_int: { value: [3, 1, 3] },
          a19_set_int: { value: [3, 1, 3] },
          a27_int_int: { value: { keylist: [1, 2], valuelist: [10, 20] } },
          a41_string_string: { value: { keyList: ['k'], valueList: ['v'] } },
        },
      },
    },
  });
  assert.equal(r.status, 200, r.text);
  const g = await call(
    h.rest,
    'GET',
    '/graph/tests/vertices/vertex1_all_types/v1?select=a01_int,a02_uint,a05_datetime,a10_udt,a11_list_int,a19_set_int,a27_int_int,a41_string_string',
  );
  assert.ok(
    g.text.includes(
      '"attributes":{"a01_int":9223372036854775807,"a02_uint":18446744073709551615,"a05_datetime":"2024-06-15 12:30:45",' +
        '"a10_udt":{"field1":1,"field2":"ab","field3":"2020-01-01 00:00:00"},"a11_list_int":[3,1,3],"a19_set_int":[3,1],' +
        '"a27_int_int":{"1":10,"2":20},"a41_string_string":{"k":"v"}}',
    ),
    g.text,
  );
  // 64-bit integers in the body itself stay exact.
  const big = await upsert('{"vertices":{"vertex4":{"60":{"a01":{"value":9223372036854775806}}}}}');
  assert.equal(big.status, 200);
  const v = await call(h.rest, 'GET', '/graph/tests/vertices/vertex4/60');
  assert.ok(v.text.includes('"a01":9223372036854775806'), v.text);
  // DATETIME as epoch seconds.
  await upsert({ vertices: { vertex1_all_types: { v2: { a05_datetime: { value: 86400 } } } } });
  const d = await call(h.rest, 'GET', '/graph/tests/vertices/vertex1_all_types/v2?select=a05_datetime');
  assert.deepEqual((d.body.results as { attributes: unknown }[])[0].attributes, {
    a05_datetime: '1970-01-02 00:00:00',
  });
});

test('composite-key ids are the key values joined by commas', async () => {
  const r = await upsert({
    vertices: { vertex3_primary_key_composite: { '1,abc,2021-03-04 05:06:07': { a04: { value: true } } } },
  });
  assert.deepEqual(r.body.results, [{ accepted_vertices: 1, accepted_edges: 0 }]);
  const g = await call(h.rest, 'GET', '/graph/tests/vertices/vertex3_primary_key_composite');
  assert.deepEqual(g.body.results, [
    {
      v_id: '1,abc,2021-03-04 05:06:07',
      v_type: 'vertex3_primary_key_composite',
      attributes: { a01: 1, a02: 'abc', a03: '2021-03-04 05:06:07', a04: true },
    },
  ]);
});

test('repeated target ids under a discriminated edge type upsert one edge each', async () => {
  const body =
    '{"edges":{"vertex4":{"1":{"edge7_multi":{"vertex5":{"2":{"d":{"value":1},"a01":{"value":10}},' +
    '"2":{"d":{"value":2},"a01":{"value":20}},"2":{"d":{"value":1},"a01":{"value":11}}}}}}}}';
  const r = await upsert(body, '?vertex_must_exist=false');
  assert.deepEqual(r.body.results, [{ accepted_vertices: 0, accepted_edges: 3 }]);
  const e = await call(h.rest, 'GET', '/graph/tests/edges/vertex4/1/edge7_multi/vertex5/2?sort=d');
  assert.deepEqual(
    (e.body.results as { attributes: unknown }[]).map((x) => x.attributes),
    [
      { d: 1, a01: 11 },
      { d: 2, a01: 20 },
    ],
  );
  const one = await call(h.rest, 'GET', '/graph/tests/edges/vertex4/1/edge7_multi/vertex5/2/2');
  assert.deepEqual(
    (one.body.results as { attributes: unknown }[]).map((x) => x.attributes),
    [{ d: 2, a01: 20 }],
  );
});

test('source_/target_vertex_must_exist check one end; combined with vertex_must_exist is an error', async () => {
  const body = {
    edges: { vertex4: { '555': { edge2_directed: { vertex5: { '900': { a01: { value: 1 } } } } } } },
  };
  const src = await upsert(body, '?source_vertex_must_exist=true');
  assert.deepEqual(src.body.results, [
    {
      accepted_vertices: 0,
      accepted_edges: 0,
      skipped_edges: 1,
      edge_vertices_not_exist: [{ v_type: 'vertex4', v_id: '555' }],
    },
  ]);
  assert.equal(src.body.code, 'REST-0003');
  assert.equal(await vertex('vertex5', '900'), undefined);
  await upsert({ vertices: { vertex4: { '1': {} } } });
  const src2 = await upsert(
    { edges: { vertex4: { '1': { edge2_directed: { vertex5: { '901': {} } } } } } },
    '?source_vertex_must_exist=true',
  );
  assert.deepEqual(src2.body.results, [
    { accepted_vertices: 0, accepted_edges: 1, skipped_edges: 0, edge_vertices_not_exist: [] },
  ]);
  assert.deepEqual(await vertex('vertex5', '901'), { v_id: '901', v_type: 'vertex5', attributes: {} });
  const tgt = await upsert(
    { edges: { vertex4: { '1': { edge2_directed: { vertex5: { '902': {} } } } } } },
    '?target_vertex_must_exist=true',
  );
  assert.deepEqual(tgt.body.results, [
    {
      accepted_vertices: 0,
      accepted_edges: 0,
      skipped_edges: 1,
      edge_vertices_not_exist: [{ v_type: 'vertex5', v_id: '902' }],
    },
  ]);
  // Undirected: either flag requires both ends.
  const und = await upsert(
    { edges: { vertex4: { '1': { edge1_undirected: { vertex5: { '903': {} } } } } } },
    '?source_vertex_must_exist=true',
  );
  assert.deepEqual(und.body.results, [
    {
      accepted_vertices: 0,
      accepted_edges: 0,
      skipped_edges: 1,
      edge_vertices_not_exist: [{ v_type: 'vertex5', v_id: '903' }],
    },
  ]);
  const both = await upsert(body, '?vertex_must_exist=true&target_vertex_must_exist=true');
  assert.equal(both.status, 400);
  assert.equal(both.body.code, 'REST-30200');
  assert.ok(String(both.body.message).includes('vertex_must_exist'));
  // vertices upserted in the same request count as existing.
  const same = await upsert(
    {
      vertices: { vertex5: { '950': {} } },
      edges: { vertex4: { '1': { edge2_directed: { vertex5: { '950': {} } } } } },
    },
    '?vertex_must_exist=true',
  );
  assert.deepEqual(same.body.results, [
    { accepted_vertices: 1, accepted_edges: 1, skipped_edges: 0, edge_vertices_not_exist: [] },
  ]);
  assert.equal(same.body.code, 'REST-0000');
});

test('invalid requests fail whole, atomic or not, and change nothing', async () => {
  const before = await count('vertex4');
  const good = { '800': { a01: { value: 1 } }, '801': { a01: { value: 2 } } };
  const cases: [unknown, string, Record<string, string>, string, string][] = [
    [
      { vertices: { vertex4: { ...good, '802': { a01: { value: 'x' } } } } },
      '',
      { 'gsql-atomic-level': 'atomic' },
      'REST-30200',
      "'a01'",
    ],
    [{ vertices: { vertex4: { ...good, '802': { a01: { value: 'x' } } } } }, '', {}, 'REST-30200', "'a01'"],
    [
      { vertices: { vertex4: good, non_existing_vertex_type: { '1': {} } } },
      '',
      {},
      'REST-30200',
      'non_existing_vertex_type',
    ],
    [
      { vertices: { vertex4: good }, edges: { vertex4: { '1': { nope: { vertex5: { '1': {} } } } } } },
      '',
      {},
      'REST-30200',
      "'nope'",
    ],
    [
      {
        vertices: { vertex4: good },
        edges: { vertex4: { '1': { edge2_directed: { vertex6: { '1': {} } } } } },
      },
      '',
      {},
      'REST-30200',
      'vertex6',
    ],
    [
      { vertices: { vertex4: { ...good, '804': { a01: { value: 1, op: 'times' } } } } },
      '',
      {},
      'REST-30000',
      'times',
    ],
    [{ vertices: { vertex4: good } }, '?new_vertex_only=maybe', {}, 'REST-30200', 'new_vertex_only'],
    [
      { vertices: { vertex4: good } },
      '?new_vertex_only=true&update_vertex_only=true',
      {},
      'REST-30200',
      'update_vertex_only',
    ],
    [{ vertices: { vertex4: good } }, '?ack=some', {}, 'REST-30200', "'ack'"],
    [
      { vertices: { vertex4: good } },
      '',
      { 'gsql-atomic-level': 'sometimes' },
      'REST-30200',
      'gsql-atomic-level',
    ],
    ['{"vertices": {"vertex4": ', '', {}, 'REST-30000', 'JSON'],
  ];
  for (const [body, query, headers, code, fragment] of cases) {
    const r = await upsert(body, query, headers);
    assert.equal(r.status, 400, `${code} ${fragment}: ${r.text}`);
    assert.equal(r.body.error, true);
    assert.equal(r.body.code, code, r.text);
    assert.ok(String(r.body.message).includes(fragment), String(r.body.message));
    assert.ok(!r.text.includes('    at '), 'no stack trace');
  }
  assert.equal(await count('vertex4'), before);
  assert.equal(await vertex('vertex4', '800'), undefined);
  const unknownGraph = await call(h.rest, 'POST', '/graph/nograph', { vertices: { vertex4: good } });
  assert.equal(unknownGraph.body.code, 'REST-1004');
  assert.equal(await count('vertex4'), before);
});

test('an attribute name the type does not have is ignored; the rest is upserted (spec §4.17 rule 3)', async () => {
  const r = await upsert({
    vertices: {
      vertex4: {
        '860': { a01: { value: 5 }, non_existing_vertex_attribute: { value: 1 } },
        '861': { nope: { value: 'x', op: 'add' } },
      },
      vertex5: { '860': {} },
    },
    edges: {
      vertex4: {
        '860': { edge2_directed: { vertex5: { '860': { a01: { value: 3 }, zzz: { value: 9 } } } } },
      },
    },
  });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.body.results, [{ accepted_vertices: 3, accepted_edges: 1 }]);
  assert.deepEqual(await vertex('vertex4', '860'), {
    v_id: '860',
    v_type: 'vertex4',
    attributes: { a01: 5 },
  });
  // A vertex given only unknown attributes is created with defaults, like one given none.
  assert.deepEqual(await vertex('vertex4', '861'), {
    v_id: '861',
    v_type: 'vertex4',
    attributes: { a01: 0 },
  });
  const e = await call(h.rest, 'GET', '/graph/tests/edges/vertex4/860/edge2_directed/vertex5/860');
  assert.deepEqual(
    (e.body.results as { attributes: unknown }[]).map((x) => x.attributes),
    [{ a01: 3 }],
  );
  // An existing vertex keeps its values when only unknown attributes are sent.
  const again = await upsert({ vertices: { vertex4: { '860': { gone: { value: 1 } } } } });
  assert.deepEqual(again.body.results, [{ accepted_vertices: 1, accepted_edges: 0 }]);
  assert.deepEqual(await vertex('vertex4', '860'), {
    v_id: '860',
    v_type: 'vertex4',
    attributes: { a01: 5 },
  });
});

test('the :14240/restpp listener serves upserts too', async () => {
  const r = await call(h.restpp, 'POST', '/graph/tests', { vertices: { vertex6: { '77': {} } } });
  assert.deepEqual(r.body.results, [{ accepted_vertices: 1, accepted_edges: 0 }]);
});
