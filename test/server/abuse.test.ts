/**
 * Abuse resistance over HTTP: a request is refused before its body is read (the connection is
 * then closed, not drained), bodies of routes that ask for no credentials are capped, and wrong
 * passwords are throttled with 429 and Retry-After.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { basic, call, ROOT_BASIC, startAuthServers, type AuthServers } from '../auth/server-harness.js';

let s: AuthServers;
before(async () => {
  s = await startAuthServers({ restppAuth: true, graphs: ['social'] });
  const r = await call(`${s.gsql}/gsql/v1/statements`, {
    method: 'POST',
    auth: ROOT_BASIC,
    rawBody: 'CREATE USER ob WITH PASSWORD "pw"\nGRANT ROLE observer ON GRAPH social TO ob',
  });
  assert.match(r.text, /Successfully granted/);
});
after(() => s.close());

const BIG = 150 * 1024 * 1024;

/**
 * Sends the head of a request and its first few KB, never the rest, and waits for the answer and
 * for the server to close the connection. A server that waited for (or drained) the body would
 * do neither, and the deadline would end the test.
 */
function sendHead(base: string, head: string[], first = Buffer.alloc(4096, 0x61)): Promise<string> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    let answer = '';
    const deadline = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer and no close; so far: ${answer.slice(0, 200)}`));
    }, 30_000);
    socket.on('data', (d: Buffer) => (answer += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(deadline);
      resolve(answer);
    });
    socket.write(`${[...head, `Host: ${url.host}`].join('\r\n')}\r\n\r\n`);
    socket.write(first);
  });
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1]);

test('no credentials: 401 after a few KB of a 150 MB body, and the connection closes', async () => {
  const cases: [string, string, string[]][] = [
    [s.gsql, 'POST /gsql/v1/statements HTTP/1.1', ['Content-Type: text/plain']],
    [s.restpp, 'POST /graph/social HTTP/1.1', []],
    [s.restpp, 'POST /ddl/social?tag=j&filename=f HTTP/1.1', []],
    [s.gsql, 'POST /restpp/ddl/social?tag=j&filename=f HTTP/1.1', []],
    [s.gsql, 'POST /api/graphql/gsql/social HTTP/1.1', []],
  ];
  for (const [base, line, headers] of cases) {
    for (const framing of [`Content-Length: ${BIG}`, 'Transfer-Encoding: chunked']) {
      const first = framing.startsWith('Transfer')
        ? Buffer.from(`1000\r\n${'a'.repeat(4096)}\r\n`)
        : Buffer.alloc(4096, 0x61);
      const answer = await sendHead(base, [line, framing, ...headers], first);
      assert.equal(statusOf(answer), 401, `${line} ${framing}: ${answer.slice(0, 300)}`);
      assert.match(answer, /connection: close/i, line);
      assert.match(answer, /REST-10016/, line);
    }
  }
});

test('credentials without the privilege: 403 before the body, the connection closes', async () => {
  const answer = await sendHead(s.restpp, [
    'POST /graph/social HTTP/1.1',
    `Content-Length: ${BIG}`,
    `Authorization: ${basic('ob', 'pw')}`,
  ]);
  assert.equal(statusOf(answer), 403, answer.slice(0, 300));
  assert.match(answer, /CREATE_DATA, UPDATE_DATA on graph 'social'/);
});

test('a route that asks for no credentials reads at most 64 KiB of body', async () => {
  const declared = await sendHead(s.gsql, ['POST /gsqlserver/gsql/login HTTP/1.1', `Content-Length: ${BIG}`]);
  assert.equal(statusOf(declared), 413, declared.slice(0, 300));
  assert.match(declared, /exceeds 65536 bytes, the limit of an endpoint that needs no credentials/);
  const chunk = 'a'.repeat(8192);
  const chunked = await sendHead(
    s.restpp,
    ['POST /requesttoken HTTP/1.1', 'Transfer-Encoding: chunked'],
    Buffer.from(Array.from({ length: 10 }, () => `2000\r\n${chunk}\r\n`).join('')),
  );
  assert.equal(statusOf(chunked), 413, chunked.slice(0, 300));
  // A login of ordinary size is read and answered as always.
  const ok = await call(`${s.gsql}/gsqlserver/gsql/login`, {
    method: 'POST',
    rawBody: Buffer.from('tigergraph:tigergraph').toString('base64'),
  });
  assert.equal(ok.status, 200);
  assert.equal(ok.body.error, false);
});

test('wrong passwords: 429 with Retry-After after five, for every way in; the clock lets them go', async () => {
  const script = 'CREATE USER victim WITH PASSWORD "right"';
  assert.match(
    (await call(`${s.gsql}/gsql/v1/statements`, { method: 'POST', auth: ROOT_BASIC, rawBody: script })).text,
    /created/,
  );
  const statements = (password: string) =>
    fetch(`${s.gsql}/gsql/v1/statements`, {
      method: 'POST',
      headers: { Authorization: basic('victim', password) },
      body: 'ls',
    });
  for (let i = 0; i < 6; i++) assert.equal((await statements(`wrong${i}`)).status, 401);
  const blocked = await statements('wrong');
  assert.equal(blocked.status, 429);
  assert.equal(blocked.headers.get('retry-after'), '1');
  const body = (await blocked.json()) as { error: boolean; code: string; message: string };
  assert.deepEqual(body.error, true);
  assert.equal(body.code, 'REST-10016');
  assert.match(body.message, /Too many failed login attempts for user 'victim'; try again in 1 seconds/);
  // The right password changes nothing while the name is blocked, on any endpoint.
  assert.equal((await statements('right')).status, 429);
  const login = await call(`${s.gsql}/gsqlserver/gsql/login`, {
    method: 'POST',
    rawBody: Buffer.from('victim:right').toString('base64'),
  });
  assert.equal(login.status, 429, login.text);
  const token = await call(`${s.restpp}/requesttoken`, {
    method: 'POST',
    auth: basic('victim', 'right'),
    body: { graph: 'social' },
  });
  assert.equal(token.status, 429, token.text);
  s.clock.now += 1;
  assert.equal((await statements('right')).status, 200);
  // The address has had six failures: five more are free, then every name from it waits.
  for (let i = 0; i < 5; i++) assert.equal((await statements(`again${i}`)).status, 401);
  const fromAddress = await statements('again');
  assert.equal(fromAddress.status, 429);
  assert.match(await fromAddress.text(), /Too many failed login attempts from this address/);
  s.forgetFailedLogins();
  assert.equal((await statements('right')).status, 200);
});
