/**
 * Point lookups over HTTP on both listeners: the first request of a text is served by the general
 * path and remembered, the next ones are answered from the remembered program (service-level
 * test: test/graphql/point.test.ts). Every answer — status, content type and body bytes — is the
 * same as the first, for POST JSON, POST application/graphql and GET, with and without variables,
 * aliases, a missing id and a wrong variable type; callers without the privilege, without
 * credentials or with tighter role limits are still refused after another caller warmed the text.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { DEFAULT_LIMITS } from '../../../src/graphql/index.js';
import { limitsFor } from '../../../src/server/graphql/config.js';
import { BASIC as ADMIN, basic, runAsAdmin, serveFixture } from './serve-fixture.js';

const READER = basic('reader', 'r3ader');
const NOBODY = basic('nobody', 'n0body');

const served = serveFixture({
  gsql: [
    'CREATE USER reader WITH PASSWORD "r3ader"',
    'GRANT ROLE queryreader ON GRAPH Social TO reader',
    'CREATE USER nobody WITH PASSWORD "n0body"',
  ].join('\n'),
  servers: [{ graphql: { roleLimits: new Map([['queryreader', { maxRows: 1 }]]) } }],
});
let urls: string[];
before(async () => {
  await served.ready;
  urls = [`${served.urls.graphql}/graphql`, `${served.urls.gsql}/api/graphql/gsql/Social`];
});

interface Exchange {
  status: number;
  type: string | null;
  challenge: string | null;
  body: string;
}

type Form = 'json' | 'graphql' | 'get';

async function ask(
  url: string,
  form: Form,
  request: { query: string; variables?: unknown },
  authorization: string | undefined = ADMIN,
): Promise<Exchange> {
  const headers: Record<string, string> = authorization ? { authorization } : {};
  let res: Response;
  if (form === 'get') {
    let q = `query=${encodeURIComponent(request.query)}`;
    if (request.variables !== undefined)
      q += `&variables=${encodeURIComponent(JSON.stringify(request.variables))}`;
    res = await fetch(`${url}?${q}`, { headers });
  } else {
    res = await fetch(url, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': form === 'json' ? 'application/json' : 'application/graphql',
      },
      body: form === 'json' ? JSON.stringify(request) : request.query,
    });
  }
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    challenge: res.headers.get('www-authenticate'),
    body: await res.text(),
  };
}

/** Sends a request three times; every answer equals the first, which is returned. */
async function repeated(
  url: string,
  form: Form,
  request: { query: string; variables?: unknown },
  authorization?: string,
): Promise<Exchange> {
  const first = await ask(url, form, request, authorization);
  for (let i = 0; i < 2; i++)
    assert.deepEqual(await ask(url, form, request, authorization), first, `${form} ${request.query}`);
  return first;
}

const POINT = '{ Social { person(where: {_id: {_eq: "Jenny"}}) { _id name birthYear } } }';
const ALIASED =
  '{ t: __typename Social { a: person(where: {_id: {_eq: "Smith"}}) { n: name __typename } b: badge(where: {_id: {_eq: 7}}) { big } } }';
const BY_VARIABLE = 'query($p: String) { Social { person(where: {_id: {_eq: $p}}) { name height } } }';

test('a point lookup answers the same bytes the first time and from its remembered program', async () => {
  for (const url of urls) {
    for (const form of ['json', 'graphql', 'get'] as const) {
      const point = await repeated(url, form, { query: POINT });
      assert.equal(point.status, 200);
      assert.equal(point.type, 'application/json; charset=utf-8');
      assert.equal(
        point.body,
        '{"data":{"Social":{"person":[{"_id":"Jenny","name":"Jenny","birthYear":1995}]}}}',
      );
      const aliased = await repeated(url, form, { query: ALIASED });
      assert.equal(
        aliased.body,
        '{"data":{"t":"Query","Social":{"a":[{"n":"Smith","__typename":"person"}],"b":[{"big":18446744073709551615}]}}}',
      );
      const missing = await repeated(url, form, { query: POINT.replace('Jenny', 'Nobody') });
      assert.equal(missing.body, '{"data":{"Social":{"person":[]}}}');
    }
    for (const form of ['json', 'get'] as const) {
      const byVariable = await repeated(url, form, { query: BY_VARIABLE, variables: { p: 'Kevin' } });
      assert.equal(byVariable.body, '{"data":{"Social":{"person":[{"name":"Kevin","height":1.7}]}}}');
      const wrongType = await repeated(url, form, { query: BY_VARIABLE, variables: { p: 5 } });
      assert.equal(wrongType.status, 400);
      assert.match(wrongType.body, /^\{"errors":\[\{"message":"Variable \\"\$p\\" got invalid value 5/);
    }
  }
});

test('a warmed point lookup still refuses callers without credentials, the privilege or the limits', async () => {
  const twoIds = '{ Social { person(where: {_id: {_in: ["Jenny", "Smith"]}}) { name } } }';
  for (const url of urls) {
    // Before and after another caller's requests warmed the same text.
    const before = {
      none: await ask(url, 'json', { query: twoIds }, ''),
      nobody: await ask(url, 'json', { query: twoIds }, NOBODY),
      reader: await ask(url, 'json', { query: twoIds }, READER),
    };
    const admin = await repeated(url, 'json', { query: twoIds });
    assert.equal(admin.body, '{"data":{"Social":{"person":[{"name":"Jenny"},{"name":"Smith"}]}}}');
    assert.equal(before.none.status, 401);
    assert.equal(before.none.challenge, 'Basic realm="Ocelot GraphQL"');
    assert.equal(before.nobody.status, 403);
    // The reader's role allows one row.
    assert.equal(before.reader.status, 400);
    assert.match(before.reader.body, /GRAPHQL-ROWS/);
    assert.deepEqual(await repeated(url, 'json', { query: twoIds }, ''), before.none);
    assert.deepEqual(await repeated(url, 'json', { query: twoIds }, NOBODY), before.nobody);
    assert.deepEqual(await repeated(url, 'json', { query: twoIds }, READER), before.reader);
    // Within its limits the reader is answered like anyone else.
    const one = await repeated(url, 'json', { query: POINT }, READER);
    assert.equal(
      one.body,
      '{"data":{"Social":{"person":[{"_id":"Jenny","name":"Jenny","birthYear":1995}]}}}',
    );
  }
});

test('a warmed point lookup shows writes at once, and a batch of it answers as the single requests', async () => {
  const query = '{ Social { city(where: {_id: {_eq: "san jose"}}) { population } } }';
  for (const url of urls) {
    await served.db.write((tx) =>
      tx.upsertVertex('city', 'san jose', { population: { value: 1_000_000, op: 'set' } }),
    );
    const warm = await repeated(url, 'json', { query });
    assert.equal(warm.body, '{"data":{"Social":{"city":[{"population":1000000}]}}}');
    await served.db.write((tx) =>
      tx.upsertVertex('city', 'san jose', { population: { value: 1_000_001, op: 'set' } }),
    );
    assert.equal(
      (await ask(url, 'json', { query })).body,
      '{"data":{"Social":{"city":[{"population":1000001}]}}}',
    );
    const res = await fetch(url, {
      method: 'POST',
      headers: { authorization: ADMIN, 'content-type': 'application/json' },
      body: JSON.stringify([{ query }, { query: POINT }]),
    });
    assert.equal(
      await res.text(),
      '[{"data":{"Social":{"city":[{"population":1000001}]}}},{"data":{"Social":{"person":[{"_id":"Jenny","name":"Jenny","birthYear":1995}]}}}]',
    );
  }
});

test('a role-limited caller gets one limits object per catalog, so its point lookups are remembered too', async () => {
  const config = { roleLimits: new Map([['queryreader', { maxRows: 1 }]]) };
  const base = DEFAULT_LIMITS;
  const first = limitsFor(config, served.db.catalog, 'reader', 'Social', base);
  assert.deepEqual(first, { ...base, maxRows: 1 });
  assert.equal(limitsFor(config, served.db.catalog, 'reader', 'Social', base), first);
  // Callers without an override get the server's limits; a graph that does not exist is not remembered.
  assert.equal(limitsFor(config, served.db.catalog, 'tigergraph', 'Social', base), base);
  const elsewhere = limitsFor(config, served.db.catalog, 'reader', 'Nowhere', base);
  assert.equal(elsewhere, base);
  // A security change is a new catalog: the limits are worked out again from the new roles.
  await runAsAdmin(served.db, 'GRANT ROLE queryreader ON GRAPH Social TO nobody');
  assert.deepEqual(limitsFor(config, served.db.catalog, 'nobody', 'Social', base), { ...base, maxRows: 1 });
  const again = limitsFor(config, served.db.catalog, 'reader', 'Social', base);
  assert.deepEqual(again, first);
  assert.equal(limitsFor(config, served.db.catalog, 'reader', 'Social', base), again);
});
