/**
 * Syntax tree of the loading-job language: `CREATE LOADING JOB … { DEFINE …; LOAD …; DELETE …; }`
 * and `RUN LOADING JOB`. Every node carries the position of its first token.
 */
import type { CompareOp, Pos } from './ast.js';

/** An expression of a VALUES list, a WHERE condition or a token-function argument. */
export type LoadExpr =
  /** `$3` */
  | ({ kind: 'position'; index: number } & Pos)
  /** `$"name"` (a header column, or a JSON key path `$"a":"b"`). */
  | ({ kind: 'column'; path: string[] } & Pos)
  | ({ kind: 'string'; value: string } & Pos)
  /** A number literal, kept as written. */
  | ({ kind: 'number'; text: string } & Pos)
  /** `_`: keep the default (or existing) value. */
  | ({ kind: 'skip' } & Pos)
  /** A token function, SPLIT, flatten, a UDT constructor, to_int … */
  | ({ kind: 'call'; name: string; args: LoadExpr[] } & Pos)
  /** `REDUCE(fn(expr))`. */
  | ({ kind: 'reduce'; fn: string; arg: LoadExpr } & Pos)
  /** `expr VertexType`: an edge endpoint with its vertex type (multi-pair edges). */
  | ({ kind: 'typed'; value: LoadExpr; vertexType: string } & Pos)
  /** `(k -> v)` for a MAP attribute. */
  | ({ kind: 'map_entry'; key: LoadExpr; value: LoadExpr } & Pos);

export type LoadCond =
  | ({ kind: 'and' | 'or'; left: LoadCond; right: LoadCond } & Pos)
  | ({ kind: 'not'; operand: LoadCond } & Pos)
  | ({ kind: 'compare'; op: CompareOp; left: LoadExpr; right: LoadExpr } & Pos)
  /** `expr IS [NOT] NUMERIC` / `IS [NOT] EMPTY`. */
  | ({ kind: 'is'; test: 'NUMERIC' | 'EMPTY'; negated: boolean; operand: LoadExpr } & Pos)
  | ({ kind: 'in'; negated: boolean; operand: LoadExpr; values: LoadExpr[] } & Pos)
  | ({ kind: 'between'; operand: LoadExpr; low: LoadExpr; high: LoadExpr } & Pos)
  /** A boolean-valued token function used as a condition, e.g. gsql_is_true($3). */
  | ({ kind: 'test'; expr: LoadExpr } & Pos);

/** Where a LOAD or DELETE statement reads from. */
export type LoadSource =
  | ({ kind: 'filevar'; name: string } & Pos)
  | ({ kind: 'path'; path: string } & Pos)
  | ({ kind: 'temp_table'; name: string } & Pos);

export interface UsingOption extends Pos {
  name: string;
  value: string;
}

export type LoadTarget =
  | ({ kind: 'vertex' | 'edge'; typeName: string; values: LoadExpr[]; where?: LoadCond } & Pos)
  | ({ kind: 'temp_table'; typeName: string; columns: string[]; values: LoadExpr[]; where?: LoadCond } & Pos);

export type LoadingStmt =
  | ({ kind: 'load'; source: LoadSource; targets: LoadTarget[]; using: UsingOption[]; text: string } & Pos)
  | ({
      kind: 'delete_vertex';
      typeName: string;
      id: LoadExpr;
      source: LoadSource;
      where?: LoadCond;
      using: UsingOption[];
      text: string;
    } & Pos)
  | ({
      kind: 'delete_edge';
      typeName: string;
      from: LoadExpr;
      to: LoadExpr;
      source: LoadSource;
      where?: LoadCond;
      using: UsingOption[];
      text: string;
    } & Pos);

export interface FilenameDef extends Pos {
  name: string;
  /** The default path (`= "path"`), if any. `all:path` / `any:path` prefixes are kept as written. */
  path?: string;
}

export interface HeaderDef extends Pos {
  name: string;
  columns: string[];
}

export interface LoadingJobAst extends Pos {
  name: string;
  graph?: string;
  filenames: FilenameDef[];
  headers: HeaderDef[];
  statements: LoadingStmt[];
  /** The whole CREATE … text, stored in the catalog. */
  text: string;
}

export interface RunLoadingJobAst extends Pos {
  name: string;
  noPrint: boolean;
  /** `USING f="path", EOF="true"` in order; names as written. */
  using: UsingOption[];
}
