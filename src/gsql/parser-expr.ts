/**
 * The GSQL expression parser (Pratt / precedence climbing): its entry points and the operators,
 * their binding powers and the prefix and postfix predicates around operands. Operands are read by
 * parser-expr-operand.ts and vertex-set seeds by parser-expr-seed.ts. Kept separate from the query
 * parser so that other parts of the language (path filters, GraphQL where-expressions,
 * loading-job conditions) can parse expressions with the same rules. The token cursor it runs on
 * (token-cursor.ts) and PRINT's expression keys (expr-key.ts) are exported from here too.
 */
import type { BinaryOp, Expr } from './ast-query.js';
import { type ExprParser, parseOperand } from './parser-expr-operand.js';
import { startOf, type TokenCursor } from './token-cursor.js';

export { TokenCursor } from './token-cursor.js';
export { exprKey } from './expr-key.js';

// Binding powers: higher binds tighter.
const BP_SETOP = 1;
const BP_OR = 2;
const BP_AND = 3;
const BP_NOT = 4;
const BP_CMP = 5;
const BP_BITOR = 6;
const BP_BITAND = 7;
const BP_SHIFT = 8;
const BP_ADD = 9;
const BP_MUL = 10;
const BP_UNARY = 11;

const WORD_OPS: Record<string, [BinaryOp, number]> = {
  OR: ['OR', BP_OR],
  AND: ['AND', BP_AND],
  LIKE: ['LIKE', BP_CMP],
  IN: ['IN', BP_CMP],
  UNION: ['UNION', BP_SETOP],
  INTERSECT: ['INTERSECT', BP_SETOP],
  MINUS: ['MINUS', BP_SETOP],
};

const PUNCT_OPS: Record<string, [BinaryOp, number]> = {
  '==': ['==', BP_CMP],
  '!=': ['!=', BP_CMP],
  '<>': ['!=', BP_CMP],
  '<': ['<', BP_CMP],
  '<=': ['<=', BP_CMP],
  '>': ['>', BP_CMP],
  '>=': ['>=', BP_CMP],
  '+': ['+', BP_ADD],
  '-': ['-', BP_ADD],
  '*': ['*', BP_MUL],
  '/': ['/', BP_MUL],
  '%': ['%', BP_MUL],
  '|': ['|', BP_BITOR],
  '&': ['&', BP_BITAND],
  '&&': ['AND', BP_AND],
  '||': ['OR', BP_OR],
};

/** The entry points operands recurse into. */
const PARSER: ExprParser = {
  expr: parseExpr,
  list: parseExprList,
  prefixOperand: (c) => parseBinary(c, BP_UNARY),
};

/** Parses one expression. */
export function parseExpr(c: TokenCursor): Expr {
  return parseBinary(c, 0);
}

/** Cursors reading a condition, where `=` compares as `==` does (`WHERE a.name = "Scott"`). */
const inCondition = new WeakMap<TokenCursor, number>();

/** Parses a condition (WHERE, HAVING): an expression in which `=` also means `==`. */
export function parseCondition(c: TokenCursor): Expr {
  inCondition.set(c, (inCondition.get(c) ?? 0) + 1);
  try {
    return parseBinary(c, 0);
  } finally {
    inCondition.set(c, (inCondition.get(c) ?? 1) - 1);
  }
}

/** Parses an operand that stops before `*`, `/` and `%` (SAMPLE's size, where `%` means percent). */
export function parseTerm(c: TokenCursor): Expr {
  return parseBinary(c, BP_MUL + 1);
}

/** Parses `expr, expr, …` up to (not including) the closing token `close`. */
export function parseExprList(c: TokenCursor, close: string): Expr[] {
  const items: Expr[] = [];
  if (c.isPunct(close)) return items;
  do items.push(parseExpr(c));
  while (c.acceptPunct(','));
  return items;
}

function parseBinary(c: TokenCursor, minBp: number): Expr {
  let left = parseUnary(c);
  for (;;) {
    const t = c.peek();
    let op: BinaryOp | undefined;
    let bp = 0;
    let width = 1;
    if (isShift(c)) {
      // `<<` / `>>` are two adjacent tokens, so that `List<List<INT>>` still closes two brackets.
      op = t.text === '<' ? '<<' : '>>';
      bp = BP_SHIFT;
      width = 2;
    } else if (t.kind === 'punct' && PUNCT_OPS[t.text]) {
      [op, bp] = PUNCT_OPS[t.text];
    } else if (t.kind === 'punct' && t.text === '=' && (inCondition.get(c) ?? 0) > 0) {
      [op, bp] = ['==', BP_CMP];
    } else if (t.kind === 'ident') {
      const w = t.text.toUpperCase();
      if (WORD_OPS[w]) [op, bp] = WORD_OPS[w];
      else if (w === 'NOT' && (c.isWord('IN', 1) || c.isWord('LIKE', 1))) {
        op = c.isWord('IN', 1) ? 'NOT IN' : 'NOT LIKE';
        bp = BP_CMP;
        width = 2;
      } else if (w === 'BETWEEN' || (w === 'NOT' && c.isWord('BETWEEN', 1)) || w === 'IS') {
        if (BP_CMP <= minBp) return left;
        left = parsePostfixPredicate(c, left);
        continue;
      }
    }
    if (!op || bp <= minBp) return left;
    for (let k = 0; k < width; k++) c.next();
    const right = parseBinary(c, bp);
    left = {
      kind: 'binary',
      op,
      left,
      right,
      opPos: { line: t.line, column: t.column },
      pos: left.pos,
      start: left.start,
      end: right.end,
    };
  }
}

function isShift(c: TokenCursor): boolean {
  const t = c.peek();
  const u = c.peek(1);
  return (
    t.kind === 'punct' &&
    (t.text === '<' || t.text === '>') &&
    u.kind === 'punct' &&
    u.text === t.text &&
    u.start === t.end
  );
}

/** `x BETWEEN a AND b`, `x NOT BETWEEN …`, `x IS [NOT] NULL`. */
function parsePostfixPredicate(c: TokenCursor, operand: Expr): Expr {
  if (c.acceptWord('IS')) {
    const negated = c.acceptWord('NOT');
    c.expectWord('NULL');
    return { kind: 'isnull', operand, negated, pos: operand.pos, start: operand.start, end: c.lastEnd() };
  }
  const negated = c.acceptWord('NOT');
  c.expectWord('BETWEEN');
  const low = parseBinary(c, BP_CMP);
  c.expectWord('AND');
  const high = parseBinary(c, BP_CMP);
  return {
    kind: 'between',
    operand,
    low,
    high,
    negated,
    pos: operand.pos,
    start: operand.start,
    end: high.end,
  };
}

function parseUnary(c: TokenCursor): Expr {
  const t = c.peek();
  if (t.kind === 'punct' && (t.text === '-' || t.text === '!')) {
    c.next();
    const operand = parseBinary(c, BP_UNARY);
    const op = t.text === '-' ? '-' : 'NOT';
    if (op === '-' && (operand.kind === 'int' || operand.kind === 'float') && operand.start === t.end) {
      // Fold "-5" into a literal so that INT64_MIN can be written.
      const value = operand.kind === 'int' ? negateInt(operand.value) : -operand.value;
      return { ...operand, value, ...startOf(t) } as Expr;
    }
    return { kind: 'unary', op, operand, ...startOf(t), end: operand.end };
  }
  if (t.kind === 'ident' && t.text.toUpperCase() === 'NOT') {
    c.next();
    const operand = parseBinary(c, BP_NOT);
    return { kind: 'unary', op: 'NOT', operand, ...startOf(t), end: operand.end };
  }
  return parseOperand(c, PARSER);
}

function negateInt(v: number | bigint): number | bigint {
  if (typeof v === 'number') return v === 0 ? 0 : -v;
  const n = -v;
  return n >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(n) : n;
}
