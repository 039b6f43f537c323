import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Expr } from '../../src/gsql/ast-query.js';
import { tokenize } from '../../src/gsql/lexer.js';
import { exprKey, parseExpr, TokenCursor } from '../../src/gsql/parser-expr.js';

function parse(src: string): Expr {
  const c = TokenCursor.of(src, tokenize(src));
  const e = parseExpr(c);
  assert.equal(c.peek().kind, 'eof', `unparsed input after ${src.slice(0, e.end)}`);
  return e;
}

/** A fully parenthesised rendering that shows the tree's shape. */
function show(e: Expr): string {
  switch (e.kind) {
    case 'int':
    case 'float':
      return String(e.value);
    case 'string':
      return JSON.stringify(e.value);
    case 'bool':
      return String(e.value);
    case 'name':
      return e.name;
    case 'global':
      return '@@' + e.name + (e.prev ? "'" : '');
    case 'vattach':
      return `${e.target ? show(e.target) : ''}.@${e.name}${e.prev ? "'" : ''}`;
    case 'field':
      return `${show(e.target)}.${e.name}`;
    case 'method':
      return `${show(e.target)}.${e.name}(${e.args.map(show).join(', ')})`;
    case 'call':
      return `${e.name}(${e.args.map(show).join(', ')})`;
    case 'unary':
      return `(${e.op} ${show(e.operand)})`;
    case 'binary':
      return `(${show(e.left)} ${e.op} ${show(e.right)})`;
    case 'between':
      return `(${show(e.operand)} ${e.negated ? 'NOT ' : ''}BETWEEN ${show(e.low)} AND ${show(e.high)})`;
    case 'isnull':
      return `(${show(e.operand)} IS ${e.negated ? 'NOT ' : ''}NULL)`;
    case 'arrow':
      return `(${e.keys.map(show).join(', ')} -> ${e.values.map(show).join(', ')})`;
    case 'list':
      return `[${e.items.map(show).join(', ')}]`;
    case 'tuple':
      return `<${e.items.map(show).join(', ')}>`;
    case 'case':
      return `CASE ${e.subject ? show(e.subject) + ' ' : ''}${e.whens.map((w) => `WHEN ${show(w.when)} THEN ${show(w.then)}`).join(' ')}${e.otherwise ? ' ELSE ' + show(e.otherwise) : ''} END`;
    case 'seed':
      return `{${e.items.map((i) => (i.kind === 'all' ? i.vertexType + '.*' : i.kind === 'any' ? 'ANY' : i.kind === 'expr' ? show(i.expr) : i.kind)).join(', ')}}`;
    default:
      return e.kind;
  }
}

test('precedence: * over +, comparison over AND over OR, NOT, unary minus', () => {
  assert.equal(show(parse('1 + 2 * 3 - 4')), '((1 + (2 * 3)) - 4)');
  assert.equal(show(parse('a < b AND c == d OR NOT e')), '(((a < b) AND (c == d)) OR (NOT e))');
  assert.equal(show(parse('-x * 2')), '((- x) * 2)');
  assert.equal(show(parse('-5 + 1')), '(-5 + 1)');
  assert.equal(show(parse('A UNION B INTERSECT C')), '((A UNION B) INTERSECT C)');
  assert.equal(show(parse('s.age BETWEEN 1 AND 3 AND ok')), '((s.age BETWEEN 1 AND 3) AND ok)');
  assert.equal(show(parse('x NOT IN [1, 2] OR y NOT LIKE "a%"')), '((x NOT IN [1, 2]) OR (y NOT LIKE "a%"))');
  assert.equal(show(parse('x IS NOT NULL')), '(x IS NOT NULL)');
});

test('postfix: attributes, vertex accumulators, methods, calls, map arrows, seeds, CASE', () => {
  assert.equal(show(parse('s.@cnt + t.age')), '(s.@cnt + t.age)');
  assert.equal(show(parse('@@heap.top().score')), '@@heap.top().score');
  assert.equal(show(parse('to_string(@@m.get("k"))')), 'to_string(@@m.get("k"))');
  assert.equal(show(parse('("a", 1 -> x, y)')), '("a", 1 -> x, y)');
  assert.equal(show(parse('("id", "Type")')), '<"id", "Type">');
  assert.equal(show(parse('{person.*, p, ANY, @@s}')), '{person.*, p, ANY, @@s}');
  assert.equal(show(parse('CASE WHEN a THEN 1 ELSE 2 END')), 'CASE WHEN a THEN 1 ELSE 2 END');
  assert.equal(show(parse('CASE x WHEN 1 THEN "one" END')), 'CASE x WHEN 1 THEN "one" END');
});

test("previous values: s.@x', @x' and @@x' next to strings", () => {
  assert.equal(show(parse("abs(s.@score - s.@score') > 'a'")), `(abs((s.@score - s.@score')) > "a")`);
  assert.equal(show(parse("@cc' != @@n'")), `(.@cc' != @@n')`);
});

test('literals: 64-bit integers stay exact, floats, strings, booleans', () => {
  const big = parse('9223372036854775807');
  assert.equal(big.kind === 'int' && big.value, 9223372036854775807n);
  const low = parse('-9223372036854775808');
  assert.equal(low.kind === 'int' && low.value, -9223372036854775808n);
  assert.equal(show(parse('1.5e3')), '1500');
  assert.equal(show(parse('TRUE AND false')), '(true AND false)');
});

test('PRINT keys are the expression text without blanks and string quotes', () => {
  const src = '@@m.get("bar") + s.@x';
  assert.equal(exprKey(src, parse(src)), '@@m.get(bar)+s.@x');
  const call = 'COALESCE(a, "x y")';
  assert.equal(
    exprKey(call, parse(call), (n) => n === 'COALESCE'),
    'coalesce(a,x y)',
  );
});

test('errors name the line, the column and what was found', () => {
  assert.throws(() => parse('1 +\n  * 2'), {
    message: 'Syntax Error: line 2, column 3: expected an expression but found "*"',
  });
  assert.throws(() => parse('f(1, 2'), {
    message: 'Syntax Error: line 1, column 7: expected ")" but found end of input',
  });
  assert.throws(() => parse('s.'), {
    message:
      'Syntax Error: line 1, column 3: expected an attribute or method name after "." but found end of input',
  });
  assert.throws(() => parse('CASE x THEN 1 END'), {
    message: 'Syntax Error: line 1, column 8: expected "WHEN" but found "THEN"',
  });
});
