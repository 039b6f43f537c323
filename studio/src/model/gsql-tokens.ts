/**
 * A tolerant GSQL tokenizer for the editor: it never fails, classifies every character, and works
 * one line at a time with a small state (an open block comment), so the editor can highlight as
 * the user types. The same tokens drive statement recognition and parameter forms (statement.ts).
 * The server's own lexer (src/gsql) stays the authority on what is valid.
 */
import { ACCUMULATOR_SET, FUNCTION_SET, KEYWORD_SET, TYPE_SET } from './gsql-words.js';

export type TokenKind =
  | 'keyword'
  | 'type'
  | 'accumulator'
  | 'function'
  | 'identifier'
  | 'variable'
  | 'number'
  | 'string'
  | 'comment'
  | 'operator'
  | 'punctuation'
  | 'whitespace'
  | 'invalid';

export interface LexState {
  inBlockComment: boolean;
}

export interface LineToken {
  kind: TokenKind;
  end: number;
}

export interface GsqlToken {
  kind: TokenKind;
  text: string;
  /** Offset in the whole text. */
  start: number;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
}

const OPERATORS = ['==', '!=', '<>', '<=', '>=', '+=', '-=', '->', '<-', '||', '&&', '::', '..'];
const OPERATOR_CHARS = '+-*/%<>=!|&^~.';
const PUNCTUATION = '(){}[],;:';

function isIdentStart(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
}
function isIdentPart(c: string): boolean {
  return isIdentStart(c) || (c >= '0' && c <= '9');
}
function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

function identEnd(line: string, pos: number): number {
  let i = pos;
  while (i < line.length && isIdentPart(line[i])) i++;
  return i;
}

function wordKind(word: string): TokenKind {
  const u = word.toUpperCase();
  if (ACCUMULATOR_SET.has(u)) return 'accumulator';
  if (TYPE_SET.has(u)) return 'type';
  if (KEYWORD_SET.has(u)) return 'keyword';
  if (FUNCTION_SET.has(u)) return 'function';
  return 'identifier';
}

function stringEnd(line: string, pos: number): number {
  const quote = line[pos];
  let i = pos + 1;
  while (i < line.length) {
    if (line[i] === '\\') i += 2;
    else if (line[i] === quote) return i + 1;
    else i++;
  }
  // An unterminated string ends with its line.
  return line.length;
}

function numberEnd(line: string, pos: number): number {
  let i = pos;
  while (i < line.length && isDigit(line[i])) i++;
  if (line[i] === '.' && isDigit(line[i + 1] ?? '')) {
    i++;
    while (i < line.length && isDigit(line[i])) i++;
  }
  if ((line[i] === 'e' || line[i] === 'E') && /^[eE][+-]?\d/.test(line.slice(i, i + 3))) {
    i += line[i + 1] === '+' || line[i + 1] === '-' ? 2 : 1;
    while (i < line.length && isDigit(line[i])) i++;
  }
  return i;
}

/** The token of `line` starting at `pos` (pos < line.length); `state` is updated in place. */
export function readToken(line: string, pos: number, state: LexState): LineToken {
  if (state.inBlockComment) {
    const close = line.indexOf('*/', pos);
    if (close < 0) return { kind: 'comment', end: line.length };
    state.inBlockComment = false;
    return { kind: 'comment', end: close + 2 };
  }
  const c = line[pos];
  if (c === ' ' || c === '\t' || c === '\r' || c === '\n') {
    let i = pos;
    while (i < line.length && /\s/.test(line[i])) i++;
    return { kind: 'whitespace', end: i };
  }
  if (line.startsWith('/*', pos)) {
    const close = line.indexOf('*/', pos + 2);
    if (close >= 0) return { kind: 'comment', end: close + 2 };
    state.inBlockComment = true;
    return { kind: 'comment', end: line.length };
  }
  if (line.startsWith('//', pos) || c === '#') return { kind: 'comment', end: line.length };
  if (c === '"' || c === "'") return { kind: 'string', end: stringEnd(line, pos) };
  if (isDigit(c)) return { kind: 'number', end: numberEnd(line, pos) };
  if (c === '@') {
    const at = line[pos + 1] === '@' ? pos + 2 : pos + 1;
    if (isIdentStart(line[at] ?? '')) return { kind: 'variable', end: identEnd(line, at) };
    return { kind: 'invalid', end: at };
  }
  if (c === '$') {
    const next = line[pos + 1] ?? '';
    if (next === '"') return { kind: 'variable', end: stringEnd(line, pos + 1) };
    if (isDigit(next)) return { kind: 'variable', end: numberEnd(line, pos + 1) };
    if (isIdentStart(next)) return { kind: 'variable', end: identEnd(line, pos + 1) };
    return { kind: 'invalid', end: pos + 1 };
  }
  if (isIdentStart(c)) {
    const end = identEnd(line, pos);
    return { kind: wordKind(line.slice(pos, end)), end };
  }
  for (const op of OPERATORS) if (line.startsWith(op, pos)) return { kind: 'operator', end: pos + op.length };
  if (OPERATOR_CHARS.includes(c)) return { kind: 'operator', end: pos + 1 };
  if (PUNCTUATION.includes(c)) return { kind: 'punctuation', end: pos + 1 };
  return { kind: 'invalid', end: pos + 1 };
}

/** Every token of a text but whitespace, with its position. */
export function tokenizeGsql(text: string): GsqlToken[] {
  const out: GsqlToken[] = [];
  const state: LexState = { inBlockComment: false };
  let offset = 0;
  const lines = text.split('\n');
  for (let l = 0; l < lines.length; l++) {
    const line = lines[l];
    let pos = 0;
    while (pos < line.length) {
      const t = readToken(line, pos, state);
      if (t.kind !== 'whitespace')
        out.push({
          kind: t.kind,
          text: line.slice(pos, t.end),
          start: offset + pos,
          line: l + 1,
          column: pos + 1,
        });
      pos = t.end;
    }
    offset += line.length + 1;
  }
  return out;
}

/** The tokens that carry meaning (no comments), for recognising statements. */
export function meaningfulTokens(text: string): GsqlToken[] {
  return tokenizeGsql(text).filter((t) => t.kind !== 'comment');
}
