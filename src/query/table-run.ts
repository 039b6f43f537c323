/**
 * Execution of bound table statements over the run's tables (lists of tuples). ORDER and FILTER
 * replace the rows of their table; the others fill a new table. Rows keep their order: a
 * statement's input order, the left table's order for a join (each left row's matches in the right
 * table's order), the tables in turn for UNION, and the first of repeated rows for DISTINCT and
 * UNION.
 */
import { collectionItems } from './accumulators.js';
import type { RunContext } from './context.js';
import { compareNullsFirst, rowKey } from './projection.js';
import { Flow, type BodyStmt, type Eval } from './scope.js';
import type { BoundSide, BoundTableOp, JoinKeys } from './table-bind.js';
import { bindRow, rowsOf, type TableBinding } from './table-scope.js';
import { toNumber, TupleVal, Vtx } from './values.js';

/** The statement as run in the query body. */
export function tableOpRunner(b: BoundTableOp): BodyStmt {
  return async (ctx) => {
    await ctx.tick();
    runTableOp(ctx, b);
    return Flow.Next;
  };
}

function runTableOp(ctx: RunContext, b: BoundTableOp): void {
  switch (b.op) {
    case 'init':
      ctx.vars[b.into.slot] = [
        new TupleVal(
          b.into.rowType,
          b.values.map((f) => f(ctx)),
        ),
      ];
      return;
    case 'order':
      ctx.vars[b.source.table.slot] = ordered(ctx, b);
      return;
    case 'filter': {
      const kept: TupleVal[] = [];
      for (const row of eachRowBound(ctx, b.source)) if (b.cond(ctx) === true) kept.push(row);
      ctx.vars[b.source.table.slot] = kept;
      return;
    }
    case 'project': {
      const out = new Rows(b.into, b.distinct);
      for (const _ of eachRowBound(ctx, b.source)) out.add(ctx, b.values);
      ctx.vars[b.into.slot] = out.rows;
      return;
    }
    case 'projectVertex':
      for (const item of b.items) {
        const set = new Set<Vtx>();
        for (const row of rowsOf(ctx, b.table)) {
          ctx.step();
          const v = row.values[item.column];
          if (v instanceof Vtx) set.add(v);
        }
        ctx.vars[item.slot] = Array.from(set);
      }
      return;
    case 'join':
      ctx.vars[b.into.slot] = joined(ctx, b);
      return;
    case 'union': {
      const out: TupleVal[] = [];
      const seen = new Set<string>();
      for (const t of b.tables)
        for (const row of rowsOf(ctx, t)) {
          ctx.step();
          if (!b.all) {
            const k = rowKey(row.values);
            if (seen.has(k)) continue;
            seen.add(k);
          }
          out.push(new TupleVal(b.into.rowType, row.values));
        }
      ctx.vars[b.into.slot] = out;
      return;
    }
    case 'unwind':
      ctx.vars[b.into.slot] = unwound(ctx, b);
      return;
  }
}

/** The output rows of a statement, without repeats when DISTINCT. */
class Rows {
  readonly rows: TupleVal[] = [];
  private readonly seen?: Set<string>;
  constructor(
    private readonly into: TableBinding,
    distinct: boolean,
  ) {
    if (distinct) this.seen = new Set();
  }
  add(ctx: RunContext, values: readonly Eval[]): void {
    const row = values.map((f) => f(ctx));
    if (this.seen) {
      const k = rowKey(row);
      if (this.seen.has(k)) return;
      this.seen.add(k);
    }
    this.rows.push(new TupleVal(this.into.rowType, row));
  }
}

/** Each row of a side's table, bound to its names while the caller looks at it. */
function* eachRowBound(ctx: RunContext, side: BoundSide): Generator<TupleVal> {
  for (const row of rowsOf(ctx, side.table)) {
    ctx.step();
    bindRow(ctx, side.row, row);
    yield row;
  }
}

function ordered(ctx: RunContext, b: BoundTableOp & { op: 'order' }): TupleVal[] {
  const keyed: { row: TupleVal; keys: unknown[] }[] = [];
  for (const row of eachRowBound(ctx, b.source)) keyed.push({ row, keys: b.keys.map((k) => k.f(ctx)) });
  keyed.sort((x, y) => {
    for (let i = 0; i < b.keys.length; i++) {
      const c = compareNullsFirst(x.keys[i], y.keys[i]);
      if (c !== 0) return b.keys[i].descending ? -c : c;
    }
    return 0;
  });
  const from = b.offset ? Math.max(0, toNumber(b.offset(ctx))) : 0;
  const to = b.limit ? from + Math.max(0, toNumber(b.limit(ctx))) : keyed.length;
  return keyed.slice(from, to).map((k) => k.row);
}

function joined(ctx: RunContext, b: BoundTableOp & { op: 'join' }): TupleVal[] {
  const out = new Rows(b.into, b.distinct);
  const right = rowsOf(ctx, b.right.table);
  const candidates = b.keys ? hashed(ctx, b.right, b.keys) : (): Iterable<TupleVal> => right;
  for (const _ of eachRowBound(ctx, b.left)) {
    let matched = false;
    for (const r of candidates()) {
      ctx.step();
      bindRow(ctx, b.right.row, r);
      if (b.on && b.on(ctx) !== true) continue;
      matched = true;
      if (b.join === 'semi') break;
      out.add(ctx, b.values);
    }
    if (b.join === 'semi' && matched) out.add(ctx, b.values);
    if (b.join === 'left' && !matched) {
      bindRow(ctx, b.right.row, null);
      out.add(ctx, b.values);
    }
  }
  return out.rows;
}

/**
 * The right rows by their keys: for the bound left row, the rows whose keys equal its keys, with
 * the rows that have a NULL key (and, for a left row with a NULL key, all rows), in table order.
 * ON is still evaluated on each candidate.
 */
function hashed(ctx: RunContext, side: BoundSide, keys: JoinKeys): () => Iterable<TupleVal> {
  const buckets = new Map<string, number[]>();
  const withNull: number[] = [];
  const rows = rowsOf(ctx, side.table);
  rows.forEach((row, i) => {
    ctx.step();
    bindRow(ctx, side.row, row);
    const k = hashKey(keys.right.map((f) => f(ctx)));
    if (k === undefined) withNull.push(i);
    else {
      const bucket = buckets.get(k);
      if (bucket) bucket.push(i);
      else buckets.set(k, [i]);
    }
  });
  return () => {
    const k = hashKey(keys.left.map((f) => f(ctx)));
    if (k === undefined) return rows;
    const hit = buckets.get(k) ?? [];
    const at = withNull.length === 0 ? hit : [...hit, ...withNull].sort((x, y) => x - y);
    return at.map((i) => rows[i]);
  };
}

/** A key equal for values GSQL's == finds equal (numbers of any type alike); NULL has none. */
function hashKey(values: readonly unknown[]): string | undefined {
  let k = '';
  for (const v of values) {
    if (v === null || v === undefined) return undefined;
    if (v instanceof Vtx) k += `V${v.type}\u0002${v.row}\u0001`;
    else if (typeof v === 'number' || typeof v === 'bigint') k += `n${String(v)}\u0001`;
    else k += `${typeof v}${String(v)}\u0001`;
  }
  return k;
}

function unwound(ctx: RunContext, b: BoundTableOp & { op: 'unwind' }): TupleVal[] {
  const out: TupleVal[] = [];
  const expand = (base: readonly unknown[]): void => {
    for (const item of collectionItems(b.list(ctx))) {
      ctx.step();
      out.push(new TupleVal(b.into.rowType, [...base, item]));
    }
  };
  if (!b.source) expand([]);
  else for (const row of eachRowBound(ctx, b.source)) expand(row.values);
  return out;
}
