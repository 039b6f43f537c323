/**
 * The Studio's files: the built page and bundles through the GSQL listener (content types, CSP with
 * a fresh nonce per page, caching, pre-compressed variants), and StudioAssets over a folder of
 * our own making (only known file types, 503 before a build).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { brotliDecompressSync, gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { StudioAssets } from '../../../src/server/studio/assets.js';
import { call, startStudioServers, type StudioServers } from './studio-harness.js';

let t: StudioServers;
before(async () => {
  t = await startStudioServers();
});
after(async () => {
  await t.close();
});

function nonceOf(csp: string): string {
  const m = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp);
  assert.ok(m, csp);
  return m[1];
}

test('the page: HTML with a fresh CSP nonce each time, never cached', async () => {
  const first = await call(t.base, '/studio/');
  assert.equal(first.status, 200);
  assert.equal(first.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.equal(first.headers.get('cache-control'), 'no-store');
  assert.equal(first.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(first.headers.get('x-frame-options'), 'DENY');
  const csp = first.headers.get('content-security-policy') ?? '';
  assert.match(
    csp,
    /^default-src 'none'; script-src 'self'; style-src 'self' 'nonce-[^']+' 'sha256-[^']+'; /,
  );
  assert.match(csp, /connect-src 'self'/);
  assert.match(csp, /frame-ancestors 'none'/);
  const html = await first.text();
  const nonce = nonceOf(csp);
  assert.ok(html.includes(`<meta name="ocelot-csp-nonce" content="${nonce}">`));
  assert.ok(!html.includes('__OCELOT_CSP_NONCE__'));
  // Every script and stylesheet the page names is one of our own files.
  const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
  assert.ok(refs.length >= 3);
  for (const ref of refs) assert.match(ref, /^\/studio\/[A-Za-z0-9.-]+$/);
  const second = await call(t.base, '/studio');
  assert.notEqual(nonceOf(second.headers.get('content-security-policy') ?? ''), nonce);
});

test('bundles: right types, cached for good, compressed for browsers that accept it', async () => {
  const html = await (await call(t.base, '/studio/')).text();
  const script = /src="\/studio\/(app-[A-Z0-9]{8}\.js)"/.exec(html)?.[1];
  const style = /href="\/studio\/(app-[A-Z0-9]{8}\.css)"/.exec(html)?.[1];
  assert.ok(script && style, html);
  const plain = await call(t.base, `/studio/${script}`, { accept: 'identity' });
  assert.equal(plain.headers.get('content-type'), 'text/javascript; charset=utf-8');
  assert.equal(plain.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.equal(plain.headers.get('content-encoding'), null);
  const body = Buffer.from(await plain.arrayBuffer());
  assert.ok(body.length > 100_000);
  // fetch would decode it; a raw request shows what was sent.
  const raw = await fetchRaw(`${t.base}/studio/${script}`, 'br');
  assert.equal(raw.encoding, 'br');
  assert.ok(raw.body.length < body.length / 2);
  assert.deepEqual(brotliDecompressSync(raw.body), body);
  const css = await call(t.base, `/studio/${style}`);
  assert.equal(css.headers.get('content-type'), 'text/css; charset=utf-8');
  const icon = await call(t.base, '/studio/favicon.svg');
  assert.equal(icon.headers.get('content-type'), 'image/svg+xml');
  assert.equal(icon.headers.get('cache-control'), 'public, max-age=86400');
});

test('anything else under /studio is a 404, outside paths included', async () => {
  for (const path of [
    '/studio/nope.js',
    '/studio/..%2Fpackage.json',
    '/studio/%2E%2E%2Fpackage.json',
    '/studio/api',
  ]) {
    const r = await call(t.base, path);
    assert.equal(r.status, 404, path);
  }
});

async function fetchRaw(
  url: string,
  encoding: string,
): Promise<{ encoding: string | undefined; body: Buffer }> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { 'accept-encoding': encoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

test('StudioAssets: 503 before a build, then only known file types, gzip when asked', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ocelot-studio-assets-'));
  const app = Fastify();
  const assets = new StudioAssets(dir);
  app.get<{ Params: { file: string } }>('/studio/:file', (request, reply) =>
    assets.send(request, reply, request.params.file),
  );
  try {
    let r = await app.inject({ url: '/studio/index.html' });
    assert.equal(r.statusCode, 503);
    assert.match(r.body, /run `npm run build`/);
    await writeFile(join(dir, 'index.html'), '<p>__OCELOT_CSP_NONCE__</p>');
    await writeFile(join(dir, 'secret.ts'), 'not served');
    await writeFile(join(dir, 'app-ABCDEFGH.js'), 'x'.repeat(1000));
    await writeFile(join(dir, 'app-ABCDEFGH.js.gz'), gzipSync('x'.repeat(1000)));
    r = await app.inject({ url: '/studio/index.html' });
    assert.equal(r.statusCode, 200);
    assert.equal(r.body, `<p>${nonceOf(String(r.headers['content-security-policy']))}</p>`);
    assert.equal((await app.inject({ url: '/studio/secret.ts' })).statusCode, 404);
    assert.equal((await app.inject({ url: '/studio/app-ABCDEFGH.js.gz' })).statusCode, 404);
    r = await app.inject({ url: '/studio/app-ABCDEFGH.js', headers: { 'accept-encoding': 'gzip, deflate' } });
    assert.equal(r.headers['content-encoding'], 'gzip');
    assert.equal(r.headers.vary, 'Accept-Encoding');
    r = await app.inject({ url: '/studio/app-ABCDEFGH.js', headers: { 'accept-encoding': 'br' } });
    assert.equal(r.headers['content-encoding'], undefined);
    assert.equal(r.body, 'x'.repeat(1000));
  } finally {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  }
});
