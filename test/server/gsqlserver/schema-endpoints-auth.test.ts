/**
 * Privileges of the 4.x schema endpoints: READ_SCHEMA to read, WRITE_SCHEMA to change; a graph's
 * designer changes its local types but not the global schema (creating global types, or putting
 * global types into the graph or taking them out, needs WRITE_SCHEMA on the global scope).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { basic, call, ROOT_BASIC, startAuthServers, type AuthServers } from '../../auth/server-harness.js';

let s: AuthServers;
const DESIGNER = basic('des', 'pw-des');
const OBSERVER = basic('obs', 'pw-obs');

before(async () => {
  s = await startAuthServers({ restppAuth: false });
  const setup = await call(`${s.gsql}/gsql/v1/statements`, {
    method: 'POST',
    auth: ROOT_BASIC,
    rawBody: [
      'CREATE USER des WITH PASSWORD "pw-des"',
      'GRANT ROLE designer ON GRAPH social TO des',
      'CREATE USER obs WITH PASSWORD "pw-obs"',
      'GRANT ROLE observer ON GRAPH social TO obs',
      'CREATE VERTEX GlobalV (PRIMARY_ID id INT)',
      'USE GRAPH social',
      'CREATE SCHEMA_CHANGE JOB add_local FOR GRAPH social { ADD VERTEX LocalV (PRIMARY_ID id INT); }',
      'RUN SCHEMA_CHANGE JOB add_local',
    ].join('\n'),
  });
  assert.match(setup.text, /Local schema change succeeded/, setup.text);
});
after(() => s.close());

const send = (method: string, path: string, auth: string, body?: unknown) =>
  call(`${s.gsql}${path}`, { method, auth, ...(body === undefined ? {} : { body }) });

test('reading needs READ_SCHEMA: the observer of a graph reads it', async () => {
  const r = await send('GET', '/gsql/v1/schema/vertices?graph=social', OBSERVER);
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(
    (r.body.results as { Name: string }[]).map((v) => v.Name),
    ['LocalV'],
  );
  const change = await send('PUT', '/gsql/v1/schema/vertices/LocalV?graph=social', OBSERVER, {
    addAttributes: [{ AttributeName: 'x', AttributeType: { Name: 'INT' } }],
  });
  assert.equal(change.status, 403, change.text);
});

test("a graph's designer alters its local types, not the global schema", async () => {
  const local = await send('PUT', '/gsql/v1/schema/vertices/LocalV?graph=social', DESIGNER, {
    addAttributes: [{ AttributeName: 'x', AttributeType: { Name: 'INT' } }],
  });
  assert.equal(local.status, 200, local.text);
  const version = s.db.catalog.version;
  for (const [method, path, body] of [
    ['POST', '/gsql/v1/schema/vertices?gsql=true', { gsql: ['CREATE VERTEX Mine (PRIMARY_ID id INT)'] }],
    ['POST', '/gsql/v1/schema/vertices?graph=social', { addVertices: ['GlobalV'] }],
    ['DELETE', '/gsql/v1/schema/vertices?vertex=GlobalV', undefined],
    ['DELETE', '/gsql/v1/schema/graphs/social?cascade=true', undefined],
  ] as const) {
    const r = await send(method, path, DESIGNER, body);
    assert.equal(r.status, 403, `${method} ${path}: ${r.text}`);
    assert.equal(r.body.error, true);
  }
  assert.equal(s.db.catalog.version, version, 'nothing changed');
  // The superuser may.
  const added = await send('POST', '/gsql/v1/schema/vertices?graph=social', ROOT_BASIC, {
    addVertices: ['GlobalV'],
  });
  assert.equal(added.status, 200, added.text);
  // Taking the global type out of the graph again is a global change too.
  const out = await send('DELETE', '/gsql/v1/schema/vertices?vertex=GlobalV&graph=social', DESIGNER);
  assert.equal(out.status, 403, out.text);
});
