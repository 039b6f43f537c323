/**
 * Projection of rows into a table, shared by SQL-like SELECT and openCypher's WITH and RETURN:
 * grouping (explicit keys, or implied by the columns that do not aggregate), aggregates, the
 * output columns, HAVING (openCypher: WITH … WHERE), DISTINCT, ORDER BY and LIMIT/OFFSET.
 *
 * The caller compiles it in the scope its rows' variables are declared in and calls `sink` once
 * per row with them bound. Per row the sink evaluates the grouping keys, the aggregates' arguments
 * and the row variables the output reads outside aggregates; a group keeps its first row's
 * variables and its aggregate states. The output, HAVING and ORDER BY are compiled over one group:
 * row variables hold that first row's values, aggregate calls read the group's results, and HAVING
 * and ORDER BY may also name output columns.
 */
import type { Expr, Pos } from '../gsql/ast-query.js';
import { exprKey } from '../gsql/parser-expr.js';
import type { RunContext } from './context.js';
import { guarded, nullGuardSlots } from './cypher-rows.js';
import { compileError } from './errors.js';
import { compileExpr, expectType } from './expr-support.js';
import { isBuiltinFunction } from './functions.js';
import { namesIn } from './select-clauses.js';
import { Flow, type Cx, type Eval, type Typed } from './scope.js';
import { aggregateType, hasAggregate, isAggregate, newAggState, type AggState } from './table-aggregate.js';
import { T, type QType, type TupleT } from './types.js';
import { compareValues, EdgeVal, keyOf, toNumber, TupleVal, Vtx } from './values.js';

export interface ProjectionSpec {
  columns: readonly { expr: Expr; alias?: string; pos: Pos }[];
  /** Explicit grouping keys (SQL's GROUP BY); none: the columns without aggregates group. */
  groupBy: readonly Expr[];
  having?: Expr;
  orderBy: readonly { expr: Expr; descending: boolean }[];
  limit?: Expr;
  offset?: Expr;
  distinct: boolean;
  /** The name of the tuple type of the rows. */
  rowName: string;
  /** openCypher: an expression reading a row variable that holds NULL is NULL. */
  nullSafe?: boolean;
  pos: Pos;
}

export interface Projector {
  readonly rowType: TupleT;
  /** Whether it aggregates without grouping keys (always one row). */
  readonly single: boolean;
  /** Whether rows are grouped (aggregates or explicit keys). */
  readonly aggregating: boolean;
  /** The row variables the per-row code reads. */
  readonly reads: ReadonlySet<string>;
  /** Per input row, with its variables bound. */
  sink(ctx: RunContext): Flow;
  /** Starts a run (before the first row). */
  begin(ctx: RunContext): void;
  /** The output rows of the run, each its columns' values. */
  finish(ctx: RunContext): unknown[][];
}

type Call = Expr & { kind: 'call' };

interface Group {
  carry: unknown[];
  aggs: AggState[];
}

interface RunState {
  groups: Map<unknown, Group>;
  rows: number;
}

/**
 * Compiles a projection of rows whose variables (`rowVars`, declared in the current scope) are
 * bound when `sink` runs.
 */
export function compileProjection(cx: Cx, spec: ProjectionSpec, rowVars: ReadonlySet<string>): Projector {
  const calls: Call[] = [];
  const rewrite = (e: Expr): Expr => rewriteAggregates(cx, e, calls);
  const outputs = spec.columns.map((c) => ({ name: columnName(cx, c), expr: rewrite(c.expr), pos: c.pos }));
  outputs.forEach((o, i) => {
    if (outputs.findIndex((x) => x.name === o.name) !== i)
      throw compileError(o.pos, `two columns are named ${o.name}; name this one with AS`);
  });
  const having = spec.having ? rewrite(spec.having) : undefined;
  const order = spec.orderBy.map((o) => ({ expr: rewrite(o.expr), descending: o.descending }));
  for (const e of spec.groupBy)
    if (hasAggregate(e)) throw compileError(e.pos, 'GROUP BY cannot group by an aggregate');
  const aggregating = calls.length > 0 || spec.groupBy.length > 0;
  const keyExprs =
    spec.groupBy.length > 0
      ? spec.groupBy
      : aggregating
        ? spec.columns.filter((c) => !hasAggregate(c.expr)).map((c) => c.expr)
        : [];
  const read = namesIn([outputs.map((o) => o.expr), having, order.map((o) => o.expr)], new Set());
  const carried = [...read].filter((n) => rowVars.has(n));

  // Per input row.
  const guard =
    (names: ReadonlySet<string>) =>
    (e: Expr, x: Typed): Typed =>
      spec.nullSafe ? { t: x.t, f: guarded(nullGuardSlots(cx, e, names), x.f) } : x;
  const perRow = guard(rowVars);
  const keys = keyExprs.map((e) => perRow(e, compileExpr(cx, e)).f);
  const args = calls.map((c) => {
    const x = aggregateArg(cx, c);
    return x && perRow(c.args[0], x);
  });
  const carry = carried.map((n) => compileExpr(cx, nameAt(n, spec.pos)).f);
  const aggTypes = calls.map((c, i) => aggregateType(c.name, args[i]?.t, c.pos));
  const reads = namesIn([keyExprs, calls.map((c) => c.args)], new Set(carried));
  const stateSlot = cx.newSlot();

  // Over one group.
  const post = cx.nested(() => {
    const carrySlots = carried.map((n) => cx.declare(n, cx.lookup(n)!.t, spec.pos, true).slot);
    const aggSlots = calls.map((c, i) => cx.declare(hiddenName(i), aggTypes[i], c.pos, true).slot);
    const inGroup = guard(new Set(carried));
    const cols = outputs.map((o) => ({ ...o, x: inGroup(o.expr, compileExpr(cx, o.expr)) }));
    if (cols.some((c) => c.x.t.kind === 'VOID'))
      throw compileError(cols.find((c) => c.x.t.kind === 'VOID')!.pos, 'this column has no value');
    return cx.nested(() => {
      // HAVING and ORDER BY may name output columns.
      const colSlots = cols.map((c) => cx.declare(c.name, c.x.t, c.pos, true).slot);
      const havingX = having ? inGroup(having, compileExpr(cx, having)) : undefined;
      if (havingX && having) expectType(havingX, T.BOOL, having.pos, 'HAVING');
      const orderFs = order.map((o) => ({
        f: inGroup(o.expr, compileExpr(cx, o.expr)).f,
        desc: o.descending,
      }));
      return { carrySlots, aggSlots, cols, colSlots, having: havingX?.f, order: orderFs };
    });
  });
  const limitOf = (e: Expr | undefined): Eval | undefined => (e ? compileExpr(cx, e).f : undefined);
  const limit = limitOf(spec.limit);
  const offset = limitOf(spec.offset);
  const single = aggregating && keyExprs.length === 0;
  const groupKey: ((ctx: RunContext) => unknown) | undefined = !aggregating
    ? undefined
    : keys.length === 0
      ? () => ''
      : keys.length === 1
        ? (ctx) => oneKey(keys[0](ctx))
        : (ctx) => rowKey(keys.map((f) => f(ctx)));
  const newGroup = (ctx: RunContext | undefined): Group => ({
    carry: ctx ? carry.map((f) => f(ctx)) : carried.map(() => null),
    aggs: calls.map((c, i) => newAggState(c.name, c.distinct === true, args[i]?.t)),
  });

  return {
    rowType: {
      kind: 'TUPLE',
      name: spec.rowName,
      fields: post.cols.map((c) => ({ name: c.name, type: c.x.t })),
    },
    single,
    aggregating,
    reads,
    sink(ctx) {
      const state = ctx.vars[stateSlot] as RunState;
      const key = groupKey === undefined ? state.rows++ : groupKey(ctx);
      let g = state.groups.get(key);
      if (!g) state.groups.set(key, (g = newGroup(ctx)));
      for (let i = 0; i < calls.length; i++) g.aggs[i].add(args[i] ? args[i]!.f(ctx) : true);
      return Flow.Next;
    },
    begin(ctx) {
      ctx.vars[stateSlot] = { groups: new Map(), rows: 0 } satisfies RunState;
    },
    finish(ctx) {
      const state = ctx.vars[stateSlot] as RunState;
      ctx.vars[stateSlot] = undefined;
      // Aggregates over no rows still give one row.
      if (single && state.groups.size === 0) state.groups.set('', newGroup(undefined));
      const rows: { values: unknown[]; keys: unknown[] }[] = [];
      const seen = new Set<unknown>();
      for (const g of state.groups.values()) {
        ctx.step();
        post.carrySlots.forEach((s, i) => (ctx.vars[s] = g.carry[i]));
        post.aggSlots.forEach((s, i) => (ctx.vars[s] = g.aggs[i].result()));
        const values = post.cols.map((c) => c.x.f(ctx));
        post.colSlots.forEach((s, i) => (ctx.vars[s] = values[i]));
        if (post.having && post.having(ctx) !== true) continue;
        if (spec.distinct) {
          const k = rowKey(values);
          if (seen.has(k)) continue;
          seen.add(k);
        }
        rows.push({ values, keys: post.order.map((o) => o.f(ctx)) });
      }
      if (post.order.length > 0)
        rows.sort((x, y) => {
          for (let i = 0; i < post.order.length; i++) {
            const c = compareNullsFirst(x.keys[i], y.keys[i]);
            if (c !== 0) return post.order[i].desc ? -c : c;
          }
          return 0;
        });
      const from = offset ? Math.max(0, toNumber(offset(ctx))) : 0;
      const to = limit ? from + Math.max(0, toNumber(limit(ctx))) : rows.length;
      return rows.slice(from, to).map((r) => r.values);
    },
  };
}

/** The rows of a projection as tuples of its row type. */
export function asTuples(p: Projector, rows: unknown[][]): TupleVal[] {
  return rows.map((values) => new TupleVal(p.rowType, values));
}

/** An aggregate's argument (undefined for count(*)). */
function aggregateArg(cx: Cx, c: Call): Typed | undefined {
  if (c.star || c.args.length === 0) {
    if (c.name.toLowerCase() !== 'count') throw compileError(c.pos, `${c.name}() needs an argument`);
    return undefined;
  }
  if (c.args.length !== 1) throw compileError(c.pos, `${c.name}() takes one argument`);
  if (hasAggregate(c.args[0])) throw compileError(c.args[0].pos, 'an aggregate cannot contain an aggregate');
  return compileExpr(cx, c.args[0]);
}

/** A key for a row of values: equal rows (GSQL equality) have equal keys. */
export function rowKey(values: readonly unknown[]): string {
  let k = '';
  for (const v of values) {
    if (v instanceof Vtx) k += `V${v.type}\u0002${v.row}\u0001`;
    else if (v instanceof EdgeVal || v instanceof TupleVal || Array.isArray(v))
      k += `${String(keyOf(v))}\u0001`;
    else k += `${typeof v}:${String(v)}\u0001`;
  }
  return k;
}

/** The group key of one value: itself when that is a vertex (one object per run) or a string. */
function oneKey(v: unknown): unknown {
  return v instanceof Vtx || typeof v === 'string' ? v : rowKey([v]);
}

/** ORDER BY's comparison, NULL before everything. */
export function compareNullsFirst(a: unknown, b: unknown): number {
  const an = a === null || a === undefined;
  const bn = b === null || b === undefined;
  if (an || bn) return an === bn ? 0 : an ? -1 : 1;
  return compareValues(a, b);
}

function hiddenName(i: number): string {
  return `#agg${i}`;
}

export function nameAt(name: string, pos: Pos): Expr {
  return { kind: 'name', name, pos, start: 0, end: 0 };
}

/** Replaces each aggregate call by a hidden name (equal calls share one) and collects the calls. */
function rewriteAggregates(cx: Cx, e: Expr, calls: Call[]): Expr {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== 'object') return node;
    const x = node as Expr;
    if (typeof (x as { kind?: unknown }).kind === 'string' && isAggregate(x)) {
      const text = callText(cx, x);
      let i = calls.findIndex((c) => callText(cx, c) === text);
      if (i < 0) i = calls.push(x) - 1;
      return { kind: 'name', name: hiddenName(i), pos: x.pos, start: x.start, end: x.end };
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) out[k] = k === 'pos' ? v : visit(v);
    return out;
  };
  return visit(e) as Expr;
}

function callText(cx: Cx, c: Call): string {
  const flags = `${c.distinct ? ' distinct' : ''}${c.star ? '*' : ''}`;
  return `${c.name.toLowerCase()}${flags}:${exprKey(cx.src, c, isBuiltinFunction, cx.srcStart)}`;
}

/**
 * A column's heading: its AS name; a variable's name; an attribute's name (`c.country` is
 * "country"); otherwise the expression's text with TigerGraph's spelling of punctuation
 * (`count(*)` is "count_lparen_1_rparen_").
 */
export function columnName(cx: Cx, c: { expr: Expr; alias?: string }): string {
  if (c.alias !== undefined) return c.alias;
  const e = c.expr;
  if (e.kind === 'name') return e.name;
  if (e.kind === 'field') return e.name;
  if (e.kind === 'vattach') return `@${e.name}`;
  const key = (x: Expr): string => exprKey(cx.src, x, isBuiltinFunction, cx.srcStart);
  const text =
    e.kind === 'call' && isAggregate(e)
      ? `${e.name.toLowerCase()}(${e.distinct ? 'DISTINCT ' : ''}${e.star ? '1' : e.args.map(key).join(',')})`
      : key(e);
  return text.replace(/[^A-Za-z0-9_@]/g, (ch) => PUNCT_NAMES[ch] ?? '_');
}

const PUNCT_NAMES: Record<string, string> = {
  ' ': '_',
  '(': '_lparen_',
  ')': '_rparen_',
  '.': '_dot_',
  ',': '_comma_',
  '*': '_mul_',
  '+': '_plus_',
  '-': '_minus_',
  '/': '_div_',
  '%': '_mod_',
};

/** The types of a projection's columns, for callers declaring them as row variables. */
export function columnTypes(p: Projector): { name: string; type: QType }[] {
  return p.rowType.fields.map((f) => ({ name: f.name, type: f.type }));
}
