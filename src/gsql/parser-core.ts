/**
 * The token cursor every parser file builds on. Newlines are invisible to the ordinary methods
 * (statements are delimited by the grammar); the raw methods see them, for the few places where the
 * end of a line ends a statement.
 */
import type { CompareOp, Pos } from './ast.js';
import { GsqlSyntaxError, type Token } from './lexer.js';

/** The comparison operators by their spellings (`=` and `<>` as TigerGraph also accepts them). */
export const COMPARE_OPS: Readonly<Record<string, CompareOp>> = {
  '==': '==',
  '=': '==',
  '!=': '!=',
  '<>': '!=',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};

export function describe(tok: Token): string {
  switch (tok.kind) {
    case 'eof':
      return 'end of input';
    case 'newline':
      return 'end of line';
    case 'string':
      return `string "${tok.text}"`;
    case 'block_end':
      return '"END"';
    default:
      return `"${tok.text}"`;
  }
}

export class Parser {
  private i = 0;

  constructor(
    readonly src: string,
    private readonly tokens: Token[],
  ) {}

  /** Index of the next significant token at or after `from`. */
  private skipNl(from: number): number {
    let j = from;
    while (this.tokens[j].kind === 'newline') j++;
    return j;
  }

  /** The k-th significant token ahead (newlines skipped). */
  peek(k = 0): Token {
    let j = this.skipNl(this.i);
    for (let n = 0; n < k && this.tokens[j].kind !== 'eof'; n++) j = this.skipNl(j + 1);
    return this.tokens[j];
  }

  /** The next token, newline included. */
  peekRaw(): Token {
    return this.tokens[this.i];
  }

  /** True when the current line (or statement) ends here. */
  atStatementEnd(): boolean {
    const t = this.tokens[this.i];
    return (
      t.kind === 'newline' ||
      t.kind === 'eof' ||
      t.kind === 'block_end' ||
      (t.kind === 'punct' && t.text === ';')
    );
  }

  next(): Token {
    this.i = this.skipNl(this.i);
    const t = this.tokens[this.i];
    if (t.kind !== 'eof') this.i++;
    return t;
  }

  nextRaw(): Token {
    const t = this.tokens[this.i];
    if (t.kind !== 'eof') this.i++;
    return t;
  }

  get index(): number {
    return this.i;
  }

  set index(v: number) {
    this.i = v;
  }

  pos(tok: Token = this.peek()): Pos {
    return { line: tok.line, column: tok.column };
  }

  isWord(word: string, k = 0): boolean {
    const t = this.peek(k);
    return t.kind === 'ident' && t.text.toUpperCase() === word;
  }

  /** Consumes the words if they come next (all of them), e.g. acceptWords('SCHEMA_CHANGE', 'JOB'). */
  acceptWords(...words: string[]): boolean {
    for (let k = 0; k < words.length; k++) if (!this.isWord(words[k], k)) return false;
    for (let k = 0; k < words.length; k++) this.next();
    return true;
  }

  expectWord(word: string): Token {
    if (!this.isWord(word)) this.fail(`"${word}"`);
    return this.next();
  }

  isPunct(p: string, k = 0): boolean {
    const t = this.peek(k);
    return t.kind === 'punct' && t.text === p;
  }

  acceptPunct(p: string): boolean {
    if (!this.isPunct(p)) return false;
    this.next();
    return true;
  }

  expectPunct(p: string): Token {
    if (!this.isPunct(p)) this.fail(`"${p}"`);
    return this.next();
  }

  /** An identifier (a name: type, attribute, graph, job …). */
  expectName(what: string): Token {
    const t = this.peek();
    if (t.kind !== 'ident') this.fail(what);
    return this.next();
  }

  /** A name that must be on the current line (one-line shell commands such as USE GRAPH g). */
  expectNameOnLine(what: string): Token {
    if (this.atStatementEnd()) this.fail(what);
    return this.expectName(what);
  }

  /** Fails with "expected <expected> but found <next token>" at the next token. */
  fail(expected: string, at?: Token): never {
    // Outside BEGIN … END the shell ends a statement at the end of its line, so an incomplete
    // statement is reported there rather than at the next line's first token.
    const tok = at ?? (this.tokens[this.i].kind === 'newline' ? this.tokens[this.i] : this.peek());
    throw new GsqlSyntaxError(tok.line, tok.column, `expected ${expected} but found ${describe(tok)}`);
  }

  /** Source text from a token's start to the end of the last consumed token. */
  textFrom(start: Token): string {
    let j = Math.max(0, this.i - 1);
    while (j > 0 && this.tokens[j].kind === 'newline') j--;
    const last = this.tokens[j];
    return this.src.slice(start.start, Math.max(start.end, last.end));
  }
}
