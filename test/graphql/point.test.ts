/**
 * Point lookups answered from their remembered programs (GraphQLService.answerPoint): the text is
 * byte for byte what the general path answers, for every attribute kind, aliases, constants,
 * several ids, filters, order and paging, missing ids and changed data; requests that are no point
 * lookup, that fail, that carry persisted-query state or other limits are never answered that way;
 * a schema change forgets them.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { GraphQLService, type GraphQLLimits, type GraphQLRequest } from '../../src/graphql/index.js';
import { sha256 } from '../../src/graphql/persisted.js';
import { runScript } from '../../src/shell/run-script.js';
import { openFixture, type Fixture } from './fixture.js';

let f: Fixture;
let service: GraphQLService;
before(async () => {
  f = await openFixture();
  service = new GraphQLService(f.db);
  const set = (value: unknown) => ({ value: value as never, op: 'set' as const });
  await f.db.write((tx) => {
    // Text that JSON must escape, characters beyond ASCII and beyond the BMP, a line separator.
    tx.upsertVertex('person', 'Zoë "Z" \\ \n', {
      name: set('Zoë — 🦊 \u2028 "quoted" \t end'),
      birthYear: set(-42),
      height: set(1e-7),
      married: set(true),
      tags: set(['ä', '"', '']),
      scores: set(new Map([['é', 9007199254740993n]])),
    });
  });
});
after(() => f.close());

let keys = 0;

/**
 * Answers a request by the general path, then lets the service remember it under a fresh key and
 * answers it again from there; asserts both texts are equal and returns the key (or undefined when
 * the request is not answered as a point lookup).
 */
async function both(
  request: GraphQLRequest,
  limits = service.limits,
): Promise<{ text: string; key?: string }> {
  const general = await service.execute('Social', request, { method: 'POST', limits });
  const key = `k${keys++}`;
  const again = await service.execute('Social', request, { method: 'POST', limits }, key);
  assert.equal(again.text, general.text, 'the same request answers the same');
  const fast = service.answerPoint('Social', key, limits);
  if (fast === undefined) return { text: general.text };
  assert.equal(general.status, 200);
  assert.equal(fast, general.text, `the point answer differs for ${JSON.stringify(request)}`);
  return { text: fast, key };
}

const POINTS: GraphQLRequest[] = [
  { query: '{ Social { person(where: {_id: {_eq: "Jenny"}}) { _id } } }' },
  {
    query:
      '{ Social { person(where: {id: {_eq: "Jenny"}}) { id name birthYear height married birthday tags scores } } }',
  },
  // Escapes, non-ASCII text, negative and tiny numbers, a 64-bit map value.
  {
    query:
      'query($p: String) { Social { person(where: {_id: {_eq: $p}}) { _id name birthYear height married tags scores } } }',
    variables: { p: 'Zoë "Z" \\ \n' },
  },
  // Aliases, __typename at every level, two lists and a constant between them.
  {
    query: `{ t: __typename Social { __typename a: person(where: {_id: {_eq: "Smith"}}) { who: name __typename n2: name }
      c: city(where: {_id: {_eq: "palo alto"}}) { population taxRate } } }`,
  },
  // A missing id, and an id of the wrong vertex type.
  { query: '{ Social { person(where: {_id: {_eq: "Nobody"}}) { name } } }' },
  { query: '{ Social { city(where: {_id: {_eq: "Jenny"}}) { name } } }' },
  // One id, ordered; one id paged away.
  { query: '{ Social { person(where: {_id: {_eq: "Jenny"}}, order_by: {name: asc}) { name } } }' },
  { query: '{ Social { person(where: {_id: {_eq: "Jenny"}}, limit: 0) { name } } }' },
  { query: '{ Social { person(where: {_id: {_eq: "Jenny"}}, offset: 1) { name } } }' },
  // Several ids, repeated and missing ones among them; order and paging.
  {
    query:
      '{ Social { person(where: {_id: {_in: ["Smith", "Jenny", "Smith", "Nobody", "Kevin"]}}) { name } } }',
  },
  {
    query:
      '{ Social { person(where: {_id: {_in: ["Smith", "Jenny", "Kevin"]}}, order_by: {birthYear: desc}, limit: 2, offset: 1) { name birthYear } } }',
  },
  // A vertex type whose primary id is no attribute (UINT, a value beyond 2^53).
  { query: '{ Social { badge(where: {_id: {_eq: 7}}) { _id label big } } }' },
  // Variables and an operation name among several operations.
  {
    query:
      'query A { Social { person(where: {_id: {_eq: "Jenny"}}) { name } } } query B($y: Int) { Social { person(where: {_id: {_eq: "Emily"}}, limit: $y) { name birthYear } } }',
    operationName: 'B',
    variables: { y: 1 },
  },
];

test('a remembered point lookup answers byte for byte what the general path answers', async () => {
  for (const r of POINTS) {
    const { key } = await both(r);
    assert.ok(key !== undefined, `answered as a point lookup: ${String(r.query)}`);
  }
  // An id beside another condition, passing and failing: the same answer whichever path it takes.
  await both({ query: '{ Social { person(where: {_id: {_eq: "Kevin"}, married: {_eq: true}}) { name } } }' });
  await both({
    query: '{ Social { person(where: {_id: {_eq: "Kevin"}, married: {_eq: false}}) { name } } }',
  });
});

test('a remembered point lookup reads the current snapshot', async () => {
  const query = '{ Social { person(where: {_id: {_in: ["Emily", "Kevin"]}}) { name birthYear } } }';
  const { key } = await both({ query });
  assert.ok(key !== undefined);
  const set = (value: unknown) => ({ value: value as never, op: 'set' as const });
  await f.db.write((tx) => tx.upsertVertex('person', 'Emily', { birthYear: set(2002) }));
  const changed = await service.execute('Social', { query }, { method: 'POST' });
  assert.match(changed.text, /2002/);
  assert.equal(service.answerPoint('Social', key, service.limits), changed.text);
  await f.db.write((tx) => tx.deleteVertex('person', 'Kevin'));
  const deleted = await service.execute('Social', { query }, { method: 'POST' });
  assert.doesNotMatch(deleted.text, /Kevin/);
  assert.equal(service.answerPoint('Social', key, service.limits), deleted.text);
});

test('requests that are no point lookup, fail or carry persisted-query state are not remembered', async () => {
  const others: GraphQLRequest[] = [
    // A scan, an edge field, an aggregate, introspection.
    { query: '{ Social { person(where: {name: {_eq: "Jenny"}}) { name } } }' },
    { query: '{ Social { person(where: {_id: {_eq: "Jenny"}}) { name born_in { to { name } } } } }' },
    { query: '{ Social { person_aggregate(where: {_id: {_eq: "Jenny"}}) { count } } }' },
    { query: '{ __schema { queryType { name } } }' },
    // A variable of the wrong type, an unknown field, a missing variable.
    {
      query: 'query($p: String) { Social { person(where: {_id: {_eq: $p}}) { name } } }',
      variables: { p: 5 },
    },
    { query: '{ Social { person(where: {_id: {_eq: "Jenny"}}) { nothing } } }' },
    { query: 'query($p: String!) { Social { person(where: {_id: {_eq: $p}}) { name } } }' },
    // An automatic persisted query: what it resolves to depends on what the service remembers.
    {
      query: '{ Social { person(where: {_id: {_eq: "Smith"}}) { name } } }',
      extensions: {
        persistedQuery: {
          version: 1,
          sha256Hash: sha256('{ Social { person(where: {_id: {_eq: "Smith"}}) { name } } }'),
        },
      },
    },
  ];
  for (const r of others) {
    const { key } = await both(r);
    assert.equal(key, undefined, `not answered as a point lookup: ${JSON.stringify(r)}`);
  }
  // A mutation is never remembered either.
  const key = 'mutation';
  await service.execute(
    'Social',
    { query: 'mutation { Social { insert_city(objects: [{id: "x", name: "X"}]) { id } } }' },
    { method: 'POST' },
    key,
  );
  assert.equal(service.answerPoint('Social', key, service.limits), undefined);
  // An unknown graph or key.
  assert.equal(service.answerPoint('Nowhere', 'k0', service.limits), undefined);
  assert.equal(service.answerPoint('Social', 'never seen', service.limits), undefined);
});

test('a remembered point lookup is only answered under the limits it was checked against', async () => {
  const query = '{ Social { person(where: {_id: {_in: ["Jenny", "Smith"]}}) { name } } }';
  const { key } = await both({ query });
  assert.ok(key !== undefined);
  // A caller with other (role) limits goes the general way, and is refused there.
  const tight: GraphQLLimits = { maxCost: 1, maxDepth: 15, maxRows: 0 };
  assert.equal(service.answerPoint('Social', key, tight), undefined);
  const refused = await service.execute('Social', { query }, { method: 'POST', limits: tight }, 'tight');
  assert.equal(refused.status, 400);
  assert.match(refused.text, /GRAPHQL-COST/);
  assert.equal(service.answerPoint('Social', 'tight', tight), undefined);
  // Limits that a lookup of every named id could exceed: never remembered, so always checked.
  const rows: GraphQLLimits = { maxCost: 0, maxDepth: 15, maxRows: 1 };
  const { key: rowsKey } = await both({ query }, rows);
  assert.equal(rowsKey, undefined);
});

test('a remembered point lookup is forgotten when the schema changes', async () => {
  const query = '{ Social { school(where: {_id: {_eq: "s1"}}) { name } } }';
  const { key } = await both({ query });
  assert.ok(key !== undefined);
  let out = '';
  const code = await runScript(
    f.db,
    [
      'CREATE GLOBAL SCHEMA_CHANGE JOB drop_name {',
      '  ALTER VERTEX school DROP ATTRIBUTE (name);',
      '}',
      'RUN GLOBAL SCHEMA_CHANGE JOB drop_name',
    ].join('\n'),
    { user: 'tigergraph' },
    (t) => (out += t),
  );
  assert.equal(code, 0, out);
  assert.equal(service.answerPoint('Social', key, service.limits), undefined);
  const now = await service.execute('Social', { query }, { method: 'POST' });
  assert.equal(now.status, 400);
  assert.match(now.text, /Cannot query field \\"name\\" on type \\"school\\"/);
});

test('in allow-list mode only listed documents are remembered, by text or by hash', async () => {
  const listed = '{ Social { person(where: {_id: {_eq: "Jenny"}}) { name } } }';
  const hash = sha256(listed);
  const locked = new GraphQLService(f.db, { allowList: new Map([[hash, listed]]) });
  const requests: [GraphQLRequest, boolean][] = [
    [{ query: listed }, true],
    [{ extensions: { persistedQuery: { version: 1, sha256Hash: hash } } }, true],
    [{ query: listed.replace('Jenny', 'Smith') }, false],
  ];
  for (const [request, allowed] of requests) {
    const general = await locked.execute('Social', request, { method: 'POST' });
    assert.equal(general.status, allowed ? 200 : 403, general.text);
    const key = `allow-list ${JSON.stringify(request)}`;
    assert.equal((await locked.execute('Social', request, { method: 'POST' }, key)).text, general.text);
    assert.equal(locked.answerPoint('Social', key, locked.limits), allowed ? general.text : undefined);
  }
});
