import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { call, seed, startHarness, type Harness } from './graph-harness.js';

let h: Harness;
before(async () => {
  h = await startHarness();
  await seed(h);
  const e1: Record<string, Record<string, unknown>> = {};
  for (const [s, t, a] of [
    [1, 1, 1],
    [1, 2, 2],
    [1, 3, 2],
    [2, 2, 2],
    [2, 4, 2],
    [3, 1, 2],
    [3, 3, 2],
    [3, 5, 2],
  ]) {
    (e1[String(s)] ??= {})[String(t)] = { a01: { value: a } };
  }
  const edges: Record<string, Record<string, unknown>> = {};
  for (const [s, targets] of Object.entries(e1)) edges[s] = { edge1_undirected: { vertex5: targets } };
  (edges['2'] as Record<string, unknown>).edge2_directed = { vertex5: { '1': { a01: { value: 2 } } } };
  edges['3'] = { ...edges['3'], edge3_directed_with_reverse: { vertex5: { '1': { a01: { value: 3 } } } } };
  edges['1'] = { ...edges['1'], edge4_many_to_many: { vertex5: { '1': {}, '2': {}, '3': {} } } };
  edges['2'] = { ...edges['2'], edge4_many_to_many: { vertex6: { '2': {}, '4': {} } } };
  edges['4'] = { edge4_many_to_many: { vertex7: { '1': {}, '3': {}, '5': {} } } };
  const r = await call(h.rest, 'POST', '/graph/tests', { edges: { vertex4: edges } });
  assert.deepEqual(r.body.results, [{ accepted_vertices: 0, accepted_edges: 18 }]);
});
after(async () => h.close());

async function builtin(body: unknown, query = '') {
  return call(h.rest, 'POST', `/builtins/tests${query}`, body);
}

function asMap(results: unknown, key: 'v_type' | 'e_type'): Record<string, number> {
  return Object.fromEntries(
    (results as Record<string, unknown>[]).map((r) => [r[key] as string, r.count as number]),
  );
}

test('stat_vertex_attr for vertex4 is exactly what pyTigerGraph compares', async () => {
  const r = await builtin('{"function":"stat_vertex_attr","type":"vertex4"}');
  assert.equal(r.status, 200);
  assert.equal(
    r.text,
    '{"version":{"edition":"enterprise","api":"v2","schema":0},"error":false,"message":"",' +
      '"results":[{"attributes":{"a01":{"AVG":3,"MAX":5,"MIN":1}},"v_type":"vertex4"}],"code":"REST-0000"}',
  );
});

test('stat_vertex_number: every type for *, zero counts included; one type; realtime', async () => {
  const all = await builtin({ function: 'stat_vertex_number', type: '*' });
  assert.deepEqual(asMap(all.body.results, 'v_type'), {
    vertex1_all_types: 0,
    vertex3_primary_key_composite: 0,
    vertex4: 5,
    vertex5: 5,
    vertex6: 2,
    vertex7: 3,
  });
  const one = await builtin({ function: 'stat_vertex_number', type: 'vertex4' }, '?realtime=true');
  assert.deepEqual(one.body.results, [{ v_type: 'vertex4', count: 5 }]);
  const via = await call(h.restpp, 'POST', '/builtins/tests', {
    function: 'stat_vertex_number',
    type: 'vertex5',
  });
  assert.deepEqual(via.body.results, [{ v_type: 'vertex5', count: 5 }]);
});

test('stat_edge_number: *, one type, from_type and to_type', async () => {
  const all = await builtin('{"function":"stat_edge_number","type":"*"}');
  assert.deepEqual(asMap(all.body.results, 'e_type'), {
    edge1_undirected: 8,
    edge2_directed: 1,
    edge3_directed_with_reverse: 1,
    edge3_directed_with_reverse_reverse_edge: 1,
    edge4_many_to_many: 8,
    edge6_loop: 0,
    edge7_multi: 0,
  });
  const e4 = await builtin({ function: 'stat_edge_number', type: 'edge4_many_to_many' });
  assert.deepEqual(e4.body.results, [{ e_type: 'edge4_many_to_many', count: 8 }]);
  const from = await builtin({
    function: 'stat_edge_number',
    type: 'edge4_many_to_many',
    from_type: 'vertex4',
  });
  assert.deepEqual(from.body.results, [{ e_type: 'edge4_many_to_many', count: 8 }]);
  const pair = await builtin(
    '{"function":"stat_edge_number","type":"edge4_many_to_many","from_type":"vertex4","to_type":"vertex5"}',
  );
  assert.deepEqual(pair.body.results, [{ e_type: 'edge4_many_to_many', count: 3 }]);
  const star = await builtin({
    function: 'stat_edge_number',
    type: 'edge4_many_to_many',
    from_type: '*',
    to_type: 'vertex6',
  });
  assert.deepEqual(star.body.results, [{ e_type: 'edge4_many_to_many', count: 2 }]);
});

test('stat_edge_attr: MIN/MAX/AVG; "skip" and "no valid edge" answers are 200 with error true', async () => {
  const e1 = await builtin(
    '{"function":"stat_edge_attr","type":"edge1_undirected","from_type":"*","to_type":"*"}',
  );
  assert.deepEqual(e1.body.results, [
    { attributes: { a01: { AVG: 1.875, MAX: 2, MIN: 1 } }, e_type: 'edge1_undirected' },
  ]);
  const loop = await builtin({
    function: 'stat_edge_attr',
    type: 'edge6_loop',
    from_type: '*',
    to_type: '*',
  });
  assert.equal(loop.status, 200);
  assert.equal(loop.body.error, true);
  assert.ok(String(loop.body.message).includes('No valid edge for the input edge type'));
  const noAttr = await builtin({ function: 'stat_edge_attr', type: 'edge4_many_to_many' });
  assert.equal(noAttr.status, 200);
  assert.equal(noAttr.body.error, true);
  assert.ok(String(noAttr.body.message).includes('stat_edge_attr is skip'));
  const all = await builtin({ function: 'stat_edge_attr', type: '*' });
  const types = (all.body.results as { e_type: string }[]).map((r) => r.e_type);
  assert.ok(types.includes('edge3_directed_with_reverse'));
  assert.ok(!types.includes('edge4_many_to_many'));
  assert.ok(!types.includes('edge6_loop'));
});

test('stat_vertex_attr: a type without numeric attributes is skipped; * lists those with some', async () => {
  const v5 = await builtin({ function: 'stat_vertex_attr', type: 'vertex5' });
  assert.equal(v5.status, 200);
  assert.equal(v5.body.error, true);
  assert.ok(String(v5.body.message).includes('stat_vertex_attr is skip'));
  const all = await builtin({ function: 'stat_vertex_attr', type: '*' });
  const byType = Object.fromEntries(
    (all.body.results as { v_type: string; attributes: unknown }[]).map((r) => [r.v_type, r.attributes]),
  );
  assert.deepEqual(Object.keys(byType), [
    'vertex1_all_types',
    'vertex3_primary_key_composite',
    'vertex4',
    'vertex7',
  ]);
  assert.deepEqual(byType.vertex4, { a01: { AVG: 3, MAX: 5, MIN: 1 } });
  assert.deepEqual(byType.vertex1_all_types, {});
  await call(h.rest, 'POST', '/graph/tests', {
    vertices: {
      vertex3_primary_key_composite: { '1,a,2020-01-01': { a04: { value: true } }, '2,b,2020-01-01': {} },
    },
  });
  const comp = await builtin({ function: 'stat_vertex_attr', type: 'vertex3_primary_key_composite' });
  assert.deepEqual(comp.body.results, [
    {
      attributes: { a01: { AVG: 1.5, MAX: 2, MIN: 1 }, a04: { FALSE: 1, TRUE: 1 } },
      v_type: 'vertex3_primary_key_composite',
    },
  ]);
});

test('bad builtins requests name what is wrong', async () => {
  const cases: [unknown, string, string, number][] = [
    [
      { function: 'stat_vertex_number', type: 'non_existing_vertex_type' },
      'GSQL-7004',
      'non_existing_vertex_type',
      400,
    ],
    [{ function: 'stat_edge_number', type: 'nope' }, 'GSQL-7004', "'nope'", 400],
    [{ function: 'stat_edge_number', type: '*', from_type: 'nowhere' }, 'GSQL-7004', "'nowhere'", 400],
    [{ function: 'stat_vertex_count', type: '*' }, 'REST-30000', 'stat_vertex_count', 400],
    [{ type: '*' }, 'REST-30000', '"function"', 400],
    [{ function: 'stat_vertex_number' }, 'REST-30000', '"type"', 400],
    [{ function: 'stat_vertex_number', type: 7 }, 'REST-30000', "'type'", 400],
    ['[1,2]', 'REST-30000', 'JSON object', 400],
    ['{"function":', 'REST-30000', 'JSON', 400],
  ];
  for (const [body, code, fragment, status] of cases) {
    const r = await builtin(body);
    assert.equal(r.status, status, JSON.stringify(body));
    assert.equal(r.body.error, true);
    assert.equal(r.body.code, code, r.text);
    assert.ok(String(r.body.message).includes(fragment), String(r.body.message));
  }
  const g = await call(h.rest, 'POST', '/builtins/nograph', { function: 'stat_vertex_number', type: '*' });
  assert.equal(g.body.code, 'REST-1004');
  const rt = await builtin({ function: 'stat_vertex_number', type: '*' }, '?realtime=perhaps');
  assert.equal(rt.body.code, 'REST-30001');
});

test('GET /endpoints lists builtins and the edge endpoints with their parameters', async () => {
  const r = await call(h.rest, 'GET', '/endpoints/tests?builtin=true');
  const list = r.body as Record<string, { parameters: Record<string, { type: string }> }>;
  assert.equal(list['POST /builtins/{graph_name}'].parameters.realtime.type, 'BOOL');
  const edge =
    list[
      'GET /graph/{graph_name}/edges/{source_vertex_type}/{source_vertex_id}/{edge_type}/{target_vertex_type}'
    ];
  assert.deepEqual(Object.keys(edge.parameters).sort(), [
    'count_only',
    'filter',
    'limit',
    'not_wildcard',
    'select',
    'sort',
    'timeout',
  ]);
  assert.ok(
    list[
      'DELETE /graph/{graph_name}/edges/{source_vertex_type}/{source_vertex_id}/{edge_type}/{target_vertex_type}/{target_vertex_id}/{discriminator}'
    ],
  );
});

test('stat_vertex_attr covers exactly the live vertices at their current values', async () => {
  const stats = async () =>
    (await builtin({ function: 'stat_vertex_attr', type: 'vertex4' })).body.results as unknown[];
  await call(h.rest, 'POST', '/graph/tests', {
    vertices: { vertex4: { '100': { a01: { value: 100 } }, '101': { a01: { value: -10 } } } },
  });
  assert.deepEqual(await stats(), [
    { attributes: { a01: { AVG: 105 / 7, MAX: 100, MIN: -10 } }, v_type: 'vertex4' },
  ]);
  // Deleted vertices leave the set; an overwritten value counts with its new value only.
  await call(h.rest, 'DELETE', '/graph/tests/vertices/vertex4?filter=a01%3E50');
  await call(h.rest, 'DELETE', '/graph/tests/vertices/vertex4/101');
  await call(h.rest, 'POST', '/graph/tests', { vertices: { vertex4: { '5': { a01: { value: 50 } } } } });
  assert.deepEqual(await stats(), [{ attributes: { a01: { AVG: 12, MAX: 50, MIN: 1 } }, v_type: 'vertex4' }]);
  await call(h.rest, 'POST', '/graph/tests', { vertices: { vertex4: { '5': { a01: { value: 5 } } } } });
  assert.deepEqual(await stats(), [{ attributes: { a01: { AVG: 3, MAX: 5, MIN: 1 } }, v_type: 'vertex4' }]);
});
