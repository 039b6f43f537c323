/**
 * The tables of a query (`SELECT … INTO T`, INIT, PROJECT, JOIN, UNION, UNWIND): each is a
 * query-wide variable holding a list of tuples of its columns, so `PRINT T` and `TO_CSV` read it
 * as any list of tuples. This registry knows which variables are tables, their columns, and which
 * were consumed by UNION; and it binds a table's rows for expressions over its columns.
 */
import type { Pos } from '../gsql/ast-query.js';
import type { RunContext } from './context.js';
import { compileError } from './errors.js';
import type { Cx } from './scope.js';
import type { TupleT } from './types.js';
import type { TupleVal } from './values.js';

export interface TableBinding {
  readonly name: string;
  /** The variable holding the rows (TupleVal[]). */
  readonly slot: number;
  readonly rowType: TupleT;
}

interface Entry extends TableBinding {
  /** Where a UNION consumed it (TigerGraph destroys the tables it unites). */
  consumedAt?: { pos: Pos; into: string };
}

const tablesOf = new WeakMap<Cx, Map<string, Entry>>();

function registry(cx: Cx): Map<string, Entry> {
  let m = tablesOf.get(cx);
  if (!m) tablesOf.set(cx, (m = new Map()));
  return m;
}

/** Declares the new table `name` with the given columns (a name in use is refused). */
export function declareTable(cx: Cx, name: string, columns: TupleT['fields'], pos: Pos): TableBinding {
  const rowType: TupleT = { kind: 'TUPLE', name, fields: columns };
  const names = new Set<string>();
  for (const c of columns) {
    if (names.has(c.name))
      throw compileError(pos, `the table ${name} would have two columns named ${c.name}`);
    names.add(c.name);
  }
  const slot = cx.declareQueryWide(name, { kind: 'LIST', elem: rowType }, pos).slot;
  const entry: Entry = { name, slot, rowType };
  registry(cx).set(name, entry);
  return entry;
}

/** The table `name` read by a statement at `pos`: an unknown or consumed table is refused. */
export function lookupTable(cx: Cx, name: string, pos: Pos): TableBinding {
  const entry = registry(cx).get(name);
  if (!entry) {
    const what = cx.lookup(name) ? 'is not a table' : 'is not declared';
    throw compileError(
      pos,
      `"${name}" ${what}; a table is made by SELECT … INTO, INIT, PROJECT, JOIN, UNION or UNWIND before it is used`,
    );
  }
  if (entry.consumedAt) {
    const at = entry.consumedAt;
    throw compileError(
      pos,
      `the table ${name} was consumed by the UNION at line ${at.pos.line}, column ${at.pos.column} (its rows are in ${at.into})`,
    );
  }
  return entry;
}

/** The table `name`, consumed or not, if there is one. */
export function lookupTableIfAny(cx: Cx, name: string): TableBinding | undefined {
  return registry(cx).get(name);
}

/** Marks a table consumed by UNION: later table statements may not read it. */
export function consumeTable(cx: Cx, t: TableBinding, pos: Pos, into: string): void {
  const entry = registry(cx).get(t.name);
  if (entry) entry.consumedAt = { pos, into };
}

/** The rows of a table in a run. */
export function rowsOf(ctx: RunContext, t: TableBinding): TupleVal[] {
  return (ctx.vars[t.slot] as TupleVal[] | undefined) ?? [];
}

/**
 * The names one row of a table goes by in expressions: `alias` (or the table's name) as a tuple,
 * so `T.col` reads a column, and, with `bare`, each column by its own name.
 */
export interface RowNames {
  readonly tupleSlot: number;
  /** Per column, its slot (-1: not named bare). */
  readonly columnSlots: readonly number[];
}

/** Declares a row's names in the current scope (the caller opens a nested one). */
export function declareRow(cx: Cx, t: TableBinding, alias: string, bare: boolean, pos: Pos): RowNames {
  const tupleSlot = cx.declare(alias, t.rowType, pos, true).slot;
  const columnSlots = bare
    ? t.rowType.fields.map((f) => (f.name === alias ? -1 : cx.declare(f.name, f.type, pos, true).slot))
    : [];
  return { tupleSlot, columnSlots };
}

/** Binds one row (or null: a LEFT JOIN's missing right row) to its names. */
export function bindRow(ctx: RunContext, names: RowNames, row: TupleVal | null): void {
  ctx.vars[names.tupleSlot] = row;
  const cols = names.columnSlots;
  for (let i = 0; i < cols.length; i++) if (cols[i] >= 0) ctx.vars[cols[i]] = row ? row.values[i] : null;
}
