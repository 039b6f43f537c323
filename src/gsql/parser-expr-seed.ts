/**
 * The items of a vertex-set seed `{…}`: an expression, `ANY`, `Type.*`, and the file readers
 * `SelectVertex(…)` and `LOADACCUM(…)`. The expression parser is passed in (it imports this file).
 */
import type { Expr, FileColumn, Pos, SeedItem } from './ast-query.js';
import type { TokenCursor } from './token-cursor.js';

/** One item of a seed. */
export function parseSeedItem(c: TokenCursor, parseExpr: (c: TokenCursor) => Expr): SeedItem {
  const t = c.peek();
  const pos = { line: t.line, column: t.column };
  if (t.kind === 'ident' && t.text.toUpperCase() === 'ANY' && (c.isPunct(',', 1) || c.isPunct('}', 1))) {
    c.next();
    return { kind: 'any', pos };
  }
  if (t.kind === 'ident' && c.isPunct('.', 1) && c.isPunct('*', 2)) {
    c.next();
    c.next();
    c.next();
    return { kind: 'all', vertexType: t.text, pos };
  }
  if (t.kind === 'ident' && c.isPunct('(', 1)) {
    const w = t.text.toUpperCase();
    if (w === 'SELECTVERTEX') return parseSelectVertex(c, pos, parseExpr);
    if (w === 'LOADACCUM') return parseLoadAccum(c, pos, parseExpr);
  }
  return { kind: 'expr', expr: parseExpr(c) };
}

/** `$n` or `$"name"`. */
function parseFileColumn(c: TokenCursor): FileColumn {
  const d = c.expectPunct('$');
  const pos = { line: d.line, column: d.column };
  const n = c.peek();
  if (n.kind === 'number' && /^\d+$/.test(n.text)) {
    c.next();
    return { kind: 'position', index: Number(n.text), pos };
  }
  if (n.kind === 'string') {
    c.next();
    return { kind: 'named', name: n.text, pos };
  }
  throw c.error('expected a column number or a quoted column name after "$"');
}

/** `SelectVertex(file, $id, type or $col, separator, header)`. */
export function parseSelectVertex(c: TokenCursor, pos: Pos, parseExpr: (c: TokenCursor) => Expr): SeedItem {
  c.next();
  c.expectPunct('(');
  const file = parseExpr(c);
  c.expectPunct(',');
  const id = parseFileColumn(c);
  c.expectPunct(',');
  let type: FileColumn | { kind: 'type'; name: string; pos: Pos };
  if (c.isPunct('$')) type = parseFileColumn(c);
  else {
    const n = c.expectIdent('a vertex type or a column ($n, $"name")');
    type = { kind: 'type', name: n.text, pos: { line: n.line, column: n.column } };
  }
  c.expectPunct(',');
  const separator = parseExpr(c);
  c.expectPunct(',');
  const header = parseExpr(c);
  c.expectPunct(')');
  return { kind: 'selectVertex', file, id, type, separator, header, pos };
}

/** `LOADACCUM(file, $col, …, separator, header)`. */
function parseLoadAccum(c: TokenCursor, pos: Pos, parseExpr: (c: TokenCursor) => Expr): SeedItem {
  c.next();
  c.expectPunct('(');
  const file = parseExpr(c);
  const columns: FileColumn[] = [];
  c.expectPunct(',');
  while (c.isPunct('$')) {
    columns.push(parseFileColumn(c));
    c.expectPunct(',');
  }
  if (columns.length === 0) throw c.error('expected a column ($n, $"name") after the file of LOADACCUM');
  const separator = parseExpr(c);
  c.expectPunct(',');
  const header = parseExpr(c);
  c.expectPunct(')');
  return { kind: 'loadAccum', file, columns, separator, header, pos };
}
