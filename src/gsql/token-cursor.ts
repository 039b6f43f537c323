/**
 * The token cursor every GSQL parser runs on: a token stream with newlines skipped, keyword and
 * punctuation tests, and syntax errors that name line and column.
 */
import type { Pos } from './ast-query.js';
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

/** Where an expression starting at token `t` starts (its `pos` and `start`). */
export function startOf(t: Token): { pos: Pos; start: number } {
  return { pos: { line: t.line, column: t.column }, start: t.start };
}
