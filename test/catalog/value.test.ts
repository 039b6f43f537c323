import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalInt } from '../../src/catalog/value.js';

test('canonicalInt keeps safe integers as numbers and larger ones exact as bigint', () => {
  assert.equal(canonicalInt(42n), 42);
  assert.equal(canonicalInt(-(2n ** 53n) + 1n), -(2 ** 53) + 1);
  assert.equal(canonicalInt(2n ** 63n - 1n), 9223372036854775807n);
});
