import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JsonBytes, NotHandled } from '../../src/util/json-bytes.js';
import { parseJson } from '../../src/util/json-parse.js';

function reader(text: string): JsonBytes {
  const b = Buffer.from(text);
  return new JsonBytes(b, b.toString('utf8'));
}

/** The scalar value of `[<literal>]` read by JsonBytes. */
function scalar(literal: string): unknown {
  const r = reader(`{"k":${literal}}`);
  assert.equal(r.enterObject(), true);
  assert.equal(r.firstEntry(), true);
  assert.equal(r.key(), 'k');
  const v = r.scalar();
  assert.equal(r.nextEntry(), false);
  r.end();
  return v;
}

test('numbers read from bytes equal what parseJson gives, -0, bigints and rounding included', () => {
  const literals = [
    '0',
    '-0',
    '7',
    '-7',
    '123456789012345',
    '-999999999999999',
    '1234567890123456',
    '9007199254740991',
    '9007199254740993',
    '-9007199254740993',
    '-9223372036854775808',
    '18446744073709551615',
    '0.1',
    '-0.0',
    '0.3',
    '1.5',
    '2.675',
    '0.14285714285714285',
    '142.57142857142858',
    '0.000000000000001',
    '123456789.012345',
    '1234567890.1234567',
    '1e5',
    '1E-7',
    '-2.5e+3',
    '1.7976931348623157e308',
    '5e-324',
    '0.9999999999999999',
  ];
  for (const lit of literals) {
    const got = scalar(lit);
    const want = parseJson(lit);
    assert.equal(typeof got, typeof want, lit);
    assert.ok(Object.is(got, want), `${lit}: ${String(got)} vs ${String(want)}`);
  }
});

test('strings: ASCII, escapes, non-ASCII text (which moves byte offsets off text offsets) and long ones', () => {
  for (const s of [
    '',
    'abc',
    'a "quoted" \\ word\n\t/',
    'café',
    '日本語 and more',
    '😀 emoji',
    'x'.repeat(40),
  ]) {
    assert.equal(scalar(JSON.stringify(s)), s);
  }
  assert.equal(scalar('"\\u00e9\\/"'), 'é/');
  // After a multi-byte character, a later value is still found at the right place.
  const r = reader('{"é":"ü","k":"value after non-ASCII","n":12.5}');
  r.enterObject();
  r.firstEntry();
  assert.equal(r.key(), 'é');
  assert.equal(r.scalar(), 'ü');
  r.nextEntry();
  assert.equal(r.key(), 'k');
  assert.equal(r.scalar(), 'value after non-ASCII');
  r.nextEntry();
  assert.equal(r.key(), 'n');
  assert.equal(r.scalar(), 12.5);
  assert.equal(r.nextEntry(), false);
  r.end();
});

test('true, false and null', () => {
  assert.equal(scalar('true'), true);
  assert.equal(scalar('false'), false);
  assert.equal(scalar('null'), null);
});

test('keyIn matches names byte for byte and consumes the key either way', () => {
  const names = [Buffer.from('value'), Buffer.from('op'), Buffer.from('nämé')];
  const r = reader('{ "op" : 1, "value":2, "val":3, "nämé":4, "values":5 }');
  r.enterObject();
  const seen: [number, unknown][] = [];
  for (let more = r.firstEntry(); more; more = r.nextEntry()) seen.push([r.keyIn(names), r.scalar()]);
  r.end();
  assert.deepEqual(seen, [
    [1, 1],
    [0, 2],
    [-1, 3],
    [2, 4],
    [-1, 5],
  ]);
  // A key with an escape is left to the general reader.
  const e = reader('{"v\\u0061lue":1}');
  e.enterObject();
  e.firstEntry();
  assert.throws(() => e.keyIn(names), NotHandled);
});

test('decimalKey reads 1 to 15 digits, a sign only when allowed, and otherwise consumes nothing', () => {
  const key = (k: string, negative = true): number | string | undefined => {
    const r = reader(`{${JSON.stringify(k)}:0}`);
    r.enterObject();
    r.firstEntry();
    const n = r.decimalKey(negative);
    // When it declines, the key is still there to read as text.
    return n ?? `text:${r.key()}`;
  };
  assert.equal(key('42'), 42);
  assert.equal(key('007'), 7);
  assert.equal(key('-12'), -12);
  assert.ok(Object.is(key('-0'), 0));
  assert.equal(key('999999999999999'), 999999999999999);
  assert.equal(key('1000000000000000'), 'text:1000000000000000');
  assert.equal(key('-5', false), 'text:-5');
  assert.equal(key('+5'), 'text:+5');
  assert.equal(key(''), 'text:');
  assert.equal(key('-'), 'text:-');
  assert.equal(key('1e3'), 'text:1e3');
  assert.equal(key(' 1'), 'text: 1');
});

test('arrays, objects as values and malformed JSON are left to the general reader', () => {
  for (const text of [
    '{"k":[1]}',
    '{"k":{"a":1}}',
    '{"k":01}',
    '{"k":1,}',
    '{"k":1',
    '{"k":tru}',
    '{"k":"a\nb"}',
    '{"k":"\\x"}',
    '{"k":-}',
    '{"k":1.}',
  ]) {
    assert.throws(
      () => {
        const r = reader(text);
        r.enterObject();
        for (let more = r.firstEntry(); more; more = r.nextEntry()) {
          r.key();
          r.scalar();
        }
        r.end();
      },
      NotHandled,
      text,
    );
  }
  const r = reader('{} x');
  r.enterObject();
  r.firstEntry();
  assert.throws(() => r.end(), NotHandled);
});
