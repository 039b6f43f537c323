/**
 * The UDF file endpoints pyTigerGraph's installUDF/getUDF call: 4.x /gsql/v1/udt/files/{file}
 * and 3.x /gsqlserver/gsql/userdefinedfunction?filename=…, with TigerGraph's envelope, the
 * server's --allow-udf-put switch, and the READ_FILE/WRITE_FILE privileges.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { allowUdfPut } from '../../../src/query/index.js';
import { basic, call, ROOT_BASIC, startAuthServers, type AuthServers } from '../../auth/server-harness.js';

let s: AuthServers;
before(async () => {
  s = await startAuthServers({ restppAuth: false });
});
after(() => s.close());

const MODULE = `export const shout = { params: ['STRING'], returns: 'STRING', fn: (x) => x.toUpperCase() + '!' };\n`;

test('PUT is refused while the server does not allow UDF files; nothing changes', async () => {
  const r = await call(`${s.gsql}/gsql/v1/udt/files/ExprFunctions`, {
    method: 'PUT',
    auth: ROOT_BASIC,
    rawBody: MODULE,
  });
  assert.equal(r.status, 400);
  assert.equal(r.body.error, true);
  assert.equal(r.body.code, 'REST-30001');
  assert.match(
    String(r.body.message),
    /PUT ExprFunctions is disabled on this server; start it with --allow-udf-put/,
  );
  const got = await call(`${s.gsql}/gsql/v1/udt/files/ExprFunctions`, { auth: ROOT_BASIC });
  assert.deepEqual([got.status, got.body.error, got.body.results], [200, false, '']);
});

test('4.x and 3.x forms: PUT the module text, GET it back, queries call it', async () => {
  allowUdfPut(s.db, true);
  try {
    const put = await call(`${s.gsql}/gsql/v1/udt/files/ExprFunctions`, {
      method: 'PUT',
      auth: ROOT_BASIC,
      rawBody: MODULE,
    });
    assert.deepEqual(
      [put.status, put.body.error, put.body.message],
      [200, false, 'PUT ExprFunctions successfully.'],
    );
    for (const url of [
      '/gsql/v1/udt/files/ExprFunctions',
      '/gsqlserver/gsql/userdefinedfunction?filename=ExprFunctions',
    ]) {
      const r = await call(`${s.gsql}${url}`, { auth: ROOT_BASIC });
      assert.deepEqual([r.status, r.body.error, r.body.results], [200, false, MODULE]);
    }
    const q = await call(`${s.gsql}/gsql/v1/statements`, {
      method: 'POST',
      auth: ROOT_BASIC,
      rawBody: 'INTERPRET QUERY () FOR GRAPH social { PRINT shout("hi") AS s; }',
    });
    assert.match(q.text, /"s": "HI!"/);
    // 3.x PUT of ExprUtil (kept as it is), then of a module that does not load: refused, unchanged.
    const util = await call(`${s.gsql}/gsqlserver/gsql/userdefinedfunction?filename=ExprUtil`, {
      method: 'PUT',
      auth: ROOT_BASIC,
      rawBody: '// helpers',
    });
    assert.equal(util.body.error, false);
    const bad = await call(`${s.gsql}/gsqlserver/gsql/userdefinedfunction?filename=ExprFunctions`, {
      method: 'PUT',
      auth: ROOT_BASIC,
      rawBody: 'export const f = 1;',
    });
    assert.deepEqual([bad.status, bad.body.error], [400, true]);
    assert.match(String(bad.body.message), /PUT ExprFunctions failed: the export f must be \{ params/);
    assert.equal(
      (await call(`${s.gsql}/gsql/v1/udt/files/ExprFunctions`, { auth: ROOT_BASIC })).body.results,
      MODULE,
    );
  } finally {
    allowUdfPut(s.db, false);
  }
});

test('an unknown file name; a user without READ_FILE/WRITE_FILE is refused', async () => {
  const r = await call(`${s.gsql}/gsql/v1/udt/files/Other`, { auth: ROOT_BASIC });
  assert.deepEqual([r.status, r.body.code], [400, 'REST-30001']);
  assert.match(
    String(r.body.message),
    /'Other' is not a UDF file; the files are ExprFunctions, ExprUtil and TokenBank\./,
  );
  const made = await call(`${s.gsql}/gsql/v1/statements`, {
    method: 'POST',
    auth: ROOT_BASIC,
    rawBody: 'CREATE USER dev WITH PASSWORD "pw-dev"\nGRANT ROLE querywriter ON GRAPH social TO dev',
  });
  assert.match(made.text, /Successfully granted roles/);
  const get = await call(`${s.gsql}/gsql/v1/udt/files/ExprFunctions`, { auth: basic('dev', 'pw-dev') });
  assert.equal(get.status, 403);
  assert.match(String(get.body.message), /READ_FILE/);
  allowUdfPut(s.db, true);
  try {
    const put = await call(`${s.gsql}/gsql/v1/udt/files/ExprFunctions`, {
      method: 'PUT',
      auth: basic('dev', 'pw-dev'),
      rawBody: MODULE,
    });
    assert.equal(put.status, 403);
    assert.match(String(put.body.message), /WRITE_FILE/);
  } finally {
    allowUdfPut(s.db, false);
  }
});
