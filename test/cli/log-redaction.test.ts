import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLogger } from '../../src/cli/logging.js';

test('the access line is written unredacted (its fields hold no credential); other lines stay redacted', () => {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'info',
    format: 'json',
    destination: { write: (l) => lines.push(l) },
  });
  const child = logger.child({ listener: 'restpp' });
  const fields = { reqId: '1.RESTPP_1_1.1.N', method: 'GET', url: '/echo', status: 200, responseTime: 0.5 };
  child.info(fields, 'request');
  child.unredacted?.().info(fields, 'request');
  child.info({ password: 'pw', nested: { token: 't' } }, 'm');
  const [a, b, c] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  delete a.time;
  delete b.time;
  assert.deepEqual(b, a);
  assert.equal(a.listener, 'restpp');
  assert.equal(a.url, '/echo');
  assert.equal(c.password, '****');
  assert.deepEqual(c.nested, { token: '****' });
  assert.equal(child.enabled?.('info'), true);
  assert.equal(child.enabled?.('debug'), false);
});
