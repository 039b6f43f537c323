/**
 * Parser for the query statements of GSQL: CREATE/INTERPRET/INSTALL/RUN/SHOW/DROP QUERY and the
 * query header; the body's statements are parsed by parser-stmt.ts.
 */
import type { NamedQueryArgs, Param, QueryArgs, QueryDef, QueryStatement } from './ast-query.js';
import { GsqlSyntaxError, tokenize, type Token } from './lexer.js';
import { parseExpr, parseExprList, TokenCursor } from './parser-expr.js';
import { isFunctionStatement, parseFunctionStatement } from './parser-function.js';
import { atShellCypher, parseCypherQuery, parseShellCypher } from './parser-cypher.js';
import { atShellSelect, parseShellSelect } from './parser-shell-select.js';
import { parseBody } from './parser-stmt.js';
import { parseType, posOf } from './parser-type.js';

const QUERY_VERBS = new Set(['CREATE', 'INTERPRET', 'INSTALL', 'RUN', 'SHOW', 'DROP']);

/**
 * True when the cursor is at a query statement (`CREATE … QUERY`, `RUN QUERY`, …), or at a
 * statement of GSQL functions, packages or UDF files.
 */
export function isQueryStatement(c: TokenCursor): boolean {
  if (isFunctionStatement(c)) return true;
  if (atShellSelect(c) || atShellCypher(c)) return true;
  if (c.peek().kind !== 'ident' || !QUERY_VERBS.has(c.peek().text.toUpperCase())) return false;
  for (let k = 1; k <= 4; k++) {
    if (c.isWord('QUERY', k)) return true;
    const w = c.peek(k).text.toUpperCase();
    if (!['OR', 'REPLACE', 'DISTRIBUTED', 'OPENCYPHER'].includes(w)) return false;
  }
  return false;
}

/** Parses one query statement at the cursor; the cursor ends after it. */
export function parseQueryStatement(c: TokenCursor): QueryStatement {
  if (isFunctionStatement(c))
    return parseFunctionStatement(c, (name, first) => parseQueryRest(c, name, first, false));
  if (atShellSelect(c)) return parseShellSelect(c);
  if (atShellCypher(c)) return shellCypher(c);
  const first = c.next();
  const pos = posOf(first);
  const verb = first.text.toUpperCase();
  switch (verb) {
    case 'CREATE': {
      let orReplace = false;
      if (c.acceptWord('OR')) {
        c.expectWord('REPLACE');
        orReplace = true;
      }
      const distributed = c.acceptWord('DISTRIBUTED');
      const cypher = c.acceptWord('OPENCYPHER');
      c.expectWord('QUERY');
      const name = c.expectIdent('a query name');
      const query = parseQueryRest(c, name.text, first, distributed, cypher);
      return { kind: 'createQuery', orReplace, query, pos };
    }
    case 'INTERPRET': {
      const cypher = c.acceptWord('OPENCYPHER');
      c.expectWord('QUERY');
      if (c.isPunct('(')) {
        return {
          kind: 'interpretAnonymous',
          query: parseQueryRest(c, '', first, false, cypher),
          args: [],
          pos,
        };
      }
      const name = c.expectIdent('a query name');
      return { kind: 'interpretQuery', name: name.text, args: parseArgs(c), pos };
    }
    case 'RUN': {
      c.expectWord('QUERY');
      skipFlags(c);
      const name = c.expectIdent('a query name');
      return { kind: 'runQuery', name: name.text, args: parseArgs(c), pos };
    }
    case 'INSTALL': {
      c.expectWord('QUERY');
      let force = skipFlags(c).includes('FORCE');
      const { names, all } = parseNameList(c);
      force = skipFlags(c).includes('FORCE') || force;
      return { kind: 'installQuery', names, all, force, pos };
    }
    case 'SHOW': {
      c.expectWord('QUERY');
      const name = c.acceptPunct('*') ? '*' : c.expectIdent('a query name or *').text;
      return { kind: 'showQuery', name, pos };
    }
    case 'DROP': {
      c.expectWord('QUERY');
      const { names, all } = parseNameList(c);
      return { kind: 'dropQuery', names, all, pos };
    }
    default:
      throw c.error('expected a query statement', first);
  }
}

/** Parses every query statement of a text (used by tests and by callers holding plain text). */
export function parseQueryText(src: string): QueryStatement[] {
  const c = TokenCursor.of(src, tokenize(src));
  const out: QueryStatement[] = [];
  while (c.peek().kind !== 'eof') {
    out.push(parseQueryStatement(c));
    c.acceptPunct(';');
  }
  return out;
}

/** `-force`, `-av`, … returns the upper-cased flag names. */
function skipFlags(c: TokenCursor): string[] {
  const flags: string[] = [];
  while (c.isPunct('-') && c.peek(1).kind === 'ident') {
    c.next();
    flags.push(c.next().text.toUpperCase());
  }
  return flags;
}

function parseNameList(c: TokenCursor): { names: string[]; all: boolean } {
  if (c.acceptWord('ALL') || c.acceptPunct('*')) return { names: [], all: true };
  const names = [c.expectIdent('a query name').text];
  while (c.acceptPunct(',')) names.push(c.expectIdent('a query name').text);
  return { names, all: false };
}

/**
 * RUN/INTERPRET arguments: `(1, "a", ("id", "Type"), [1, 2])`, or one JSON object naming the
 * parameters, `({"name": "Emma", "v": {"id": "x", "type": "T"}})`, as the REST endpoint takes.
 */
function parseArgs(c: TokenCursor): QueryArgs {
  c.expectPunct('(');
  if (c.isPunct('{')) {
    const named = parseNamedArgs(c);
    c.expectPunct(')');
    return named;
  }
  const args = parseExprList(c, ')');
  c.expectPunct(')');
  return args;
}

function parseNamedArgs(c: TokenCursor): NamedQueryArgs {
  const open = c.next();
  let depth = 1;
  let close = open;
  while (depth > 0) {
    close = c.next();
    if (close.kind === 'eof') throw c.error('expected "}" closing the JSON object of arguments', close);
    if (close.kind === 'punct' && close.text === '{') depth++;
    else if (close.kind === 'punct' && close.text === '}') depth--;
  }
  let values: unknown;
  try {
    values = JSON.parse(c.src.slice(open.start, close.end));
  } catch (e) {
    throw new GsqlSyntaxError(
      open.line,
      open.column,
      `the query arguments are not a JSON object: ${(e as Error).message}`,
    );
  }
  return { kind: 'namedArgs', values: values as NamedQueryArgs['values'], pos: posOf(open) };
}

/** An openCypher query typed in the shell, run as `INTERPRET OPENCYPHER QUERY () { … }` is. */
function shellCypher(c: TokenCursor): QueryStatement {
  const first = c.peek();
  const pos = posOf(first);
  const body = parseShellCypher(c);
  const query: QueryDef = {
    name: '',
    params: [],
    distributed: false,
    syntax: 'v3',
    body: [{ kind: 'cypher', query: body, pos }],
    pos,
    text: c.src.slice(first.start, c.lastEnd()),
    textStart: first.start,
  };
  return { kind: 'interpretAnonymous', query, args: [], pos };
}

/** After `QUERY name`: `(params) [FOR GRAPH g] [RETURNS (T)] [API(..)] [SYNTAX v] { body }`. */
function parseQueryRest(
  c: TokenCursor,
  name: string,
  first: Token,
  distributed: boolean,
  cypher = false,
): QueryDef {
  c.expectPunct('(');
  const params: Param[] = [];
  if (!c.isPunct(')')) {
    do {
      const pos = c.pos();
      const type = parseType(c);
      const pname = c.expectIdent('a parameter name').text;
      const dflt = c.acceptPunct('=') ? parseExpr(c) : undefined;
      params.push({ name: pname, type, default: dflt, pos });
    } while (c.acceptPunct(','));
  }
  c.expectPunct(')');
  const def: QueryDef = {
    name,
    params,
    distributed,
    body: [],
    pos: posOf(first),
    text: '',
    textStart: first.start,
  };
  for (;;) {
    if (c.acceptWord('FOR')) {
      c.expectWord('GRAPH');
      def.graph = c.expectIdent('a graph name').text;
    } else if (c.acceptWord('RETURNS')) {
      c.expectPunct('(');
      def.returns = parseType(c);
      c.expectPunct(')');
    } else if (c.acceptWord('API')) {
      c.expectPunct('(');
      c.next();
      c.expectPunct(')');
    } else if (c.acceptWord('SYNTAX')) {
      // `SYNTAX v2`, `SYNTAX("v2")` or `SYNTAX(v2)`.
      const paren = c.acceptPunct('(');
      const v = c.next();
      if (v.kind !== 'ident' && v.kind !== 'string') throw c.error('expected v1, v2 or v3', v);
      if (paren) c.expectPunct(')');
      const syntax = v.text.toLowerCase();
      if (syntax !== 'v1' && syntax !== 'v2' && syntax !== 'v3') {
        throw new GsqlSyntaxError(
          v.line,
          v.column,
          `SYNTAX ${v.text} is not a syntax version (v1, v2 or v3)`,
        );
      }
      def.syntax = syntax;
    } else break;
  }
  c.expectPunct('{');
  if (cypher) {
    // openCypher patterns are V3 patterns.
    def.syntax = 'v3';
    def.body = [{ kind: 'cypher', query: parseCypherQuery(c), pos: c.pos() }];
  } else def.body = parseBody(c, () => c.isPunct('}'));
  const close = c.expectPunct('}');
  def.text = c.src.slice(first.start, close.end);
  return def;
}
