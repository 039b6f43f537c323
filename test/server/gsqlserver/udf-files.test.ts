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
  assert.deepEqual([got.status, got.body.error, got.body.results], [200, false, DEFAULT_EXPR_FUNCTIONS]);
});

const DEFAULT_EXPR_FUNCTIONS = `// ExprFunctions: the user-defined functions queries call, as a JavaScript module (Ocelot's
// form of TigerGraph's ExprFunctions.hpp). Export each function under the name queries call:
//   export const echo = { params: ['STRING'], returns: 'STRING', fn: (s) => s };
`;
const DEFAULT_EXPR_UTIL = `// ExprUtil: helpers for ExprFunctions (Ocelot's form of TigerGraph's ExprUtil.hpp). Ocelot
// keeps this file as it is given; ExprFunctions modules hold their own helpers.
`;

test('files never PUT read as their defaults, which name the file (what getUDF looks for)', async () => {
  for (const [file, text] of [
    ['ExprFunctions', DEFAULT_EXPR_FUNCTIONS],
    ['ExprUtil', DEFAULT_EXPR_UTIL],
  ]) {
    for (const url of [
      `/gsql/v1/udt/files/${file}`,
      `/gsqlserver/gsql/userdefinedfunction?filename=${file}`,
    ]) {
      const r = await call(`${s.gsql}${url}`, { auth: ROOT_BASIC });
      assert.equal(r.status, 200, url);
      assert.deepEqual(
        r.body,
        {
          version: { edition: 'enterprise', api: 'v2', schema: 0 },
          error: false,
          message: '',
          results: text,
          code: 'REST-0000',
        },
        url,
      );
      assert.ok(text.includes(file));
    }
  }
  const token = await call(`${s.gsql}/gsql/v1/udt/files/TokenBank`, { auth: ROOT_BASIC });
  assert.match(String(token.body.results), /^\/\/ TokenBank: the token functions loading jobs call/);
  // A client's GET-edit-PUT round trip: each default loads as it is.
  allowUdfPut(s.db, true);
  try {
    for (const file of ['ExprFunctions', 'ExprUtil', 'TokenBank']) {
      const text = (await call(`${s.gsql}/gsql/v1/udt/files/${file}`, { auth: ROOT_BASIC })).body.results;
      const put = await call(`${s.gsql}/gsql/v1/udt/files/${file}`, {
        method: 'PUT',
        auth: ROOT_BASIC,
        rawBody: String(text),
      });
      assert.deepEqual([put.status, put.body.message], [200, `PUT ${file} successfully.`]);
    }
  } finally {
    allowUdfPut(s.db, false);
  }
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
