/**
 * The operands of GSQL expressions: literals, names, calls (with SQL aggregates' `*` and
 * DISTINCT), CASE, INTERVAL, accumulators (`@@g`, `@a`, subscripts, previous values), tuples,
 * `(keys -> values)`, lists, vertex-set seeds, and the selectors after them (`.attr`,
 * `.method(…)`, `.@acc`). The operators around them are parsed by parser-expr.ts, which passes
 * its entry points in.
 */
import type { Expr, IntervalUnit, SeedItem } from './ast-query.js';
import type { Token } from './lexer.js';
import { parseSeedItem, parseSelectVertex } from './parser-expr-seed.js';
import { startOf, type TokenCursor } from './token-cursor.js';

/** The expression parser's entry points that operands recurse into. */
export interface ExprParser {
  expr(c: TokenCursor): Expr;
  /** `expr, expr, …` up to (not including) the closing token `close`. */
  list(c: TokenCursor, close: string): Expr[];
  /** The operand of a prefix operator (binds tighter than every binary operator). */
  prefixOperand(c: TokenCursor): Expr;
}

const INTERVAL_UNITS = new Set(['SECOND', 'MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR']);

/** An operand with the selectors after it. */
export function parseOperand(c: TokenCursor, p: ExprParser): Expr {
  return parsePostfix(c, parsePrimary(c, p), p);
}

/** Selectors after a primary: `.attr`, `.method(…)`, `.@acc`, `.@acc[i]`, `.@acc'`. */
function parsePostfix(c: TokenCursor, e: Expr, p: ExprParser): Expr {
  for (;;) {
    if (!c.isPunct('.') || c.isPunct('*', 1)) return e;
    c.next();
    if (c.acceptPunct('@')) {
      const name = c.expectIdent('an accumulator name after "@"');
      e = { kind: 'vattach', target: e, name: name.text, pos: e.pos, start: e.start, end: name.end };
      const { index, end } = parseIndexes(c, p);
      if (index.length > 0) {
        e = { ...e, index, end };
        continue;
      }
      const prime = c.peek();
      if (prime.kind === 'punct' && prime.text === "'") {
        c.next();
        e = { ...e, prev: true, end: prime.end };
      }
      continue;
    }
    const nameTok = c.expectIdent('an attribute or method name after "."');
    const namePos = { line: nameTok.line, column: nameTok.column };
    if (c.acceptPunct('(')) {
      const args = p.list(c, ')');
      const close = c.expectPunct(')');
      e = {
        kind: 'method',
        target: e,
        name: nameTok.text,
        args,
        namePos,
        pos: e.pos,
        start: e.start,
        end: close.end,
      };
    } else {
      e = {
        kind: 'field',
        target: e,
        name: nameTok.text,
        namePos,
        pos: e.pos,
        start: e.start,
        end: nameTok.end,
      };
    }
  }
}

function parsePrimary(c: TokenCursor, p: ExprParser): Expr {
  const t = c.peek();
  const at = startOf(t);
  switch (t.kind) {
    case 'number': {
      c.next();
      if (/[.eE]/.test(t.text)) return { kind: 'float', value: Number(t.text), ...at, end: t.end };
      const big = BigInt(t.text);
      const value = big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
      return { kind: 'int', value, ...at, end: t.end };
    }
    case 'string':
      c.next();
      return { kind: 'string', value: t.text, ...at, end: t.end };
    case 'punct':
      return parsePunctPrimary(c, t, p);
    case 'ident':
      return parseWordPrimary(c, t, p);
    default:
      throw c.error('expected an expression');
  }
}

/** ArrayAccum subscripts `[i][j]…` right after an accumulator name (none: empty). */
function parseIndexes(c: TokenCursor, p: ExprParser): { index: Expr[]; end: number } {
  const index: Expr[] = [];
  let end = 0;
  while (c.acceptPunct('[')) {
    index.push(p.expr(c));
    end = c.expectPunct(']').end;
  }
  return { index, end };
}

/** Consumes the `'` of a previous-value read `@x'`, if there. */
function primeAfter(c: TokenCursor): Token | undefined {
  const t = c.peek();
  if (t.kind !== 'punct' || t.text !== "'") return undefined;
  c.next();
  return t;
}

function parsePunctPrimary(c: TokenCursor, t: Token, p: ExprParser): Expr {
  const at = startOf(t);
  if (t.text === '@@') {
    c.next();
    const name = c.expectIdent('an accumulator name after "@@"');
    const { index, end } = parseIndexes(c, p);
    if (index.length > 0) return { kind: 'global', name: name.text, index, ...at, end };
    const prime = primeAfter(c);
    return {
      kind: 'global',
      name: name.text,
      ...at,
      end: prime?.end ?? name.end,
      ...(prime && { prev: true }),
    };
  }
  if (t.text === '@') {
    c.next();
    const name = c.expectIdent('an accumulator name after "@"');
    const prime = primeAfter(c);
    return {
      kind: 'vattach',
      name: name.text,
      ...at,
      end: prime?.end ?? name.end,
      ...(prime && { prev: true }),
    };
  }
  if (t.text === '(') {
    c.next();
    const first = p.list(c, ')');
    if (c.acceptPunct('->')) {
      const values = p.list(c, ')');
      const close = c.expectPunct(')');
      return { kind: 'arrow', keys: first, values, ...at, end: close.end };
    }
    if (first.length !== 1) {
      const close = c.expectPunct(')');
      return { kind: 'tuple', items: first, ...at, end: close.end };
    }
    c.expectPunct(')');
    // Keep the parentheses in the source span so PRINT keys show them as written.
    return { ...first[0], ...at, end: c.lastEnd() };
  }
  if (t.text === '[') {
    c.next();
    const items = p.list(c, ']');
    const close = c.expectPunct(']');
    return { kind: 'list', items, ...at, end: close.end };
  }
  if (t.text === '{') {
    c.next();
    const items: SeedItem[] = [];
    if (!c.isPunct('}')) {
      do items.push(parseSeedItem(c, p.expr));
      while (c.acceptPunct(','));
    }
    const close = c.expectPunct('}');
    return { kind: 'seed', items, ...at, end: close.end };
  }
  throw c.error('expected an expression');
}

function parseWordPrimary(c: TokenCursor, t: Token, p: ExprParser): Expr {
  const at = startOf(t);
  const w = t.text.toUpperCase();
  if (w === 'TRUE' || w === 'FALSE') {
    c.next();
    return { kind: 'bool', value: w === 'TRUE', ...at, end: t.end };
  }
  if (w === 'NULL') {
    c.next();
    return { kind: 'null', ...at, end: t.end };
  }
  if (w === 'CASE') return parseCaseExpr(c, p);
  // `S = SelectVertex(…);` without braces is the one-item seed `{SelectVertex(…)}`.
  if (w === 'SELECTVERTEX' && c.isPunct('(', 1)) {
    const item = parseSelectVertex(c, at.pos, p.expr);
    return { kind: 'seed', items: [item], ...at, end: c.lastEnd() };
  }
  if (w === 'INTERVAL' && !c.isPunct('(', 1)) {
    c.next();
    const amount = p.prefixOperand(c);
    const u = c.expectIdent('an interval unit (SECOND, MINUTE, HOUR, DAY, WEEK, MONTH or YEAR)');
    const unit = u.text.toUpperCase();
    if (!INTERVAL_UNITS.has(unit))
      throw c.error('expected SECOND, MINUTE, HOUR, DAY, WEEK, MONTH or YEAR', u);
    return { kind: 'interval', amount, unit: unit as IntervalUnit, ...at, end: u.end };
  }
  c.next();
  if (c.isPunct('(')) {
    c.next();
    // The aggregates of SQL-like SELECT columns: `count(*)`, `sum(DISTINCT x)`.
    if (c.isPunct('*') && c.isPunct(')', 1)) {
      c.next();
      const close = c.next();
      return { kind: 'call', name: t.text, args: [], star: true, ...at, end: close.end };
    }
    let distinct = false;
    if (c.isWord('DISTINCT') && c.peek(1).kind !== 'punct') {
      c.next();
      distinct = true;
    }
    const args = p.list(c, ')');
    const close = c.expectPunct(')');
    return {
      kind: 'call',
      name: t.text,
      args,
      ...(distinct ? { distinct: true as const } : {}),
      ...at,
      end: close.end,
    };
  }
  return { kind: 'name', name: t.text, ...at, end: t.end };
}

function parseCaseExpr(c: TokenCursor, p: ExprParser): Expr {
  const t = c.next();
  const subject = c.isWord('WHEN') ? undefined : p.expr(c);
  const whens: { when: Expr; then: Expr }[] = [];
  while (c.acceptWord('WHEN')) {
    const when = p.expr(c);
    c.expectWord('THEN');
    whens.push({ when, then: p.expr(c) });
  }
  if (whens.length === 0) throw c.error('expected "WHEN"');
  const otherwise = c.acceptWord('ELSE') ? p.expr(c) : undefined;
  const end = c.expectWord('END');
  return { kind: 'case', subject, whens, otherwise, ...startOf(t), end: end.end };
}
