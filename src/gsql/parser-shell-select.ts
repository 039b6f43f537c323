/**
 * The shell's SELECT statements: GSQL 101's built-in `SELECT * | count() | attr, … FROM type
 * [-(edge)-> type] [WHERE cond] [LIMIT n]`, and the one-block SELECT over V3 patterns (`SELECT s
 * FROM (s:Account) …`, `SELECT s.name, count(t) FROM …`) with its optional `LET decl; … IN` prefix.
 * A FROM followed by `(` is a one-block SELECT.
 */
import type { Pos } from './ast-query.js';
import type { BuiltinSelect, OneBlockSelect, ShellSelectStatement } from './ast-v3.js';
import { parseCondition, parseExpr, type TokenCursor } from './parser-expr.js';
import { parseSelect } from './parser-select.js';
import { parseAccumList, parseBody } from './parser-stmt.js';
import { parseTableSelect } from './parser-table.js';
import { posOf } from './parser-type.js';

/** True at a shell SELECT or `LET … IN SELECT`. */
export function atShellSelect(c: TokenCursor): boolean {
  return c.isWord('SELECT') || (c.isWord('LET') && c.peek(1).kind === 'ident');
}

export function parseShellSelect(c: TokenCursor): ShellSelectStatement {
  const first = c.peek();
  if (c.acceptWord('LET')) {
    const declarations = parseBody(c, () => c.isWord('IN'));
    c.expectWord('IN');
    if (!c.isWord('SELECT')) throw c.error('expected "SELECT" after LET … IN');
    return parseOneBlock(c, first.start, posOf(first), declarations);
  }
  if (fromIsPattern(c)) return parseOneBlock(c, first.start, posOf(first), []);
  return parseBuiltin(c);
}

/** Whether the FROM of the SELECT at the cursor is followed by `(` (a V3 pattern). */
function fromIsPattern(c: TokenCursor): boolean {
  let depth = 0;
  for (let k = 1; ; k++) {
    const t = c.peek(k);
    if (t.kind === 'eof') return false;
    if (t.kind === 'punct') {
      if (t.text === '(' || t.text === '[') depth++;
      else if (t.text === ')' || t.text === ']') depth--;
      continue;
    }
    if (depth === 0 && t.kind === 'ident' && t.text.toUpperCase() === 'FROM') return c.isPunct('(', k + 1);
  }
}

function parseOneBlock(
  c: TokenCursor,
  start: number,
  pos: Pos,
  declarations: OneBlockSelect['declarations'],
): OneBlockSelect {
  // `SELECT [DISTINCT] alias FROM …`: a vertex-set SELECT (ACCUM and POST-ACCUM allowed) unless
  // the alias turns out to be an edge's.
  const k = c.isWord('DISTINCT', 1) ? 2 : 1;
  let select: OneBlockSelect['select'];
  if (c.peek(k).kind === 'ident' && c.isWord('FROM', k + 1)) {
    const block = parseSelect(c, parseAccumList);
    const isVertex = block.from.some(
      (p) => p.source.alias === block.result || p.steps.some((s) => s.vertex.alias === block.result),
    );
    if (isVertex || block.accum.length > 0 || block.postAccum.length > 0)
      select = { kind: 'vertices', block };
    else
      select = {
        kind: 'table',
        table: {
          distinct: block.distinct,
          columns: [{ expr: nameExpr(block.result, block.resultPos, c.src), pos: block.resultPos }],
          from: block.from,
          ...(block.where && { where: block.where }),
          groupBy: [],
          ...(block.having && { having: block.having }),
          orderBy: block.orderBy,
          ...(block.limit && { limit: block.limit }),
          ...(block.offset && { offset: block.offset }),
          pos: block.pos,
        },
      };
  } else select = { kind: 'table', table: parseTableSelect(c, false) };
  return {
    kind: 'oneBlockSelect',
    declarations,
    select,
    text: c.src.slice(start, c.lastEnd()),
    textStart: start,
    pos,
  };
}

/** A name expression at a known position (the SELECT's alias, kept as a column). */
function nameExpr(name: string, pos: Pos, src: string) {
  const start = src.length;
  return { kind: 'name' as const, name, pos, start, end: start };
}

function typeName(c: TokenCursor, what: string): { name: string; pos: Pos } {
  const t = c.expectIdent(what);
  return { name: t.text, pos: posOf(t) };
}

/** `SELECT * | count() | a, b FROM type [-(edge)-> type] [WHERE cond] [LIMIT n]`. */
function parseBuiltin(c: TokenCursor): BuiltinSelect {
  const pos = c.pos();
  c.expectWord('SELECT');
  let what: BuiltinSelect['what'];
  if (c.acceptPunct('*')) what = { kind: 'all' };
  else if (c.isWord('COUNT') && c.isPunct('(', 1)) {
    c.next();
    c.next();
    c.acceptPunct('*');
    c.expectPunct(')');
    what = { kind: 'count' };
  } else {
    const names: { name: string; pos: Pos }[] = [];
    do names.push(typeName(c, 'an attribute name, "*" or count()'));
    while (c.acceptPunct(','));
    what = { kind: 'attrs', names };
  }
  c.expectWord('FROM');
  const source = typeName(c, 'a vertex type');
  const out: BuiltinSelect = { kind: 'builtinSelect', what, source, pos };
  if (c.isPunct('-') && c.isPunct('(', 1)) {
    c.next();
    c.next();
    const edge = typeName(c, 'an edge type');
    c.expectPunct(')');
    if (!c.acceptPunct('->')) c.expectPunct('-');
    out.edge = { edge, target: typeName(c, 'a vertex type') };
  }
  if (c.acceptWord('WHERE')) out.where = parseCondition(c);
  if (c.acceptWord('LIMIT')) out.limit = parseExpr(c);
  return out;
}
