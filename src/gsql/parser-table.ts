/**
 * SQL-like SELECT blocks, `SELECT [DISTINCT] col [AS name], … [INTO T] FROM pattern, … [WHERE …]
 * [GROUP BY …] [HAVING …] [ORDER BY …] [LIMIT …]` (in a query body the table is stored with INTO;
 * the shell's one-block SELECT prints it), and the table statements that read and make such
 * tables: INIT, ORDER, FILTER, PROJECT, JOIN, UNION, UNWIND.
 */
import type {
  JoinSide,
  TableJoin,
  TableName,
  TableOp,
  TableOpStmt,
  TableOrder,
  TableOutColumn,
  TableProject,
  TableProjectVertex,
  TableUnion,
  TableUnwind,
} from './ast-table.js';
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

// ---------------------------------------------------------------------------------------------
// Table statements (TigerGraph 4.1.2+): INIT, ORDER, FILTER, PROJECT, JOIN, UNION, UNWIND.

const TABLE_WORDS = new Set([
  'INIT',
  'ORDER',
  'FILTER',
  'PROJECT',
  'JOIN',
  'SEMIJOIN',
  'LEFT',
  'UNION',
  'UNWIND',
]);

/**
 * Whether the cursor is at a table statement: its keyword followed by what only that statement has
 * there (a table name, `LEFT JOIN`, `UNION ALL`, `UNWIND [`), so variables of those names still
 * assign (`filter = 1;`).
 */
export function atTableStatement(c: TokenCursor): boolean {
  const t = c.peek();
  if (t.kind !== 'ident' || !TABLE_WORDS.has(t.text.toUpperCase())) return false;
  const w = t.text.toUpperCase();
  if (w === 'LEFT') return c.isWord('JOIN', 1);
  if (w === 'UNWIND' && (c.isPunct('[', 1) || c.isPunct('(', 1))) return true;
  return c.peek(1).kind === 'ident';
}

/** A table statement (the cursor where atTableStatement holds). */
export function parseTableOpStmt(c: TokenCursor): TableOpStmt {
  const pos = c.pos();
  const w = c.next().text.toUpperCase();
  const table = ((): TableOp => {
    switch (w) {
      case 'INIT':
        return { op: 'init', into: tableName(c), columns: outColumns(c, true) };
      case 'ORDER':
        return parseOrder(c);
      case 'FILTER': {
        const table = tableName(c);
        c.expectWord('ON');
        return { op: 'filter', table, cond: parseCondition(c) };
      }
      case 'PROJECT':
        return parseProject(c);
      case 'UNION':
        return parseUnion(c);
      case 'UNWIND':
        return parseUnwind(c);
      case 'LEFT':
        c.expectWord('JOIN');
        return parseJoin(c, 'left');
      default:
        return parseJoin(c, w === 'SEMIJOIN' ? 'semi' : 'inner');
    }
  })();
  return { kind: 'tableOp', table, pos };
}

function tableName(c: TokenCursor, what = 'a table name'): TableName {
  const t = c.expectIdent(what);
  return { name: t.text, pos: posOf(t) };
}

function intoTable(c: TokenCursor): TableName {
  c.expectWord('INTO');
  return tableName(c, 'the name of the new table');
}

/** `expr [AS name], …`; `named`: every column needs its AS name (INIT). */
function outColumns(c: TokenCursor, named: boolean): TableOutColumn[] {
  const out: TableOutColumn[] = [];
  do {
    const pos = c.pos();
    const expr = parseExpr(c);
    let alias: string | undefined;
    if (c.acceptWord('AS')) alias = c.expectIdent('a column name').text;
    else if (named) throw c.error('expected "AS column_name"');
    out.push({ expr, ...(alias !== undefined && { alias }), pos });
  } while (c.acceptPunct(','));
  return out;
}

function parseOrder(c: TokenCursor): TableOrder {
  const table = tableName(c);
  if (!c.isWord('BY')) throw c.error('expected "BY" (ORDER table BY column [ASC|DESC], …)');
  c.next();
  const order: TableOrder = { op: 'order', table, orderBy: [] };
  do {
    const expr = parseExpr(c);
    const descending = c.acceptWord('DESC');
    if (!descending) c.acceptWord('ASC');
    order.orderBy.push({ expr, descending });
  } while (c.acceptPunct(','));
  parseOrderLimit(c, order);
  return order;
}

function parseProject(c: TokenCursor): TableProject | TableProjectVertex {
  const table = tableName(c);
  c.expectWord('ON');
  if (c.isWord('VERTEX') && c.isWord('COLUMN', 1)) {
    c.next();
    c.next();
    const items: TableProjectVertex['items'] = [];
    do {
      const column = tableName(c, 'a column name');
      items.push({ column, into: intoTable(c) });
    } while (c.acceptPunct(','));
    return { op: 'projectVertex', table, items };
  }
  const distinct = c.acceptWord('DISTINCT');
  const columns = outColumns(c, false);
  return { op: 'project', table, distinct, columns, into: intoTable(c) };
}

function joinSide(c: TokenCursor): JoinSide {
  const table = tableName(c);
  const alias = c.peek().kind === 'ident' && !c.isWord('WITH') && !c.isWord('ON') && !c.isWord('PROJECT');
  return { table, alias: alias ? tableName(c, 'an alias') : table };
}

function parseJoin(c: TokenCursor, join: TableJoin['join']): TableJoin {
  const left = joinSide(c);
  c.expectWord('WITH');
  const right = joinSide(c);
  const on = c.acceptWord('ON') ? parseCondition(c) : undefined;
  if (!on && join !== 'inner')
    throw c.error(`expected "ON condition" (a ${join === 'left' ? 'LEFT JOIN' : 'SEMIJOIN'} needs one)`);
  c.expectWord('PROJECT');
  const distinct = c.acceptWord('DISTINCT');
  const columns = outColumns(c, false);
  return { op: 'join', join, left, right, ...(on && { on }), distinct, columns, into: intoTable(c) };
}

function parseUnion(c: TokenCursor): TableUnion {
  const all = c.isWord('ALL') && c.peek(1).kind === 'ident' && !c.isWord('WITH', 1) && c.acceptWord('ALL');
  const tables = [tableName(c)];
  if (!c.isWord('WITH')) throw c.error('expected "WITH table" (UNION [ALL] table WITH table … INTO table)');
  while (c.acceptWord('WITH')) tables.push(tableName(c));
  return { op: 'union', all, tables, into: intoTable(c) };
}

function parseUnwind(c: TokenCursor): TableUnwind {
  // `UNWIND T ON list …` reads table T; otherwise the list is an expression.
  const table = c.peek().kind === 'ident' && c.isWord('ON', 1) ? tableName(c) : undefined;
  if (table) c.expectWord('ON');
  const list = parseExpr(c);
  c.expectWord('AS');
  const column = tableName(c, 'a column name');
  return { op: 'unwind', ...(table && { table }), list, column, into: intoTable(c) };
}
