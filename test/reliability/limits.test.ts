/**
 * Limits of a real `ocelot serve`: a body over the configured maximum, URLs over 8 KB, deeply nested
 * JSON and huge `limit` values are refused or bounded with a clear error in the envelope, and the
 * server process stays up.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { DEFAULT_BODY_LIMIT } from '../../src/server/http/body.js';
import { cleanup, gsql, request, startServe, tempDir, type ServeProcess } from './server-process.js';
import { LEAK } from './fuzz-helpers.js';
import { scaled } from '../timing.js';

let s: ServeProcess;
before(async () => {
  s = await startServe({ dataDir: join(tempDir(), 'data'), sync: 'none' });
  const made = await gsql(s.gsql, 'CREATE VERTEX P (PRIMARY_ID id STRING, n INT)\nCREATE GRAPH G (P)');
  assert.equal(made.code, 0, made.out);
  const up = await request(`${s.restpp}/graph/G`, {
    method: 'POST',
    body: JSON.stringify({
      vertices: {
        P: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`p${i}`, { n: { value: i } }])),
      },
    }),
  });
  assert.equal(up.status, 200, up.text);
});
after(async () => {
  await s.kill();
  cleanup();
});

interface Envelope {
  error: boolean;
  message: string;
  code?: string;
  results?: unknown[];
}

function envelope(text: string): Envelope {
  assert.doesNotMatch(text, LEAK);
  const e = JSON.parse(text) as Envelope;
  assert.equal(typeof e.error, 'boolean');
  assert.equal(typeof e.message, 'string');
  return e;
}

/** Sends raw bytes and reads the whole answer (the server may close early). */
function rawExchange(url: string, head: string, body: Buffer): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const sock = net.connect({ host: hostname, port: Number(port) });
    let answer = '';
    const timer = setTimeout(() => {
      sock.destroy();
      reject(new Error(`no answer: ${answer}`));
    }, scaled(30_000));
    sock.on('data', (d: Buffer) => (answer += d.toString()));
    sock.on('error', () => undefined);
    sock.on('close', () => {
      clearTimeout(timer);
      resolve(answer);
    });
    sock.write(head);
    sock.write(body, () => setTimeout(() => sock.end(), 500));
  });
}

async function stillUp(): Promise<void> {
  assert.equal(s.child.exitCode, null, 'the server process is still running');
  const echo = await request(`${s.restpp}/echo`);
  assert.equal(echo.status, 200);
}

test('a body declared larger than the maximum is refused with 413 in the envelope', async () => {
  const declared = DEFAULT_BODY_LIMIT + 1;
  const { host } = new URL(s.restpp);
  const answer = await rawExchange(
    s.restpp,
    `POST /graph/G HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`,
    Buffer.from('{"vertices":'),
  );
  assert.match(answer, /^HTTP\/1\.1 413 /);
  const e = envelope(answer.slice(answer.indexOf('\r\n\r\n') + 4));
  assert.equal(e.error, true);
  assert.match(e.message, new RegExp(`exceeds the limit of ${DEFAULT_BODY_LIMIT} bytes`));
  await stillUp();
});

test('URLs over 8 KB: a 9 KB filter is answered cleanly; a 64 KB url is refused with 431', async () => {
  const filter = `n>${'0'.repeat(9 * 1024)}`;
  const mid = await request(`${s.restpp}/graph/G/vertices/P?filter=${filter}`);
  assert.ok(mid.status < 500, mid.text);
  envelope(mid.text);
  const big = await request(`${s.restpp}/graph/G/vertices/P?filter=n>${'9'.repeat(64 * 1024)}`);
  assert.equal(big.status, 431);
  const e = envelope(big.text);
  assert.equal(e.error, true);
  assert.match(e.message, /too large/);
  await stillUp();
});

test('deeply nested JSON bodies are refused cleanly, not with a stack overflow', async () => {
  for (const depth of [10_000, 1_000_000]) {
    for (const [open, close] of [
      ['[', ']'],
      ['{"a":', '}'],
    ]) {
      const body = open.repeat(depth) + '1' + close.repeat(depth);
      for (const path of ['/graph/G', '/builtins/G']) {
        const r = await request(`${s.restpp}${path}`, { method: 'POST', body });
        assert.ok(
          r.status >= 400 && r.status < 500,
          `${path} depth ${depth}: ${r.status} ${r.text.slice(0, 200)}`,
        );
        assert.equal(envelope(r.text).error, true);
      }
    }
  }
  await stillUp();
});

test('huge limit values are bounded or refused with REST-30001', async () => {
  const bounded = await request(`${s.restpp}/graph/G/vertices/P?limit=4294967295`);
  assert.equal(bounded.status, 200, bounded.text);
  assert.equal(envelope(bounded.text).results?.length, 50);
  for (const limit of ['99999999999999999999999', '1e400', '-1', '18446744073709551616']) {
    const r = await request(`${s.restpp}/graph/G/vertices/P?limit=${limit}`);
    assert.equal(r.status, 400, `limit=${limit}: ${r.text}`);
    const e = envelope(r.text);
    assert.equal(e.code, 'REST-30001');
    assert.match(e.message, /limit/);
  }
  await stillUp();
});
