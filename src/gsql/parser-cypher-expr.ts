/**
 * openCypher expressions, read into GSQL expression nodes: `$p` is the parameter p, `=`/`<>`
 * compare, `AND`/`OR`/`XOR`/`NOT`, `IN`, `IS [NOT] NULL`, `CASE`, lists, property access, function
 * calls (aggregates keep their names, with `count(*)` and DISTINCT). What GSQL has no operator or
 * function for (`STARTS WITH`, `ENDS WITH`, `CONTAINS`, `=~`, `^`, `list[i]`, openCypher's
 * functions) becomes a call of a `cypher.*` function (query/cypher-functions.ts compiles them).
 */
import type { BinaryOp, Expr, Pos } from './ast-query.js';
import { GsqlSyntaxError, type Token } from './lexer.js';
import type { TokenCursor } from './parser-expr.js';

/** The prefix of openCypher's own functions: no GSQL text can call them. */
export const CYPHER_FN = 'cypher.';

/** openCypher functions with a GSQL function of the same meaning (lower-case names). */
const GSQL_SAME: Record<string, string> = {
  toupper: 'upper',
  upper: 'upper',
  tolower: 'lower',
  lower: 'lower',
  trim: 'trim',
  abs: 'abs',
  ceil: 'ceil',
  floor: 'floor',
  sqrt: 'sqrt',
  exp: 'exp',
  log: 'log',
  sin: 'sin',
  cos: 'cos',
  tan: 'tan',
  asin: 'asin',
  acos: 'acos',
  atan: 'atan',
  coalesce: 'coalesce',
};

/** openCypher's aggregates (their calls stay as they are; the projection compiles them). */
export const CYPHER_AGGREGATES = new Set(['count', 'sum', 'avg', 'min', 'max', 'collect', 'stdev', 'stdevp']);

/** openCypher functions compiled by query/cypher-functions.ts. */
export const CYPHER_FUNCTIONS = new Set([
  'nullable',
  'datetime',
  'starts_with',
  'ends_with',
  'contains',
  'regex',
  'pow',
  'index',
  'size',
  'length',
  'tostring',
  'tointeger',
  'toint',
  'tofloat',
  'toboolean',
  'round',
  'sign',
  'log10',
  'ltrim',
  'rtrim',
  'substring',
  'left',
  'right',
  'replace',
  'split',
  'reverse',
  'head',
  'last',
  'tail',
  'range',
  'id',
  'type',
  'labels',
  'pi',
  'e',
]);

type At = { pos: Pos; start: number };

function at(t: Token): At {
  return { pos: { line: t.line, column: t.column }, start: t.start };
}

function call(name: string, args: Expr[], from: At, end: number): Expr {
  return { kind: 'call', name, args, pos: from.pos, start: from.start, end };
}

function binary(op: BinaryOp, left: Expr, right: Expr, opTok: Token): Expr {
  const opPos = { line: opTok.line, column: opTok.column };
  return { kind: 'binary', op, left, right, opPos, pos: left.pos, start: left.start, end: right.end };
}

/** `e`, NULL where it reads a property of a NULL node (for IS NULL and coalesce, which look at NULL). */
function nullable(e: Expr): Expr {
  return call(CYPHER_FN + 'nullable', [e], e, e.end);
}

/** One openCypher expression. */
export function parseCypherExpr(c: TokenCursor): Expr {
  return parseOr(c);
}

function parseOr(c: TokenCursor): Expr {
  let left = parseXor(c);
  while (c.isWord('OR')) {
    const op = c.next();
    left = binary('OR', left, parseXor(c), op);
  }
  return left;
}

function parseXor(c: TokenCursor): Expr {
  let left = parseAnd(c);
  while (c.isWord('XOR')) {
    const op = c.next();
    // For booleans, `a XOR b` is `a != b`.
    left = binary('!=', left, parseAnd(c), op);
  }
  return left;
}

function parseAnd(c: TokenCursor): Expr {
  let left = parseNot(c);
  while (c.isWord('AND')) {
    const op = c.next();
    left = binary('AND', left, parseNot(c), op);
  }
  return left;
}

function parseNot(c: TokenCursor): Expr {
  if (!c.isWord('NOT')) return parseComparison(c);
  const t = c.next();
  const operand = parseNot(c);
  return { kind: 'unary', op: 'NOT', operand, ...at(t), end: operand.end };
}

const COMPARE: Record<string, BinaryOp> = {
  '=': '==',
  '==': '==',
  '<>': '!=',
  '!=': '!=',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};

function parseComparison(c: TokenCursor): Expr {
  let left = parseAdditive(c);
  for (;;) {
    const t = c.peek();
    if (t.kind === 'punct' && t.text === '=' && c.isPunct('~', 1)) {
      c.next();
      c.next();
      const right = parseAdditive(c);
      left = call(CYPHER_FN + 'regex', [left, right], left, right.end);
    } else if (t.kind === 'punct' && COMPARE[t.text]) {
      c.next();
      left = binary(COMPARE[t.text], left, parseAdditive(c), t);
    } else if (c.isWord('STARTS') && c.isWord('WITH', 1)) {
      c.next();
      c.next();
      const right = parseAdditive(c);
      left = call(CYPHER_FN + 'starts_with', [left, right], left, right.end);
    } else if (c.isWord('ENDS') && c.isWord('WITH', 1)) {
      c.next();
      c.next();
      const right = parseAdditive(c);
      left = call(CYPHER_FN + 'ends_with', [left, right], left, right.end);
    } else if (c.isWord('CONTAINS')) {
      c.next();
      const right = parseAdditive(c);
      left = call(CYPHER_FN + 'contains', [left, right], left, right.end);
    } else if (c.isWord('IN')) {
      c.next();
      left = binary('IN', left, parseAdditive(c), t);
    } else if (c.isWord('IS')) {
      c.next();
      const negated = c.acceptWord('NOT');
      const end = c.expectWord('NULL');
      const operand = nullable(left);
      left = { kind: 'isnull', operand, negated, pos: left.pos, start: left.start, end: end.end };
    } else return left;
  }
}

function parseAdditive(c: TokenCursor): Expr {
  let left = parseMultiplicative(c);
  while (c.isPunct('+') || c.isPunct('-')) {
    const t = c.next();
    left = binary(t.text as '+' | '-', left, parseMultiplicative(c), t);
  }
  return left;
}

function parseMultiplicative(c: TokenCursor): Expr {
  let left = parsePower(c);
  while (c.isPunct('*') || c.isPunct('/') || c.isPunct('%')) {
    const t = c.next();
    left = binary(t.text as '*' | '/' | '%', left, parsePower(c), t);
  }
  return left;
}

function parsePower(c: TokenCursor): Expr {
  const left = parseUnary(c);
  if (!c.isPunct('^')) return left;
  c.next();
  const right = parsePower(c);
  return call(CYPHER_FN + 'pow', [left, right], left, right.end);
}

function parseUnary(c: TokenCursor): Expr {
  const t = c.peek();
  if (t.kind === 'punct' && (t.text === '-' || t.text === '+')) {
    c.next();
    const operand = parseUnary(c);
    if (t.text === '+') return operand;
    if ((operand.kind === 'int' || operand.kind === 'float') && operand.start === t.end) {
      const value = operand.kind === 'int' ? negate(operand.value) : -operand.value;
      return { ...operand, value, ...at(t) } as Expr;
    }
    return { kind: 'unary', op: '-', operand, ...at(t), end: operand.end };
  }
  return parsePostfix(c, parseAtom(c));
}

function negate(v: number | bigint): number | bigint {
  if (typeof v === 'number') return v === 0 ? 0 : -v;
  const n = -v;
  return n >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(n) : n;
}

/** Property access `a.b` and subscripts `list[i]`. */
function parsePostfix(c: TokenCursor, e: Expr): Expr {
  for (;;) {
    if (c.isPunct('.') && c.peek(1).kind === 'ident') {
      c.next();
      const name = c.next();
      const namePos = { line: name.line, column: name.column };
      e = { kind: 'field', target: e, name: name.text, namePos, pos: e.pos, start: e.start, end: name.end };
    } else if (c.isPunct('[')) {
      c.next();
      const index = parseCypherExpr(c);
      const close = c.expectPunct(']');
      e = call(CYPHER_FN + 'index', [e, index], e, close.end);
    } else return e;
  }
}

function parseAtom(c: TokenCursor): Expr {
  const t = c.peek();
  const from = at(t);
  switch (t.kind) {
    case 'number': {
      c.next();
      if (/[.eE]/.test(t.text)) return { kind: 'float', value: Number(t.text), ...from, end: t.end };
      const big = BigInt(t.text);
      const value = big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
      return { kind: 'int', value, ...from, end: t.end };
    }
    case 'string':
      c.next();
      return { kind: 'string', value: t.text, ...from, end: t.end };
    case 'punct':
      return parsePunctAtom(c, t);
    case 'ident':
      return parseWordAtom(c, t);
    default:
      throw c.error('expected an expression');
  }
}

function parsePunctAtom(c: TokenCursor, t: Token): Expr {
  const from = at(t);
  if (t.text === '$') {
    c.next();
    const name = c.expectIdent('a parameter name after "$"');
    return { kind: 'name', name: name.text, ...from, end: name.end };
  }
  if (t.text === '(') {
    c.next();
    const inner = parseCypherExpr(c);
    const close = c.expectPunct(')');
    return { ...inner, ...from, end: close.end };
  }
  if (t.text === '[') {
    c.next();
    const items: Expr[] = [];
    if (!c.isPunct(']')) {
      do items.push(parseCypherExpr(c));
      while (c.acceptPunct(','));
    }
    const close = c.expectPunct(']');
    return { kind: 'list', items, ...from, end: close.end };
  }
  if (t.text === '{')
    throw new GsqlSyntaxError(
      t.line,
      t.column,
      'a map literal is only supported as the properties of a pattern',
    );
  throw c.error('expected an expression');
}

function parseWordAtom(c: TokenCursor, t: Token): Expr {
  const from = at(t);
  const w = t.text.toUpperCase();
  if (w === 'TRUE' || w === 'FALSE') {
    c.next();
    return { kind: 'bool', value: w === 'TRUE', ...from, end: t.end };
  }
  if (w === 'NULL') {
    c.next();
    return { kind: 'null', ...from, end: t.end };
  }
  if (w === 'CASE') return parseCase(c);
  c.next();
  if (!c.isPunct('(')) return { kind: 'name', name: t.text, ...from, end: t.end };
  c.next();
  const lower = t.text.toLowerCase();
  if (c.isPunct('*') && c.isPunct(')', 1)) {
    c.next();
    const close = c.next();
    if (lower !== 'count')
      throw new GsqlSyntaxError(t.line, t.column, `${t.text}(*) is not a function: only count(*)`);
    return { kind: 'call', name: 'count', args: [], star: true, ...from, end: close.end };
  }
  const distinct = c.acceptWord('DISTINCT');
  const args: Expr[] = [];
  if (!c.isPunct(')')) {
    do args.push(parseCypherExpr(c));
    while (c.acceptPunct(','));
  }
  const close = c.expectPunct(')');
  if (CYPHER_AGGREGATES.has(lower))
    return {
      kind: 'call',
      name: lower,
      args,
      ...(distinct ? { distinct: true as const } : {}),
      ...from,
      end: close.end,
    };
  if (distinct)
    throw new GsqlSyntaxError(
      t.line,
      t.column,
      `DISTINCT is only allowed in an aggregate, not in ${t.text}()`,
    );
  const same = GSQL_SAME[lower];
  if (same === 'coalesce') return call(same, args.map(nullable), from, close.end);
  if (same) return call(same, args, from, close.end);
  if (CYPHER_FUNCTIONS.has(lower)) return call(CYPHER_FN + lower, args, from, close.end);
  throw new GsqlSyntaxError(t.line, t.column, `unknown openCypher function ${t.text}()`);
}

/** `CASE [subject] WHEN … THEN … [ELSE …] END`. */
function parseCase(c: TokenCursor): Expr {
  const t = c.next();
  const subject = c.isWord('WHEN') ? undefined : parseCypherExpr(c);
  const whens: { when: Expr; then: Expr }[] = [];
  while (c.acceptWord('WHEN')) {
    const when = parseCypherExpr(c);
    c.expectWord('THEN');
    whens.push({ when, then: parseCypherExpr(c) });
  }
  if (whens.length === 0) throw c.error('expected "WHEN"');
  const otherwise = c.acceptWord('ELSE') ? parseCypherExpr(c) : undefined;
  const end = c.expectWord('END');
  return { kind: 'case', subject, whens, otherwise, ...at(t), end: end.end };
}
