import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeBasic } from '../../src/auth/credentials.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

test('login bodies: base64 user:password, the user URL-encoded as the gsql client sends it', () => {
  assert.deepEqual(decodeBasic(b64('tigergraph:tigergraph')), {
    user: 'tigergraph',
    password: 'tigergraph',
  });
  assert.deepEqual(decodeBasic(b64('a%40b+c:p:w%41')), { user: 'a@b c', password: 'p:w%41' });
  assert.deepEqual(decodeBasic(`  ${b64('u%zz:p')}\n`), { user: 'u%zz', password: 'p' });
  assert.equal(decodeBasic(b64('no-colon')), undefined);
  assert.equal(decodeBasic(''), undefined);
});
