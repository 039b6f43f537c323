/**
 * The GSQL expression parser (Pratt / precedence climbing) and the token cursor it runs on.
 * Kept separate from the query parser so that other parts of the language (path filters, GraphQL
 * where-expressions, loading-job conditions) can parse expressions with the same rules.
 */
import type { BinaryOp, Expr, FileColumn, IntervalUnit, Pos, SeedItem } from './ast-query.js';
import { GsqlSyntaxError, type Token } from './lexer.js';

/** What the cursor reads tokens from: a token array, or the statement parser's own cursor. */
export interface TokenStream {
  readonly src: string;
  /** The k-th significant token ahead (newlines skipped). */
  peek(k: number): Token;
  /** Consumes and returns the next significant token. */
  next(): Token;
}

/** A token array read with newlines skipped (query text is free-form). */
export class ArrayTokenStream implements TokenStream {
  private i: number;

  constructor(
    private readonly tokens: readonly Token[],
    readonly src: string,
    start = 0,
  ) {
    this.i = start;
  }

  private skip(j: number): number {
    while (j < this.tokens.length - 1 && this.tokens[j].kind === 'newline') j++;
    return j;
  }

  peek(k: number): Token {
    let j = this.skip(this.i);
    for (let n = 0; n < k; n++) j = this.skip(Math.min(j + 1, this.tokens.length - 1));
    return this.tokens[j];
  }

  next(): Token {
    this.i = this.skip(this.i);
    const t = this.tokens[this.i];
    if (t.kind !== 'eof') this.i++;
    return t;
  }
}

/** Parsing helpers over a token stream: keyword/punctuation tests and errors with line and column. */
export class TokenCursor {
  private lastEndOffset = 0;
  readonly src: string;

  constructor(private readonly stream: TokenStream) {
    this.src = stream.src;
  }

  /** A cursor over the tokens of `src`. */
  static of(src: string, tokens: readonly Token[]): TokenCursor {
    return new TokenCursor(new ArrayTokenStream(tokens, src));
  }

  peek(ahead = 0): Token {
    return this.stream.peek(ahead);
  }

  next(): Token {
    const t = this.stream.next();
    if (t.kind !== 'eof') this.lastEndOffset = t.end;
    return t;
  }

  /** The end offset of the last consumed token. */
  lastEnd(): number {
    return this.lastEndOffset;
  }

  pos(): Pos {
    const t = this.peek();
    return { line: t.line, column: t.column };
  }

  /** True when the next token is the keyword `word` (case-insensitive). */
  isWord(word: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.kind === 'ident' && t.text.toUpperCase() === word;
  }

  isPunct(p: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.kind === 'punct' && t.text === p;
  }

  acceptWord(word: string): boolean {
    if (!this.isWord(word)) return false;
    this.next();
    return true;
  }

  acceptPunct(p: string): boolean {
    if (!this.isPunct(p)) return false;
    this.next();
    return true;
  }

  expectWord(word: string): Token {
    if (!this.isWord(word)) throw this.error(`expected "${word}"`);
    return this.next();
  }

  expectPunct(p: string): Token {
    if (!this.isPunct(p)) throw this.error(`expected "${p}"`);
    return this.next();
  }

  expectIdent(what = 'a name'): Token {
    if (this.peek().kind !== 'ident') throw this.error(`expected ${what}`);
    return this.next();
  }

  /** A syntax error at the next token: `<what> but found "<token>"`. */
  error(what: string, at: Token = this.peek()): GsqlSyntaxError {
    const found =
      at.kind === 'eof' ? 'end of input' : at.kind === 'string' ? `string "${at.text}"` : `"${at.text}"`;
    return new GsqlSyntaxError(at.line, at.column, `${what} but found ${found}`);
  }
}

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

const INTERVAL_UNITS = new Set(['SECOND', 'MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR']);

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

function startOf(t: Token): { pos: Pos; start: number } {
  return { pos: { line: t.line, column: t.column }, start: t.start };
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
  return parsePostfix(c, parsePrimary(c));
}

function negateInt(v: number | bigint): number | bigint {
  if (typeof v === 'number') return v === 0 ? 0 : -v;
  const n = -v;
  return n >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(n) : n;
}

function parsePostfix(c: TokenCursor, e: Expr): Expr {
  for (;;) {
    if (!c.isPunct('.') || c.isPunct('*', 1)) return e;
    c.next();
    if (c.acceptPunct('@')) {
      const name = c.expectIdent('an accumulator name after "@"');
      e = { kind: 'vattach', target: e, name: name.text, pos: e.pos, start: e.start, end: name.end };
      const { index, end } = parseIndexes(c);
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
      const args = parseExprList(c, ')');
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

function parsePrimary(c: TokenCursor): Expr {
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
      return parsePunctPrimary(c, t);
    case 'ident':
      return parseWordPrimary(c, t);
    default:
      throw c.error('expected an expression');
  }
}

/** ArrayAccum subscripts `[i][j]…` right after an accumulator name (none: empty). */
export function parseIndexes(c: TokenCursor): { index: Expr[]; end: number } {
  const index: Expr[] = [];
  let end = 0;
  while (c.acceptPunct('[')) {
    index.push(parseExpr(c));
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

function parsePunctPrimary(c: TokenCursor, t: Token): Expr {
  const at = startOf(t);
  if (t.text === '@@') {
    c.next();
    const name = c.expectIdent('an accumulator name after "@@"');
    const { index, end } = parseIndexes(c);
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
    const first = parseExprList(c, ')');
    if (c.acceptPunct('->')) {
      const values = parseExprList(c, ')');
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
    const items = parseExprList(c, ']');
    const close = c.expectPunct(']');
    return { kind: 'list', items, ...at, end: close.end };
  }
  if (t.text === '{') {
    c.next();
    const items: SeedItem[] = [];
    if (!c.isPunct('}')) {
      do items.push(parseSeedItem(c));
      while (c.acceptPunct(','));
    }
    const close = c.expectPunct('}');
    return { kind: 'seed', items, ...at, end: close.end };
  }
  throw c.error('expected an expression');
}

function parseSeedItem(c: TokenCursor): SeedItem {
  const t = c.peek();
  const pos = { line: t.line, column: t.column };
  if (t.kind === 'ident' && t.text.toUpperCase() === 'ANY' && (c.isPunct(',', 1) || c.isPunct('}', 1))) {
    c.next();
    return { kind: 'any', pos };
  }
  if (t.kind === 'ident' && c.isPunct('.', 1) && c.isPunct('*', 2)) {
    c.next();
    c.next();
    c.next();
    return { kind: 'all', vertexType: t.text, pos };
  }
  if (t.kind === 'ident' && c.isPunct('(', 1)) {
    const w = t.text.toUpperCase();
    if (w === 'SELECTVERTEX') return parseSelectVertex(c, pos);
    if (w === 'LOADACCUM') return parseLoadAccum(c, pos);
  }
  return { kind: 'expr', expr: parseExpr(c) };
}

/** `$n` or `$"name"`. */
function parseFileColumn(c: TokenCursor): FileColumn {
  const d = c.expectPunct('$');
  const pos = { line: d.line, column: d.column };
  const n = c.peek();
  if (n.kind === 'number' && /^\d+$/.test(n.text)) {
    c.next();
    return { kind: 'position', index: Number(n.text), pos };
  }
  if (n.kind === 'string') {
    c.next();
    return { kind: 'named', name: n.text, pos };
  }
  throw c.error('expected a column number or a quoted column name after "$"');
}

function parseSelectVertex(c: TokenCursor, pos: Pos): SeedItem {
  c.next();
  c.expectPunct('(');
  const file = parseExpr(c);
  c.expectPunct(',');
  const id = parseFileColumn(c);
  c.expectPunct(',');
  let type: FileColumn | { kind: 'type'; name: string; pos: Pos };
  if (c.isPunct('$')) type = parseFileColumn(c);
  else {
    const n = c.expectIdent('a vertex type or a column ($n, $"name")');
    type = { kind: 'type', name: n.text, pos: { line: n.line, column: n.column } };
  }
  c.expectPunct(',');
  const separator = parseExpr(c);
  c.expectPunct(',');
  const header = parseExpr(c);
  c.expectPunct(')');
  return { kind: 'selectVertex', file, id, type, separator, header, pos };
}

function parseLoadAccum(c: TokenCursor, pos: Pos): SeedItem {
  c.next();
  c.expectPunct('(');
  const file = parseExpr(c);
  const columns: FileColumn[] = [];
  c.expectPunct(',');
  while (c.isPunct('$')) {
    columns.push(parseFileColumn(c));
    c.expectPunct(',');
  }
  if (columns.length === 0) throw c.error('expected a column ($n, $"name") after the file of LOADACCUM');
  const separator = parseExpr(c);
  c.expectPunct(',');
  const header = parseExpr(c);
  c.expectPunct(')');
  return { kind: 'loadAccum', file, columns, separator, header, pos };
}

function parseWordPrimary(c: TokenCursor, t: Token): Expr {
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
  if (w === 'CASE') return parseCaseExpr(c);
  // `S = SelectVertex(…);` without braces is the one-item seed `{SelectVertex(…)}`.
  if (w === 'SELECTVERTEX' && c.isPunct('(', 1)) {
    const item = parseSelectVertex(c, at.pos);
    return { kind: 'seed', items: [item], ...at, end: c.lastEnd() };
  }
  if (w === 'INTERVAL' && !c.isPunct('(', 1)) {
    c.next();
    const amount = parseBinary(c, BP_UNARY);
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
    const args = parseExprList(c, ')');
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

function parseCaseExpr(c: TokenCursor): Expr {
  const t = c.next();
  const subject = c.isWord('WHEN') ? undefined : parseExpr(c);
  const whens: { when: Expr; then: Expr }[] = [];
  while (c.acceptWord('WHEN')) {
    const when = parseExpr(c);
    c.expectWord('THEN');
    whens.push({ when, then: parseExpr(c) });
  }
  if (whens.length === 0) throw c.error('expected "WHEN"');
  const otherwise = c.acceptWord('ELSE') ? parseExpr(c) : undefined;
  const end = c.expectWord('END');
  return { kind: 'case', subject, whens, otherwise, ...startOf(t), end: end.end };
}

/**
 * The text of an expression as PRINT uses it for a key: the source text without blanks outside
 * string literals and with string quotes removed (`@@m.get( "bar" )` prints as `@@m.get(bar)`,
 * `a + 1` as `a+1`). Calls for which `lower(name)` holds are shown in lower case, as TigerGraph
 * shows built-in functions (`COALESCE(x, 1)` prints as `coalesce(x,1)`).
 */
export function exprKey(
  src: string,
  e: Expr,
  lower: (name: string) => boolean = () => false,
  srcStart = 0,
): string {
  const lowered = new Set<number>();
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) x.forEach(walk);
    else if (x !== null && typeof x === 'object') {
      const node = x as { kind?: unknown; name?: unknown; start?: unknown };
      if (
        node.kind === 'call' &&
        typeof node.name === 'string' &&
        typeof node.start === 'number' &&
        lower(node.name)
      )
        lowered.add(node.start - srcStart);
      Object.values(x).forEach(walk);
    }
  };
  walk(e);
  let out = '';
  const end = Math.min(e.end - srcStart, src.length);
  for (let i = Math.max(e.start - srcStart, 0); i < end;) {
    const ch = src[i];
    if (ch === '"' || ch === "'") {
      const close = src.indexOf(ch, i + 1);
      const stop = close < 0 || close >= end ? end : close;
      out += src.slice(i + 1, stop);
      i = stop + 1;
    } else if (/\s/.test(ch)) i++;
    else if (lowered.has(i)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i, end));
      const word = m ? m[0] : ch;
      out += word.toLowerCase();
      i += word.length;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}
