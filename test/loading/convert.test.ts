import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { INVALID, fastDatetime, parseBoolToken, parseIntToken } from '../../src/loading/convert.js';
import { parseDatetime } from '../../src/util/datetime.js';

test('fastDatetime agrees with the general DATETIME parser', () => {
  const pad = (n: number, w: number): string => String(n).padStart(w, '0');
  fc.assert(
    fc.property(
      fc.integer({ min: 1500, max: 9999 }),
      fc.integer({ min: 0, max: 13 }),
      fc.integer({ min: 0, max: 32 }),
      fc.integer({ min: 0, max: 24 }),
      fc.integer({ min: 0, max: 60 }),
      fc.integer({ min: 0, max: 60 }),
      fc.boolean(),
      (y, m, d, h, mi, s, withTime) => {
        const text =
          `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}` +
          (withTime ? ` ${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}` : '');
        const fast = fastDatetime(text);
        // The fast path may decline (undefined) but never disagrees.
        if (fast !== undefined) assert.equal(fast, parseDatetime(text), text);
        else assert.equal(parseDatetime(text), undefined, text);
      },
    ),
    { numRuns: 2000 },
  );
  assert.equal(fastDatetime('2024-02-29 23:59:59'), Date.UTC(2024, 1, 29, 23, 59, 59) / 1000);
  assert.equal(fastDatetime('2023-02-29'), undefined);
  assert.equal(fastDatetime('2023/02/28'), undefined);
});

test('integer and boolean tokens', () => {
  assert.equal(parseIntToken('9223372036854775807', 'INT', 8), 9223372036854775807n);
  assert.equal(parseIntToken('9223372036854775808', 'INT', 8), INVALID);
  assert.equal(parseIntToken('18446744073709551615', 'UINT', 8), 18446744073709551615n);
  assert.equal(parseIntToken('-1', 'UINT', 8), INVALID);
  assert.equal(parseIntToken('128', 'INT', 1), INVALID);
  assert.equal(parseIntToken('-128', 'INT', 1), -128);
  assert.equal(parseIntToken('1.5', 'INT', 8), INVALID);
  assert.equal(parseBoolToken('TRUE'), true);
  assert.equal(parseBoolToken('0'), false);
  assert.equal(parseBoolToken('yes'), INVALID);
});
