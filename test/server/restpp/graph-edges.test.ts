import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { call, seed, startHarness, type Harness } from './graph-harness.js';

let h: Harness;

/** The edges of pyTigerGraph's testserver.gsql (edge5_all_to_all aside). */
async function seedEdges(): Promise<void> {
  const edges: Record<string, Record<string, Record<string, Record<string, Record<string, unknown>>>>> = {};
  const add = (src: number, et: string, tt: string, tgt: number, a01?: number) => {
    const s = (edges[String(src)] ??= {});
    const e = (s[et] ??= {});
    const t = (e[tt] ??= {});
    t[String(tgt)] = a01 === undefined ? {} : { a01: { value: a01 } };
  };
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
    add(s, 'edge1_undirected', 'vertex5', t, a);
  }
  add(2, 'edge2_directed', 'vertex5', 1, 2);
  add(3, 'edge3_directed_with_reverse', 'vertex5', 1, 3);
  for (const t of [1, 2, 3]) add(1, 'edge4_many_to_many', 'vertex5', t);
  for (const t of [2, 4]) add(2, 'edge4_many_to_many', 'vertex6', t);
  for (const t of [1, 3, 5]) add(3, 'edge4_many_to_many', 'vertex7', t);
  const r = await call(h.rest, 'POST', '/graph/tests', { edges: { vertex4: edges } });
  assert.deepEqual(r.body.results, [{ accepted_vertices: 0, accepted_edges: 18 }]);
}

before(async () => {
  h = await startHarness();
  await seed(h);
  await seedEdges();
});
after(async () => h.close());

type Edge = { e_type: string; from_id: string; to_id: string; attributes: Record<string, unknown> };

async function edges(path: string): Promise<Edge[]> {
  const r = await call(h.rest, 'GET', `/graph/tests/edges/${path}`);
  assert.equal(r.status, 200, r.text);
  return r.body.results as Edge[];
}

async function counts(path: string): Promise<Record<string, number>> {
  const r = await call(h.rest, 'GET', `/graph/tests/edges/${path}`);
  assert.equal(r.status, 200, r.text);
  return Object.fromEntries(
    (r.body.results as { e_type: string; count: number }[]).map((x) => [x.e_type, x.count]),
  );
}

test('edge records have TigerGraph shape, on both listeners', async () => {
  for (const base of [h.rest, h.restpp]) {
    const r = await call(base, 'GET', '/graph/tests/edges/vertex4/2/edge2_directed');
    assert.equal(
      r.text,
      '{"version":{"edition":"enterprise","api":"v2","schema":0},"error":false,"message":"",' +
        '"results":[{"e_type":"edge2_directed","directed":true,"from_id":"2","from_type":"vertex4",' +
        '"to_id":"1","to_type":"vertex5","attributes":{"a01":2}}],"code":"REST-0000"}',
    );
  }
});

test("pyTigerGraph's getEdges calls", async () => {
  assert.equal((await edges('vertex4/1')).length, 6);
  assert.equal((await edges('vertex4/1/edge1_undirected')).length, 3);
  assert.equal((await edges('vertex4/1/edge1_undirected/vertex5')).length, 3);
  assert.equal((await edges('vertex4/1/edge1_undirected/vertex5/2')).length, 1);
  const sel = await edges('vertex4/1/edge1_undirected?select=a01&filter=a01%3E1');
  assert.deepEqual(
    sel.map((e) => [e.to_id, e.attributes]),
    [
      ['2', { a01: 2 }],
      ['3', { a01: 2 }],
    ],
  );
  const sorted = await edges('vertex4/1/edge1_undirected?sort=-a01&limit=2');
  assert.deepEqual(
    sorted.map((e) => e.attributes.a01),
    [2, 2],
  );
  const asc = await edges('vertex4/1/edge1_undirected?sort=a01');
  assert.deepEqual(
    asc.map((e) => e.to_id),
    ['1', '2', '3'],
  );
});

test('count_only lists every edge type with zero counts; filters apply per type', async () => {
  const all = await counts('vertex4/1?count_only=true');
  assert.deepEqual(all, {
    edge1_undirected: 3,
    edge2_directed: 0,
    edge3_directed_with_reverse: 0,
    edge3_directed_with_reverse_reverse_edge: 0,
    edge4_many_to_many: 3,
    edge6_loop: 0,
    edge7_multi: 0,
  });
  assert.deepEqual(await counts('vertex4/1/edge1_undirected?count_only=true'), { edge1_undirected: 3 });
  assert.deepEqual(await counts('vertex4/1/edge1_undirected?count_only=true&filter=a01%3D2'), {
    edge1_undirected: 2,
  });
  assert.deepEqual(await counts('vertex4/1/edge1_undirected/vertex5?count_only=true'), {
    edge1_undirected: 3,
  });
  assert.deepEqual(await counts('vertex4/1/edge1_undirected/vertex5/3?count_only=true'), {
    edge1_undirected: 1,
  });
  // A filter on an attribute some types lack: those types match nothing.
  const filtered = await counts('vertex4/1?count_only=true&filter=a01=2');
  assert.equal(filtered.edge1_undirected, 2);
  assert.equal(filtered.edge4_many_to_many, 0);
});

test('undirected edges read from either end; reverse edge types read backwards', async () => {
  const und = await edges('vertex5/1/edge1_undirected');
  assert.deepEqual(und.map((e) => e.to_id).sort(), ['1', '3']);
  const rev = await edges('vertex5/1/edge3_directed_with_reverse_reverse_edge');
  assert.equal(rev.length, 1);
  assert.equal(rev[0].e_type, 'edge3_directed_with_reverse_reverse_edge');
  assert.equal(rev[0].to_id, '3');
  assert.deepEqual(rev[0].attributes, { a01: 3 });
});

test('"_" is a wildcard edge or target type unless not_wildcard=true', async () => {
  assert.equal((await edges('vertex4/1/_/vertex5')).length, 6);
  assert.equal((await edges('vertex4/3/edge4_many_to_many/_')).length, 3);
  const r = await call(h.rest, 'GET', '/graph/tests/edges/vertex4/1/_/vertex5?not_wildcard=true');
  assert.equal(r.status, 400);
  assert.equal(r.body.code, 'REST-30000');
  assert.ok(String(r.body.message).includes("'_'"));
});

test('bad edge requests: code, non-404 status, the offending item named', async () => {
  const cases: [string, string, string][] = [
    ['nope/1', 'REST-30000', "'nope'"],
    ['vertex4/999', 'REST-30000', "'999'"],
    ['vertex4/1/nope', 'REST-30000', "'nope'"],
    ['vertex4/1/edge1_undirected/nope', 'REST-30000', "'nope'"],
    ['vertex4/1/edge1_undirected/_/2', 'REST-30000', 'target vertex type'],
    ['vertex4/1/edge1_undirected/vertex5/2/7', 'REST-30000', 'discriminator'],
    ['vertex4/1/edge7_multi/vertex5/2/1,2', 'REST-30000', 'discriminator'],
    ['vertex4/1/edge4_many_to_many?filter=a01=1', 'REST-30001', "'a01'"],
    ['vertex4/1?sort=nope', 'REST-30001', "'nope'"],
    ['vertex4/1/edge1_undirected?filter=a01%3Exyz', 'REST-30001', "'xyz'"],
  ];
  for (const [path, code, fragment] of cases) {
    for (const method of ['GET', 'DELETE']) {
      const r = await call(h.rest, method, `/graph/tests/edges/${path}`);
      assert.equal(r.status, 400, `${method} ${path}: ${r.text}`);
      assert.equal(r.body.code, code, `${method} ${path}`);
      assert.ok(String(r.body.message).includes(fragment), `${method} ${path}: ${String(r.body.message)}`);
    }
  }
  const sel = await call(h.rest, 'GET', '/graph/tests/edges/vertex4/1?select=nope');
  assert.equal(sel.body.code, 'REST-30001');
  assert.ok(String(sel.body.message).includes("'nope'"));
  assert.equal((await edges('vertex4/1')).length, 6, 'failed deletes removed nothing');
});

test('a missing target vertex has no edges', async () => {
  assert.deepEqual(await edges('vertex4/1/edge1_undirected/vertex5/999'), []);
});

test('DELETE edges: per-type counts, filter/limit/sort, every type listed', async () => {
  const up = await call(h.rest, 'POST', '/graph/tests', {
    edges: {
      vertex6: {
        '1': { edge4_many_to_many: { vertex7: { '1': {} } } },
        '2': { edge4_many_to_many: { vertex7: { '1': {}, '2': {}, '3': {}, '4': {} } } },
      },
    },
  });
  assert.deepEqual(up.body.results, [{ accepted_vertices: 0, accepted_edges: 5 }]);
  const d1 = await call(h.rest, 'DELETE', '/graph/tests/edges/vertex6/1');
  assert.equal(d1.status, 200);
  const list = d1.body.results as { e_type: string; deleted_edges: number }[];
  assert.equal(list.length, 7);
  assert.deepEqual(
    list.find((x) => x.e_type === 'edge4_many_to_many'),
    { e_type: 'edge4_many_to_many', deleted_edges: 1 },
  );
  const again = await call(h.rest, 'DELETE', '/graph/tests/edges/vertex6/1/edge4_many_to_many');
  assert.deepEqual(again.body.results, [{ e_type: 'edge4_many_to_many', deleted_edges: 0 }]);
  const one = await call(h.rest, 'DELETE', '/graph/tests/edges/vertex6/2/edge4_many_to_many/vertex7/1');
  assert.deepEqual(one.body.results, [{ e_type: 'edge4_many_to_many', deleted_edges: 1 }]);
  const limited = await call(
    h.rest,
    'DELETE',
    '/graph/tests/edges/vertex6/2/edge4_many_to_many/vertex7?limit=2&sort=-a01',
  );
  assert.equal(limited.status, 400, 'sort on an attribute edge4 lacks');
  const rest = await call(
    h.rest,
    'DELETE',
    '/graph/tests/edges/vertex6/2/edge4_many_to_many/vertex7?limit=2',
  );
  assert.deepEqual(rest.body.results, [{ e_type: 'edge4_many_to_many', deleted_edges: 2 }]);
  assert.equal((await edges('vertex6/2/edge4_many_to_many')).length, 1);
  // Deleting an undirected edge from its TO end removes it for both ends.
  const und = await call(
    h.rest,
    'DELETE',
    '/graph/tests/edges/vertex5/5/edge1_undirected/vertex4/3?filter=a01%3E1&timeout=4',
  );
  assert.deepEqual(und.body.results, [{ e_type: 'edge1_undirected', deleted_edges: 1 }]);
  assert.deepEqual(await counts('vertex4/3/edge1_undirected?count_only=true'), { edge1_undirected: 2 });
});

test('deleting a vertex removes its edges', async () => {
  await call(h.rest, 'POST', '/graph/tests', {
    edges: { vertex4: { '9': { edge6_loop: { vertex4: { '10': { a01: { value: 1 } } } } } } },
  });
  assert.equal((await edges('vertex4/9/edge6_loop')).length, 1);
  const d = await call(h.rest, 'DELETE', '/graph/tests/vertices/vertex4/10');
  assert.deepEqual(d.body.results, { v_type: 'vertex4', deleted_vertices: 1 });
  assert.equal((await edges('vertex4/9/edge6_loop')).length, 0);
});
