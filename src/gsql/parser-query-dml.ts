/**
 * Parser for the DML statements of a GSQL query body: INSERT INTO, DELETE and UPDATE.
 */
import type { Expr, Stmt } from './ast-query.js';
import { parseExpr, type TokenCursor } from './parser-expr.js';
import { parseSelectFrom, type AccumListParser } from './parser-select.js';
import { posOf } from './parser-type.js';

/** `INSERT INTO [VERTEX|EDGE] type [(attributes)] VALUES (value [vertexType], …)`. */
export function parseInsert(c: TokenCursor): Stmt {
  const pos = c.pos();
  c.next();
  c.expectWord('INTO');
  // `INSERT INTO EDGE e_type VALUES …`: the type name may come from a STRING parameter.
  if ((c.isWord('EDGE') || c.isWord('VERTEX')) && c.peek(1).kind === 'ident' && !c.isWord('VALUES', 1))
    c.next();
  const typeTok = c.expectIdent('a vertex or edge type name');
  let columns: string[] | undefined;
  if (c.acceptPunct('(')) {
    columns = [];
    do columns.push(c.expectIdent('an attribute name').text);
    while (c.acceptPunct(','));
    c.expectPunct(')');
  }
  c.expectWord('VALUES');
  c.expectPunct('(');
  const values: { expr: Expr; vertexType?: string }[] = [];
  do {
    const expr = parseExpr(c);
    const vertexType = c.peek().kind === 'ident' && !c.isWord('AS') ? c.next().text : undefined;
    values.push({ expr, vertexType });
  } while (c.acceptPunct(','));
  c.expectPunct(')');
  return { kind: 'insert', typeName: typeTok.text, typePos: posOf(typeTok), columns, values, pos };
}

/** `DELETE s [FROM … WHERE …]`, or `DELETE (s)` inside ACCUM / POST-ACCUM. */
export function parseDelete(c: TokenCursor, accumList: AccumListParser): Stmt {
  const pos = c.pos();
  c.next();
  const paren = c.acceptPunct('(');
  const alias = c.expectIdent('the alias to delete').text;
  if (paren) c.expectPunct(')');
  if (!c.isWord('FROM')) return { kind: 'delete', alias, pos };
  const select = parseSelectFrom(c, alias, pos, false, accumList);
  return { kind: 'delete', alias, select, pos };
}

/** `UPDATE s FROM … SET … [WHERE …]`. */
export function parseUpdate(c: TokenCursor, accumList: AccumListParser): Stmt {
  const pos = c.pos();
  c.next();
  const alias = c.expectIdent('the alias to update').text;
  const select = parseSelectFrom(c, alias, pos, true, accumList);
  return { kind: 'update', select, sets: select.postAccum[0]?.stmts ?? [], pos };
}
