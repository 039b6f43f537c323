/** Authentication through `startServers` as `ocelot serve --auth` runs it, across a restart. */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startServers, type RunningServers } from '../../src/server/start.js';
import { basic, call, ROOT_BASIC } from '../auth/server-harness.js';

async function start(dataDir: string, auth: boolean): Promise<RunningServers> {
  return startServers({
    dataDir,
    sync: 'none',
    auth,
    restppPort: 0,
    gsqlPort: 0,
    adminPort: 0,
    log: () => {},
  });
}

test('serve --auth: users, secrets and tokens end to end, kept across a restart', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'ocelot-auth-start-'));
  let s = await start(dataDir, true);
  try {
    const setup = await call(`${s.urls.gsql}/gsql/v1/statements`, {
      method: 'POST',
      auth: ROOT_BASIC,
      rawBody: [
        'CREATE VERTEX Person (PRIMARY_ID id STRING, name STRING)',
        'CREATE GRAPH social (Person)',
        'CREATE USER ann WITH PASSWORD "ann-pw"',
        'GRANT ROLE querywriter ON GRAPH social TO ann',
      ].join('\n'),
    });
    assert.match(
      setup.text,
      /Successfully granted roles \[querywriter\] on graph 'social' to users \[ann\]\./,
      setup.text,
    );

    // REST++ wants a token on both listeners; /echo does not.
    for (const base of [s.urls.restpp, `${s.urls.gsql}/restpp`]) {
      const r = await call(`${base}/graph/social/vertices/Person`);
      assert.equal(r.status, 401);
      assert.equal(r.body.code, 'REST-10016');
      assert.equal((await call(`${base}/echo`)).status, 200);
    }

    // ann gets a token with her password, then upserts and reads with it.
    const tok = await call(`${s.urls.restpp}/requesttoken`, {
      method: 'POST',
      auth: basic('ann', 'ann-pw'),
      body: { graph: 'social' },
    });
    assert.equal(tok.status, 200, tok.text);
    const bearer = `Bearer ${(tok.body.results as { token: string }).token}`;
    const up = await call(`${s.urls.restpp}/graph/social`, {
      method: 'POST',
      auth: bearer,
      body: { vertices: { Person: { p1: { name: { value: 'Pat' } } } } },
    });
    assert.equal(up.status, 200, up.text);
    const read = await call(`${s.urls.gsql}/restpp/graph/social/vertices/Person/p1`, { auth: bearer });
    assert.equal(read.status, 200, read.text);
    assert.equal((read.body.results as { attributes: { name: string } }[])[0].attributes.name, 'Pat');

    // A secret logs in to the 3.x gsql transport as __GSQL__secret.
    const made = await call(`${s.urls.gsql}/gsql/v1/secrets?alias=cli`, {
      method: 'POST',
      auth: basic('ann', 'ann-pw'),
    });
    assert.equal(made.status, 200, made.text);
    const secret = (made.body.results as { value: string }).value;
    const login = await call(`${s.urls.gsql}/gsqlserver/gsql/login`, {
      method: 'POST',
      rawBody: Buffer.from(`__GSQL__secret:${secret}`).toString('base64'),
    });
    assert.equal(login.body.error, false, login.text);
    const wrong = await call(`${s.urls.gsql}/gsqlserver/gsql/login`, {
      method: 'POST',
      rawBody: Buffer.from('ann:nope').toString('base64'),
    });
    assert.deepEqual(wrong.body, {
      error: true,
      message: 'Invalid username or password!',
      isClientCompatible: true,
    });
    // ann may not change the schema: the statement says which privilege is missing.
    const ddl = await call(`${s.urls.gsql}/gsqlserver/gsql/file`, {
      method: 'POST',
      auth: basic('__GSQL__secret', secret),
      rawBody: encodeURIComponent('DROP VERTEX Person'),
    });
    assert.match(ddl.text, /does not have the privilege WRITE_SCHEMA/);

    await s.close();
    s = await start(dataDir, true);
    const again = await call(`${s.urls.restpp}/graph/social/vertices/Person/p1`, { auth: bearer });
    assert.equal(again.status, 200, again.text);
    const annLogin = await call(`${s.urls.gsql}/gsql/v1/statements`, {
      method: 'POST',
      auth: basic('ann', 'ann-pw'),
      rawBody: 'SHOW SECRET',
    });
    assert.match(annLogin.text, /- Alias: cli/);
    await s.close();

    // Without --auth REST++ is open and the token endpoints are gone.
    s = await start(dataDir, false);
    assert.equal((await call(`${s.urls.restpp}/graph/social/vertices/Person/p1`)).status, 200);
    assert.equal(
      (await call(`${s.urls.restpp}/requesttoken`, { method: 'POST', body: { secret } })).body.code,
      'REST-1000',
    );
    // The GSQL server still wants credentials.
    assert.equal(
      (await call(`${s.urls.gsql}/gsql/v1/statements`, { method: 'POST', rawBody: 'ls' })).status,
      401,
    );
  } finally {
    await s.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});
