/**
 * The GSQL statement parser: splits a script into statements and parses each one. Statements end
 * where their grammar ends (a `;` or newline between them is optional, as in the gsql shell, which
 * accepts `USE GRAPH g SHOW QUERY q` on one line). A syntax error stops only its own statement: the
 * parser skips to the next line (or past the `{ … }` body) and carries on, so the executor can run
 * what came before and decide whether to go on.
 */
import type { ScriptItem, Stmt } from './ast.js';
import { GsqlSyntaxError, tokenize, type Token } from './lexer.js';
import { Parser } from './parser-core.js';
import {
  parseEdgeDecl,
  parseNameList,
  parseSchemaChangeBody,
  parseTupleDecl,
  parseVertexDecl,
} from './parser-ddl.js';
import { parseAuthStatement } from './parser-auth.js';
import { parseLiteral } from './parser-types.js';
import { hasBodyOnFirstLine, parseUnsupported, skipStatement } from './parser-unsupported.js';
import { isQueryStatement, parseQueryStatement } from './parser-query.js';
import { TokenCursor } from './parser-expr.js';
import { parseCreateLoadingJob, parseRunLoadingJob } from './parser-loading.js';
import { parseDml } from './parser-dml.js';
import { parseOps } from './parser-ops.js';

type StmtBody = Stmt extends infer S ? (S extends Stmt ? Omit<S, 'text' | 'line' | 'column'> : never) : never;

function names(p: Parser, what: string): string[] {
  return parseNameList(p, what, false) as string[];
}

function parseCreate(p: Parser): StmtBody | undefined {
  if (p.isWord('LOADING', 1)) return { kind: 'create_loading_job', job: parseCreateLoadingJob(p) };
  if (p.acceptWords('CREATE', 'VERTEX')) return { kind: 'create_vertex', vertex: parseVertexDecl(p) };
  for (const [word, directed] of [
    ['DIRECTED', true],
    ['UNDIRECTED', false],
  ] as const) {
    if (p.acceptWords('CREATE', word, 'EDGE'))
      return { kind: 'create_edge', edge: parseEdgeDecl(p, directed) };
  }
  if (p.acceptWords('CREATE', 'GRAPH')) {
    const name = p.expectName('a graph name').text;
    p.expectPunct('(');
    if (p.acceptPunct('*')) {
      p.expectPunct(')');
      return { kind: 'create_graph', name, members: '*' };
    }
    const members: { name: string; pos: { line: number; column: number } }[] = [];
    if (!p.isPunct(')')) {
      do {
        const t = p.expectName('a vertex or edge type name');
        members.push({ name: t.text, pos: { line: t.line, column: t.column } });
      } while (p.acceptPunct(','));
    }
    p.expectPunct(')');
    return { kind: 'create_graph', name, members };
  }
  const global = p.isWord('GLOBAL', 1);
  if (p.acceptWords('CREATE', 'GLOBAL', 'SCHEMA_CHANGE') || p.acceptWords('CREATE', 'SCHEMA_CHANGE')) {
    p.expectWord('JOB');
    const name = p.expectName('a job name').text;
    let graph: string | undefined;
    if (p.acceptWords('FOR', 'GRAPH')) graph = p.expectName('a graph name').text;
    const actions = parseSchemaChangeBody(p);
    return graph === undefined
      ? { kind: 'create_schema_change_job', name, global, actions }
      : { kind: 'create_schema_change_job', name, global, graph, actions };
  }
  return undefined;
}

function parseDrop(p: Parser): StmtBody | undefined {
  if (p.acceptWords('DROP', 'GRAPH')) {
    const name = p.expectNameOnLine('a graph name').text;
    return { kind: 'drop_graph', name, cascade: p.acceptWords('CASCADE') };
  }
  if (p.acceptWords('DROP', 'ALL')) return { kind: 'drop_all' };
  if (p.acceptWords('DROP', 'VERTEX')) return { kind: 'drop_vertex', names: names(p, 'a vertex type name') };
  if (p.acceptWords('DROP', 'EDGE')) return { kind: 'drop_edge', names: names(p, 'an edge type name') };
  if (p.acceptWords('DROP', 'TUPLE')) return { kind: 'drop_tuple', names: names(p, 'a tuple type name') };
  if (p.acceptWords('DROP', 'JOB')) return { kind: 'drop_job', names: parseNameList(p, 'a job name', true) };
  return undefined;
}

/** True at a `*` or `?` of a SHOW glob pattern. */
function isGlobPunct(t: Token): boolean {
  return t.kind === 'punct' && (t.text === '*' || t.text === '?');
}

/**
 * One name of SHOW VERTEX | EDGE | GRAPH: a name, or a glob pattern written without blanks
 * (`Acc*`, `Ac?*t`, `?????`; `*` matches any run of characters, `?` one character).
 */
function parseShowName(p: Parser, what: string): string {
  const first = p.peekRaw();
  if (first.kind !== 'ident' && !isGlobPunct(first)) return p.expectNameOnLine(what).text;
  let end = first.start;
  let text = '';
  for (let t = p.peekRaw(); t.start === end && (t.kind === 'ident' || isGlobPunct(t)); t = p.peekRaw()) {
    text += t.text;
    end = t.end;
    p.nextRaw();
  }
  return text;
}

function parseShowNames(p: Parser, what: string): string[] | '*' {
  if (p.atStatementEnd()) p.fail(what);
  if (p.acceptWords('ALL')) return '*';
  const names = [parseShowName(p, what)];
  while (p.acceptPunct(',')) names.push(parseShowName(p, what));
  return names.length === 1 && names[0] === '*' ? '*' : names;
}

function parseShow(p: Parser): StmtBody | undefined {
  for (const what of ['vertex', 'edge', 'graph'] as const) {
    if (p.acceptWords('SHOW', what.toUpperCase())) {
      return { kind: 'show', what, names: parseShowNames(p, `a ${what} name or *`) };
    }
  }
  if (p.acceptWords('SHOW', 'JOB')) {
    return { kind: 'show_job', names: p.atStatementEnd() ? '*' : parseNameList(p, 'a job name or *', true) };
  }
  return undefined;
}

function parseStatementBody(p: Parser): StmtBody {
  const first = p.peek();
  const word = first.kind === 'ident' ? first.text.toUpperCase() : '';
  let stmt: StmtBody | undefined;
  switch (word) {
    case 'CREATE':
      stmt = parseCreate(p);
      break;
    case 'DROP':
      stmt = parseDrop(p);
      break;
    case 'SHOW':
      stmt = parseOps(p) ?? parseShow(p);
      break;
    case 'ABORT':
    case 'RESUME':
    case 'EXPORT':
    case 'IMPORT':
      stmt = parseOps(p);
      break;
    case 'TYPEDEF':
      if (p.acceptWords('TYPEDEF', 'TUPLE')) stmt = { kind: 'typedef_tuple', ...parseTupleDecl(p) };
      break;
    case 'USE':
      if (p.acceptWords('USE', 'GRAPH'))
        stmt = { kind: 'use_graph', name: p.expectNameOnLine('a graph name').text };
      else if (p.acceptWords('USE', 'GLOBAL')) stmt = { kind: 'use_global' };
      else {
        p.next();
        p.fail('GRAPH or GLOBAL');
      }
      break;
    case 'CLEAR':
      if (p.acceptWords('CLEAR', 'GRAPH', 'STORE')) {
        const hard = p.isPunct('-') && p.isWord('HARD', 1) && !p.atStatementEnd();
        if (hard) {
          p.next();
          p.next();
        }
        stmt = { kind: 'clear_graph_store', hard };
      }
      break;
    case 'UPSERT':
    case 'DELETE':
      stmt = parseDml(p);
      break;
    case 'LS':
      p.next();
      stmt = { kind: 'ls' };
      break;
    case 'HELP':
      p.next();
      stmt = p.atStatementEnd() ? { kind: 'help' } : { kind: 'help', topic: p.next().text };
      break;
    case 'SET': {
      p.next();
      const name = p.expectNameOnLine('a setting name').text;
      p.expectPunct('=');
      stmt = { kind: 'set', name, value: parseLiteral(p, true) };
      break;
    }
    case 'RUN': {
      if (p.isWord('LOADING', 1)) stmt = { kind: 'run_loading_job', run: parseRunLoadingJob(p) };
      const global = p.isWord('GLOBAL', 1);
      if (p.acceptWords('RUN', 'GLOBAL', 'SCHEMA_CHANGE') || p.acceptWords('RUN', 'SCHEMA_CHANGE')) {
        p.expectWord('JOB');
        const name = p.expectNameOnLine('a job name').text;
        const options: string[] = [];
        // Options such as -force, -warn or -N, on the same line.
        while (!p.atStatementEnd() && p.isPunct('-') && p.peek(1).kind === 'ident') {
          p.next();
          options.push(`-${p.next().text}`);
        }
        stmt = { kind: 'run_schema_change_job', name, global, options };
      }
      break;
    }
  }
  stmt ??= parseAuthStatement(p);
  if (stmt) return stmt;
  if (isQueryStatement(new TokenCursor(p)))
    return { kind: 'query', statement: parseQueryStatement(new TokenCursor(p)) };
  const unsupported = parseUnsupported(p);
  if (unsupported) return { kind: 'unsupported', feature: unsupported.feature };
  if (word === '') p.fail('a statement');
  // Name the recognised words so "CREATE FOO" says what was expected after CREATE.
  if (['CREATE', 'DROP', 'SHOW', 'RUN', 'CLEAR', 'TYPEDEF'].includes(word)) {
    const after = p.peek(1);
    return p.fail(`a valid ${word} statement`, after);
  }
  return p.fail('a statement');
}

function isSeparator(t: Token): boolean {
  return (
    t.kind === 'newline' ||
    t.kind === 'block_begin' ||
    t.kind === 'block_end' ||
    (t.kind === 'punct' && t.text === ';')
  );
}

/** Parses a whole script. A lexical error (e.g. an unterminated string) ends the script there. */
export function parseScript(src: string): ScriptItem[] {
  let tokens: Token[];
  try {
    tokens = tokenize(src);
  } catch (e) {
    if (!(e instanceof GsqlSyntaxError)) throw e;
    // The lines before the bad one still run, as they would in the shell.
    const lines = src.split('\n');
    const before = e.line > 1 ? parseScript(lines.slice(0, e.line - 1).join('\n')) : [];
    return [...before, { ok: false, error: e }];
  }
  const p = new Parser(src, tokens);
  const items: ScriptItem[] = [];
  while (true) {
    while (isSeparator(p.peekRaw())) p.nextRaw();
    const start = p.peekRaw();
    if (start.kind === 'eof') return items;
    const startIndex = p.index;
    try {
      const body = parseStatementBody(p);
      const stmt = { ...body, text: p.textFrom(start), line: start.line, column: start.column } as Stmt;
      items.push({ ok: true, stmt });
    } catch (e) {
      if (!(e instanceof GsqlSyntaxError)) throw e;
      items.push({ ok: false, error: e });
      p.index = startIndex;
      const body = hasBodyOnFirstLine(p);
      p.nextRaw();
      skipStatement(p, body);
    }
  }
}

/** Parses text that must hold exactly one statement (e.g. a stored job's text). */
export function parseOne(src: string): Stmt {
  const items = parseScript(src);
  const first = items[0];
  if (!first) throw new GsqlSyntaxError(1, 1, 'expected a statement but found end of input');
  if (!first.ok) throw first.error;
  return first.stmt;
}
