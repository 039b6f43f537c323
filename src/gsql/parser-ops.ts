/**
 * The operations statements: SHOW LOADING STATUS, ABORT / RESUME LOADING JOB (a job id or ALL),
 * EXPORT GRAPH (ALL or a list of graphs, TigerGraph's dash options) TO "dir" and IMPORT GRAPH ALL
 * [-KU] FROM "path". Recognised by their leading words, they end at the end of their line (or a
 * `;`); their words are then read from the statement's text, because job ids
 * (`g.job.file.m1.1712345678901`) and options (`-S`, `--KEEP-USERS`) are single words to TigerGraph
 * that the GSQL lexer would split.
 */
import { GsqlSyntaxError } from './lexer.js';
import type { Parser } from './parser-core.js';
import { skipStatement } from './parser-unsupported.js';

/** `ALL`, or one job id. */
export type JobTarget = { all: true } | { all: false; id: string };

/** EXPORT GRAPH's options as given: -S/--SCHEMA, -T/--TEMPLATE, -D/--DATA, -U/--USERS, -P/--PASSWORD. */
export interface ExportOptions {
  schema: boolean;
  template: boolean;
  data: boolean;
  users: boolean;
  /** An encrypted package was asked for (refused when it runs). */
  password: boolean;
}

/** IMPORT GRAPH's options: -KU/--KEEP-USERS, -P/--PASSWORD. */
export interface ImportOptions {
  keepUsers: boolean;
  password: boolean;
}

export type OpsStatement =
  | { kind: 'show_loading_status'; target: JobTarget }
  | { kind: 'abort_loading_job'; target: JobTarget }
  | { kind: 'resume_loading_job'; id: string }
  | { kind: 'export_graph'; graphs: 'ALL' | string[]; options: ExportOptions; dir: string }
  | { kind: 'import_graph'; options: ImportOptions; path: string };

const EXPORT_OPTIONS: Readonly<Record<string, keyof ExportOptions>> = {
  '-S': 'schema',
  '--SCHEMA': 'schema',
  '-T': 'template',
  '--TEMPLATE': 'template',
  '-D': 'data',
  '--DATA': 'data',
  '-U': 'users',
  '--USERS': 'users',
  '-P': 'password',
  '--PASSWORD': 'password',
};

const IMPORT_OPTIONS: Readonly<Record<string, keyof ImportOptions>> = {
  '-KU': 'keepUsers',
  '--KEEP-USERS': 'keepUsers',
  '-P': 'password',
  '--PASSWORD': 'password',
};

interface Word {
  text: string;
  /** A quoted string (its text without the quotes). */
  quoted: boolean;
  column: number;
}

/** Words separated by blanks (and commas); a quoted string is one word. */
function words(text: string, line: number, column: number): Word[] {
  const out: Word[] = [];
  let i = 0;
  const src = text.replace(/;\s*$/, '');
  while (i < src.length) {
    const c = src[i];
    if (/[\s,]/.test(c)) {
      i++;
      continue;
    }
    const at = column + i;
    if (c === '"' || c === "'") {
      const end = src.indexOf(c, i + 1);
      if (end < 0) throw new GsqlSyntaxError(line, at, 'unterminated string literal');
      out.push({ text: src.slice(i + 1, end), quoted: true, column: at });
      i = end + 1;
      continue;
    }
    let j = i;
    while (j < src.length && !/[\s,"']/.test(src[j])) j++;
    out.push({ text: src.slice(i, j), quoted: false, column: at });
    i = j;
  }
  return out;
}

class Reader {
  private at = 0;
  constructor(
    private readonly ws: Word[],
    private readonly line: number,
    private readonly endColumn: number,
  ) {}

  fail(expected: string): never {
    const w = this.ws[this.at];
    throw new GsqlSyntaxError(
      this.line,
      w?.column ?? this.endColumn,
      `expected ${expected}${w ? `, found '${w.text}'` : ' at the end of the statement'}`,
    );
  }

  keyword(...names: string[]): void {
    for (const n of names) {
      const w = this.ws[this.at];
      if (!w || w.quoted || w.text.toUpperCase() !== n) this.fail(n);
      this.at++;
    }
  }

  isKeyword(name: string): boolean {
    const w = this.ws[this.at];
    return w !== undefined && !w.quoted && w.text.toUpperCase() === name;
  }

  word(what: string): string {
    const w = this.ws[this.at];
    if (!w || w.quoted) this.fail(what);
    this.at++;
    return w.text;
  }

  quoted(what: string): string {
    const w = this.ws[this.at];
    if (!w || !w.quoted) this.fail(what);
    this.at++;
    return w.text;
  }

  atOption(): boolean {
    const w = this.ws[this.at];
    return w !== undefined && !w.quoted && w.text.startsWith('-');
  }

  /** `-X` / `--NAME` options (any case) set in `into`; an option not in `known` is an error. */
  options<K extends string>(known: Readonly<Record<string, K>>, into: Record<K, boolean>): void {
    while (this.atOption()) {
      const w = this.ws[this.at];
      const name = known[w.text.toUpperCase()];
      if (name === undefined) {
        throw new GsqlSyntaxError(
          this.line,
          w.column,
          `unknown option '${w.text}'; expected one of ${Object.keys(known).join(', ')}`,
        );
      }
      into[name] = true;
      this.at++;
    }
  }

  end(): void {
    if (this.at < this.ws.length) this.fail('the end of the statement');
  }

  target(): JobTarget {
    if (this.isKeyword('ALL')) {
      this.at++;
      return { all: true };
    }
    return { all: false, id: this.word('a loading job id or ALL') };
  }
}

/** The statement of `text` (starting at `line`/`column`), or undefined when its words are not one of these. */
export function parseOpsStatement(text: string, line: number, column: number): OpsStatement | undefined {
  const r = new Reader(words(text, line, column), line, column + text.length);
  let s: OpsStatement;
  if (/^\s*SHOW\b/i.test(text)) {
    r.keyword('SHOW', 'LOADING', 'STATUS');
    s = { kind: 'show_loading_status', target: r.target() };
  } else if (/^\s*ABORT\b/i.test(text)) {
    r.keyword('ABORT', 'LOADING', 'JOB');
    s = { kind: 'abort_loading_job', target: r.target() };
  } else if (/^\s*RESUME\b/i.test(text)) {
    r.keyword('RESUME', 'LOADING', 'JOB');
    s = { kind: 'resume_loading_job', id: r.word('a loading job id') };
  } else if (/^\s*EXPORT\b/i.test(text)) {
    r.keyword('EXPORT', 'GRAPH');
    let graphs: 'ALL' | string[];
    if (r.isKeyword('ALL')) {
      r.keyword('ALL');
      graphs = 'ALL';
    } else {
      graphs = [r.word('ALL or a graph name')];
      while (!r.isKeyword('TO') && !r.atOption()) graphs.push(r.word('a graph name, an option or TO'));
    }
    const options: ExportOptions = {
      schema: false,
      template: false,
      data: false,
      users: false,
      password: false,
    };
    r.options(EXPORT_OPTIONS, options);
    r.keyword('TO');
    s = { kind: 'export_graph', graphs, options, dir: r.quoted('the folder, as a quoted string') };
  } else if (/^\s*IMPORT\b/i.test(text)) {
    r.keyword('IMPORT', 'GRAPH', 'ALL');
    const options: ImportOptions = { keepUsers: false, password: false };
    r.options(IMPORT_OPTIONS, options);
    r.keyword('FROM');
    s = { kind: 'import_graph', options, path: r.quoted('the package or its folder, as a quoted string') };
  } else return undefined;
  r.end();
  return s;
}

/** Other forms (`IMPORT PACKAGE`, …) stay unsupported statements (parser-unsupported.ts). */
const LEADING_WORDS: readonly (readonly string[])[] = [
  ['SHOW', 'LOADING', 'STATUS'],
  ['ABORT', 'LOADING'],
  ['RESUME', 'LOADING'],
  ['EXPORT', 'GRAPH'],
  ['IMPORT', 'GRAPH'],
];

/** The operations statement at the cursor (consumed to its end), or undefined when it is not one. */
export function parseOps(p: Parser): OpsStatement | undefined {
  if (!LEADING_WORDS.some((ws) => ws.every((w, k) => p.isWord(w, k)))) return undefined;
  const start = p.peek();
  p.next();
  skipStatement(p, false);
  return parseOpsStatement(p.textFrom(start), start.line, start.column);
}
