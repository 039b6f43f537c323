import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { ROUTE_RULES } from '../../../src/auth/route-rules.js';
import type { Catalog, StoredQuery } from '../../../src/catalog/types.js';
import { EMPTY_CATALOG } from '../../../src/catalog/types.js';
import { classifyRequest, scriptWrites, storedQueryWrites } from '../../../src/server/cluster/classify.js';
import { QueryParams } from '../../../src/server/http/querystring.js';

const QUERIES: StoredQuery[] = [
  {
    graph: 'g',
    name: 'reads',
    installed: true,
    text: 'CREATE QUERY reads() FOR GRAPH g { S = {P.*}; PRINT S; }',
  },
  {
    graph: 'g',
    name: 'inserts',
    installed: true,
    text: 'CREATE QUERY inserts(INT n) FOR GRAPH g { INSERT INTO P VALUES ("x", n); }',
  },
  {
    graph: 'g',
    name: 'sets',
    installed: true,
    text: 'CREATE QUERY sets() FOR GRAPH g { S = {P.*}; S = SELECT s FROM S:s ACCUM s.v = 1; }',
  },
  {
    graph: 'g',
    name: 'deletes',
    installed: true,
    text: 'CREATE QUERY deletes() FOR GRAPH g { S = {P.*}; S = SELECT s FROM S:s ACCUM DELETE(s); }',
  },
  {
    graph: 'g',
    name: 'accums',
    installed: true,
    text: 'CREATE QUERY accums() FOR GRAPH g { SumAccum<INT> @@n; S = {P.*}; S = SELECT s FROM S:s ACCUM @@n += 1; PRINT @@n; }',
  },
  {
    graph: 'g',
    name: 'calls',
    installed: true,
    text: 'CREATE QUERY calls() FOR GRAPH g { inserts(1); }',
  },
];

const catalog = { ...EMPTY_CATALOG, queries: QUERIES } as Catalog;

function req(init: {
  method?: string;
  body?: string;
  params?: Record<string, string>;
  headers?: Record<string, string>;
  query?: [string, string][];
}): FastifyRequest {
  return {
    method: init.method ?? 'POST',
    body: init.body === undefined ? undefined : Buffer.from(init.body),
    params: init.params ?? {},
    headers: init.headers ?? {},
    query: new QueryParams(init.query ?? []),
  } as unknown as FastifyRequest;
}

test('endpoints: REST++ and GSQL-server writes are forwarded, reads stay, health answers at once', () => {
  const cases: [string, string][] = [
    ['POST /graph/{graph_name}', 'write'],
    ['POST /graph', 'write'],
    ['DELETE /graph/{graph_name}/vertices/{vertex_type}/{vertex_id}', 'write'],
    ['GET /graph/{graph_name}/delete_by_type/vertices/{vertex_type}', 'write'],
    ['POST /ddl/{graph_name}', 'write'],
    ['GET /requesttoken', 'write'],
    ['POST /gsql/v1/tokens', 'write'],
    ['POST /gsql/v1/secrets', 'write'],
    ['DELETE /expiredtoken', 'write'],
    ['POST /gsql/v1/queries/install', 'write'],
    ['GET /gsql/v1/queries/install/{request_id}', 'write'],
    ['PUT /gsql/v1/description', 'write'],
    ['GET /graph/{graph_name}/vertices/{vertex_type}', 'read'],
    ['POST /builtins/{graph_name}', 'read'],
    ['POST /shortestpath/{graph_name}', 'read'],
    ['GET /gsql/v1/schema', 'read'],
    ['POST /gsql/v1/tokens/check', 'read'],
    ['GET /api/ping', 'node'],
    ['GET /api/cluster', 'node'],
    ['GET /metrics', 'node'],
    // Not in any table: a write unless it is a GET.
    ['PATCH /something/new', 'write'],
    ['GET /something/new', 'read'],
  ];
  for (const [endpoint, expected] of cases) {
    assert.equal(classifyRequest(endpoint, req({}), catalog), expected, endpoint);
  }
  // Every route of the route table has a class.
  for (const endpoint of Object.values(ROUTE_RULES).flatMap((rows) => Object.keys(rows))) {
    assert.ok(
      ['read', 'write', 'node'].includes(classifyRequest(endpoint, req({ body: '' }), catalog)),
      endpoint,
    );
  }
});

test('query runs: a stored query that inserts, deletes, sets attributes or calls one that does is a write', () => {
  const run = (name: string) =>
    classifyRequest(
      'GET /query/{graph_name}/{query_name}',
      req({ method: 'GET', params: { graph_name: 'g', query_name: name } }),
      catalog,
    );
  assert.equal(run('reads'), 'read');
  assert.equal(run('accums'), 'read');
  assert.equal(run('inserts'), 'write');
  assert.equal(run('sets'), 'write');
  assert.equal(run('deletes'), 'write');
  assert.equal(run('calls'), 'write');
  assert.equal(run('missing'), 'read', 'an unknown query is answered locally (with its error)');
  assert.equal(storedQueryWrites(catalog, undefined, 'inserts'), true);
});

test('GSQL text: any statement that is not a read makes the script a write', () => {
  const reads = [
    'ls',
    'USE GRAPH g\nSHOW VERTEX *\nSHOW QUERY reads',
    'USE GRAPH g\nRUN QUERY reads()',
    'USE GRAPH g\nRUN QUERY accums()',
    'SHOW USER',
    'SET exit_on_error = FALSE\nHELP',
    'INTERPRET QUERY () FOR GRAPH g { S = {P.*}; PRINT S; }',
    'INTERPRET OPENCYPHER QUERY () FOR GRAPH g { MATCH (p:P) RETURN p }',
    'USE GRAPH g\nSELECT count(*) FROM P',
  ];
  for (const text of reads) assert.equal(scriptWrites(text, catalog), false, text);
  const writes = [
    'CREATE VERTEX P (PRIMARY_ID id STRING)',
    'ls\nCREATE GRAPH h ()',
    'USE GRAPH g\nRUN QUERY inserts(1)',
    'USE GRAPH g\nRUN QUERY calls()',
    'USE GRAPH g\nINSTALL QUERY reads',
    'USE GRAPH g\nDROP QUERY reads',
    'CREATE USER bob WITH PASSWORD "secret1"',
    'GRANT ROLE designer ON GRAPH g TO bob',
    'USE GRAPH g\nUPSERT P VALUES ("a", 1)',
    'INTERPRET QUERY () FOR GRAPH g { INSERT INTO P VALUES ("y", 2); }',
    'INTERPRET OPENCYPHER QUERY () FOR GRAPH g { CREATE (p:P {id: "y"}) }',
    'INTERPRET OPENCYPHER QUERY () FOR GRAPH g { MATCH (p:P) DETACH DELETE p }',
    'DROP ALL',
    'CLEAR GRAPH STORE -HARD',
  ];
  for (const text of writes) assert.equal(scriptWrites(text, catalog), true, text);

  const viaTransport = (endpoint: string, text: string) =>
    classifyRequest(
      endpoint,
      req({ body: endpoint.startsWith('POST /gsql/v1') ? text : encodeURIComponent(text) }),
      catalog,
    );
  assert.equal(viaTransport('POST /gsqlserver/gsql/file', 'USE GRAPH g\nRUN QUERY reads()'), 'read');
  assert.equal(viaTransport('POST /gsqlserver/gsql/command', 'CREATE VERTEX Q (PRIMARY_ID id INT)'), 'write');
  assert.equal(viaTransport('POST /gsql/v1/statements', 'DROP GRAPH g'), 'write');
  assert.equal(
    classifyRequest(
      'POST /gsqlserver/interpreted_query',
      req({ body: 'INTERPRET QUERY () FOR GRAPH g { DELETE s FROM P:s; }' }),
      catalog,
    ),
    'write',
  );
});

test('GraphQL: mutations are writes, queries reads; operationName picks the operation', () => {
  const gql = (body: unknown) =>
    classifyRequest(
      'POST /graphql/{graph_name}',
      req({ body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      catalog,
    );
  assert.equal(gql({ query: '{ g { P { id } } }' }), 'read');
  assert.equal(gql({ query: 'mutation { g { insert_P(objects: {id: "a"}) { id } } }' }), 'write');
  const both = 'query Q { g { P { id } } } mutation M { g { delete_P { id } } }';
  assert.equal(gql({ query: both, operationName: 'Q' }), 'read');
  assert.equal(gql({ query: both, operationName: 'M' }), 'write');
  assert.equal(gql({ query: 'mutation {' }), 'read', 'a syntax error is answered locally');
  assert.equal(
    classifyRequest(
      'GET /graphql',
      req({ method: 'GET', query: [['query', '{ g { P { id } } }']] }),
      catalog,
    ),
    'read',
  );
});
