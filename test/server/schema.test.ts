/** Schema and UDT endpoints over a real Database, the schema created through the 4.x GSQL endpoint. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServers, type RunningServers } from '../../src/server/start.js';
import { BASIC, send } from './helpers.js';

let s: RunningServers;
let dir: string;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ocelot-schema-'));
  s = await startServers({ dataDir: dir, restppPort: 0, gsqlPort: 0, adminPort: 0, log: () => {} });
  const ddl = [
    'TYPEDEF TUPLE <a INT, b STRING(10)> pair',
    'CREATE VERTEX person (PRIMARY_ID id STRING, age INT)',
    'CREATE DIRECTED EDGE follows (FROM person, TO person, since DATETIME)',
    'CREATE GRAPH social (person, follows)',
  ].join('\n');
  const r = await send(`${s.urls.gsql}/gsql/v1/statements`, {
    method: 'POST',
    body: ddl,
    headers: { authorization: BASIC, 'content-type': 'text/plain' },
  });
  assert.equal(r.status, 200);
  assert.match(r.text, /The graph social is created\./);
});
after(async () => {
  await s.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (path: string) => send(`${s.urls.gsql}${path}`, { headers: { authorization: BASIC } });

test('3.x and 4.x graph schema', async () => {
  const r = await get('/gsqlserver/gsql/schema?graph=social');
  assert.equal(r.status, 200);
  const body = r.json() as { error: boolean; results: Record<string, unknown> };
  assert.equal(body.error, false);
  assert.equal(body.results.GraphName, 'social');
  assert.deepEqual(
    (body.results.VertexTypes as { Name: string; PrimaryId: { AttributeName: string } }[]).map((v) => [
      v.Name,
      v.PrimaryId.AttributeName,
    ]),
    [['person', 'id']],
  );
  const e = (body.results.EdgeTypes as Record<string, unknown>[])[0];
  assert.equal(e.Name, 'follows');
  assert.equal(e.IsDirected, true);
  assert.equal(e.FromVertexTypeName, 'person');
  const v4 = await get('/gsql/v1/schema/graphs/social');
  assert.deepEqual(v4.json(), body);
  assert.deepEqual((await get('/gsql/v1/schema?graph=social')).json(), body);
});

test('one type of a graph', async () => {
  const v = (await get('/gsqlserver/gsql/schema?graph=social&type=person')).json() as {
    results: Record<string, unknown>;
  };
  assert.equal(v.results.Name, 'person');
  assert.deepEqual(
    (v.results.Attributes as { AttributeName: string; AttributeType: { Name: string } }[]).map((a) => [
      a.AttributeName,
      a.AttributeType.Name,
    ]),
    [['age', 'INT']],
  );
  const e = (await get('/gsqlserver/gsql/schema?graph=social&type=follows')).json() as {
    results: Record<string, unknown>;
  };
  assert.equal(e.results.Name, 'follows');
  const missing = await get('/gsqlserver/gsql/schema?graph=social&type=nope');
  assert.equal(missing.status, 400);
  assert.deepEqual(missing.json(), {
    version: { edition: 'enterprise', api: 'v2', schema: 0 },
    error: true,
    message: "Type 'nope' does not exist in graph 'social'.",
    results: [],
    code: 'REST-30001',
  });
});

test('unknown graph is REST-1004; no graph lists the global types', async () => {
  const r = await get('/gsql/v1/schema/graphs/nope');
  assert.equal(r.status, 400);
  assert.equal((r.json() as { code: string }).code, 'REST-1004');
  const g = (await get('/gsqlserver/gsql/schema')).json() as { results: { VertexTypes: { Name: string }[] } };
  assert.deepEqual(
    g.results.VertexTypes.map((v) => v.Name),
    ['person'],
  );
});

test('UDT list, 3.x and 4.x', async () => {
  const r = await get('/gsqlserver/gsql/udtlist?graph=social');
  assert.equal(r.status, 200);
  const results = (r.json() as { results: unknown }).results;
  assert.deepEqual(results, [
    {
      name: 'pair',
      fields: [
        { fieldName: 'a', fieldType: 'INT' },
        { fieldName: 'b', fieldType: 'STRING', length: 10 },
      ],
    },
  ]);
  assert.deepEqual((await get('/gsql/v1/udt/tuples?graph=social')).json(), r.json());
  assert.equal((await get('/gsql/v1/udt/tuples?graph=nope')).status, 400);
});

test('schema endpoints need credentials', async () => {
  for (const path of [
    '/gsqlserver/gsql/schema?graph=social',
    '/gsql/v1/schema/graphs/social',
    '/gsqlserver/gsql/udtlist',
  ]) {
    const r = await send(`${s.urls.gsql}${path}`);
    assert.equal(r.status, 401, path);
    assert.equal((r.json() as { code: string }).code, 'REST-10016');
  }
});
