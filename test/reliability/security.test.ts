/**
 * Security checks of a real `ocelot serve`: it binds to the loopback interface unless told
 * otherwise, and no password, secret or token reaches its log or an error message (the auth tests
 * cover the credential table itself; these look only for leaks).
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { BASIC, cleanup, gsql, request, startServe, tempDir } from './server-process.js';
import { scaled } from '../timing.js';

after(cleanup);

function outsideAddress(): string | undefined {
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  return undefined;
}

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host, port, timeout: scaled(10_000) });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
    s.once('timeout', () => {
      s.destroy();
      resolve(false);
    });
  });
}

test('serve binds to 127.0.0.1 by default: not reachable on another interface', async () => {
  const s = await startServe({ dataDir: join(tempDir(), 'data') });
  try {
    for (const url of [s.restpp, s.gsql, s.admin]) assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const port = Number(new URL(s.restpp).port);
    assert.equal(await connects('127.0.0.1', port), true);
    const outside = outsideAddress();
    if (outside !== undefined) assert.equal(await connects(outside, port), false, `reachable on ${outside}`);
  } finally {
    await s.kill();
  }
});

test('no password, secret or token in the log or in error messages', async () => {
  const password = 'Pw-7f3c9e1a-never-echo';
  const wrongPassword = 'Wrong-5b2d8c4e-never-echo';
  const newPassword = 'Pw2-0c6a4f8d-never-echo';
  const forgedToken = 'forgedtoken7d1e0a9b3c5f';
  const s = await startServe({ dataDir: join(tempDir(), 'data'), args: ['--auth'] });
  const answers: string[] = [];
  try {
    const setup = await gsql(
      s.gsql,
      `CREATE VERTEX P (PRIMARY_ID id STRING)\nCREATE GRAPH G (P)\nCREATE USER alice WITH PASSWORD "${password}"\nGRANT ROLE admin ON GRAPH G TO alice`,
    );
    assert.equal(setup.code, 0, setup.out);
    answers.push(setup.out);
    const made = await gsql(s.gsql, 'CREATE SECRET', 'G');
    const secret = /The secret: (\S+) has been created/.exec(made.out)?.[1];
    assert.ok(secret, made.out);
    const issued = await request(`${s.restpp}/requesttoken`, {
      method: 'POST',
      body: JSON.stringify({ secret }),
    });
    const token = (issued.json as { token?: string }).token;
    assert.ok(token, issued.text);

    const alice = `Basic ${Buffer.from(`alice:${wrongPassword}`).toString('base64')}`;
    const probes: [string, RequestInit][] = [
      [`${s.restpp}/graph/G/vertices/P`, { headers: { authorization: `Bearer ${forgedToken}` } }],
      [`${s.restpp}/graph/G/vertices/P`, { headers: { authorization: `Bearer ${token}x` } }],
      [`${s.restpp}/graph/Nope/vertices/P`, { headers: { authorization: `Bearer ${token}` } }],
      [`${s.restpp}/requesttoken`, { method: 'POST', body: JSON.stringify({ secret: `${secret}x` }) }],
      [`${s.restpp}/requesttoken?secret=${secret}x`, {}],
      [
        `${s.restpp}/requesttoken`,
        { method: 'DELETE', body: JSON.stringify({ secret: `${secret}x`, token: forgedToken }) },
      ],
      [
        `${s.restpp}/requesttoken`,
        { method: 'PUT', body: JSON.stringify({ secret: `${secret}x`, token: `${token}x` }) },
      ],
      [`${s.gsql}/gsqlserver/gsql/file`, { method: 'POST', headers: { authorization: alice }, body: 'ls' }],
      [
        `${s.gsql}/gsqlserver/gsql/login`,
        { method: 'POST', body: Buffer.from(`alice:${wrongPassword}`).toString('base64') },
      ],
      [`${s.gsql}/gsql/v1/statements`, { method: 'POST', headers: { authorization: alice }, body: 'ls' }],
      [`${s.gsql}/gsqlserver/gsql/schema?graph=G`, { headers: { authorization: alice } }],
    ];
    for (const [url, init] of probes) {
      const r = await request(url, init);
      answers.push(r.text);
      for (const leaked of [wrongPassword, forgedToken, `${token}x`, `${secret}x`, password])
        assert.ok(!r.text.includes(leaked), `${url} echoed a credential: ${r.text.slice(0, 300)}`);
    }
    // A statement with a password in it: the shell's answer must not repeat it.
    const alter = await gsql(s.gsql, `ALTER PASSWORD alice WITH PASSWORD "${newPassword}"`);
    assert.equal(alter.code, 0, alter.out);
    assert.ok(!alter.out.includes(newPassword), alter.out);
    const bad = await gsql(s.gsql, `CREATE USER bob WITH PASSWORD "${password}" EXTRA`);
    assert.ok(!bad.out.includes(password), `a syntax error echoed the password: ${bad.out}`);
    answers.push(bad.out);
    // Requests that use the real credentials, so a server that logged requests would show them.
    const ok = await request(`${s.restpp}/graph/G/vertices/P`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(ok.status, 200, ok.text);
    const basic = await request(`${s.gsql}/gsqlserver/gsql/schema?graph=G`, {
      headers: { authorization: `Basic ${Buffer.from(`alice:${newPassword}`).toString('base64')}` },
    });
    assert.equal(basic.status, 200, basic.text);
    await request(`${s.gsql}/gsqlserver/gsql/schema?graph=G`, { headers: { authorization: BASIC } });
    await s.kill();
    const log = s.stdout() + s.stderr();
    for (const leaked of [password, newPassword, wrongPassword, secret, token, forgedToken])
      assert.ok(!log.includes(leaked), `the server log holds a credential:\n${log}`);
  } finally {
    await s.kill();
  }
});
