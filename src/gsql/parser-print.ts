/**
 * Parser for the PRINT statement of GSQL queries: items with AS names, vertex-set projections,
 * WHERE and TO_CSV targets.
 */
import type { Expr, PrintItem, PrintTarget, Stmt } from './ast-query.js';
import { GsqlSyntaxError } from './lexer.js';
import { parseExpr, type TokenCursor } from './parser-expr.js';
import { posOf } from './parser-type.js';

/** `PRINT item [AS name], … [WHERE cond] [TO_CSV f | "path"]`. */
export function parsePrint(c: TokenCursor): Stmt {
  const pos = c.pos();
  c.next();
  const items: PrintItem[] = [];
  do {
    const ipos = c.pos();
    let item: PrintItem;
    if (c.peek().kind === 'ident' && c.isPunct('[', 1)) {
      const t = c.next();
      const expr: Expr = { kind: 'name', name: t.text, pos: posOf(t), start: t.start, end: t.end };
      c.next();
      const projection: { expr: Expr; alias?: string }[] = [];
      do {
        const e = parseExpr(c);
        projection.push({
          expr: e,
          alias: c.acceptWord('AS') ? c.expectIdent('a name after AS').text : undefined,
        });
      } while (c.acceptPunct(','));
      c.expectPunct(']');
      item = { expr, projection, pos: ipos };
    } else {
      item = { expr: parseExpr(c), pos: ipos };
    }
    if (c.acceptWord('AS')) item.alias = c.expectIdent('a name after AS').text;
    items.push(item);
  } while (c.acceptPunct(','));
  const where = c.acceptWord('WHERE') ? parseExpr(c) : undefined;
  if (c.isWord('TO_CSV')) {
    const tpos = c.pos();
    c.next();
    // `TO_CSV f` names a FILE object; `TO_CSV "path"` names the file itself.
    const t = c.peek();
    if (t.kind !== 'string' && t.kind !== 'ident')
      throw new GsqlSyntaxError(t.line, t.column, 'TO_CSV needs a FILE object or a file path string');
    c.next();
    const toCsv: PrintTarget =
      t.kind === 'string' ? { path: t.text, pos: tpos } : { file: t.text, pos: posOf(t) };
    return { kind: 'print', items, where, toCsv, pos };
  }
  return { kind: 'print', items, where, pos };
}
