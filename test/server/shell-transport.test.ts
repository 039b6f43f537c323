import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { BASIC, send, startTestServers, type TestServers } from './helpers.js';
import type { ShellSession } from '../../src/server/gsqlserver/script-runner.js';

/** A scripted executor: understands `USE GRAPH x`, `fail`, `slow`, `crash`, echoes anything else. */
const runs: { text: string; session: ShellSession }[] = [];
let release: (() => void) | undefined;
async function fakeRunner(text: string, session: ShellSession, out: (t: string) => void): Promise<number> {
  runs.push({ text, session: { ...session } });
  for (const line of text.split('\n').filter((l) => l.trim() !== '')) {
    const use = /^USE GRAPH (\w+)$/.exec(line.trim());
    if (use) {
      session.graph = use[1];
      out(`Using graph '${use[1]}'\n`);
    } else if (line === 'USE GLOBAL') {
      session.graph = undefined;
    } else if (line === 'fail') {
      out('Syntax Error: bad');
      return 211;
    } else if (line === 'slow') {
      out('first part\n');
      await new Promise<void>((r) => (release = r));
      out('second part\n');
    } else if (line === 'crash') {
      throw new Error('executor exploded');
    } else {
      out(`ran: ${line} as ${session.user} on ${session.graph ?? '(global)'}\n`);
    }
  }
  return 0;
}

let s: TestServers;
before(async () => {
  s = await startTestServers(fakeRunner, ['social', 'other']);
});
after(async () => {
  await s.close();
});

const form = (text: string) => encodeURIComponent(text).replace(/%20/g, '+');

async function login(base: string, userPass: string, cookie?: object) {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (cookie) headers['GSQL-Cookie'] = JSON.stringify(cookie);
  return send(`${base}/login`, { method: 'POST', body: Buffer.from(userPass).toString('base64'), headers });
}

test('3.x login answers the client JSON and the cookie header', async () => {
  for (const base of [`${s.urls.gsql}/gsqlserver/gsql`, `${s.urls.admin}/gsql`]) {
    const cookie = { fromGsqlClient: true, terminalWidth: 80, graph: 'social' };
    const r = await login(base, 'tigergraph:tigergraph', cookie);
    assert.equal(r.status, 200);
    assert.deepEqual(r.json(), {
      error: false,
      message: '',
      isClientCompatible: true,
      welcomeMessage: 'Welcome to TigerGraph.',
      shellPrompt: 'GSQL > ',
      securityRecommendations: 0,
    });
    assert.deepEqual(JSON.parse(r.headers.get('set-gsql-cookie') ?? ''), cookie);
  }
});

test('3.x login with a wrong password or an unknown graph: error in a 200 body', async () => {
  const base = `${s.urls.gsql}/gsqlserver/gsql`;
  const wrong = await login(base, 'tigergraph:nope');
  assert.equal(wrong.status, 200);
  assert.deepEqual(wrong.json(), {
    error: true,
    message: 'Invalid username or password!',
    isClientCompatible: true,
  });
  assert.equal(wrong.headers.get('set-gsql-cookie'), null);
  const garbage = await send(`${base}/login`, { method: 'POST', body: '%%%' });
  assert.equal((garbage.json() as { error: boolean }).error, true);
  const graph = await login(base, 'tigergraph:tigergraph', { graph: 'missing' });
  assert.deepEqual(graph.json(), {
    error: true,
    message: "Graph 'missing' does not exist.",
    isClientCompatible: true,
  });
});

test('3.x file/command: URL-encoded text, streamed output, return code line', async () => {
  for (const url of [`${s.urls.gsql}/gsqlserver/gsql/file`, `${s.urls.admin}/gsql/command`]) {
    const r = await send(url, {
      method: 'POST',
      body: form('ls\nshow vertex *'),
      headers: { authorization: BASIC, 'GSQL-Cookie': '{"graph":"social"}' },
    });
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /text\/plain/);
    assert.equal(
      r.text,
      'ran: ls as tigergraph on social\nran: show vertex * as tigergraph on social\n__GSQL__RETURN__CODE__,0\n',
    );
  }
  assert.deepEqual(runs.at(-1), {
    text: 'ls\nshow vertex *',
    session: { user: 'tigergraph', graph: 'social', principal: { user: 'tigergraph', via: 'password' } },
  });
});

test('the executor exit code is passed on, after a line break', async () => {
  const r = await send(`${s.urls.gsql}/gsqlserver/gsql/file`, {
    method: 'POST',
    body: form('fail'),
    headers: { authorization: BASIC },
  });
  assert.equal(r.text, 'Syntax Error: bad\n__GSQL__RETURN__CODE__,211\n');
});

test('USE GRAPH changes the cookie: __GSQL__COOKIES__ carries the client cookie with the new graph', async () => {
  const r = await send(`${s.urls.gsql}/gsqlserver/gsql/command`, {
    method: 'POST',
    body: form('USE GRAPH other'),
    headers: { authorization: BASIC, 'GSQL-Cookie': '{"fromGsqlClient":true,"graph":"social"}' },
  });
  assert.equal(
    r.text,
    'Using graph \'other\'\n__GSQL__COOKIES__,{"fromGsqlClient":true,"graph":"other"}\n__GSQL__RETURN__CODE__,0\n',
  );
  const global = await send(`${s.urls.gsql}/gsqlserver/gsql/command`, {
    method: 'POST',
    body: form('USE GLOBAL'),
    headers: { authorization: BASIC, 'GSQL-Cookie': '{"graph":"social"}' },
  });
  assert.equal(global.text, '__GSQL__COOKIES__,{}\n__GSQL__RETURN__CODE__,0\n');
  const same = await send(`${s.urls.gsql}/gsqlserver/gsql/command`, {
    method: 'POST',
    body: form('USE GRAPH social'),
    headers: { authorization: BASIC, 'GSQL-Cookie': '{"graph":"social"}' },
  });
  assert.equal(same.text, "Using graph 'social'\n__GSQL__RETURN__CODE__,0\n");
});

test('output is streamed as the executor produces it', async () => {
  const res = await fetch(`${s.urls.gsql}/gsqlserver/gsql/file`, {
    method: 'POST',
    body: form('slow'),
    headers: { authorization: BASIC },
  });
  assert.equal(res.status, 200);
  const reader = res.body!.getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  assert.equal(first, 'first part\n');
  release?.();
  let rest = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    rest += new TextDecoder().decode(value);
  }
  assert.equal(rest, 'second part\n__GSQL__RETURN__CODE__,0\n');
});

test('an executor failure ends the stream with a message and code 255, no stack', async () => {
  const r = await send(`${s.urls.gsql}/gsqlserver/gsql/file`, {
    method: 'POST',
    body: form('crash'),
    headers: { authorization: BASIC },
  });
  assert.equal(r.status, 200);
  assert.equal(r.text, 'Internal error: executor exploded\n__GSQL__RETURN__CODE__,255\n');
});

test('credentials: missing or wrong Basic auth is 401 with the envelope; ping needs none', async () => {
  const wrong = `Basic ${Buffer.from('tigergraph:bad').toString('base64')}`;
  for (const [url, init] of [
    [`${s.urls.gsql}/gsqlserver/gsql/file`, { method: 'POST', body: form('ls') }],
    [
      `${s.urls.gsql}/gsqlserver/gsql/command`,
      { method: 'POST', body: form('ls'), headers: { authorization: wrong } },
    ],
    [`${s.urls.admin}/gsql/file`, { method: 'POST', body: form('ls'), headers: { authorization: wrong } }],
    [`${s.urls.gsql}/gsql/v1/statements`, { method: 'POST', body: 'ls', headers: { authorization: wrong } }],
  ] as [string, RequestInit][]) {
    const before = runs.length;
    const r = await send(url, init);
    assert.equal(r.status, 401, url);
    const body = r.json() as { error: boolean; code: string; message: string };
    assert.equal(body.error, true);
    assert.equal(body.code, 'REST-10016');
    assert.match(body.message, /Invalid username or password!|requires a user name and password/);
    assert.equal(runs.length, before, 'nothing ran');
  }
});

test('4.x POST /gsql/v1/statements: raw text in, plain text out, no control lines', async () => {
  const r = await send(`${s.urls.gsql}/gsql/v1/statements`, {
    method: 'POST',
    body: 'USE GRAPH social\nls a+b',
    headers: { authorization: BASIC, 'content-type': 'text/plain' },
  });
  assert.equal(r.status, 200);
  assert.equal(r.text, "Using graph 'social'\nran: ls a+b as tigergraph on social\n");
  const failed = await send(`${s.urls.gsql}/gsql/v1/statements`, {
    method: 'POST',
    body: 'fail',
    headers: { authorization: BASIC },
  });
  assert.equal(failed.status, 200);
  assert.equal(failed.text, 'Syntax Error: bad');
  const asyncReq = await send(`${s.urls.gsql}/gsql/v1/statements?async=true`, {
    method: 'POST',
    body: 'ls',
    headers: { authorization: BASIC },
  });
  assert.equal(asyncReq.status, 400);
  assert.equal((asyncReq.json() as { code: string }).code, 'REST-30001');
});

test('malformed URL-encoding of a 3.x body is REST-30000', async () => {
  const r = await send(`${s.urls.gsql}/gsqlserver/gsql/file`, {
    method: 'POST',
    body: 'ls%E0%A4',
    headers: { authorization: BASIC },
  });
  assert.equal(r.status, 400);
  assert.equal((r.json() as { code: string }).code, 'REST-30000');
});
