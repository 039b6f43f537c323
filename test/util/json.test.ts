import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { stringifyJson } from '../../src/util/json.js';
import { JsonReader, parseJson, RepeatedKey, JsonSyntaxError } from '../../src/util/json-parse.js';

test('stringifyJson prints bigint exactly and drops undefined members', () => {
  assert.equal(
    stringifyJson({ a: 9223372036854775807n, b: undefined, c: [1, 'x', null, true] }),
    '{"a":9223372036854775807,"c":[1,"x",null,true]}',
  );
  assert.equal(stringifyJson([NaN, Infinity, -0.5]), '[null,null,-0.5]');
});

test('stringifyJson writes a scalar alone exactly as inside a container', () => {
  const scalars: unknown[] = [
    'a"\\\u2028é😀',
    '',
    0,
    -0,
    1.5e-7,
    NaN,
    -Infinity,
    18446744073709551615n,
    true,
    false,
    null,
    undefined,
  ];
  for (const v of scalars) assert.equal(`[${stringifyJson(v)}]`, stringifyJson([v]), String(v));
});

test('parseJson keeps 64-bit integers exact and safe ones as numbers', () => {
  assert.deepEqual(
    parseJson(
      '{"a": 9223372036854775807, "b": -9223372036854775808, "c": 12, "d": 1.5e3, "e": 9007199254740991}',
    ),
    {
      a: 9223372036854775807n,
      b: -9223372036854775808n,
      c: 12,
      d: 1500,
      e: 9007199254740991,
    },
  );
  assert.equal(parseJson('18446744073709551615'), 18446744073709551615n);
});

test('parseJson keeps repeated keys when asked, last one wins otherwise', () => {
  const text = '{"2": {"w": 1}, "2": {"w": 2}, "2": {"w": 3}}';
  const kept = parseJson(text, { keepDuplicateKeys: true }) as Record<string, unknown>;
  assert.ok(kept['2'] instanceof RepeatedKey);
  assert.deepEqual((kept['2'] as RepeatedKey).values, [{ w: 1 }, { w: 2 }, { w: 3 }]);
  assert.deepEqual(parseJson(text), { '2': { w: 3 } });
});

test('parseJson decodes escapes and refuses a __proto__ prototype swap', () => {
  assert.equal(parseJson('"a\\n\\u00e9\\"\\\\/"'), 'a\né"\\/');
  const o = parseJson('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(o), Object.prototype);
  assert.deepEqual(Object.keys(o), ['__proto__']);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('parseJson errors name the position', () => {
  assert.throws(
    () => parseJson('{"a": 1,\n "b" 2}'),
    (e: unknown) => e instanceof JsonSyntaxError && e.line === 2 && e.column === 6,
  );
  assert.throws(() => parseJson('[1, 2'), /Expected ',' or '\]'|Unexpected end/);
  assert.throws(() => parseJson('{"a": 01}'), /Expected ',' or '}'/);
  assert.throws(() => parseJson('"abc'), /Unterminated string/);
  assert.throws(() => parseJson('[1] x'), /Unexpected data after the JSON value/);
  assert.throws(() => parseJson('['.repeat(600) + ']'.repeat(600)), /nested deeper than 512/);
});

/** Reads a text with the pull reader: objects as [key, value] lists, every occurrence kept. */
function pull(text: string): unknown {
  const r = new JsonReader(text);
  const read = (): unknown => {
    if (!r.enterObject()) return r.value();
    const out: [string, unknown][] = [];
    for (let k = r.firstKey(); k !== undefined; k = r.nextKey()) out.push([k, read()]);
    return out;
  };
  const v = read();
  r.end();
  return v;
}

test('JsonReader walks objects key by key in source order, repeats included', () => {
  assert.deepEqual(pull(' { "b" : 1 , "a":{"x":[1,{"y":2}]}, "b": {} , "10": "s"} '), [
    ['b', 1],
    ['a', [['x', [1, { y: 2 }]]]],
    ['b', []],
    ['10', 's'],
  ]);
  assert.deepEqual(pull('{}'), []);
  assert.equal(pull('12345678901234567890'), 12345678901234567890n);
  // A value read whole keeps repeated keys as parseJson does with keepDuplicateKeys.
  const r = new JsonReader('{"k":{"d":1,"d":2}}');
  assert.ok(r.enterObject());
  assert.equal(r.firstKey(), 'k');
  assert.deepEqual(r.value(), { d: new RepeatedKey([1, 2]) });
  assert.equal(r.nextKey(), undefined);
  r.end();
});

test('JsonReader reports the syntax errors parseJson reports, at the same place', () => {
  for (const text of [
    '{"a": 1,\n "b" 2}',
    '{"a" 1}',
    '{"a": 1 "b": 2}',
    '{"a": 1,}',
    '{1: 2}',
    '{"a": {',
    '{"a": 01}',
    '{"a": 1} x',
    '{"a": tru}',
    '{' + '"a":{'.repeat(600) + '}'.repeat(601),
  ]) {
    let expected = '';
    try {
      parseJson(text, { keepDuplicateKeys: true });
    } catch (e) {
      expected = (e as Error).message;
    }
    assert.ok(expected !== '', text);
    assert.throws(
      () => pull(text),
      (e: unknown) => e instanceof JsonSyntaxError && e.message === expected,
      text,
    );
  }
});

test('strings taken from a body do not keep the body alive', () => {
  // --expose-gc at run time: the heap must be measured after a full collection.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const kept: string[] = [];
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let k = 0; k < 100; k++) {
    const body = JSON.stringify({
      pad: 'x'.repeat(200_000),
      plain: `a long attribute value ${k}`,
      esc: `tab\there ${k}`,
    });
    const v = parseJson(body) as { plain: string; esc: string };
    kept.push(v.plain, v.esc);
  }
  gc();
  const grown = process.memoryUsage().heapUsed - before;
  // 100 bodies of 200 kB would be 20 MB if the values were views into them.
  assert.ok(grown < 4_000_000, `heap grew by ${grown} bytes`);
  assert.equal(kept[0], 'a long attribute value 0');
  assert.equal(kept[1], 'tab\there 0');
});
