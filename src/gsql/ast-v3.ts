/**
 * Syntax tree of what SYNTAX V3 and the SQL-like SELECT add to GSQL queries: the orientation of a
 * V3 edge pattern, SQL-like SELECT blocks that produce tables (`SELECT a, count(*) INTO T FROM …
 * GROUP BY …`), and the shell's SELECT statements (GSQL 101's built-in `SELECT * FROM person …`
 * and the one-block `SELECT s FROM (s:Account) …` with its `LET … IN` prefix).
 */
import type { Expr, PathPattern, Pos, SelectBlock, Stmt } from './ast-query.js';

/**
 * The edge orientations a V3 edge pattern matches: `-[]->` right, `<-[]-` left, `~[]~` undirected,
 * `-[]-` all three, `<-[]->` left or right, `<~[]~` left or undirected, `~[]~>` right or undirected.
 */
export interface V3Orientation {
  readonly right: boolean;
  readonly left: boolean;
  readonly undirected: boolean;
}

/** One column of a SQL-like SELECT: an expression (aggregates allowed) and its heading. */
export interface TableColumn {
  expr: Expr;
  alias?: string;
  pos: Pos;
}

/**
 * `SELECT [DISTINCT] col, … [INTO T] FROM pattern, … [WHERE] [GROUP BY] [HAVING] [ORDER BY]
 * [LIMIT [OFFSET]]`: the matches of the patterns as a table. Columns may aggregate (count, sum,
 * min, max, avg, collect, stdev, stdevp, each with DISTINCT); without GROUP BY, the columns that do
 * not aggregate group the rows.
 */
export interface TableSelect {
  distinct: boolean;
  /** `*`: every named vertex and edge of the patterns. */
  columns: TableColumn[] | '*';
  into?: { name: string; pos: Pos };
  from: PathPattern[];
  where?: Expr;
  groupBy: Expr[];
  having?: Expr;
  orderBy: { expr: Expr; descending: boolean }[];
  limit?: Expr;
  offset?: Expr;
  pos: Pos;
}

/** A SQL-like SELECT as a query-body statement. */
export interface TableSelectStmt {
  kind: 'tableSelect';
  select: TableSelect;
  pos: Pos;
}

/**
 * The shell's built-in SELECT of GSQL 101: `SELECT * | count() | attr, … FROM type [-(edge)->
 * type] [WHERE cond] [LIMIT n]`. Conditions may use `primary_id`, `from_id`, `to_id` and
 * attributes; `ANY` (or `_`) stands for any type.
 */
export interface BuiltinSelect {
  kind: 'builtinSelect';
  /** `*`, `count`, or the attribute names to show. */
  what: { kind: 'all' } | { kind: 'count' } | { kind: 'attrs'; names: { name: string; pos: Pos }[] };
  source: { name: string; pos: Pos };
  edge?: { edge: { name: string; pos: Pos }; target: { name: string; pos: Pos } };
  where?: Expr;
  limit?: Expr;
  /** The statement's text, for expression keys and error positions. */
  pos: Pos;
}

/**
 * The shell's one-block SELECT (SYNTAX V3 patterns): a vertex-set SELECT (`SELECT s FROM … ACCUM
 * …`), or a table (`SELECT s.name, count(t) FROM …`); `LET decl; … IN` declares variables and
 * accumulators first.
 */
export interface OneBlockSelect {
  kind: 'oneBlockSelect';
  declarations: Stmt[];
  select: { kind: 'vertices'; block: SelectBlock } | { kind: 'table'; table: TableSelect };
  /** The statement's source text (its expressions' offsets count from `textStart`). */
  text: string;
  textStart: number;
  pos: Pos;
}

/** The shell SELECT statements. */
export type ShellSelectStatement = BuiltinSelect | OneBlockSelect;
