import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hashPassword, verifyPassword } from '../../src/auth/password.js';

test('scrypt hashes are salted and verify only the right password', async () => {
  const a = await hashPassword('s3cret!');
  const b = await hashPassword('s3cret!');
  assert.equal(a.algorithm, 'scrypt');
  assert.notEqual(a.salt, b.salt);
  assert.notEqual(a.hash, b.hash);
  assert.ok(!JSON.stringify(a).includes('s3cret!'));
  assert.equal(await verifyPassword('s3cret!', a), true);
  assert.equal(await verifyPassword('s3cret!', b), true);
  assert.equal(await verifyPassword('s3cret?', a), false);
  assert.equal(await verifyPassword('', a), false);
});
