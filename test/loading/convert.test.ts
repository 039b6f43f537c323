import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  INVALID,
  datetimeBytes,
  fastDatetime,
  parseBoolToken,
  parseIntToken,
} from '../../src/loading/convert.js';
import { CsvTokenizer, type Line } from '../../src/loading/tokenizer.js';
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

test("a DATETIME read from a line's bytes is what the string path reads", () => {
  const texts = [
    '2024-02-29 23:59:59',
    '2024-02-29T00:00:01',
    '2023-02-29',
    '1970-01-01',
    '2024-1-01 00:00:00',
    '2024-01-01 24:00:00',
    '2024/01/01',
    'x',
    '',
    '２０２４-01-01',
    '9999-12-31 23:59:59',
  ];
  for (const t of texts) {
    const b = Buffer.from(`,${t},`, 'utf8');
    assert.equal(datetimeBytes(b, 1, b.length - 1), fastDatetime(t), t);
  }
  // Through the tokenizer: a quoted token is read inside its quotes; one with doubled quotes is
  // left to the string path.
  const seen: (number | undefined)[] = [];
  const tok = new CsvTokenizer(
    { separator: Buffer.from(','), eol: Buffer.from('\n'), quote: 0x22 },
    (line: Line) => seen.push(line.datetime(1)),
  );
  tok.push(Buffer.from('a,2024-03-04 05:06:07\nb,"2024-03-04"\nc,"2024-03-04 05:06:0""7"\nd,\n'));
  tok.finish();
  assert.deepEqual(seen, [
    fastDatetime('2024-03-04 05:06:07'),
    fastDatetime('2024-03-04'),
    undefined,
    undefined,
  ]);
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
