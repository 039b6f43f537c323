import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenFunction } from '../../src/loading/token-functions.js';

function call(name: string, ...args: string[]): string {
  const f = tokenFunction(name);
  assert.ok(f, `${name} exists`);
  return f.fn(args);
}

test('string token functions', () => {
  assert.equal(call('gsql_concat', 'a', '-', 'b'), 'a-b');
  assert.equal(call('GSQL_TRIM', '  x y  '), 'x y');
  assert.equal(call('gsql_ltrim', '  x '), 'x ');
  assert.equal(call('gsql_rtrim', ' x  '), ' x');
  assert.equal(call('gsql_upper', 'abc'), 'ABC');
  assert.equal(call('gsql_lower', 'AbC'), 'abc');
  assert.equal(call('gsql_reverse', 'Sam'), 'maS');
  assert.equal(call('gsql_split_by_space', 'a b c'), 'a\x1eb\x1ec');
  assert.equal(call('gsql_substring', 'abcdef', '2', '3'), 'cde');
  assert.equal(call('gsql_substring', 'abcdef', '4'), 'ef');
  assert.equal(call('gsql_find', 'abcdef', 'cd'), '2');
  assert.equal(call('gsql_find', 'abc', 'x'), '-1');
  assert.equal(call('gsql_length', 'héllo'), '5');
  assert.equal(call('gsql_replace', 'a.b.c.d', '.', '/'), 'a/b/c/d');
  assert.equal(call('gsql_replace', 'a.b.c.d', '.', '/', '2'), 'a/b/c.d');
  assert.equal(call('gsql_regex_replace', 'a1b22c', '[0-9]+', '#'), 'a#b#c');
  assert.equal(call('gsql_regex_match', 'abc123', '[a-z]+[0-9]+'), 'true');
  assert.equal(call('gsql_regex_match', 'abc123x', '[a-z]+[0-9]+'), 'false');
  assert.match(call('gsql_uuid_v4'), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});

test('conversions and tests', () => {
  assert.equal(call('gsql_to_bool', 'T'), 'true');
  assert.equal(call('gsql_to_bool', 'TRUE'), 'true');
  assert.equal(call('gsql_to_bool', 'n'), 'false');
  assert.equal(call('gsql_to_int', '-12.9'), '-12');
  assert.equal(call('gsql_to_int', '9223372036854775807'), '9223372036854775807');
  assert.equal(call('gsql_to_uint', '-3'), '-3');
  assert.equal(call('gsql_to_uint', '3.5'), '3');
  assert.equal(call('to_int', ' 42 '), '42');
  assert.equal(call('gsql_is_true', 't'), 'true');
  assert.equal(call('gsql_is_false', 'False'), 'true');
  assert.equal(call('gsql_is_not_empty_string', '  '), 'false');
  assert.equal(call('gsql_token_equal', 'a', 'a'), 'true');
  assert.equal(call('gsql_token_ignore_case_equal', 'a', 'A'), 'true');
});

test('date functions', () => {
  assert.equal(call('gsql_ts_to_epoch_seconds', '2022-06-30 22:08:28'), '1656626908');
  assert.equal(call('gsql_year', '2022-06-30 22:08:28'), '2022');
  assert.equal(call('gsql_month', '2022-06-30'), '6');
  assert.equal(call('gsql_day', '2022/06/30'), '30');
  assert.equal(call('gsql_year_epoch', '1657327158'), '2022');
  assert.equal(call('gsql_month_epoch', '1657327158'), '7');
  assert.equal(call('gsql_day_epoch', '1657327158'), '9');
  const before = Math.floor(Date.now() / 1000);
  const now = Number(call('gsql_current_time_epoch', '0'));
  const after = Math.ceil(Date.now() / 1000);
  assert.ok(now >= before && now <= after, `${now} is not between ${before} and ${after}`);
});
