/**
 * SQL-like SELECT blocks: `SELECT [DISTINCT] col [AS name], … [INTO T] FROM pattern, … [WHERE …]
 * [GROUP BY …] [HAVING …] [ORDER BY …] [LIMIT …]`. In a query body the table is stored with INTO;
 * the shell's one-block SELECT prints it.
 */
import type { TableColumn, TableSelect, TableSelectStmt } from './ast-v3.js';
import { parseCondition, parseExpr, type TokenCursor } from './parser-expr.js';
import { parsePatterns } from './parser-pattern.js';
import { parseOrderLimit } from './parser-select.js';
import { posOf } from './parser-type.js';
import { v3PathAt } from './parser-v3.js';

/** A SQL-like SELECT (the cursor at SELECT); `into`: whether `INTO name` is required. */
export function parseTableSelect(c: TokenCursor, into: boolean): TableSelect {
  const pos = c.pos();
  c.expectWord('SELECT');
  const distinct = c.acceptWord('DISTINCT');
  let columns: TableColumn[] | '*' = '*';
  if (!c.acceptPunct('*')) {
    columns = [];
    do {
      const at = c.pos();
      const expr = parseExpr(c);
      const alias = c.acceptWord('AS') ? c.expectIdent('a column name').text : undefined;
      columns.push({ expr, ...(alias !== undefined && { alias }), pos: at });
    } while (c.acceptPunct(','));
  }
  const select: TableSelect = { distinct, columns, from: [], groupBy: [], orderBy: [], pos };
  if (c.acceptWord('INTO')) {
    const t = c.expectIdent('a table name');
    select.into = { name: t.text, pos: posOf(t) };
  } else if (into)
    throw c.error(
      'expected "INTO table" (a SQL-like SELECT stores its table; a vertex-set SELECT is assigned: "X = SELECT …")',
    );
  c.expectWord('FROM');
  select.from = parsePatterns(c, v3PathAt);
  if (c.acceptWord('WHERE')) select.where = parseCondition(c);
  if (c.acceptWord('GROUP')) {
    c.expectWord('BY');
    do select.groupBy.push(parseExpr(c));
    while (c.acceptPunct(','));
  }
  if (c.acceptWord('HAVING')) select.having = parseCondition(c);
  parseOrderLimit(c, select);
  if (c.isWord('ACCUM') || c.isWord('POST_ACCUM') || c.isWord('POST'))
    throw c.error(
      'a SELECT of several columns or aggregates has no ACCUM or POST-ACCUM; expected the end of the statement',
    );
  return select;
}

/** A SQL-like SELECT as a query-body statement: `SELECT … INTO T FROM …;`. */
export function parseTableSelectStmt(c: TokenCursor): TableSelectStmt {
  const pos = c.pos();
  return { kind: 'tableSelect', select: parseTableSelect(c, true), pos };
}
