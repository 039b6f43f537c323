/**
 * Parser for the statements of a GSQL query body and of ACCUM/POST-ACCUM clauses: declarations,
 * assignments, control flow, SELECT blocks, PRINT, DML, exceptions and LOG. Expressions are parsed
 * by parser-expr.ts, SELECT blocks by parser-select.ts.
 */
import type { DeclName, Expr, ForeachSource, Pos, SeedItem, Stmt, TypeExpr } from './ast-query.js';
import { GsqlSyntaxError, type Token } from './lexer.js';
import { parseExpr, type TokenCursor } from './parser-expr.js';
import { parseSelect } from './parser-select.js';
import { ACCUMS, closeAngle, isTypeStart, parseType, posOf } from './parser-type.js';
import { parsePrint } from './parser-print.js';
import { parseDelete, parseInsert, parseUpdate } from './parser-query-dml.js';
import { notCypher } from './parser-cypher.js';
import { atTableStatement, parseTableOpStmt, parseTableSelectStmt } from './parser-table.js';
import { atVirtualEdge, parseVirtualEdge } from './parser-virtual-edge.js';

// ---------------------------------------------------------------------------------------------

/** Query-body statements, each ended by `;`, until `atEnd()`. */
export function parseBody(c: TokenCursor, atEnd: () => boolean): Stmt[] {
  const out: Stmt[] = [];
  while (!atEnd()) {
    if (c.peek().kind === 'eof') throw c.error('expected "}"');
    if (c.acceptPunct(';')) continue;
    out.push(parseStatement(c, 'body'));
    if (!atEnd()) c.expectPunct(';');
  }
  return out;
}

/** ACCUM / POST-ACCUM statements separated by commas. */
export function parseAccumList(c: TokenCursor): Stmt[] {
  const out = [parseStatement(c, 'accum')];
  while (c.acceptPunct(',')) out.push(parseStatement(c, 'accum'));
  return out;
}

type Mode = 'body' | 'accum';

function parseBlock(c: TokenCursor, mode: Mode, enders: string[]): Stmt[] {
  const atEnd = (): boolean => enders.some((w) => c.isWord(w));
  if (mode === 'body') return parseBody(c, atEnd);
  return atEnd() ? [] : parseAccumList(c);
}

function parseStatement(c: TokenCursor, mode: Mode): Stmt {
  const t = c.peek();
  const pos = posOf(t);
  const w = t.kind === 'ident' ? t.text.toUpperCase() : '';
  if (w === 'TYPEDEF') return parseTypedef(c);
  if (w === 'FILE' && c.peek(1).kind === 'ident' && c.isPunct('(', 2)) return parseFileDecl(c, pos);
  if (w === 'STATIC') {
    c.next();
    const decl = parseStatement(c, mode);
    if (decl.kind !== 'accumDecl' || !decl.global)
      throw new GsqlSyntaxError(t.line, t.column, 'STATIC must precede a global accumulator declaration');
    return { ...decl, static: true };
  }
  if (t.kind === 'ident' && (ACCUMS.has(t.text) || /ACCUM$/.test(w)) && !c.isPunct('(', 1)) {
    const type = parseType(c);
    const edge = c.isWord('EDGE') && (c.isPunct('@', 1) || c.isPunct('@@', 1)) && c.acceptWord('EDGE');
    const global = c.isPunct('@@');
    return { kind: 'accumDecl', global, ...(edge && { edge }), type, names: parseDeclNames(c, true), pos };
  }
  if (isTypeStart(c)) {
    const type = parseType(c);
    // In ACCUM, commas separate statements: `INT x = 1, @@n += x` declares x only.
    return { kind: 'varDecl', type, names: parseDeclNames(c, false, mode === 'accum'), pos };
  }
  if (mode === 'body' && atTableStatement(c)) return parseTableOpStmt(c);
  switch (w) {
    case 'IF':
      return inBlock(c, () => parseIf(c, mode));
    case 'WHILE':
      return inBlock(c, () => parseWhile(c, mode, pos));
    case 'FOREACH':
      return inBlock(c, () => parseForeach(c, mode));
    case 'CASE':
      if (!c.isPunct('(', 1)) return inBlock(c, () => parseCaseStmt(c, mode));
      break;
    case 'BREAK':
      c.next();
      return { kind: 'break', pos };
    case 'CONTINUE':
      c.next();
      return { kind: 'continue', pos };
    case 'PRINT':
      return parsePrint(c);
    case 'RETURN':
      c.next();
      return { kind: 'return', value: c.isPunct(';') || c.isPunct('}') ? undefined : parseExpr(c), pos };
    case 'INSERT':
      return parseInsert(c);
    case 'DELETE':
      return parseDelete(c, parseAccumList);
    case 'UPDATE':
      return parseUpdate(c, parseAccumList);
    case 'SELECT':
      return parseTableSelectStmt(c);
    case 'MATCH':
    case 'OPTIONAL':
      if (c.isWord('MATCH', w === 'OPTIONAL' ? 1 : 0) && c.isPunct('(', w === 'OPTIONAL' ? 2 : 1))
        throw notCypher(c);
      break;
    case 'LOG':
      if (c.isPunct('(', 1)) return parseLog(c);
      break;
    case 'RAISE':
      return parseRaise(c);
    case 'TRY':
      return inBlock(c, () => parseTry(c, mode));
    case 'EXCEPTION':
      return parseExceptionDecl(c);
    case 'CREATE':
      if (atVirtualEdge(c)) return parseVirtualEdge(c, mode === 'accum');
      break;
  }
  return parseAssignment(c, t, pos);
}

/** `FILE f (path)`. */
function parseFileDecl(c: TokenCursor, pos: Pos): Stmt {
  c.next();
  const name = c.expectIdent('a FILE variable name').text;
  c.expectPunct('(');
  const path = parseExpr(c);
  c.expectPunct(')');
  return { kind: 'fileDecl', name, path, pos };
}

/** `WHILE cond [LIMIT n] DO … END`. */
function parseWhile(c: TokenCursor, mode: Mode, pos: Pos): Stmt {
  c.next();
  const cond = parseExpr(c);
  const limit = c.acceptWord('LIMIT') ? parseExpr(c) : undefined;
  c.expectWord('DO');
  const body = parseBlock(c, mode, ['END']);
  c.expectWord('END');
  return { kind: 'while', cond, limit, body, pos };
}

/** What a statement starting with an expression is: a vertex-set or variable assignment, or a call. */
function parseAssignment(c: TokenCursor, t: Token, pos: Pos): Stmt {
  // A vertex-set declaration with its types: `S (ANY) = …`, `M (Comment|Post) = …`.
  const vertexTypes = t.kind === 'ident' && c.isPunct('(', 1) ? typedVsetHead(c) : undefined;
  if (vertexTypes) return { kind: 'vsetAssign', name: t.text, vertexTypes, value: parseValue(c), pos };
  const target = parseExpr(c);
  if (c.isPunct('=') || c.isPunct('+=')) {
    const op = c.next().text as '=' | '+=';
    const value = parseValue(c);
    if (target.kind === 'name' && op === '=' && (value.kind === 'seed' || value.kind === 'select')) {
      return { kind: 'vsetAssign', name: target.name, value, pos };
    }
    return { kind: 'assign', target, op, value, pos };
  }
  if (target.kind === 'method' || target.kind === 'call') return { kind: 'expr', expr: target, pos };
  throw c.error('expected "=", "+=" or the end of the statement');
}

/**
 * At `name (T1|T2) =`: consumes up to the `=` and returns the types; anything else (a call such
 * as `f(x)`) consumes nothing.
 */
function typedVsetHead(c: TokenCursor): { name: string; pos: Pos }[] | undefined {
  let k = 2;
  for (;;) {
    if (c.peek(k).kind !== 'ident') return undefined;
    if (c.isPunct(')', k + 1)) break;
    if (!c.isPunct('|', k + 1)) return undefined;
    k += 2;
  }
  if (!c.isPunct('=', k + 2)) return undefined;
  c.next();
  c.next();
  const types: { name: string; pos: Pos }[] = [];
  do {
    const tt = c.next();
    types.push({ name: tt.text, pos: posOf(tt) });
  } while (c.acceptPunct('|'));
  c.next();
  c.next();
  return types;
}

function parseExceptionDecl(c: TokenCursor): Stmt {
  const pos = c.pos();
  c.next();
  const name = c.expectIdent('an exception name').text;
  c.expectPunct('(');
  const t = c.next();
  if (t.kind !== 'number' || !/^\d+$/.test(t.text))
    throw new GsqlSyntaxError(
      t.line,
      t.column,
      `the code of an EXCEPTION must be an integer, not "${t.text}"`,
    );
  c.expectPunct(')');
  return { kind: 'exceptionDecl', name, code: Number(t.text), pos };
}

function parseRaise(c: TokenCursor): Stmt {
  const pos = c.pos();
  c.next();
  const name = c.expectIdent('an exception name').text;
  if (!c.acceptPunct('(')) return { kind: 'raise', name, pos };
  const message = parseExpr(c);
  c.expectPunct(')');
  return { kind: 'raise', name, message, pos };
}

function parseTry(c: TokenCursor, mode: Mode): Stmt {
  const pos = c.pos();
  c.next();
  if (mode !== 'body')
    throw new GsqlSyntaxError(pos.line, pos.column, 'TRY is only allowed in the query body');
  const body = parseBlock(c, mode, ['EXCEPTION']);
  c.expectWord('EXCEPTION');
  const handlers: { name: string; pos: Pos; body: Stmt[] }[] = [];
  while (c.isWord('WHEN')) {
    c.next();
    const hpos = c.pos();
    const name = c.expectIdent('an exception name').text;
    c.expectWord('THEN');
    handlers.push({ name, pos: hpos, body: parseBlock(c, mode, ['WHEN', 'ELSE', 'END']) });
  }
  if (handlers.length === 0) throw c.error('expected "WHEN exception THEN …" after EXCEPTION');
  const otherwise = c.acceptWord('ELSE') ? parseBlock(c, mode, ['END']) : undefined;
  c.expectWord('END');
  return { kind: 'try', body, handlers, otherwise, pos };
}

function parseLog(c: TokenCursor): Stmt {
  const pos = c.pos();
  c.next();
  c.expectPunct('(');
  const cond = parseExpr(c);
  const args: Expr[] = [];
  while (c.acceptPunct(',')) args.push(parseExpr(c));
  c.expectPunct(')');
  return { kind: 'log', cond, args, pos };
}

/** The right side of an assignment: an expression or a SELECT block. */
function parseValue(c: TokenCursor): Expr {
  const seed = parseBareSeed(c);
  if (seed) return seed;
  if (!c.isWord('SELECT')) return parseExpr(c);
  const t = c.peek();
  const select = parseSelect(c, parseAccumList);
  return { kind: 'select', select, pos: posOf(t), start: t.start, end: c.lastEnd() };
}

/** The 1.x seed forms without braces: `S = person.*;`, `S = ANY;`, `S = _;` (all vertices). */
function parseBareSeed(c: TokenCursor): Expr | undefined {
  const t = c.peek();
  if (t.kind !== 'ident') return undefined;
  const pos = posOf(t);
  const ends = (k: number): boolean => c.isPunct(';', k) || c.isPunct('}', k);
  let item: SeedItem;
  if (c.isPunct('.', 1) && c.isPunct('*', 2) && ends(3)) {
    c.next();
    c.next();
    item = { kind: 'all', vertexType: t.text, pos };
  } else if ((t.text === '_' || t.text.toUpperCase() === 'ANY') && ends(1)) item = { kind: 'any', pos };
  else return undefined;
  const last = c.next();
  return { kind: 'seed', items: [item], pos, start: t.start, end: last.end };
}

/**
 * The sizes of an ArrayAccum declaration, `[3][n]`; an empty `[]` is size 0, which `reallocate`
 * (or an assignment of a whole array) sets later.
 */
function parseDeclSizes(c: TokenCursor): Expr[] {
  const sizes: Expr[] = [];
  for (let t = c.peek(); c.acceptPunct('['); t = c.peek()) {
    if (c.isPunct(']')) {
      const close = c.expectPunct(']');
      sizes.push({
        kind: 'int',
        value: 0,
        pos: { line: t.line, column: t.column },
        start: t.start,
        end: close.end,
      });
    } else {
      sizes.push(parseExpr(c));
      c.expectPunct(']');
    }
  }
  return sizes;
}

function parseDeclNames(c: TokenCursor, accum: boolean, single = false): DeclName[] {
  const names: DeclName[] = [];
  do {
    const p = c.pos();
    const global = accum && c.acceptPunct('@@');
    if (accum && !global && !c.acceptPunct('@')) throw c.error('expected "@name" or "@@name"');
    const name = c.expectIdent('a name').text;
    const dims = accum ? parseDeclSizes(c) : [];
    names.push({
      name,
      ...(accum && { global }),
      ...(dims.length > 0 && { dims }),
      init: c.acceptPunct('=') ? parseExpr(c) : undefined,
      pos: p,
    });
  } while (!single && c.acceptPunct(','));
  return names;
}

const TYPE_WORDS = new Set([
  'INT',
  'UINT',
  'FLOAT',
  'DOUBLE',
  'STRING',
  'BOOL',
  'DATETIME',
  'VERTEX',
  'EDGE',
]);

function isTypeWord(c: TokenCursor, k: number): boolean {
  const t = c.peek(k);
  return t.kind === 'ident' && TYPE_WORDS.has(t.text.toUpperCase());
}

function parseTypedef(c: TokenCursor): Stmt {
  const pos = c.pos();
  c.next();
  c.expectWord('TUPLE');
  c.expectPunct('<');
  const fields: { name: string; type: TypeExpr }[] = [];
  do {
    // TigerGraph accepts both `INT id` and the older `id INT`.
    if (!isTypeWord(c, 0) && isTypeWord(c, 1)) {
      const name = c.expectIdent('a field name').text;
      fields.push({ name, type: parseType(c) });
      continue;
    }
    const type = parseType(c);
    fields.push({ name: c.expectIdent('a field name').text, type });
  } while (c.acceptPunct(','));
  closeAngle(c);
  return { kind: 'tupleDecl', name: c.expectIdent('a tuple type name').text, fields, pos };
}

/** How many IF/WHILE/FOREACH/CASE statements are open around the cursor's position. */
const openBlocks = new WeakMap<TokenCursor, number>();

function inBlock(c: TokenCursor, parse: () => Stmt): Stmt {
  openBlocks.set(c, (openBlocks.get(c) ?? 0) + 1);
  try {
    return parse();
  } finally {
    openBlocks.set(c, (openBlocks.get(c) ?? 1) - 1);
  }
}

/**
 * `ELSE IF` continues the IF being parsed, or starts an IF nested in its ELSE block
 * (`ELSE IF b THEN … END; END;`, as the algorithm library writes it). Like TigerGraph's parser, the
 * reading that lets the rest of the query close wins: it nests only when an END can close the ELSE
 * block after the inner IF's END, and the END tokens left in the query body, less the blocks open
 * here and the blocks still to open, leave one over for it.
 */
function elseIfNests(c: TokenCursor, mode: Mode): boolean {
  return endCanFollowInnerIf(c, mode) && spareEnds(c);
}

/** Whether the inner IF's END is followed, in the same block, by an END (not `}` or a clause). */
function endCanFollowInnerIf(c: TokenCursor, mode: Mode): boolean {
  let depth = 1;
  let closed = false;
  for (let k = 1; ; k++) {
    const t = c.peek(k);
    if (t.kind === 'eof') return false;
    if (t.kind === 'punct') {
      if (closed && depth === 0 && (t.text === '}' || (mode === 'accum' && t.text === ';'))) return false;
      continue;
    }
    if (t.kind !== 'ident') continue;
    const w = t.text.toUpperCase();
    if (w === 'END') {
      if (closed && depth === 0) return true;
      if (--depth === 0) closed = true;
    } else if (isOpener(c, w, k)) depth++;
    else if (closed && depth === 0 && mode === 'accum' && CLAUSE_WORDS.has(w)) return false;
  }
}

const CLAUSE_WORDS = new Set(['POST', 'WHERE', 'HAVING', 'ORDER', 'LIMIT', 'ACCUM']);

function isOpener(c: TokenCursor, w: string, k: number): boolean {
  return w === 'WHILE' || w === 'FOREACH' || w === 'CASE' || (w === 'IF' && !c.isWord('ELSE', k - 1));
}

function spareEnds(c: TokenCursor): boolean {
  let ends = 0;
  let opens = 0;
  let braces = 0;
  for (let k = 1; ; k++) {
    const t = c.peek(k);
    if (t.kind === 'eof') break;
    if (t.kind === 'punct') {
      if (t.text === '{') braces++;
      else if (t.text === '}' && braces-- === 0) break;
      continue;
    }
    if (t.kind !== 'ident') continue;
    const w = t.text.toUpperCase();
    if (w === 'END') ends++;
    else if (isOpener(c, w, k)) opens++;
  }
  return ends - (openBlocks.get(c) ?? 0) - opens > 0;
}

function parseIf(c: TokenCursor, mode: Mode): Stmt {
  const pos = c.pos();
  c.next();
  const branches: { cond: Expr; body: Stmt[] }[] = [];
  let otherwise: Stmt[] | undefined;
  for (;;) {
    const cond = parseExpr(c);
    c.expectWord('THEN');
    branches.push({ cond, body: parseBlock(c, mode, ['ELSE', 'END']) });
    if (c.acceptWord('ELSE')) {
      if (c.isWord('IF') && !elseIfNests(c, mode)) {
        c.next();
        continue;
      }
      otherwise = parseBlock(c, mode, ['END']);
    }
    c.expectWord('END');
    return { kind: 'if', branches, otherwise, pos };
  }
}

function parseCaseStmt(c: TokenCursor, mode: Mode): Stmt {
  const pos = c.pos();
  c.next();
  const subject = c.isWord('WHEN') ? undefined : parseExpr(c);
  const branches: { when: Expr; body: Stmt[] }[] = [];
  while (c.acceptWord('WHEN')) {
    const when = parseExpr(c);
    c.expectWord('THEN');
    branches.push({ when, body: parseBlock(c, mode, ['WHEN', 'ELSE', 'END']) });
  }
  if (branches.length === 0) throw c.error('expected "WHEN"');
  const otherwise = c.acceptWord('ELSE') ? parseBlock(c, mode, ['END']) : undefined;
  c.expectWord('END');
  return { kind: 'case', subject, branches, otherwise, pos };
}

function parseForeach(c: TokenCursor, mode: Mode): Stmt {
  const pos = c.pos();
  c.next();
  const vars: { name: string; pos: Pos }[] = [];
  if (c.acceptPunct('(')) {
    do {
      const v = c.expectIdent('a loop variable');
      vars.push({ name: v.text, pos: posOf(v) });
    } while (c.acceptPunct(','));
    c.expectPunct(')');
  } else {
    const v = c.expectIdent('a loop variable');
    vars.push({ name: v.text, pos: posOf(v) });
  }
  c.expectWord('IN');
  let source: ForeachSource;
  if (c.isWord('RANGE') && c.isPunct('[', 1)) {
    const rpos = c.pos();
    c.next();
    c.next();
    const from = parseExpr(c);
    c.expectPunct(',');
    const to = parseExpr(c);
    c.expectPunct(']');
    let step: Expr | undefined;
    if (c.acceptPunct('.')) {
      c.expectWord('STEP');
      c.expectPunct('(');
      step = parseExpr(c);
      c.expectPunct(')');
    }
    source = { kind: 'range', from, to, step, pos: rpos };
  } else {
    source = parseExpr(c);
  }
  c.expectWord('DO');
  const body = parseBlock(c, mode, ['END']);
  c.expectWord('END');
  return { kind: 'foreach', vars, source, body, pos };
}
