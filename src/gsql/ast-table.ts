/**
 * Syntax tree of TigerGraph's table statements (4.1.2+ "Experimental Features"), which read and
 * make the tables of `SELECT … INTO T`: INIT, ORDER, FILTER, PROJECT (columns, or vertex columns
 * into vertex sets), JOIN / SEMIJOIN / LEFT JOIN, UNION [ALL] and UNWIND.
 */
import type { Expr, Pos } from './ast-query.js';

/** A table named where a statement reads or makes one. */
export interface TableName {
  name: string;
  pos: Pos;
}

/** One output column: an expression and its optional heading (`expr AS name`). */
export interface TableOutColumn {
  expr: Expr;
  alias?: string;
  pos: Pos;
}

/** `INIT T v1 AS c1, v2 AS c2, …`: a table of one row. */
export interface TableInit {
  op: 'init';
  into: TableName;
  columns: TableOutColumn[];
}

/** `ORDER T BY c [ASC|DESC], … [LIMIT n [OFFSET m]]`: sorts (and cuts) T in place. */
export interface TableOrder {
  op: 'order';
  table: TableName;
  orderBy: { expr: Expr; descending: boolean }[];
  limit?: Expr;
  offset?: Expr;
}

/** `FILTER T ON cond`: keeps the rows of T where cond holds. */
export interface TableFilter {
  op: 'filter';
  table: TableName;
  cond: Expr;
}

/** `PROJECT T ON [DISTINCT] expr AS c, … INTO U`: a new table of derived columns. */
export interface TableProject {
  op: 'project';
  table: TableName;
  distinct: boolean;
  columns: TableOutColumn[];
  into: TableName;
}

/** `PROJECT T ON VERTEX COLUMN c INTO S, …`: the vertices of column c as vertex set S. */
export interface TableProjectVertex {
  op: 'projectVertex';
  table: TableName;
  items: { column: TableName; into: TableName }[];
}

/** A table of a JOIN with the alias its rows go by in ON and PROJECT. */
export interface JoinSide {
  table: TableName;
  alias: TableName;
}

/**
 * `[LEFT] JOIN A a WITH B b [ON cond] PROJECT [DISTINCT] … INTO T` and `SEMIJOIN …`: inner (a cross
 * join without ON), left outer, or semi (the left rows that match, reading only the left table).
 */
export interface TableJoin {
  op: 'join';
  join: 'inner' | 'left' | 'semi';
  left: JoinSide;
  right: JoinSide;
  on?: Expr;
  distinct: boolean;
  columns: TableOutColumn[];
  into: TableName;
}

/** `UNION [ALL] A WITH B [WITH C …] INTO T`: the rows of all, without repeats unless ALL. */
export interface TableUnion {
  op: 'union';
  all: boolean;
  tables: TableName[];
  into: TableName;
}

/**
 * `UNWIND list AS c INTO T` (a row per item) and `UNWIND A ON list AS c INTO T` (per row of A, a
 * row per item of the list computed from it, A's columns then c).
 */
export interface TableUnwind {
  op: 'unwind';
  table?: TableName;
  list: Expr;
  column: TableName;
  into: TableName;
}

export type TableOp =
  | TableInit
  | TableOrder
  | TableFilter
  | TableProject
  | TableProjectVertex
  | TableJoin
  | TableUnion
  | TableUnwind;

/** A table statement of a query body. */
export interface TableOpStmt {
  kind: 'tableOp';
  table: TableOp;
  pos: Pos;
}
