import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ByteReader, ByteWriter } from '../../src/store/bytes.js';

test('strings round-trip through the byte writer: short ASCII, long, and non-ASCII text', () => {
  const texts = [
    '',
    'a',
    'Extra',
    'x'.repeat(63),
    'y'.repeat(64),
    'z'.repeat(300),
    'é',
    'naïve',
    '日本',
    '😀 ok',
    '\u007f\u0080',
  ];
  const w = new ByteWriter(4);
  for (const s of texts) {
    w.str(s);
    w.value(s);
  }
  const r = new ByteReader(w.result());
  for (const s of texts) {
    assert.equal(r.str(), s);
    assert.equal(r.value(), s);
  }
  assert.equal(r.pos, w.result().length);
});

test('numbers round-trip through the byte writer, small integers in their short encoding', () => {
  const nums = [
    0,
    -0,
    1,
    127,
    128,
    300,
    16383,
    16384,
    2 ** 31 - 1,
    2 ** 31,
    2 ** 53 - 1,
    -1,
    -(2 ** 40),
    0.5,
    -2.25,
    1e300,
  ];
  const w = new ByteWriter(4);
  for (const n of nums) w.value(n);
  const r = new ByteReader(w.result());
  for (const n of nums) assert.ok(Object.is(r.value(), n), `value ${n}`);
  assert.equal(r.pos, w.result().length);
  // Tag 2 then a varuint: 300 takes 1 + 2 bytes, 2^31 - 1 takes 1 + 5; -0 is a float64 (1 + 8).
  const sizes = [300, 2 ** 31 - 1, -0].map((n) => {
    const one = new ByteWriter(4);
    one.value(n);
    return Array.from(one.result());
  });
  assert.deepEqual(sizes, [
    [2, 0xac, 0x02],
    [2, 0xff, 0xff, 0xff, 0xff, 0x07],
    [4, 0, 0, 0, 0, 0, 0, 0, 0x80],
  ]);
});

test('a short string value is its tag, a one-byte length and its bytes, also after non-ASCII text fell back', () => {
  const w = new ByteWriter(2);
  w.value('p12');
  assert.deepEqual([...w.result()], [5, 3, 0x70, 0x31, 0x32]);
  // Non-ASCII at the end of a short string: the one-pass write stops there and the UTF-8 path writes it.
  w.value('abcé');
  w.value('x');
  assert.deepEqual([...w.result().subarray(5)], [5, 5, 0x61, 0x62, 0x63, 0xc3, 0xa9, 5, 1, 0x78]);
  const r = new ByteReader(w.result());
  assert.deepEqual([r.value(), r.value(), r.value()], ['p12', 'abcé', 'x']);
});
