import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StudioSessions } from '../../../src/server/studio/session-store.js';
import { crossOriginReason } from '../../../src/server/studio/same-origin.js';
import { readSessionCookie } from '../../../src/server/studio/cookie.js';

test('sessions: found by token until they expire; tokens are random and unguessable', () => {
  const clock = { now: 1000 };
  const sessions = new StudioSessions({ ttlMs: 500, clock: () => clock.now });
  const a = sessions.create('ann', 'h1');
  const b = sessions.create('ann', 'h1');
  assert.notEqual(a.token, b.token);
  assert.deepEqual(sessions.find(a.token), { user: 'ann', passwordHash: 'h1', expiresAt: 1500 });
  assert.equal(sessions.find(`${a.token.slice(0, -1)}x`), undefined);
  assert.equal(sessions.find('short'), undefined);
  clock.now = 1499;
  assert.ok(sessions.find(a.token));
  clock.now = 1500;
  assert.equal(sessions.find(a.token), undefined);
  assert.equal(sessions.size, 1);
  sessions.revoke(b.token);
  assert.equal(sessions.size, 0);
});

test('sessions: at most maxSessions, the oldest dropped first', () => {
  const sessions = new StudioSessions({ maxSessions: 2 });
  const first = sessions.create('a', 'h');
  const second = sessions.create('b', 'h');
  const third = sessions.create('c', 'h');
  assert.equal(sessions.size, 2);
  assert.equal(sessions.find(first.token), undefined);
  assert.equal(sessions.find(second.token)?.user, 'b');
  assert.equal(sessions.find(third.token)?.user, 'c');
});

test('the session cookie is read from a Cookie header among others', () => {
  assert.equal(readSessionCookie('a=1; ocelot_studio_session=tok; b=2'), 'tok');
  assert.equal(readSessionCookie('ocelot_studio_sessionX=1'), undefined);
  assert.equal(readSessionCookie(undefined), undefined);
});

test('same origin: what the browser says decides', () => {
  const h = (method: string, origin?: string, secFetchSite?: string) => ({
    method,
    host: '127.0.0.1:14240',
    origin,
    secFetchSite,
  });
  assert.equal(crossOriginReason(h('GET')), undefined);
  assert.equal(crossOriginReason(h('GET', undefined, 'same-origin')), undefined);
  assert.equal(crossOriginReason(h('GET', undefined, 'none')), undefined);
  assert.equal(crossOriginReason(h('POST', 'http://127.0.0.1:14240')), undefined);
  assert.equal(crossOriginReason(h('POST', 'https://127.0.0.1:14240', 'same-origin')), undefined);
  assert.equal(crossOriginReason(h('POST', undefined, 'same-origin')), undefined);
  assert.equal(crossOriginReason(h('POST')), 'neither Origin nor Sec-Fetch-Site says where it comes from');
  assert.equal(crossOriginReason(h('POST', undefined, 'none')), "Sec-Fetch-Site is 'none'");
  assert.equal(crossOriginReason(h('GET', undefined, 'same-site')), "Sec-Fetch-Site is 'same-site'");
  assert.equal(
    crossOriginReason(h('GET', 'http://127.0.0.1:9000')),
    "Origin 'http://127.0.0.1:9000' is not this server",
  );
  assert.equal(crossOriginReason(h('GET', 'file://x')), "Origin 'file://x' is not this server");
  assert.equal(
    crossOriginReason({ method: 'GET', host: undefined, origin: 'http://a', secFetchSite: undefined }),
    "Origin 'http://a' is not this server",
  );
});
