import assert from 'node:assert/strict';
import { test } from 'node:test';
import { digestOf, maskSecret, maskToken, newCredential, sameDigest } from '../../src/auth/random.js';

test('credentials are 32 characters of [a-z0-9] and do not repeat', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 500; i++) {
    const c = newCredential();
    assert.match(c, /^[a-z0-9]{32}$/);
    seen.add(c);
  }
  assert.equal(seen.size, 500);
});

test('digests compare in constant time and masks hide the middle', () => {
  assert.equal(sameDigest(digestOf('abc'), digestOf('abc')), true);
  assert.equal(sameDigest(digestOf('abc'), digestOf('abd')), false);
  assert.equal(maskToken('eyJhbGciOiJIUzI1NiJ9.x.4WgE'), 'eyJh****4WgE');
  assert.equal(maskToken(''), '');
  assert.equal(maskToken('short'), '****');
  assert.equal(maskSecret('abcdefghijklmnopqrstuvwxyz012345'), 'abc****345');
});
