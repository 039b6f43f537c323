import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JsonWriter } from '../../../src/server/http/json-writer.js';

/** The bytes one body of `write` holds, as a fresh writer writes it. */
function body(write: (w: JsonWriter) => void): Buffer {
  const w = new JsonWriter().begin();
  write(w);
  return w.finish();
}

test('int writes what String writes for integers up to 2^53', () => {
  const values = [0, -0, 1, -1, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), -(2 ** 31) - 1, 2 ** 53 - 1, -(2 ** 53 - 1)];
  for (let k = 1; k <= 15; k++) values.push(10 ** k, 10 ** k - 1, 10 ** k + 1, -(10 ** k), -(10 ** k - 1));
  // A fixed linear congruential sequence over the whole range.
  let x = 12345;
  for (let i = 0; i < 2000; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    values.push(Math.floor((x / 2 ** 31) * 2 ** (i % 54)) * (i % 3 === 0 ? -1 : 1));
  }
  for (const n of values) assert.equal(body((w) => w.int(n)).toString('latin1'), String(n), String(n));
});

const STRINGS = [
  '',
  'plain',
  'quote " and backslash \\',
  'new\nline\ttab\r\u0001\u001f\u007f',
  'é ü 中文',
  'emoji 😀 pair',
  'lone \ud800 surrogate and \udc00',
  'line sep \u2028 para \u2029',
  'x'.repeat(63) + '"',
  'y'.repeat(200),
  'ascii then é',
];

test('text writes UTF-8 and jsonString what JSON.stringify writes, as Buffer.from encodes them', () => {
  for (const s of STRINGS) {
    assert.deepEqual(body((w) => w.text(s)), Buffer.from(s, 'utf8'), s);
    assert.deepEqual(body((w) => w.jsonString(s)), Buffer.from(JSON.stringify(s), 'utf8'), s);
  }
  assert.equal(body((w) => w.ascii('1.5e-7')).toString('latin1'), '1.5e-7');
  assert.deepEqual(body((w) => w.bytes(Buffer.from('{"a":1}'))), Buffer.from('{"a":1}'));
});

test('finished bodies keep their bytes while later bodies are written, in and past a slab', () => {
  const w = new JsonWriter();
  const kept: { bytes: Buffer; text: string }[] = [];
  // About 1.5 MB over bodies of 1 to 40 KB: several slabs, and bodies larger than what a slab has left.
  for (let i = 0; i < 120; i++) {
    const text = `${i}:`.padEnd(1 + ((i * 7919) % 40_000), String.fromCharCode(97 + (i % 26)));
    w.begin();
    w.ascii(text.slice(0, 10));
    w.text(text.slice(10));
    kept.push({ bytes: w.finish(), text });
    if (i % 10 === 3) {
      // An unfinished body (its writer threw) is written over by the next one, not kept.
      w.begin();
      w.ascii('unfinished'.repeat(100));
    }
  }
  // A body larger than a whole slab.
  const big = 'z'.repeat(600_000);
  w.begin();
  w.text(big);
  w.int(42);
  kept.push({ bytes: w.finish(), text: `${big}42` });
  w.begin().ascii('after');
  kept.push({ bytes: w.finish(), text: 'after' });
  for (const { bytes, text } of kept) assert.equal(bytes.toString('utf8'), text);
});
