/**
 * Parser for a query body's `CREATE DIRECTED|UNDIRECTED VIRTUAL EDGE Name (FROM A|B, TO C|D
 * [, attr type [DEFAULT value]]*)`: an edge type that lives only while the query runs.
 */
import type { Stmt, VirtualEdgeDecl } from './ast-query.js';
import { GsqlSyntaxError } from './lexer.js';
import { parseExpr, type TokenCursor } from './parser-expr.js';
import { parseType, posOf } from './parser-type.js';

/** Whether the cursor is at `CREATE DIRECTED|UNDIRECTED VIRTUAL EDGE`. */
export function atVirtualEdge(c: TokenCursor): boolean {
  return (
    c.isWord('CREATE') &&
    (c.isWord('DIRECTED', 1) || c.isWord('UNDIRECTED', 1)) &&
    c.isWord('VIRTUAL', 2) &&
    c.isWord('EDGE', 3)
  );
}

/** Reads the declaration; `inClause` refuses it inside ACCUM/POST-ACCUM (a body statement only). */
export function parseVirtualEdge(c: TokenCursor, inClause: boolean): Stmt {
  const start = c.next();
  const pos = posOf(start);
  if (inClause) {
    throw new GsqlSyntaxError(
      start.line,
      start.column,
      'CREATE VIRTUAL EDGE is a statement of the query body, not of ACCUM or POST-ACCUM',
    );
  }
  const directed = c.next().text.toUpperCase() === 'DIRECTED';
  c.expectWord('VIRTUAL');
  c.expectWord('EDGE');
  const nameTok = c.expectIdent('a virtual edge type name');
  c.expectPunct('(');
  c.expectWord('FROM');
  const from = vertexTypes(c);
  c.expectPunct(',');
  c.expectWord('TO');
  const to = vertexTypes(c);
  const attributes: VirtualEdgeDecl['attributes'] = [];
  while (c.acceptPunct(',')) {
    const a = c.expectIdent('an attribute name');
    const type = parseType(c);
    const dflt = c.acceptWord('DEFAULT') ? parseExpr(c) : undefined;
    attributes.push({ name: a.text, type, ...(dflt ? { default: dflt } : {}), pos: posOf(a) });
  }
  c.expectPunct(')');
  return {
    kind: 'createVirtualEdge',
    name: nameTok.text,
    namePos: posOf(nameTok),
    directed,
    from,
    to,
    attributes,
    pos,
  };
}

/** `A | B | C`: the vertex types of one end. */
function vertexTypes(c: TokenCursor): { name: string; pos: { line: number; column: number } }[] {
  const out = [];
  do {
    const t = c.expectIdent('a vertex type name');
    out.push({ name: t.text, pos: posOf(t) });
  } while (c.acceptPunct('|'));
  return out;
}
