import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ByteReader, ByteWriter } from '../../src/engine/bytes.js';

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
