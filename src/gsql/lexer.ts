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
  return new Lexer(src).run();
}

/** One pass over a source text; the state is where it is and what the line's tokens so far imply. */
class Lexer {
  private readonly tokens: Token[] = [];
  private i = 0;
  private line = 1;
  private lineStart = 0;
  /** Open brackets: a BEGIN or END inside them is a word, not a block line. */
  private depth = 0;
  private inBlock = false;
  /** True until the first token of the current line has been emitted. */
  private atLineStart = true;

  constructor(private readonly src: string) {}

  run(): Token[] {
    const src = this.src;
    while (this.i < src.length) {
      const c = src[this.i];
      if (c === '\n') this.newline();
      // A byte-order mark (scripts saved on Windows) and no-break spaces count as blanks.
      else if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\uFEFF' || c === '\u00A0')
        this.i++;
      else if (c === '#' || (c === '/' && src[this.i + 1] === '/')) {
        while (this.i < src.length && src[this.i] !== '\n') this.i++;
      } else if (c === '/' && src[this.i + 1] === '*') this.blockComment();
      else if (isIdentStart(c)) this.word();
      else if (isDigit(c) || (c === '.' && isDigit(src[this.i + 1] ?? ''))) this.number();
      else if (c === '"' || c === "'") this.string(c);
      else this.punct(c);
    }
    const i = this.i;
    this.tokens.push({ kind: 'eof', text: '', line: this.line, column: this.col(i), start: i, end: i });
    return this.tokens;
  }

  private col(offset: number): number {
    return offset - this.lineStart + 1;
  }

  private push(kind: TokenKind, text: string, start: number, end: number, quote?: '"' | "'"): void {
    const tok: Token = { kind, text, line: this.line, column: this.col(start), start, end };
    if (quote) tok.quote = quote;
    this.tokens.push(tok);
    this.atLineStart = false;
  }

  /** True when nothing but blanks and comments follow on the current line. */
  private restOfLineEmpty(from: number): boolean {
    const src = this.src;
    let j = from;
    while (j < src.length && (src[j] === ' ' || src[j] === '\t' || src[j] === '\r')) j++;
    return (
      j >= src.length ||
      src[j] === '\n' ||
      src[j] === '#' ||
      src.startsWith('//', j) ||
      src.startsWith('/*', j)
    );
  }

  private newline(): void {
    const last = this.tokens[this.tokens.length - 1];
    if (!this.inBlock && last !== undefined && last.kind !== 'newline')
      this.push('newline', '\n', this.i, this.i + 1);
    this.i++;
    this.line++;
    this.lineStart = this.i;
    this.atLineStart = true;
  }

  private blockComment(): void {
    const src = this.src;
    const startLine = this.line;
    const startCol = this.col(this.i);
    this.i += 2;
    while (this.i < src.length && !(src[this.i] === '*' && src[this.i + 1] === '/')) {
      if (src[this.i] === '\n') {
        this.line++;
        this.lineStart = this.i + 1;
      }
      this.i++;
    }
    if (this.i >= src.length) throw new GsqlSyntaxError(startLine, startCol, 'unterminated comment "/*"');
    this.i += 2;
  }

  /** A word; `BEGIN` / `END` alone on their line (outside brackets) open and close a block. */
  private word(): void {
    const src = this.src;
    const start = this.i;
    while (this.i < src.length && isIdentPart(src[this.i])) this.i++;
    const i = this.i;
    const word = src.slice(start, i);
    const upper = word.toUpperCase();
    if (this.atLineStart && this.depth === 0 && this.restOfLineEmpty(i)) {
      if (upper === 'BEGIN' && !this.inBlock) {
        this.push('block_begin', word, start, i);
        this.inBlock = true;
        return;
      }
      if (upper === 'END' && this.inBlock) {
        this.push('block_end', word, start, i);
        this.inBlock = false;
        return;
      }
    }
    this.push('ident', word, start, i);
    // `@x'` and `@@x'` read an accumulator's previous value: that quote starts no string.
    const prev = this.tokens[this.tokens.length - 2];
    if (src[i] === "'" && prev?.kind === 'punct' && (prev.text === '@' || prev.text === '@@')) {
      this.push('punct', "'", i, i + 1);
      this.i++;
    }
  }

  private number(): void {
    const src = this.src;
    const start = this.i;
    let i = this.i;
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
    this.i = i;
    this.push('number', src.slice(start, i), start, i);
  }

  private string(quote: '"' | "'"): void {
    const src = this.src;
    const start = this.i;
    let i = start + 1;
    let value = '';
    while (i < src.length && src[i] !== quote) {
      if (src[i] === '\n')
        throw new GsqlSyntaxError(this.line, this.col(start), 'unterminated string literal');
      if (src[i] === '\\' && i + 1 < src.length) {
        const e = src[i + 1];
        value += ESCAPES[e] ?? e;
        i += 2;
      } else {
        value += src[i];
        i++;
      }
    }
    if (i >= src.length) throw new GsqlSyntaxError(this.line, this.col(start), 'unterminated string literal');
    this.i = i + 1;
    this.push('string', value, start, this.i, quote);
  }

  private punct(c: string): void {
    const src = this.src;
    const start = this.i;
    const op = OPERATORS.find((o) => src.startsWith(o, start));
    if (op) {
      this.i += op.length;
      this.push('punct', op, start, this.i);
      return;
    }
    if (SINGLE.includes(c)) {
      if (c === '(' || c === '[' || c === '{') this.depth++;
      else if ((c === ')' || c === ']' || c === '}') && this.depth > 0) this.depth--;
      this.i++;
      this.push('punct', c, start, this.i);
      return;
    }
    throw new GsqlSyntaxError(this.line, this.col(start), `unexpected character "${c}"`);
  }
}
