/**
 * GraphQL over HTTP on both listeners: the one-graph service of `--graphql-graph` (:4000-style
 * /graphql) and every graph at :14240/api/graphql/gsql/{g}. POST JSON, GET, application/graphql,
 * introspection round-trip, credentials and privileges, and the GraphiQL page with its offline assets.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { buildClientSchema, getIntrospectionQuery, printSchema, type IntrospectionQuery } from 'graphql';
import { BASIC, basic, serveFixture } from './serve-fixture.js';

const READER = basic('reader', 'r3ader');

const served = serveFixture({
  gsql: 'CREATE USER reader WITH PASSWORD "r3ader"\nGRANT ROLE queryreader ON GRAPH Social TO reader',
});
let gql: string;
let gsql: string;
before(async () => {
  await served.ready;
  gql = served.urls.graphql;
  gsql = served.urls.gsql;
});

interface Reply {
  status: number;
  type: string;
  text: string;
  headers: Headers;
}

async function send(url: string, init: RequestInit = {}): Promise<Reply> {
  const res = await fetch(url, init);
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    text: await res.text(),
    headers: res.headers,
  };
}

function post(url: string, body: unknown, auth = BASIC, type = 'application/json'): Promise<Reply> {
  return send(url, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': type },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const MULTI_HOP = `
query People($born: Int64, $skip: Int) {
  Social {
    person(where: {birthYear: {_gte: $born}}, order_by: [{height: asc}, {name: desc}], limit: 2, offset: $skip) {
      name
      born_in(whereExpr: "year(birthday) > 1900") { birthday to(where: {population: {_lt: 100000}}) { name population } }
      holds { to { big } }
    }
  }
}
query Other { Social { city { name } } }`;

test('POST JSON on the one-graph service: variables, operationName, filters, sorting, pagination, exact integers', async () => {
  const r = await post(`${gql}/graphql`, {
    query: MULTI_HOP,
    variables: { born: 1980, skip: 1 },
    operationName: 'People',
  });
  assert.equal(r.status, 200);
  assert.match(r.type, /^application\/json/);
  // Height 1.6 Emily, 1.7 Kevin then Jenny (name desc), 1.8 Smith is too old: offset 1, limit 2.
  assert.equal(
    r.text,
    '{"data":{"Social":{"person":[' +
      '{"name":"Kevin","born_in":[{"birthday":"1990-06-15 12:30:00","to":{"name":"palo alto","population":68000}}],"holds":[]},' +
      '{"name":"Jenny","born_in":[{"birthday":"1995-01-01 00:00:00","to":{"name":"palo alto","population":68000}}],"holds":[{"to":{"big":18446744073709551615}}]}' +
      ']}}}',
  );
});

test('GET with query parameters and POST application/graphql', async () => {
  const q = encodeURIComponent('{ Social { city(order_by: {population: desc}, limit: 1) { name } } }');
  const get = await send(`${gql}/graphql?query=${q}`, { headers: { authorization: BASIC } });
  assert.equal(get.status, 200);
  assert.equal(get.text, '{"data":{"Social":{"city":[{"name":"san jose"}]}}}');
  const vars = encodeURIComponent(JSON.stringify({ n: 'Smith' }));
  const q2 = encodeURIComponent(
    'query($n: String) { Social { person(where: {name: {_eq: $n}}) { birthYear } } }',
  );
  const get2 = await send(`${gql}/graphql?query=${q2}&variables=${vars}`, {
    headers: { authorization: BASIC },
  });
  assert.equal(get2.text, '{"data":{"Social":{"person":[{"birthYear":1973}]}}}');
  // Form encoding, as URLSearchParams writes it: spaces as `+`, a literal plus as %2B.
  const form = new URLSearchParams({
    query: 'query($n: String) { Social { person(where: {name: {_eq: $n}}) { birthYear } } }',
    variables: JSON.stringify({ n: 'Smith' }),
  });
  assert.ok(form.toString().includes('+'));
  const get3 = await send(`${gql}/graphql?${form}`, { headers: { authorization: BASIC } });
  assert.equal(get3.text, '{"data":{"Social":{"person":[{"birthYear":1973}]}}}');
  const plus = new URLSearchParams({
    query: '{ Social { person(where: {name: {_eq: "a+b"}}) { birthYear } } }',
  });
  const get4 = await send(`${gql}/graphql?${plus}`, { headers: { authorization: BASIC } });
  assert.equal(get4.text, '{"data":{"Social":{"person":[]}}}');
  const text = await post(`${gql}/graphql`, '{ Social { school { name } } }', BASIC, 'application/graphql');
  assert.equal(text.status, 200);
  assert.equal(text.text, '{"data":{"Social":{"school":[{"name":"Stanford"}]}}}');
  const mutation = encodeURIComponent('mutation { Social { delete_by_id_person(ids: ["Jenny"]) { id } } }');
  const refused = await send(`${gql}/graphql?query=${mutation}`, { headers: { authorization: BASIC } });
  assert.equal(refused.status, 405);
  assert.equal(refused.text, '{"errors":[{"message":"Mutations need POST; GET runs queries only."}]}');
});

test('introspection over HTTP rebuilds the schema the service prints', async () => {
  const r = await post(`${gql}/graphql`, { query: getIntrospectionQuery() });
  assert.equal(r.status, 200);
  const { data } = JSON.parse(r.text) as { data: IntrospectionQuery };
  const sdl = await send(`${gql}/schema`, { headers: { authorization: BASIC } });
  assert.equal(sdl.status, 200);
  assert.match(sdl.type, /^text\/plain/);
  assert.equal(printSchema(buildClientSchema(data)), sdl.text);
  assert.match(sdl.text, /^type Query \{\n {2}Social: Social\n\}/);
});

test('every graph on the GSQL port, as TigerGraph 3.7+ serves it', async () => {
  // The request of TigerGraph's own curl sample, "variables": null included.
  const r = await post(`${gsql}/api/graphql/gsql/Social`, {
    query:
      'query { Social { person(where: {name: {_eq: "Jenny"}}) { name born_in { birthday to { name } } } } }',
    variables: null,
  });
  assert.equal(r.status, 200);
  assert.equal(
    r.text,
    '{"data":{"Social":{"person":[{"name":"Jenny","born_in":[{"birthday":"1995-01-01 00:00:00","to":{"name":"palo alto"}}]}]}}}',
  );
  const missing = await post(`${gsql}/api/graphql/gsql/Nope`, { query: '{ Nope }' });
  assert.equal(missing.status, 404);
  assert.equal(missing.text, `{"errors":[{"message":"Graph 'Nope' does not exist."}]}`);
});

test('invalid requests: malformed JSON, no query, syntax and validation errors', async () => {
  const bad = await post(`${gql}/graphql`, '{"query": ');
  assert.equal(bad.status, 400);
  assert.match(JSON.parse(bad.text).errors[0].message as string, /^The request body is not valid JSON: /);
  const arr = await post(`${gql}/graphql`, '[1]');
  assert.equal(arr.status, 400);
  assert.equal(arr.text, '{"errors":[{"message":"A batch must be an array of 1 to 100 request objects."}]}');
  const scalar = await post(`${gql}/graphql`, '"x"');
  assert.equal(scalar.status, 400);
  assert.equal(
    scalar.text,
    '{"errors":[{"message":"The request body must be a JSON object {\\"query\\": …, \\"variables\\": …, \\"operationName\\": …} or an array of them."}]}',
  );
  const none = await post(`${gql}/graphql`, {});
  assert.equal(
    none.text,
    '{"errors":[{"message":"The request has no GraphQL query (a \\"query\\" string)."}]}',
  );
  const syntax = await post(`${gsql}/api/graphql/gsql/Social`, { query: '{ Social { person( } }' });
  assert.equal(syntax.status, 400);
  assert.equal(
    syntax.text,
    '{"errors":[{"message":"Syntax Error: Expected Name, found \\"}\\".","locations":[{"line":1,"column":20}]}]}',
  );
  const resolver = await post(`${gql}/graphql`, {
    query: '{ Social { city(whereExpr: "population >") { name } } }',
  });
  assert.equal(resolver.status, 200);
  assert.deepEqual(JSON.parse(resolver.text), {
    errors: [
      {
        message: `Invalid whereExpr "population >" on vertex type 'city': line 1, column 13: expected an expression but found end of input`,
        locations: [{ line: 1, column: 12 }],
        path: ['Social', 'city'],
      },
    ],
    data: { Social: { city: null } },
  });
});

test('credentials: Basic as for the GSQL server, a 401 that asks the browser, READ_DATA and write privileges', async () => {
  const query = { query: '{ Social { city { name } } }' };
  const none = await send(`${gql}/graphql`, { method: 'POST', body: JSON.stringify(query) });
  assert.equal(none.status, 401);
  assert.equal(none.headers.get('www-authenticate'), 'Basic realm="Ocelot GraphQL"');
  assert.equal(
    none.text,
    '{"errors":[{"message":"Authentication failed: this endpoint requires a user name and password (HTTP Basic authentication).","extensions":{"code":"REST-10016"}}]}',
  );
  const wrong = await post(
    `${gql}/graphql`,
    query,
    `Basic ${Buffer.from('tigergraph:nope').toString('base64')}`,
  );
  assert.equal(wrong.status, 401);
  assert.equal(JSON.parse(wrong.text).errors[0].message, 'Invalid username or password!');
  // The GSQL port answers its own envelope (its credential hook runs first).
  const gsqlNone = await send(`${gsql}/api/graphql/gsql/Social`, {
    method: 'POST',
    body: JSON.stringify(query),
  });
  assert.equal(gsqlNone.status, 401);
  assert.equal(JSON.parse(gsqlNone.text).code, 'REST-10016');
  // A query reader reads, but cannot delete.
  const read = await post(`${gql}/graphql`, query, READER);
  assert.equal(read.status, 200);
  for (const url of [`${gql}/graphql`, `${gsql}/api/graphql/gsql/Social`]) {
    const del = await post(
      url,
      { query: 'mutation { Social { delete_by_id_person(ids: ["Jenny"]) { id } } }' },
      READER,
    );
    assert.equal(del.status, 200);
    const body = JSON.parse(del.text) as { data: unknown; errors: { message: string; path: string[] }[] };
    assert.deepEqual(body.data, { Social: { delete_by_id_person: null } });
    assert.match(body.errors[0].message, /DELETE_DATA/);
    assert.deepEqual(body.errors[0].path, ['Social', 'delete_by_id_person']);
  }
  const still = await post(`${gql}/graphql`, { query: '{ Social { person_aggregate { count } } }' });
  assert.equal(still.text, '{"data":{"Social":{"person_aggregate":{"count":4}}}}');
});

test('GraphiQL pages and their offline assets', async () => {
  const page = await send(`${gql}/`, { headers: { authorization: BASIC } });
  assert.equal(page.status, 200);
  assert.match(page.type, /^text\/html/);
  for (const asset of [
    '/graphiql/react.js',
    '/graphiql/react-dom.js',
    '/graphiql/graphiql.js',
    '/graphiql/graphiql.css',
  ]) {
    assert.ok(page.text.includes(`"${asset}"`), `the page loads ${asset}`);
    const a = await send(`${gql}${asset}`);
    assert.equal(a.status, 200, asset);
    assert.ok(a.text.length > 10_000, `${asset} is the real file`);
  }
  assert.ok(
    !/https?:\/\//.test(page.text.replace(/<!doctype html>/i, '')),
    'no absolute URLs: nothing from a CDN',
  );
  const unknown = await send(`${gql}/graphiql/evil.js`);
  assert.equal(unknown.status, 404);
  const onGsql = await send(`${gsql}/graphql/Social`, { headers: { authorization: BASIC } });
  assert.equal(onGsql.status, 200);
  // The page's API lies under the page's own path (the space the browser authenticated).
  assert.ok(onGsql.text.includes('"apiUrl":"/graphql/Social"'));
  assert.ok(onGsql.text.includes('"sdlUrl":"/graphql/Social/schema"'));
  const sdl = await send(`${gsql}/graphql/Social/schema`, { headers: { authorization: BASIC } });
  assert.match(sdl.text, /^type Query \{\n {2}Social: Social\n\}/);
  const challenged = await send(`${gsql}/graphql/Social`);
  assert.equal(challenged.status, 401);
  assert.equal(challenged.headers.get('www-authenticate'), 'Basic realm="Ocelot GraphQL"');
  const noGraph = await send(`${gsql}/graphql/Nope`, { headers: { authorization: BASIC } });
  assert.equal(noGraph.status, 404);
});
