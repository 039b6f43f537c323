/**
 * `PRINT … TO_CSV f`: instead of a JSON object, each run of the statement appends one line to a
 * FILE. Items are separated by commas, the values of a set or list by single spaces, a vertex is
 * its id, and a vertex-set expression (`S[S.a, S.@b]` or `S.a`) gives one line per vertex. A
 * scalar WHERE skips the line when false; with a vertex-set item it filters the vertices.
 */
import type { Expr, PrintItem, PrintTarget, Stmt } from '../gsql/ast-query.js';
import { compileExpr, expectType } from './expr-support.js';
import type { RunContext } from './context.js';
import { compileError } from './errors.js';
import type { QueryFile } from './file-output.js';
import { toJson } from './print.js';
import type { Cx, VertexAccum } from './scope.js';
import { accumValueType, T, typeText, type QType, type TupleT } from './types.js';
import { collectionItems, type Accum } from './accumulators.js';
import type { TupleVal, Vtx } from './values.js';

type Field = (ctx: RunContext, v: unknown) => string;

const SCALARS = new Set(['INT', 'UINT', 'FLOAT', 'DOUBLE', 'STRING', 'BOOL', 'DATETIME', 'VERTEX']);
/** Accumulators whose value is one scalar or one flat collection. */
const FLAT_ACCUMS = new Set([
  'SumAccum',
  'MinAccum',
  'MaxAccum',
  'AvgAccum',
  'OrAccum',
  'AndAccum',
  'BitwiseAndAccum',
  'BitwiseOrAccum',
  'ListAccum',
  'SetAccum',
  'BagAccum',
]);

/** The CSV text of a value of type t, or undefined when t has no flat CSV form. */
function csvField(t: QType, vaccs: Map<string, VertexAccum>): Field | undefined {
  if (SCALARS.has(t.kind)) return (ctx, v) => scalarText(toJson(ctx, v, t, vaccs));
  if (t.kind === 'LIST' && t.elem.kind === 'TUPLE') return tableCsv(t.elem, vaccs);
  if (t.kind === 'LIST' || t.kind === 'SET' || t.kind === 'BAG') {
    const elem = t.elem;
    if (!SCALARS.has(elem.kind)) return undefined;
    return (ctx, v) =>
      collectionItems(v)
        .map((x) => scalarText(toJson(ctx, x, elem, vaccs)))
        .join(' ');
  }
  if (t.kind === 'ACCUM' && FLAT_ACCUMS.has(t.accum)) {
    const inner = csvField(accumValueType(t), vaccs);
    return inner && ((ctx, v) => inner(ctx, (v as Accum).value()));
  }
  return undefined;
}

/** A table (SQL-like SELECT … INTO T): one line per row, its columns separated by commas. */
function tableCsv(row: TupleT, vaccs: Map<string, VertexAccum>): Field | undefined {
  const fields = row.fields.map((f) => csvField(f.type, vaccs));
  if (fields.some((f) => f === undefined)) return undefined;
  return (ctx, v) =>
    collectionItems(v)
      .map((r) => (r as TupleVal).values.map((x, i) => fields[i]!(ctx, x)).join(','))
      .join('\n');
}

function scalarText(j: unknown): string {
  return j === null || j === undefined ? '' : String(j);
}

function fieldOf(cx: Cx, e: Expr): (ctx: RunContext) => string {
  const x = compileExpr(cx, e);
  const field = csvField(x.t, cx.vaccs);
  if (!field)
    throw compileError(
      e.pos,
      `${typeText(x.t)} cannot be printed TO_CSV; print values, sets or lists of values instead`,
    );
  return (ctx) => field(ctx, x.f(ctx));
}

/** The vertex-set variable an item prints per vertex (`S[…]` or `S.attr` / `S.@acc`), if any. */
function vsetOf(cx: Cx, item: PrintItem): (Expr & { kind: 'name' }) | undefined {
  const e = item.expr;
  const base =
    item.projection || e.kind === 'name'
      ? e
      : e.kind === 'field' || e.kind === 'vattach'
        ? e.target
        : undefined;
  if (base?.kind !== 'name') return undefined;
  return cx.lookup(base.name)?.t.kind === 'VSET' ? base : undefined;
}

/** One printed item: its text for a run (the vertices kept by WHERE, when it prints per vertex). */
type CsvItem = (ctx: RunContext) => string;

function compileVsetItem(
  cx: Cx,
  item: PrintItem,
  base: Expr & { kind: 'name' },
  where: Expr | undefined,
): CsvItem {
  const name = base.name;
  if (!item.projection && item.expr.kind === 'name')
    throw compileError(
      item.pos,
      `a whole vertex set cannot be printed TO_CSV; print its attributes, e.g. PRINT ${name}.attr TO_CSV f`,
    );
  const set = compileExpr(cx, base);
  const vertexType = set.t.kind === 'VSET' ? set.t.vertexType : undefined;
  const exprs = item.projection ? item.projection.map((p) => p.expr) : [item.expr];
  const per = cx.nested(() => {
    const slot = cx.declare(name, { kind: 'VERTEX', vertexType }, item.pos, true).slot;
    const cols = exprs.map((e) => fieldOf(cx, e));
    let cond: ((ctx: RunContext) => unknown) | undefined;
    if (where) {
      const c = compileExpr(cx, where);
      expectType(c, T.BOOL, where.pos, 'PRINT … WHERE');
      cond = c.f;
    }
    return { slot, cols, cond };
  });
  return (ctx) => {
    const lines: string[] = [];
    for (const v of set.f(ctx) as Vtx[]) {
      ctx.vars[per.slot] = v;
      if (per.cond && per.cond(ctx) !== true) continue;
      lines.push(per.cols.map((c) => c(ctx)).join(','));
    }
    return lines.join('\n');
  };
}

/** `TO_CSV "path"` files, one per path and run, so several statements append to the same file. */
const pathFiles = new WeakMap<RunContext, Map<string, QueryFile>>();

function targetOf(cx: Cx, target: PrintTarget): (ctx: RunContext) => QueryFile {
  if ('path' in target) {
    const path = target.path;
    return (ctx) => {
      let files = pathFiles.get(ctx);
      if (!files) pathFiles.set(ctx, (files = new Map()));
      let f = files.get(path);
      if (!f) files.set(path, (f = ctx.openFile(path)));
      return f;
    };
  }
  const b = cx.lookup(target.file);
  if (!b) throw compileError(target.pos, `${target.file} is not declared`);
  if (b.t.kind !== 'FILE')
    throw compileError(target.pos, `TO_CSV needs a FILE object; ${target.file} is ${typeText(b.t)}`);
  const slot = b.slot;
  return (ctx) => ctx.vars[slot] as QueryFile;
}

export function compilePrintCsv(
  cx: Cx,
  s: Stmt & { kind: 'print' },
  target: PrintTarget,
): (ctx: RunContext) => void {
  if (cx.clause !== 'body') throw compileError(s.pos, `PRINT is not allowed in ${cx.clause}`);
  const file = targetOf(cx, target);
  const vsetItems = s.items.map((item) => vsetOf(cx, item));
  const perVertex = vsetItems.some((n) => n !== undefined);
  const items: CsvItem[] = s.items.map((item, i) => {
    const base = vsetItems[i];
    if (base !== undefined) return compileVsetItem(cx, item, base, s.where);
    if (item.projection) throw compileError(item.pos, 'only a vertex set can be printed with [ … ]');
    return fieldOf(cx, item.expr);
  });
  let cond: ((ctx: RunContext) => unknown) | undefined;
  if (s.where && !perVertex) {
    const c = compileExpr(cx, s.where);
    expectType(c, T.BOOL, s.where.pos, 'PRINT … WHERE');
    cond = c.f;
  }
  return (ctx) => {
    // The file is opened even when WHERE skips the line, so a `TO_CSV "path"` file always exists.
    const f = file(ctx);
    if (cond && cond(ctx) !== true) return;
    f.appendLine(items.map((it) => it(ctx)).join(','), 'PRINT … TO_CSV');
  };
}
