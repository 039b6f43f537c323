import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenize } from '../../src/gsql/lexer.js';
import { Parser } from '../../src/gsql/parser-core.js';
import { parseCond } from '../../src/gsql/parser-loading.js';
import { ArrayRow, ColumnSlots, compileCond, type ExprScope } from '../../src/loading/expressions.js';

function cond(text: string): (tokens: string[]) => boolean {
  const scope: ExprScope = {
    slots: new ColumnSlots(),
    namedAllowed: false,
    tupleNames: new Map(),
    userFunctions: new Map(),
  };
  const f = compileCond(parseCond(new Parser(text, tokenize(text))), scope, { maxPosition: -1 });
  return (tokens) => f(new ArrayRow(tokens));
}

test('string and numeric comparisons', () => {
  assert.equal(cond('$1 == "Company"')(['x', 'Company']), true);
  assert.equal(cond('$1 != "Company"')(['x', 'Company']), false);
  // A number literal or to_int makes the comparison numeric: "10" > "9".
  assert.equal(cond('to_int($0) > 9')(['10']), true);
  assert.equal(cond('$0 > 9')(['10']), true);
  assert.equal(cond('$0 > "9"')(['10']), false);
  assert.equal(cond('to_float($0) <= 2.5')(['2.50']), true);
  // A token that is not a number fails a numeric comparison (except !=).
  assert.equal(cond('to_int($0) < 111')(['abc']), false);
  assert.equal(cond('to_int($0) != 111')(['abc']), true);
});

test('AND / OR / NOT precedence and parentheses', () => {
  const c = cond('$0 == "a" OR $0 == "b" AND $1 == "x"');
  assert.equal(c(['a', 'y']), true);
  assert.equal(c(['b', 'y']), false);
  assert.equal(cond('($0 == "a" OR $0 == "b") AND $1 == "x"')(['a', 'y']), false);
  assert.equal(cond('NOT $0 == "a"')(['a']), false);
});

test('IS NUMERIC, IS EMPTY, IN, BETWEEN and boolean token functions', () => {
  assert.equal(cond('$0 IS NUMERIC')(['-1.5e3']), true);
  assert.equal(cond('$0 IS NUMERIC')(['12a']), false);
  assert.equal(cond('$0 IS NOT EMPTY')(['']), false);
  assert.equal(cond('$0 IS EMPTY')(['']), true);
  assert.equal(cond('$0 IN ("x", "y")')(['y']), true);
  assert.equal(cond('$0 NOT IN ("x", "y")')(['y']), false);
  assert.equal(cond('$0 BETWEEN 1 AND 5')(['5']), true);
  assert.equal(cond('$0 BETWEEN 1 AND 5')(['6']), false);
  assert.equal(cond('gsql_is_true($0)')(['T']), true);
  assert.equal(cond('gsql_is_not_empty_string($0) AND gsql_token_equal($0, $1)')(['a', 'a']), true);
  assert.equal(cond('gsql_regex_match($0, "[0-9]+")')(['123']), true);
});
