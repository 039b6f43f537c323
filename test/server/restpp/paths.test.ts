import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { AttrUpdate } from '../../../src/engine/api.js';
import { JUNE_2020, pathCatalog } from '../../paths/fixture.js';
import { scaled } from '../../timing.js';
import { call, startHarness, type Harness } from './graph-harness.js';

let h: Harness;

const set = (attrs: Record<string, number | string>): Record<string, AttrUpdate> =>
  Object.fromEntries(Object.entries(attrs).map(([k, v]) => [k, { value: v, op: 'set' as const }]));

/**
 *   P1 -follows(10)-> P2 -follows(70)-> P3 -mutual(1)- P4
 *   P1 -knows(3, work)- q1 -knows(8, club)- P3        q1 -likes(2)-> P4
 * plus a 12-clique of `mutual` edges (P100..P111) for the limits.
 */
before(async () => {
  h = await startHarness();
  await h.db.changeCatalog(pathCatalog());
  await h.db.write((tx) => {
    const names = ['a', 'b', 'c', 'd'];
    for (let i = 1; i <= 4; i++) {
      tx.upsertVertex('P', i, set({ w: i === 2 ? 5 : i, name: names[i - 1], born: JUNE_2020 }));
    }
    tx.upsertVertex('Q', 'q1', set({ score: 1.5 }));
    const opts = { createMissingEndpoints: false };
    tx.upsertEdge('follows', 'P', 1, 'P', 2, set({ weight: 10 }), opts);
    tx.upsertEdge('follows', 'P', 2, 'P', 3, set({ weight: 70 }), opts);
    tx.upsertEdge('mutual', 'P', 3, 'P', 4, set({ level: 1 }), opts);
    tx.upsertEdge('knows', 'P', 1, 'Q', 'q1', set({ since: 3, kind: 'work' }), opts);
    tx.upsertEdge('knows', 'P', 3, 'Q', 'q1', set({ since: 8, kind: 'club' }), opts);
    tx.upsertEdge('likes', 'Q', 'q1', 'P', 4, set({ stars: 2 }), opts);
    for (let i = 100; i < 112; i++) tx.upsertVertex('P', i, set({ w: 0, name: `n${i}`, born: 0 }));
    for (let i = 100; i < 112; i++) {
      for (let j = i + 1; j < 112; j++) tx.upsertEdge('mutual', 'P', i, 'P', j, set({ level: 0 }), opts);
    }
  });
});
after(async () => h.close());

const BORN = '2020-06-01 00:00:00';
const P = (id: number, w: number, name: string): unknown => ({
  v_id: String(id),
  v_type: 'P',
  attributes: { w, name, born: BORN },
});
const Q1 = { v_id: 'q1', v_type: 'Q', attributes: { score: 1.5 } };
const edge = (e_type: string, directed: boolean, from: string, to: string, attributes: unknown): unknown => ({
  e_type,
  directed,
  from_id: from,
  from_type: from.startsWith('q') ? 'Q' : 'P',
  to_id: to,
  to_type: to.startsWith('q') ? 'Q' : 'P',
  attributes,
});
const BOTH_MISSING =
  "Cannot get 'vertex_filters' filters, use empty filter. Cannot get 'edge_filters' filters, use empty filter.";

type Subgraph = { vertices: { v_id: string }[]; edges: { e_type: string; from_id: string; to_id: string }[] };

function sorted(r: { body: Record<string, unknown> }): { vertices: string[]; edges: string[] } {
  const [g] = r.body.results as Subgraph[];
  return {
    vertices: g.vertices.map((v) => v.v_id).sort(),
    edges: g.edges.map((e) => `${e.e_type} ${e.from_id}>${e.to_id}`).sort(),
  };
}

describe('POST /shortestpath/{graph}', () => {
  test('one shortest path as a subgraph with full records (pyTigerGraph body: JSON text, no Content-Type)', async () => {
    const body = JSON.stringify({ sources: [{ type: 'P', id: 1 }], targets: [{ type: 'P', id: 4 }] });
    for (const base of [h.rest, h.restpp]) {
      const r = await call(base, 'POST', '/shortestpath/g', body);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body, {
        version: { edition: 'enterprise', api: 'v2', schema: 0 },
        error: false,
        message: BOTH_MISSING,
        results: [
          {
            vertices: [P(1, 1, 'a'), Q1, P(4, 4, 'd')],
            edges: [
              edge('knows', false, '1', 'q1', { since: 3, kind: 'work' }),
              edge('likes', true, 'q1', '4', { stars: 2 }),
            ],
          },
        ],
        code: 'REST-0000',
      });
    }
  });

  test('edge filters change the path; the message names only the missing filter set', async () => {
    const r = await call(h.rest, 'POST', '/shortestpath/g', {
      source: { type: 'P', id: '1' },
      target: { type: 'P', id: '4' },
      edgeFilters: [{ type: 'knows', condition: "kind = 'club'" }],
    });
    assert.equal(r.body.message, "Cannot get 'vertex_filters' filters, use empty filter.");
    assert.deepEqual(sorted(r), {
      vertices: ['1', '2', '3', '4'],
      edges: ['follows 1>2', 'follows 2>3', 'mutual 3>4'],
    });
    const none = await call(h.rest, 'POST', '/shortestpath/g', {
      source: { type: 'P', id: 1 },
      target: { type: 'P', id: 4 },
      vertexFilters: [],
      edgeFilters: [
        { type: 'knows', condition: "kind = 'club'" },
        { type: 'follows', condition: 'weight < 50' },
      ],
    });
    assert.equal(none.status, 200);
    assert.equal(none.body.message, '');
    assert.deepEqual(none.body.results, [{ vertices: [], edges: [] }]);
  });

  test('vertex filters: OR within a type; other types unconstrained; maxLength bounds the search', async () => {
    // P2 (w = 5) fails 'w < 5', so only the path through q1 (a Q, unconstrained) is left; a second
    // filter on P that P2 passes opens the path through it again.
    const blocked = await call(h.rest, 'POST', '/shortestpath/g', {
      source: { type: 'P', id: 3 },
      target: { type: 'P', id: 1 },
      vertexFilters: [{ type: 'P', condition: 'w < 5' }],
      allShortestPaths: true,
    });
    assert.deepEqual(sorted(blocked), { vertices: ['1', '3', 'q1'], edges: ['knows 3>q1', 'knows q1>1'] });
    const either = await call(h.rest, 'POST', '/shortestpath/g', {
      source: { type: 'P', id: 3 },
      target: { type: 'P', id: 1 },
      vertexFilters: [
        { type: 'P', condition: 'w < 5' },
        { type: 'P', condition: "name = 'b'" },
      ],
      allShortestPaths: true,
    });
    assert.deepEqual(sorted(either), {
      vertices: ['1', '2', '3', 'q1'],
      edges: ['followed_by 2>1', 'followed_by 3>2', 'knows 3>q1', 'knows q1>1'],
    });
    const short = await call(h.rest, 'POST', '/shortestpath/g', {
      source: { type: 'P', id: 3 },
      target: { type: 'P', id: 1 },
      maxLength: 1,
    });
    assert.deepEqual(short.body.results, [{ vertices: [], edges: [] }]);
  });

  test('all shortest paths: reverse edges shown as walked, undirected edges from the vertex reached first', async () => {
    const r = await call(h.rest, 'POST', '/shortestpath/g', {
      sources: [{ type: 'P', id: 3 }],
      targets: [{ type: 'P', id: 1 }],
      allShortestPaths: true,
    });
    const [g] = r.body.results as { edges: unknown[] }[];
    assert.ok(
      g.edges.some(
        (e) => JSON.stringify(e) === JSON.stringify(edge('followed_by', true, '3', '2', { weight: 70 })),
      ),
      r.text,
    );
    assert.deepEqual(sorted(r), {
      vertices: ['1', '2', '3', 'q1'],
      edges: ['followed_by 2>1', 'followed_by 3>2', 'knows 3>q1', 'knows q1>1'],
    });
  });

  test('a number names a STRING id (pyTigerGraph sends ids with their Python type)', async () => {
    await h.db.write((tx) => {
      tx.upsertVertex('Q', '7', set({ score: 0 }));
      tx.upsertEdge('likes', 'Q', '7', 'P', 1, set({ stars: 1 }), { createMissingEndpoints: false });
    });
    const r = await call(h.rest, 'POST', '/shortestpath/g', {
      sources: [{ type: 'Q', id: 7 }],
      targets: [{ type: 'P', id: 1 }],
    });
    assert.deepEqual(sorted(r), { vertices: ['1', '7'], edges: ['likes 7>1'] });
  });

  test('many sources and targets: one path per reachable pair; a source that is a target is its own path', async () => {
    const r = await call(h.rest, 'POST', '/shortestpath/g', {
      sources: [
        { type: 'P', id: 1 },
        { type: 'P', id: 4 },
      ],
      targets: [
        { type: 'P', id: 4 },
        { type: 'Q', id: 'q1' },
        { type: 'P', id: 100 },
      ],
    });
    assert.equal(r.status, 200, r.text);
    // 1->4: 1-q1->4; 1->q1: 1-q1; 4->4: [4]; 4->q1: 4-3-q1; P100 unreachable.
    assert.deepEqual(sorted(r), {
      vertices: ['1', '3', '4', 'q1'],
      edges: ['knows 1>q1', 'knows 3>q1', 'likes q1>4', 'mutual 4>3'],
    });
  });
});

describe('POST /allpaths/{graph}', () => {
  test('every simple path up to maxLength, as one subgraph', async () => {
    const ask = (
      maxLength: number,
    ): Promise<{ status: number; body: Record<string, unknown>; text: string }> =>
      call(h.rest, 'POST', '/allpaths/g', {
        sources: [{ type: 'P', id: 1 }],
        targets: [{ type: 'P', id: 4 }],
        maxLength,
      });
    assert.deepEqual(sorted(await ask(1)), { vertices: [], edges: [] });
    assert.deepEqual(sorted(await ask(2)), {
      vertices: ['1', '4', 'q1'],
      edges: ['knows 1>q1', 'likes q1>4'],
    });
    const three = await ask(3);
    assert.equal(three.body.message, BOTH_MISSING);
    assert.deepEqual(sorted(three), {
      vertices: ['1', '2', '3', '4', 'q1'],
      edges: ['follows 1>2', 'follows 2>3', 'knows 1>q1', 'knows q1>3', 'likes q1>4', 'mutual 3>4'],
    });
  });

  test('GSQL-TIMEOUT stops a huge enumeration with REST-3000; the server keeps serving', async () => {
    const r = await call(
      h.rest,
      'POST',
      '/allpaths/g',
      { source: { type: 'P', id: 100 }, target: { type: 'P', id: 101 }, maxLength: 11 },
      { 'GSQL-TIMEOUT': '200' },
    );
    assert.equal(r.status, 408, r.text);
    assert.equal(r.body.code, 'REST-3000');
    assert.equal(r.body.error, true);
    assert.match(
      r.body.message as string,
      /^The path finding request timed out after 200 ms \(GSQL-TIMEOUT\)/,
    );
    const ping = await call(h.rest, 'GET', '/echo');
    assert.equal(ping.status, 200);
  });

  test('a long enumeration yields: other requests are answered while it runs', async () => {
    let done = false;
    const long = call(
      h.rest,
      'POST',
      '/allpaths/g',
      { source: { type: 'P', id: 100 }, target: { type: 'P', id: 101 }, maxLength: 11 },
      // Long enough that, however loaded the machine, the echo below is answered first.
      { 'GSQL-TIMEOUT': String(scaled(3_000)) },
    ).then((r) => {
      done = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 200));
    const echo = await call(h.rest, 'GET', '/echo');
    assert.equal(echo.status, 200);
    assert.equal(done, false, 'the echo was answered while the enumeration ran');
    const r = await long;
    assert.equal(r.body.code, 'REST-3000');
  });

  test('RESPONSE-LIMIT: REST-4000 naming the size reached and the limit', async () => {
    const r = await call(
      h.rest,
      'POST',
      '/allpaths/g',
      { source: { type: 'P', id: 1 }, target: { type: 'P', id: 4 }, maxLength: 3 },
      { 'RESPONSE-LIMIT': '150' },
    );
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.code, 'REST-4000');
    assert.match(
      r.body.message as string,
      /^The query response size is over \d+ bytes \(path finding stopped there\), which exceeds limit 150 bytes\.$/,
    );
    const ok = await call(
      h.rest,
      'POST',
      '/allpaths/g',
      { source: { type: 'P', id: 1 }, target: { type: 'P', id: 4 }, maxLength: 3 },
      { 'RESPONSE-LIMIT': '100000' },
    );
    assert.equal(ok.status, 200, ok.text);
  });
});

describe('bad requests: REST-30000 (400) naming what was wrong', () => {
  const cases: [string, string, unknown, string][] = [
    [
      'shortestpath',
      'not an object',
      [1],
      `The payload must be a JSON object with 'sources' and 'targets' (vertex objects {"type", "id"}).`,
    ],
    [
      'shortestpath',
      'both source and sources',
      { source: { type: 'P', id: 1 }, sources: [], target: { type: 'P', id: 2 } },
      `The payload has both 'source' and 'sources'; give exactly one of them.`,
    ],
    [
      'shortestpath',
      'no target',
      { source: { type: 'P', id: 1 } },
      `The payload needs 'target' (a vertex object) or 'targets' (an array of vertex objects).`,
    ],
    [
      'allpaths',
      'empty targets',
      { source: { type: 'P', id: 1 }, targets: [], maxLength: 2 },
      `'targets' is empty; give at least one vertex.`,
    ],
    [
      'shortestpath',
      'targets not an array',
      { source: { type: 'P', id: 1 }, targets: { type: 'P', id: 2 } },
      `'targets' must be an array of vertex objects.`,
    ],
    [
      'shortestpath',
      'vertex without id',
      { source: { type: 'P' }, target: { type: 'P', id: 2 } },
      `'source' needs an "id" (a string or a number).`,
    ],
    [
      'shortestpath',
      'vertex with extra key',
      { sources: [{ type: 'P', id: 1, v: 2 }], target: { type: 'P', id: 2 } },
      `sources[0] has an unknown key 'v'; a vertex object has "type" and "id".`,
    ],
    [
      'shortestpath',
      'unknown vertex type',
      { source: { type: 'Person', id: 1 }, target: { type: 'P', id: 2 } },
      `The source vertex type 'Person' is not a vertex type of the graph.`,
    ],
    [
      'shortestpath',
      'missing vertex',
      {
        source: { type: 'P', id: 1 },
        targets: [
          { type: 'P', id: 2 },
          { type: 'P', id: 77 },
        ],
      },
      `The targets[1] vertex 'P' '77' does not exist.`,
    ],
    [
      'allpaths',
      'no maxLength',
      { source: { type: 'P', id: 1 }, target: { type: 'P', id: 2 } },
      `'maxLength' is required for all paths (a path length bound, e.g. 3).`,
    ],
    [
      'shortestpath',
      'negative maxLength',
      { source: { type: 'P', id: 1 }, target: { type: 'P', id: 2 }, maxLength: -1 },
      `'maxLength' must be a non-negative integer, not -1.`,
    ],
    [
      'shortestpath',
      'text maxLength',
      { source: { type: 'P', id: 1 }, target: { type: 'P', id: 2 }, maxLength: '3' },
      `'maxLength' must be a non-negative integer, not "3".`,
    ],
    [
      'shortestpath',
      'flag not boolean',
      { source: { type: 'P', id: 1 }, target: { type: 'P', id: 2 }, allShortestPaths: 'yes' },
      `'allShortestPaths' must be true or false.`,
    ],
    [
      'allpaths',
      'flag of shortest paths',
      { source: { type: 'P', id: 1 }, target: { type: 'P', id: 2 }, maxLength: 2, allShortestPaths: true },
      `Unknown key 'allShortestPaths' in the payload; accepted keys: source, sources, target, targets, vertexFilters, edgeFilters, maxLength.`,
    ],
    [
      'shortestpath',
      'filters not an array',
      { source: { type: 'P', id: 1 }, target: { type: 'P', id: 2 }, vertexFilters: { type: 'P' } },
      `'vertexFilters' must be an array of filter objects {"type": …, "condition": …}.`,
    ],
    [
      'shortestpath',
      'filter without type',
      { source: { type: 'P', id: 1 }, target: { type: 'P', id: 2 }, edgeFilters: [{ condition: 'a > 1' }] },
      `edgeFilters[0] needs a "type" (a type name).`,
    ],
    [
      'shortestpath',
      'filter on unknown type',
      {
        source: { type: 'P', id: 1 },
        target: { type: 'P', id: 2 },
        edgeFilters: [{ type: 'likes' }, { type: 'hates' }],
      },
      `edgeFilters[1]: 'hates' is not an edge type of the graph.`,
    ],
    [
      'shortestpath',
      'condition on unknown attribute',
      {
        source: { type: 'P', id: 1 },
        target: { type: 'P', id: 2 },
        vertexFilters: [{ type: 'Q', condition: 'rank > 2' }],
      },
      `Invalid condition 'rank > 2' in the vertex filter vertexFilters[0] on 'Q': 'rank' is not an attribute.`,
    ],
    [
      'shortestpath',
      'condition syntax',
      {
        source: { type: 'P', id: 1 },
        target: { type: 'P', id: 2 },
        edgeFilters: [{ type: 'follows', condition: 'weight < (3' }],
      },
      `Invalid condition 'weight < (3' in the edge filter edgeFilters[0] on 'follows': Syntax Error: line 1, column 12: expected ")" but found end of input.`,
    ],
  ];
  for (const [endpoint, what, body, message] of cases) {
    test(`${endpoint}: ${what}`, async () => {
      const r = await call(h.rest, 'POST', `/${endpoint}/g`, body);
      assert.equal(r.status, 400, r.text);
      assert.deepEqual(
        { error: r.body.error, code: r.body.code, message: r.body.message, results: r.body.results },
        { error: true, code: 'REST-30000', message, results: [] },
      );
    });
  }

  test('invalid JSON and an unknown graph', async () => {
    const bad = await call(h.rest, 'POST', '/shortestpath/g', '{"source": ');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'REST-30000');
    assert.match(bad.body.message as string, /^Invalid JSON payload: /);
    const nograph = await call(h.rest, 'POST', '/allpaths/nope', {
      source: { type: 'P', id: 1 },
      target: { type: 'P', id: 2 },
      maxLength: 2,
    });
    assert.equal(nograph.status, 400);
    assert.equal(nograph.body.code, 'REST-1004');
  });
});
