/**
 * The GraphQL-over-HTTP conventions clients rely on, on both listeners: batched requests (array in,
 * array out, as Apollo's BatchHttpLink sends them), automatic persisted queries (Apollo's protocol,
 * POST and GET) and the allow-list mode, CORS for listed origins, the introspection switch, and the
 * 401 challenge and path of the GSQL port's API.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, test } from 'node:test';
import type { RunningServers } from '../../../src/server/start.js';
import { BASIC, serveFixture, startGraphqlServers } from './serve-fixture.js';

const ALLOWED = '{ Social { city(order_by: {_id: asc}) { _id } } }';

const served = serveFixture({
  servers: [
    { corsOrigins: ['https://app.example.com'] },
    { graphql: { introspection: false, allowList: new Map([[sha256(ALLOWED), ALLOWED]]) } },
  ],
});
let open: RunningServers;
let locked: RunningServers;
before(async () => {
  await served.ready;
  [open, locked] = served.servers;
});

function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: BASIC, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as unknown };
}

test('a batch is answered by an array in the same order, each with its own data or errors', async () => {
  for (const url of [`${open.urls.graphql}/graphql`, `${open.urls.gsql}/api/graphql/gsql/Social`]) {
    const r = await post(url, [
      { query: '{ Social { school { name } } }' },
      {
        query: 'query($n: String) { Social { person(where: {name: {_eq: $n}}) { birthYear } } }',
        variables: { n: 'Smith' },
      },
      { query: '{ Social { nope } }' },
      { query: 'query A { Social { __typename } } query B { Social { badge { _id } } }', operationName: 'B' },
    ]);
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, [
      { data: { Social: { school: [{ name: 'Stanford' }] } } },
      { data: { Social: { person: [{ birthYear: 1973 }] } } },
      {
        errors: [
          { message: 'Cannot query field "nope" on type "Social".', locations: [{ line: 1, column: 12 }] },
        ],
      },
      { data: { Social: { badge: [{ _id: 7 }] } } },
    ]);
  }
  const tooMany = await post(
    `${open.urls.graphql}/graphql`,
    Array.from({ length: 101 }, () => ({ query: '{ Social { __typename } }' })),
  );
  assert.equal(tooMany.status, 400);
  assert.deepEqual(tooMany.json, {
    errors: [{ message: 'A batch must be an array of 1 to 100 request objects.' }],
  });
});

test('automatic persisted queries: hash first, PersistedQueryNotFound, then hash and text, then hash alone', async () => {
  const query = '{ Social { company(order_by: {_id: asc}) { _id } } }';
  const pq = { persistedQuery: { version: 1, sha256Hash: sha256(query) } };
  const url = `${open.urls.gsql}/graphql/Social`;
  const miss = await post(url, { extensions: pq });
  assert.equal(miss.status, 200);
  assert.deepEqual(miss.json, {
    errors: [{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }],
  });
  const expected = { data: { Social: { company: [{ _id: 'c1' }, { _id: 'c2' }] } } };
  assert.deepEqual((await post(url, { query, extensions: pq })).json, expected);
  assert.deepEqual((await post(url, { extensions: pq })).json, expected);
  // Apollo sends hashed queries as GET too.
  const get = await fetch(`${url}?extensions=${encodeURIComponent(JSON.stringify(pq))}`, {
    headers: { authorization: BASIC },
  });
  assert.deepEqual(await get.json(), expected);
  const wrong = await post(url, { query: '{ Social { __typename } }', extensions: pq });
  assert.equal(wrong.status, 400);
  assert.deepEqual(wrong.json, { errors: [{ message: 'provided sha does not match query' }] });
});

test('allow-list mode runs listed documents only, sent in full or by hash; introspection can be off', async () => {
  const url = `${locked.urls.graphql}/graphql`;
  const expected = {
    data: { Social: { city: [{ _id: 'mountain view' }, { _id: 'palo alto' }, { _id: 'san jose' }] } },
  };
  assert.deepEqual((await post(url, { query: ALLOWED })).json, expected);
  assert.deepEqual(
    (await post(url, { extensions: { persistedQuery: { version: 1, sha256Hash: sha256(ALLOWED) } } })).json,
    expected,
  );
  const refused = await post(url, { query: '{ Social { city { name } } }' });
  assert.equal(refused.status, 403);
  assert.deepEqual(refused.json, {
    errors: [
      {
        message: 'The document is not on the allow-list of this server (--graphql-allow-list).',
        extensions: { code: 'PERSISTED_QUERY_NOT_ALLOWED' },
      },
    ],
  });
  const unknownHash = await post(url, {
    extensions: { persistedQuery: { version: 1, sha256Hash: sha256('{ x }') } },
  });
  assert.equal(unknownHash.status, 403);

  // Introspection off: a listed document could not ask for the schema either, and no SDL page.
  const open2 = `${open.urls.graphql}/graphql`;
  const typename = '{ __schema { queryType { name } } }';
  assert.deepEqual((await post(open2, { query: typename })).json, {
    data: { __schema: { queryType: { name: 'Query' } } },
  });
  const sdl = await fetch(`${locked.urls.graphql}/schema`, { headers: { authorization: BASIC } });
  assert.equal(sdl.status, 403);
  assert.deepEqual(await sdl.json(), {
    errors: [{ message: 'Introspection is turned off on this server (--graphql-introspection).' }],
  });
});

test('introspection off refuses __schema and __type in validation', async () => {
  const r = await post(`${locked.urls.gsql}/api/graphql/gsql/Social`, {
    query: '{ __type(name: "person") { name } }',
  });
  // Not on the allow-list either; the allow-list check comes first.
  assert.equal(r.status, 403);
  const listed = '{ __schema { types { name } } }';
  const withList = await startGraphqlServers(served.db, {
    graphqlGraph: undefined,
    graphql: { introspection: false, allowList: new Map([[sha256(listed), listed]]) },
  });
  try {
    const v = await post(`${withList.urls.gsql}/api/graphql/gsql/Social`, { query: listed });
    assert.equal(v.status, 400);
    assert.match(
      (v.json as { errors: { message: string }[] }).errors[0].message,
      /^GraphQL introspection has been disabled, but the requested query contained the field "__schema"\.$/,
    );
  } finally {
    await withList.close();
  }
});

test('CORS: a listed origin gets its name and credentials back, others nothing; preflight without credentials', async () => {
  const url = `${open.urls.gsql}/api/graphql/gsql/Social`;
  const pre = await fetch(url, {
    method: 'OPTIONS',
    headers: {
      origin: 'https://app.example.com',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, authorization',
    },
  });
  assert.equal(pre.status, 204);
  assert.equal(pre.headers.get('access-control-allow-origin'), 'https://app.example.com');
  assert.equal(pre.headers.get('access-control-allow-credentials'), 'true');
  assert.match(pre.headers.get('access-control-allow-methods') ?? '', /POST/);
  assert.match(pre.headers.get('access-control-allow-headers') ?? '', /authorization/);
  const ok = await post(url, { query: '{ Social { __typename } }' }, { origin: 'https://app.example.com' });
  assert.equal(ok.headers.get('access-control-allow-origin'), 'https://app.example.com');
  assert.equal(ok.headers.get('vary'), 'Origin');
  // Another origin's page is refused outright (server/http/browser-guard.ts), its preflight too.
  const foreign = await post(url, { query: '{ Social { __typename } }' }, { origin: 'https://evil.example' });
  assert.equal(foreign.status, 403);
  assert.equal(foreign.headers.get('access-control-allow-origin'), null);
  const preForeign = await fetch(`${open.urls.graphql}/graphql`, {
    method: 'OPTIONS',
    headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
  });
  assert.equal(preForeign.status, 403);
  assert.equal(preForeign.headers.get('access-control-allow-origin'), null);
});

test('the GSQL port: the API answers at the page path too, and every 401 asks for Basic credentials', async () => {
  const page = `${open.urls.gsql}/graphql/Social`;
  const r = await post(page, { query: '{ Social { school { name } } }' });
  assert.deepEqual(r.json, { data: { Social: { school: [{ name: 'Stanford' }] } } });
  const get = await fetch(`${page}?query=${encodeURIComponent('{ Social { school { _id } } }')}`, {
    headers: { authorization: BASIC },
  });
  assert.deepEqual(await get.json(), { data: { Social: { school: [{ _id: 's1' }] } } });
  // A browser following a link with ?query= gets the page, not the answer.
  const nav = await fetch(`${page}?query=${encodeURIComponent('{ Social { __typename } }')}`, {
    headers: { authorization: BASIC, accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
  });
  assert.match(nav.headers.get('content-type') ?? '', /^text\/html/);
  for (const url of [page, `${open.urls.gsql}/api/graphql/gsql/Social`, `${page}/schema`]) {
    const none = await fetch(url, {
      method: url.endsWith('schema') ? 'GET' : 'POST',
      body: url.endsWith('schema') ? undefined : '{}',
    });
    assert.equal(none.status, 401, url);
    assert.equal(none.headers.get('www-authenticate'), 'Basic realm="Ocelot GraphQL"', url);
  }
});
