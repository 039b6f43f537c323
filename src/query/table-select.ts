/**
 * SQL-like SELECT: the matches of FROM and WHERE as a table. The block is bound and planned as a
 * V2 SELECT whose ACCUM is the table's row sink, so matching runs on V2's executors and kernels
 * (once per matched path). Per row the sink evaluates the grouping keys, the aggregates'
 * arguments and the pattern aliases the output reads outside aggregates; each group keeps the
 * first row's aliases and its aggregate states. The output columns, HAVING and ORDER BY are then
 * compiled over one group: pattern aliases hold that row's values, aggregate calls read the
 * group's results, and HAVING and ORDER BY may name output columns. Rows come out as tuples of the
 * columns (printed as TigerGraph prints table rows: vertices by id).
 */
import type { Expr, PathPattern, Pos, SelectBlock, Stmt } from '../gsql/ast-query.js';
import type { TableColumn, TableSelect } from '../gsql/ast-v3.js';
import { exprKey } from '../gsql/parser-expr.js';
import { bindSelect } from './bind-select.js';
import type { BoundSelect } from './bound-select.js';
import { selectRunner } from './compile-select.js';
import type { RunContext } from './context.js';
import { desugarPatterns } from './desugar-v3.js';
import { compileError } from './errors.js';
import { compileExpr, expectType } from './expr-support.js';
import { isBuiltinFunction } from './functions.js';
import { namesIn } from './select-clauses.js';
import { Flow, type Cx, type Eval, type Typed } from './scope.js';
import { aggregateType, hasAggregate, isAggregate, newAggState, type AggState } from './table-aggregate.js';
import { T, type TupleT } from './types.js';
import { compareValues, EdgeVal, keyOf, toNumber, TupleVal, Vtx } from './values.js';

export interface CompiledTable {
  /** One tuple type per table: its fields are the columns. */
  readonly rowType: TupleT;
  /** Whether the table aggregates without grouping keys (always one row). */
  readonly single: boolean;
  run(ctx: RunContext): Promise<TupleVal[]>;
}

type Call = Expr & { kind: 'call' };

/** One group of rows: the first row's aliases and the aggregates' states. */
interface Group {
  carry: unknown[];
  aggs: AggState[];
}

export function compileTable(cx: Cx, t: TableSelect): CompiledTable {
  return cx.nested(() => {
    const { from, where } = desugarPatterns(cx, t.from, t.where);
    const patterns = withSourceAlias(from);
    const block: SelectBlock = {
      result: sourceAlias(patterns),
      resultPos: t.pos,
      distinct: false,
      from: patterns,
      where,
      accum: [],
      postAccum: [],
      orderBy: [],
      pos: t.pos,
    };
    const b = bindSelect(cx, block);
    const aliases = aliasNames(b);
    const columns = t.columns === '*' ? starColumns(b, t.pos) : t.columns;
    if (columns.length === 0)
      throw compileError(t.pos, 'the patterns of FROM have no named vertex or edge to select');

    // Aggregate calls of the output become hidden names read from the group's states.
    const calls: Call[] = [];
    const rewrite = (e: Expr): Expr => rewriteAggregates(cx, e, calls);
    const outputs = columns.map((c) => ({ name: columnName(cx, c), expr: rewrite(c.expr), pos: c.pos }));
    const having = t.having ? rewrite(t.having) : undefined;
    const order = t.orderBy.map((o) => ({ expr: rewrite(o.expr), descending: o.descending }));
    for (const e of t.groupBy)
      if (hasAggregate(e)) throw compileError(e.pos, 'GROUP BY cannot group by an aggregate');
    const aggregating = calls.length > 0 || t.groupBy.length > 0;
    const keyExprs =
      t.groupBy.length > 0
        ? t.groupBy
        : aggregating
          ? columns.filter((c) => !hasAggregate(c.expr)).map((c) => c.expr)
          : [];
    const read = namesIn([outputs.map((o) => o.expr), having, order.map((o) => o.expr)], new Set());
    const carried = [...read].filter((n) => aliases.has(n));

    // Per matched row (in the SELECT's scope, as ACCUM sees it).
    const perRow = cx.inClause('ACCUM', () => ({
      keys: keyExprs.map((e) => compileExpr(cx, e).f),
      args: calls.map((c) => {
        if (c.star || c.args.length === 0) {
          if (c.name.toLowerCase() !== 'count') throw compileError(c.pos, `${c.name}() needs an argument`);
          return undefined;
        }
        if (c.args.length !== 1) throw compileError(c.pos, `${c.name}() takes one argument`);
        if (hasAggregate(c.args[0]))
          throw compileError(c.args[0].pos, 'an aggregate cannot contain an aggregate');
        return compileExpr(cx, c.args[0]);
      }),
      carry: carried.map((n) => compileExpr(cx, nameAt(n, t.pos)).f),
    }));
    const aggTypes = calls.map((c, i) => aggregateType(c.name, perRow.args[i]?.t, c.pos));
    const stateSlot = cx.newSlot();
    const sink = rowSink(stateSlot, aggregating, perRow, calls);

    // The SELECT with the sink as its ACCUM: rows keep what the sink reads.
    const marker: Stmt = {
      kind: 'expr',
      expr: {
        kind: 'list',
        items: [...keyExprs, ...calls.flatMap((c) => c.args), ...carried.map((n) => nameAt(n, t.pos))],
        pos: t.pos,
        start: 0,
        end: 0,
      },
      pos: t.pos,
    };
    const used = namesIn(marker, new Set());
    const bound: BoundSelect = {
      ...b,
      accum: {
        stmts: [marker],
        rows: [sink],
        deferred: false,
        vertices: new Set(
          [...used].flatMap((n) => (aliases.get(n)?.vertex !== undefined ? [aliases.get(n)!.vertex!] : [])),
        ),
        hops: new Set(
          [...used].flatMap((n) => (aliases.get(n)?.hop !== undefined ? [aliases.get(n)!.hop!] : [])),
        ),
      },
    };
    const { runAsync } = selectRunner(cx, bound);

    // Over one group: the aliases as its first row's values, the aggregates' results.
    const post = cx.nested(() => {
      const carrySlots = carried.map((n) => cx.declare(n, cx.lookup(n)!.t, t.pos, true).slot);
      const aggSlots = calls.map((c, i) => cx.declare(hiddenName(i), aggTypes[i], c.pos, true).slot);
      const cols = outputs.map((o) => ({ ...o, x: compileExpr(cx, o.expr) }));
      return cx.nested(() => {
        // HAVING and ORDER BY may name output columns.
        const named = new Set<string>();
        const colSlots = cols.map((c) => {
          if (named.has(c.name)) return -1;
          named.add(c.name);
          return cx.declare(c.name, c.x.t, c.pos, true).slot;
        });
        const havingF = having ? compileExpr(cx, having) : undefined;
        if (havingF && having) expectType(havingF, T.BOOL, having.pos, 'HAVING');
        const orderFs = order.map((o) => ({ f: compileExpr(cx, o.expr).f, desc: o.descending }));
        return { carrySlots, aggSlots, cols, colSlots, having: havingF?.f, order: orderFs };
      });
    });
    const rowType: TupleT = {
      kind: 'TUPLE',
      name: t.into?.name ?? 'Result_Table',
      fields: post.cols.map((c) => ({ name: c.name, type: c.x.t })),
    };
    const limitOf = (e: Expr | undefined): Eval | undefined => (e ? compileExpr(cx, e).f : undefined);
    const limit = limitOf(t.limit);
    const offset = limitOf(t.offset);
    const single = aggregating && keyExprs.length === 0;
    const distinct = t.distinct;

    return {
      rowType,
      single,
      async run(ctx) {
        const state = { groups: new Map<unknown, Group>(), rows: 0 };
        ctx.vars[stateSlot] = state;
        try {
          await runAsync(ctx);
        } finally {
          ctx.vars[stateSlot] = undefined;
        }
        // Aggregates over no rows still give one row.
        if (single && state.groups.size === 0)
          state.groups.set('', {
            carry: carried.map(() => null),
            aggs: calls.map((c, i) => newAggState(c.name, c.distinct === true, perRow.args[i]?.t)),
          });
        const rows: { values: unknown[]; keys: unknown[] }[] = [];
        const seen = new Set<unknown>();
        for (const g of state.groups.values()) {
          ctx.step();
          post.carrySlots.forEach((s, i) => (ctx.vars[s] = g.carry[i]));
          post.aggSlots.forEach((s, i) => (ctx.vars[s] = g.aggs[i].result()));
          const values = post.cols.map((c) => c.x.f(ctx));
          post.colSlots.forEach((s, i) => s >= 0 && (ctx.vars[s] = values[i]));
          if (post.having && post.having(ctx) !== true) continue;
          if (distinct) {
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
        return rows.slice(from, to).map((r) => new TupleVal(rowType, r.values));
      },
    };
  });
}

/** The sink run once per matched path: groups the row and feeds its group's aggregates. */
function rowSink(
  stateSlot: number,
  aggregating: boolean,
  perRow: { keys: Eval[]; args: (Typed | undefined)[]; carry: Eval[] },
  calls: Call[],
): (ctx: RunContext) => Flow {
  const { keys, args, carry } = perRow;
  return (ctx) => {
    const state = ctx.vars[stateSlot] as { groups: Map<unknown, Group>; rows: number };
    const key = aggregating ? rowKey(keys.map((f) => f(ctx))) : state.rows++;
    let g = state.groups.get(key);
    if (!g) {
      g = {
        carry: carry.map((f) => f(ctx)),
        aggs: calls.map((c, i) => newAggState(c.name, c.distinct === true, args[i]?.t)),
      };
      state.groups.set(key, g);
    }
    for (let i = 0; i < calls.length; i++) g.aggs[i].add(args[i] ? args[i]!.f(ctx) : true);
    return Flow.Next;
  };
}

/** A key for a row of values: equal rows (GSQL equality) have equal keys. */
function rowKey(values: unknown[]): string {
  let k = '';
  for (const v of values) {
    if (v instanceof Vtx) k += `V${v.type}\u0002${v.row}\u0001`;
    else if (v instanceof EdgeVal || v instanceof TupleVal || Array.isArray(v))
      k += `${String(keyOf(v))}\u0001`;
    else k += `${typeof v}:${String(v)}\u0001`;
  }
  return k;
}

/** ORDER BY's comparison, NULL before everything. */
function compareNullsFirst(a: unknown, b: unknown): number {
  const an = a === null || a === undefined;
  const bn = b === null || b === undefined;
  if (an || bn) return an === bn ? 0 : an ? -1 : 1;
  return compareValues(a, b);
}

function hiddenName(i: number): string {
  return `#agg${i}`;
}

function nameAt(name: string, pos: Pos): Expr {
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
  return `${c.name.toLowerCase()}${c.distinct ? ' distinct' : ''}${c.star ? '*' : ''}:${exprKey(cx.src, c, isBuiltinFunction, cx.srcStart)}`;
}

/** The first pattern's source gets a hidden alias when it has none (the SELECT needs a result). */
function withSourceAlias(from: PathPattern[]): PathPattern[] {
  const [first, ...rest] = from;
  if (first.source.alias !== undefined) return from;
  return [{ ...first, source: { ...first.source, alias: '#src' } }, ...rest];
}

function sourceAlias(from: PathPattern[]): string {
  return from[0].source.alias!;
}

/** The SELECT's aliases by name: a vertex's index or a hop's. */
function aliasNames(b: BoundSelect): Map<string, { vertex?: number; hop?: number }> {
  const out = new Map<string, { vertex?: number; hop?: number }>();
  for (const v of b.vertices) if (v.alias !== undefined) out.set(v.alias, { vertex: v.index });
  for (const h of b.hops) if (h.alias !== undefined) out.set(h.alias, { hop: h.index });
  return out;
}

/** `SELECT *`: every named vertex and edge of the patterns, in pattern order. */
function starColumns(b: BoundSelect, pos: Pos): TableColumn[] {
  const names: string[] = [];
  const add = (n: string | undefined): void => {
    if (n !== undefined && !n.startsWith('#') && !names.includes(n)) names.push(n);
  };
  for (const p of b.patterns) {
    add(b.vertices[p.vertices[0]].alias);
    p.hops.forEach((h, i) => {
      add(b.hops[h].alias);
      add(b.vertices[p.vertices[i + 1]].alias);
    });
  }
  return names.map((n) => ({ expr: nameAt(n, pos), pos }));
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
  const text =
    e.kind === 'call' && e.star ? `${e.name}(1)` : exprKey(cx.src, e, isBuiltinFunction, cx.srcStart);
  return text.replace(/[^A-Za-z0-9_@]/g, (ch) => PUNCT_NAMES[ch] ?? '_');
}

const PUNCT_NAMES: Record<string, string> = {
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
