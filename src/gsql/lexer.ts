/**
 * The GSQL lexer: one tokenizer for the whole language (shell commands, DDL, loading jobs, queries).
 *
 * Keywords are not distinguished here: every word is an `ident` token and the parser compares it
 * case-insensitively. Newlines are kept as tokens because the shell ends some statements at the end of
 * a line; a `BEGIN` … `END` block (each alone on its line, as in the gsql shell) turns them off.
 */

export type TokenKind =
  | 'ident'
  | 'number'
  | 'string'
  | 'punct'
  | 'newline'
  /** A `BEGIN` line of the shell: the following lines form one multi-line input. */
  | 'block_begin'
  /** The `END` line closing a BEGIN block. */
  | 'block_end'
  | 'eof';

export interface Token {
  kind: TokenKind;
  /** The source text of the token (for strings: without quotes and with escapes resolved). */
  text: string;
  line: number;
  column: number;
  /** Offsets of the token in the source, end exclusive (strings include their quotes). */
  start: number;
  end: number;
  /** For string tokens: the quote character used. */
  quote?: '"' | "'";
}

export class GsqlSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    /** The message without position, e.g. `expected ")" but found "WITH"`. */
    readonly detail: string,
  ) {
    super(`Syntax Error: line ${line}, column ${column}: ${detail}`);
    this.name = 'GsqlSyntaxError';
  }
}

// Longest first: the lexer takes the first operator that matches. `>>` is deliberately absent so
// that nested type arguments such as LIST<SET<INT>> close one bracket at a time.
const OPERATORS = ['==', '!=', '<>', '<=', '>=', '+=', '-=', '->', '<-', '..', '@@', '||', '&&'];
const SINGLE = '()[]{}<>,;:.=+-*/%|&^~!@$?';

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0' };

function isIdentStart(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
}
function isIdentPart(c: string): boolean {
  return isIdentStart(c) || (c >= '0' && c <= '9');
}
function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

export function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  let depth = 0;
  let inBlock = false;
  // True until the first token of the current line has been emitted.
  let atLineStart = true;

  const col = (offset: number): number => offset - lineStart + 1;

  /** True when nothing but blanks and comments follow on the current line. */
  const restOfLineEmpty = (from: number): boolean => {
    let j = from;
    while (j < src.length && (src[j] === ' ' || src[j] === '\t' || src[j] === '\r')) j++;
    return (
      j >= src.length ||
      src[j] === '\n' ||
      src[j] === '#' ||
      src.startsWith('//', j) ||
      src.startsWith('/*', j)
    );
  };

  const push = (kind: TokenKind, text: string, start: number, end: number, quote?: '"' | "'"): void => {
    const tok: Token = { kind, text, line, column: col(start), start, end };
    if (quote) tok.quote = quote;
    tokens.push(tok);
    atLineStart = false;
  };

  while (i < src.length) {
    const c = src[i];
    if (c === '\n') {
      if (!inBlock && tokens.length > 0 && tokens[tokens.length - 1].kind !== 'newline') {
        push('newline', '\n', i, i + 1);
      }
      i++;
      line++;
      lineStart = i;
      atLineStart = true;
      continue;
    }
    // A byte-order mark (scripts saved on Windows) and no-break spaces count as blanks.
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\uFEFF' || c === '\u00A0') {
      i++;
      continue;
    }
    if (c === '#' || (c === '/' && src[i + 1] === '/')) {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '*') {
      const startLine = line;
      const startCol = col(i);
      i += 2;
      while (i < src.length && !(src[i] === '*' && src[i + 1] === '/')) {
        if (src[i] === '\n') {
          line++;
          lineStart = i + 1;
        }
        i++;
      }
      if (i >= src.length) throw new GsqlSyntaxError(startLine, startCol, 'unterminated comment "/*"');
      i += 2;
      continue;
    }
    const start = i;
    if (isIdentStart(c)) {
      while (i < src.length && isIdentPart(src[i])) i++;
      const word = src.slice(start, i);
      const upper = word.toUpperCase();
      if (atLineStart && depth === 0 && restOfLineEmpty(i)) {
        if (upper === 'BEGIN' && !inBlock) {
          push('block_begin', word, start, i);
          inBlock = true;
          continue;
        }
        if (upper === 'END' && inBlock) {
          push('block_end', word, start, i);
          inBlock = false;
          continue;
        }
      }
      push('ident', word, start, i);
      // `@x'` and `@@x'` read an accumulator's previous value: that quote starts no string.
      const prev = tokens[tokens.length - 2];
      if (src[i] === "'" && prev?.kind === 'punct' && (prev.text === '@' || prev.text === '@@')) {
        push('punct', "'", i, i + 1);
        i++;
      }
      continue;
    }
    if (isDigit(c) || (c === '.' && isDigit(src[i + 1] ?? ''))) {
      while (i < src.length && isDigit(src[i])) i++;
      // A fraction, but not the `..` of a range such as *1..3.
      if (src[i] === '.' && src[i + 1] !== '.') {
        i++;
        while (i < src.length && isDigit(src[i])) i++;
      }
      if ((src[i] === 'e' || src[i] === 'E') && /^[eE][+-]?\d/.test(src.slice(i, i + 3))) {
        i += src[i + 1] === '+' || src[i + 1] === '-' ? 2 : 1;
        while (i < src.length && isDigit(src[i])) i++;
      }
      push('number', src.slice(start, i), start, i);
      continue;
    }
    if (c === '"' || c === "'") {
      let value = '';
      i++;
      while (i < src.length && src[i] !== c) {
        if (src[i] === '\n') throw new GsqlSyntaxError(line, col(start), 'unterminated string literal');
        if (src[i] === '\\' && i + 1 < src.length) {
          const e = src[i + 1];
          value += ESCAPES[e] ?? e;
          i += 2;
        } else {
          value += src[i];
          i++;
        }
      }
      if (i >= src.length) throw new GsqlSyntaxError(line, col(start), 'unterminated string literal');
      i++;
      push('string', value, start, i, c);
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (op) {
      i += op.length;
      push('punct', op, start, i);
      continue;
    }
    if (SINGLE.includes(c)) {
      if (c === '(' || c === '[' || c === '{') depth++;
      else if ((c === ')' || c === ']' || c === '}') && depth > 0) depth--;
      i++;
      push('punct', c, start, i);
      continue;
    }
    throw new GsqlSyntaxError(line, col(i), `unexpected character "${c}"`);
  }
  tokens.push({ kind: 'eof', text: '', line, column: col(i), start: i, end: i });
  return tokens;
}
