/**
 * Binding of the table statements: resolves the tables and columns they read (an unknown table,
 * column or alias is refused at CREATE time, naming its place), types the expressions over a row,
 * types the new tables' columns and declares them. The result is an immutable BoundTableOp that
 * table-run.ts executes.
 */
import type { Expr, Pos } from '../gsql/ast-query.js';
import type {
  JoinSide,
  TableJoin,
  TableName,
  TableOp,
  TableOutColumn,
  TableUnion,
  TableUnwind,
} from '../gsql/ast-table.js';
import { compileError } from './errors.js';
import { compileExpr, expectType } from './expr-support.js';
import { columnName } from './projection.js';
import type { Cx, Eval, Typed } from './scope.js';
import { conjuncts, namesIn } from './select-clauses.js';
import { hasAggregate } from './table-aggregate.js';
import {
  declareRow,
  declareTable,
  lookupTable,
  lookupTableIfAny,
  consumeTable,
  type RowNames,
  type TableBinding,
} from './table-scope.js';
import { isFloat, isNumeric, T, typeText, type QType, type TupleT } from './types.js';

/** The output columns of a statement: their headings and types, and their values over a row. */
export interface BoundColumns {
  readonly fields: TupleT['fields'];
  readonly values: readonly Eval[];
}

/** Key expressions of the left and right rows: rows whose ON holds have equal keys. */
export interface JoinKeys {
  readonly left: readonly Eval[];
  readonly right: readonly Eval[];
}

/** One side of a join: its table and the names its rows go by. */
export interface BoundSide {
  readonly table: TableBinding;
  readonly row: RowNames;
}

export type BoundTableOp = { readonly pos: Pos } & (
  | { readonly op: 'init'; readonly into: TableBinding; readonly values: readonly Eval[] }
  | {
      readonly op: 'order';
      readonly source: BoundSide;
      readonly keys: readonly { readonly f: Eval; readonly descending: boolean }[];
      readonly limit?: Eval;
      readonly offset?: Eval;
    }
  | { readonly op: 'filter'; readonly source: BoundSide; readonly cond: Eval }
  | {
      readonly op: 'project';
      readonly source: BoundSide;
      readonly values: readonly Eval[];
      readonly distinct: boolean;
      readonly into: TableBinding;
    }
  | {
      readonly op: 'projectVertex';
      readonly table: TableBinding;
      readonly items: readonly { readonly column: number; readonly slot: number }[];
    }
  | {
      readonly op: 'join';
      readonly join: TableJoin['join'];
      readonly left: BoundSide;
      readonly right: BoundSide;
      readonly on?: Eval;
      /** Equalities of ON between the two sides, to find a left row's candidates by hashing. */
      readonly keys?: JoinKeys;
      readonly values: readonly Eval[];
      readonly distinct: boolean;
      readonly into: TableBinding;
    }
  | {
      readonly op: 'union';
      readonly all: boolean;
      readonly tables: readonly TableBinding[];
      readonly into: TableBinding;
    }
  | { readonly op: 'unwind'; readonly source?: BoundSide; readonly list: Eval; readonly into: TableBinding }
);

/** Binds one table statement of the query body. */
export function bindTableOp(cx: Cx, t: TableOp, pos: Pos): BoundTableOp {
  switch (t.op) {
    case 'init': {
      const cols = bindColumns(cx, t, t.columns);
      return {
        op: 'init',
        pos,
        into: declareTable(cx, t.into.name, cols.fields, t.into.pos),
        values: cols.values,
      };
    }
    case 'order': {
      const table = lookupTable(cx, t.table.name, t.table.pos);
      return cx.nested(() => {
        const source = rowSide(cx, table, table.name, true, pos);
        const keys = t.orderBy.map((o) => ({ f: valueOf(cx, t, o.expr).f, descending: o.descending }));
        return { op: 'order', pos, source, keys, ...limits(cx, t.limit, t.offset) };
      });
    }
    case 'filter': {
      const table = lookupTable(cx, t.table.name, t.table.pos);
      return cx.nested(() => {
        const source = rowSide(cx, table, table.name, true, pos);
        const cond = over(cx, t, t.cond);
        expectType(cond, T.BOOL, t.cond.pos, 'FILTER … ON');
        return { op: 'filter', pos, source, cond: cond.f };
      });
    }
    case 'project': {
      const table = lookupTable(cx, t.table.name, t.table.pos);
      const { source, cols } = cx.nested(() => {
        const source = rowSide(cx, table, table.name, true, pos);
        return { source, cols: bindColumns(cx, t, t.columns) };
      });
      const into = declareTable(cx, t.into.name, cols.fields, t.into.pos);
      return { op: 'project', pos, source, values: cols.values, distinct: t.distinct, into };
    }
    case 'projectVertex':
      return bindProjectVertex(cx, t, pos);
    case 'join':
      return bindJoin(cx, t, pos);
    case 'union':
      return bindUnion(cx, t, pos);
    case 'unwind':
      return bindUnwind(cx, t, pos);
  }
}

/** Reports the first name in `e` that is not defined where it is compiled (a column meant, likely). */
function unknownNames(cx: Cx, e: unknown, t: TableOp): void {
  for (const n of nameNodes(e, [])) {
    if (cx.lookup(n.name)) continue;
    try {
      compileExpr(cx, n);
      continue; // a constant, or something else the compiler knows
    } catch {
      // not defined: explained below
    }
    if (cx.vertexType(n.name) || cx.edgeType(n.name)) continue;
    const read = tablesRead(t)
      .map((x) => lookupTableIfAny(cx, x.name))
      .filter((x): x is TableBinding => x !== undefined);
    if (read.length === 0) return;
    const owner = read.find((r) => r.rowType.fields.some((f) => f.name === n.name));
    if (t.op === 'join' && owner) {
      const alias = t.left.table.name === owner.name ? t.left.alias.name : t.right.alias.name;
      throw compileError(
        n.pos,
        `"${n.name}" is a column of ${owner.name}; in a join, read it through the table's alias (${alias}.${n.name})`,
      );
    }
    if (t.op === 'join')
      throw compileError(
        n.pos,
        `"${n.name}" is not defined: the rows of the join are ${t.left.alias.name} (${t.left.table.name}) and ${t.right.alias.name} (${t.right.table.name})`,
      );
    const listing = read
      .map((r) => `${r.name} (${r.rowType.fields.map((f) => f.name).join(', ')})`)
      .join(' or ');
    throw compileError(n.pos, `"${n.name}" is not a column of ${listing}, nor a variable or parameter`);
  }
}

/**
 * An expression over the rows of the tables `t` reads. A name that is neither in scope nor anything
 * else the expression compiler knows is reported naming the tables' columns (a column was meant).
 */
function over(cx: Cx, t: TableOp, e: Expr): Typed {
  unknownNames(cx, e, t);
  return compileExpr(cx, e);
}

/** The tables a statement reads. */
function tablesRead(t: TableOp): TableName[] {
  switch (t.op) {
    case 'init':
      return [];
    case 'join':
      return [t.left.table, t.right.table];
    case 'union':
      return t.tables;
    case 'unwind':
      return t.table ? [t.table] : [];
    default:
      return [t.table];
  }
}

/** The `name` expression nodes inside `node`. */
function nameNodes(node: unknown, out: (Expr & { kind: 'name' })[]): (Expr & { kind: 'name' })[] {
  if (Array.isArray(node)) for (const n of node) nameNodes(n, out);
  else if (node && typeof node === 'object') {
    const o = node as Expr;
    if (o.kind === 'name') out.push(o);
    for (const [k, v] of Object.entries(node)) if (k !== 'pos') nameNodes(v, out);
  }
  return out;
}

function rowSide(cx: Cx, table: TableBinding, alias: string, bare: boolean, pos: Pos): BoundSide {
  return { table, row: declareRow(cx, table, alias, bare, pos) };
}

function valueOf(cx: Cx, t: TableOp, e: Expr): Typed {
  if (hasAggregate(e))
    throw compileError(e.pos, 'a table statement cannot aggregate; aggregate in SELECT … INTO');
  const x = over(cx, t, e);
  if (x.t.kind === 'VOID') throw compileError(e.pos, 'this expression has no value');
  return x;
}

function bindColumns(cx: Cx, t: TableOp, columns: readonly TableOutColumn[]): BoundColumns {
  const fields: TupleT['fields'] = [];
  const values: Eval[] = [];
  for (const c of columns) {
    const x = valueOf(cx, t, c.expr);
    const name = columnName(cx, c);
    if (fields.some((f) => f.name === name))
      throw compileError(c.pos, `two columns are named ${name}; name this one with AS`);
    fields.push({ name, type: x.t });
    values.push(x.f);
  }
  return { fields, values };
}

function limits(cx: Cx, limit: Expr | undefined, offset: Expr | undefined): { limit?: Eval; offset?: Eval } {
  const one = (e: Expr | undefined, what: string): Eval | undefined => {
    if (!e) return undefined;
    const x = compileExpr(cx, e);
    if (!isNumeric(x.t)) throw compileError(e.pos, `${what} needs a number, not ${typeText(x.t)}`);
    return x.f;
  };
  const l = one(limit, 'LIMIT');
  const o = one(offset, 'OFFSET');
  return { ...(l && { limit: l }), ...(o && { offset: o }) };
}

function bindProjectVertex(cx: Cx, t: TableOp & { op: 'projectVertex' }, pos: Pos): BoundTableOp {
  const table = lookupTable(cx, t.table.name, t.table.pos);
  const items = t.items.map(({ column, into }) => {
    const index = table.rowType.fields.findIndex((f) => f.name === column.name);
    if (index < 0) throw compileError(column.pos, `the table ${table.name} has no column ${column.name}`);
    const type = table.rowType.fields[index].type;
    if (type.kind !== 'VERTEX')
      throw compileError(column.pos, `the column ${column.name} holds ${typeText(type)}, not vertices`);
    const existing = cx.lookup(into.name);
    if (existing && existing.t.kind !== 'VSET')
      throw compileError(into.pos, `"${into.name}" is ${typeText(existing.t)}, not a vertex set`);
    if (existing && existing.t.kind === 'VSET' && existing.t.vertexType !== type.vertexType)
      existing.t = { kind: 'VSET' };
    const slot =
      existing?.slot ??
      cx.declareQueryWide(into.name, { kind: 'VSET', vertexType: type.vertexType }, into.pos).slot;
    return { column: index, slot };
  });
  return { op: 'projectVertex', pos, table, items };
}

function bindJoin(cx: Cx, t: TableJoin, pos: Pos): BoundTableOp {
  const lt = lookupTable(cx, t.left.table.name, t.left.table.pos);
  const rt = lookupTable(cx, t.right.table.name, t.right.table.pos);
  if (t.left.alias.name === t.right.alias.name)
    throw compileError(
      t.right.alias.pos,
      `both tables of the join go by ${t.right.alias.name}; give them two aliases`,
    );
  if (t.join === 'semi') rightUnread(t.right, t.columns);
  const bound = cx.nested(() => {
    const left = rowSide(cx, lt, t.left.alias.name, false, pos);
    const right = rowSide(cx, rt, t.right.alias.name, false, pos);
    let on: Eval | undefined;
    let keys: JoinKeys | undefined;
    if (t.on) {
      const x = over(cx, t, t.on);
      expectType(x, T.BOOL, t.on.pos, 'JOIN … ON');
      on = x.f;
      keys = joinKeys(cx, t.on, t.left.alias.name, t.right.alias.name);
    }
    return { left, right, on, keys, cols: bindColumns(cx, t, t.columns) };
  });
  const into = declareTable(cx, t.into.name, bound.cols.fields, t.into.pos);
  return {
    op: 'join',
    pos,
    join: t.join,
    left: bound.left,
    right: bound.right,
    ...(bound.on && { on: bound.on }),
    ...(bound.keys && { keys: bound.keys }),
    values: bound.cols.values,
    distinct: t.distinct,
    into,
  };
}

/**
 * The equalities `l == r` among the AND-ed terms of ON where l reads only the left row and r only
 * the right one (or the reverse), both of a type whose equal values hash alike (strings, numbers,
 * booleans, vertices). Undefined when there are none: every pair of rows is tried.
 */
function joinKeys(cx: Cx, on: Expr, leftAlias: string, rightAlias: string): JoinKeys | undefined {
  const left: Eval[] = [];
  const right: Eval[] = [];
  const terms = conjuncts(on);
  const reads = (e: Expr, alias: string): boolean => namesIn(e, new Set()).has(alias);
  const only = (e: Expr, mine: string, other: string): boolean => reads(e, mine) && !reads(e, other);
  for (const term of terms) {
    if (term.kind !== 'binary' || term.op !== '==') continue;
    const pair =
      only(term.left, leftAlias, rightAlias) && only(term.right, rightAlias, leftAlias)
        ? [term.left, term.right]
        : only(term.left, rightAlias, leftAlias) && only(term.right, leftAlias, rightAlias)
          ? [term.right, term.left]
          : undefined;
    if (!pair) continue;
    const [l, r] = pair.map((e) => compileExpr(cx, e));
    if (
      !hashable(l.t) ||
      !hashable(r.t) ||
      isNumeric(l.t) !== isNumeric(r.t) ||
      (!isNumeric(l.t) && l.t.kind !== r.t.kind)
    )
      continue;
    left.push(l.f);
    right.push(r.f);
  }
  return left.length > 0 ? { left, right } : undefined;
}

function hashable(t: QType): boolean {
  return isNumeric(t) || t.kind === 'STRING' || t.kind === 'BOOL' || t.kind === 'VERTEX';
}

/** SEMIJOIN's PROJECT reads only the left table. */
function rightUnread(right: JoinSide, columns: readonly TableOutColumn[]): void {
  for (const c of columns) {
    if (namesIn(c.expr, new Set()).has(right.alias.name))
      throw compileError(
        c.pos,
        `a SEMIJOIN projects only the left table's columns; ${right.alias.name} (${right.table.name}) can be read in ON only`,
      );
  }
}

function bindUnion(cx: Cx, t: TableUnion, pos: Pos): BoundTableOp {
  const tables = t.tables.map((n) => lookupTable(cx, n.name, n.pos));
  const first = tables[0];
  const fields = first.rowType.fields.map((f) => ({ ...f }));
  tables.slice(1).forEach((other, k) => {
    const at = t.tables[k + 1].pos;
    const theirs = other.rowType.fields;
    if (theirs.length !== fields.length)
      throw compileError(
        at,
        `UNION needs tables of the same columns: ${other.name} has ${theirs.length}, ${first.name} has ${fields.length}`,
      );
    theirs.forEach((f, i) => {
      const u = unionType(fields[i].type, f.type);
      if (!u)
        throw compileError(
          at,
          `UNION needs tables of the same column types: column ${i + 1} of ${other.name} is ${typeText(f.type)}, of ${first.name} ${typeText(fields[i].type)}`,
        );
      fields[i].type = u;
    });
  });
  const seen = new Set<string>();
  for (const [i, tb] of tables.entries()) {
    if (seen.has(tb.name)) throw compileError(t.tables[i].pos, `the table ${tb.name} is named twice`);
    seen.add(tb.name);
  }
  for (const tb of tables) consumeTable(cx, tb, pos, t.into.name);
  const into = declareTable(cx, t.into.name, fields, t.into.pos);
  return { op: 'union', pos, all: t.all, tables, into };
}

/** The type of a column two united tables both fill; undefined when they do not fit. */
function unionType(a: QType, b: QType): QType | undefined {
  if (isNumeric(a) && isNumeric(b))
    return a.kind === b.kind ? a : isFloat(a) || isFloat(b) ? T.DOUBLE : T.INT;
  if (a.kind === 'VERTEX' && b.kind === 'VERTEX') return a.vertexType === b.vertexType ? a : T.VERTEX;
  if (a.kind === 'NULL') return b;
  if (b.kind === 'NULL') return a;
  return typeText(a) === typeText(b) ? a : undefined;
}

function bindUnwind(cx: Cx, t: TableUnwind, pos: Pos): BoundTableOp {
  const table = t.table ? lookupTable(cx, t.table.name, t.table.pos) : undefined;
  const bound = cx.nested(() => {
    const source = table ? rowSide(cx, table, table.name, true, pos) : undefined;
    const x = valueOf(cx, t, t.list);
    if (x.t.kind !== 'LIST' && x.t.kind !== 'SET' && x.t.kind !== 'BAG')
      throw compileError(t.list.pos, `UNWIND needs a list, not ${typeText(x.t)}`);
    return { source, list: x.f, elem: x.t.elem };
  });
  const fields = [...(table?.rowType.fields ?? []), { name: t.column.name, type: bound.elem }];
  if (table?.rowType.fields.some((f) => f.name === t.column.name))
    throw compileError(t.column.pos, `the table ${table.name} already has a column ${t.column.name}`);
  const into = declareTable(cx, t.into.name, fields, t.into.pos);
  return { op: 'unwind', pos, ...(bound.source && { source: bound.source }), list: bound.list, into };
}
