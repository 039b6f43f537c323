import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeUserPassword } from '../../src/server/http/auth.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

test('login bodies: base64 user:password, the user URL-encoded as the gsql client sends it', () => {
  assert.deepEqual(decodeUserPassword(b64('tigergraph:tigergraph')), {
    user: 'tigergraph',
    password: 'tigergraph',
  });
  assert.deepEqual(decodeUserPassword(b64('a%40b+c:p:w%41')), { user: 'a@b c', password: 'p:w%41' });
  assert.deepEqual(decodeUserPassword(`  ${b64('u%zz:p')}\n`), { user: 'u%zz', password: 'p' });
  assert.equal(decodeUserPassword(b64('no-colon')), undefined);
  assert.equal(decodeUserPassword(''), undefined);
});
