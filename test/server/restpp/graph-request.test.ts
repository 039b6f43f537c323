import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { RestError } from '../../../src/server/http/envelope.js';
import { parseQueryString } from '../../../src/server/http/querystring.js';
import { Deadline, DEFAULT_TIMEOUT_S } from '../../../src/server/restpp/graph-request.js';

test('timeout: 0 or absent is the system default; other values are seconds', () => {
  assert.equal(Deadline.of(parseQueryString('')).seconds, DEFAULT_TIMEOUT_S);
  assert.equal(Deadline.of(parseQueryString('timeout=0')).seconds, DEFAULT_TIMEOUT_S);
  assert.equal(Deadline.of(parseQueryString('timeout=5')).seconds, 5);
  assert.throws(
    () => Deadline.of(parseQueryString('timeout=-1')),
    (e) => e instanceof RestError && e.code === 'REST-30001' && e.message.includes("'timeout'"),
  );
});

test('a passed deadline stops a scan with REST-3001', async () => {
  const d = new Deadline(0.001);
  await sleep(10);
  assert.throws(
    () => {
      for (let i = 0; i < 2048; i++) d.check();
    },
    (e) => e instanceof RestError && e.code === 'REST-3001' && e.status === 408,
  );
});
