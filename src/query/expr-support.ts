/**
 * What the expression compilers share: the table the expression compiler registers itself in (so
 * that the modules it dispatches to can compile their operands without importing it), type checks
 * and coercions, vertex-attached accumulator access, and stored values in run-time form.
 */
import type { AttrType, VertexType } from '../catalog/types.js';
import { Tuple, VertexRef, type Value } from '../catalog/value.js';
import type { Expr, Pos } from '../gsql/ast-query.js';
import type { EdgeHandle } from '../engine/api.js';
import type { Accum } from './accumulators.js';
import type { RunContext } from './context.js';
import type { EdgeAccums } from './edge-accums.js';
import { compileError } from './errors.js';
import type { Cx, Eval, Typed, VertexAccum } from './scope.js';
import { assignable, isFloat, isInteger, typeText, type AccumT, type QType, type TupleT } from './types.js';
import { EdgeVal, QueryRuntimeError, toNumber, TupleVal, Vtx } from './values.js';

type ExprCompiler = (cx: Cx, e: Expr) => Typed;

let exprCompiler: ExprCompiler | undefined;

/** Called once by compile-expr.ts: the compiler every compileExpr call goes to. */
export function registerExprCompiler(f: ExprCompiler): void {
  exprCompiler = f;
}

/** Type checks `e` and compiles it to a closure (see compile-expr.ts). */
export function compileExpr(cx: Cx, e: Expr): Typed {
  if (!exprCompiler) throw new Error('the expression compiler is not registered');
  return exprCompiler(cx, e);
}

export function vaccOf(ctx: RunContext, vertex: Vtx, va: VertexAccum): Accum {
  const v = ctx.own(vertex);
  const col = ctx.column(va);
  if (col !== null) return col.cell(v.gid);
  return ((v.acc ??= [])[va.index] ??= va.make(ctx)) as Accum;
}

/** The accumulator about to be updated; keeps its value from before the running SELECT if `@x'` is read. */
export function vaccForUpdate(ctx: RunContext, vertex: Vtx, va: VertexAccum): Accum {
  const v = ctx.own(vertex);
  const col = ctx.column(va);
  if (col !== null) {
    if (col.prevAt !== null) col.remember(v.gid, ctx.selectStamp);
    return col.cell(v.gid);
  }
  const a = vaccOf(ctx, v, va);
  if (va.primed) {
    const at = (v.prevAt ??= []);
    if (at[va.index] !== ctx.selectStamp) {
      at[va.index] = ctx.selectStamp;
      (v.prev ??= [])[va.index] = copyValue(a.value());
    }
  }
  return a;
}

/** `@x'`: the value before the running (or last) SELECT changed it, else the current value. */
export function prevValue(ctx: RunContext, vertex: Vtx, va: VertexAccum): unknown {
  const v = ctx.own(vertex);
  const col = ctx.column(va);
  if (col !== null) return col.previous(v.gid, ctx.selectStamp);
  if (v.prevAt?.[va.index] === ctx.selectStamp) return v.prev![va.index];
  return vaccOf(ctx, v, va).value();
}

/** A copy of a collection value, so later updates of the accumulator leave it alone. */
function copyValue(x: unknown): unknown {
  if (Array.isArray(x)) return x.slice();
  if (x instanceof Set) return new Set(x);
  if (x instanceof Map) return new Map(x);
  return x;
}

/** Converts a stored attribute value to its run-time form (vertex references become Vtx). */
export function fromStored(ctx: RunContext, v: Value, tuples: Map<string, TupleT>): unknown {
  if (typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => fromStored(ctx, x, tuples));
  if (v instanceof VertexRef) {
    const row = ctx.graph.lookup(v.type, v.id);
    return row === undefined ? null : ctx.vertex(v.type, row);
  }
  if (v instanceof Tuple) {
    const t = tuples.get(v.typeName) ?? { kind: 'TUPLE', name: v.typeName, fields: [] };
    return new TupleVal(
      t,
      v.values.map((x) => fromStored(ctx, x, tuples)),
    );
  }
  if (v instanceof Map) {
    const m = new Map<unknown, unknown>();
    for (const [k, x] of v) m.set(k, fromStored(ctx, x, tuples));
    return m;
  }
  return v;
}

/** A closure converting a value of type `from` for storage where `to` is declared. */
export function coerce(to: QType, from: Typed, pos: Pos, what: string): Eval {
  if (!assignable(to, from.t)) {
    throw compileError(pos, `${what} needs ${typeText(to)}, not ${typeText(from.t)}`);
  }
  const f = from.f;
  if (isInteger(to) && isFloat(from.t)) return (ctx) => Math.trunc(f(ctx) as number);
  if (to.kind === 'FLOAT' && from.t.kind !== 'FLOAT') return (ctx) => Math.fround(toNumber(f(ctx)));
  if (isFloat(to) && isInteger(from.t)) return (ctx) => toNumber(f(ctx));
  return f;
}

/** Whether `e` is NULL when evaluated: an unset value, or a parameter given no value. */
export function compileNullTest(cx: Cx, e: Expr): (ctx: RunContext) => boolean {
  const b = e.kind === 'name' ? cx.lookup(e.name) : undefined;
  if (b && cx.paramSlots.has(b.slot)) {
    const slot = b.slot;
    return (ctx) => ctx.nullParams.has(slot) || ctx.vars[slot] === null;
  }
  const x = compileExpr(cx, e);
  return (ctx) => {
    const v = x.f(ctx);
    return v === null || v === undefined;
  };
}

export function expectType(x: Typed, t: QType, pos: Pos, what: string): void {
  if (!assignable(t, x.t))
    throw compileError(pos, `${what} needs ${typeText(t)}, but this is ${typeText(x.t)}`);
}

/** Resolves `target.@name` to the accumulator and a closure yielding the vertex. */
export function vertexAccumRef(
  cx: Cx,
  e: Expr & { kind: 'vattach' },
): { va: VertexAccum; target: (ctx: RunContext) => Vtx; aliasSlot?: number } {
  const va = cx.vaccs.get(e.name);
  if (!va) throw compileError(e.pos, `the vertex-attached accumulator @${e.name} is not declared`);
  if (!e.target) {
    throw compileError(e.pos, `@${e.name} must be read through a vertex, e.g. "s.@${e.name}"`);
  }
  const target = compileExpr(cx, e.target);
  if (target.t.kind !== 'VERTEX') {
    throw compileError(
      e.target.pos,
      `@${e.name} needs a vertex on the left of ".", not ${typeText(target.t)}`,
    );
  }
  const f = target.f;
  const alias = e.target.kind === 'name' ? cx.lookup(e.target.name) : undefined;
  if (alias?.aliasTypes) {
    // A SELECT alias always holds a vertex while its clauses run.
    const slot = alias.slot;
    return {
      va,
      target: (ctx) => (ctx.vars[slot] as Vtx | undefined) ?? ctx.aliasVertex(slot),
      aliasSlot: slot,
    };
  }
  return {
    va,
    target: (ctx) => {
      const v = f(ctx);
      if (!(v instanceof Vtx))
        throw new QueryRuntimeError(`Runtime Error: @${e.name} of a NULL vertex.`, 'GSQL-1001');
      return v;
    },
  };
}

/**
 * Resolves `e.@name` for an edge-attached accumulator: the run's accumulators of that name and a
 * closure yielding the edge (an edge alias of the SELECT, or any EDGE value).
 */
export function edgeAccumRef(
  cx: Cx,
  e: Expr & { kind: 'vattach' },
): { t: AccumT; accums: (ctx: RunContext) => EdgeAccums; edge: (ctx: RunContext) => EdgeHandle } {
  const ea = cx.eaccs.get(e.name);
  if (!ea) throw compileError(e.pos, `the edge-attached accumulator @${e.name} is not declared`);
  if (!e.target) throw compileError(e.pos, `@${e.name} must be read through an edge, e.g. "e.@${e.name}"`);
  if (e.prev)
    throw compileError(
      e.pos,
      `the previous value of an edge-attached accumulator (@${e.name}') is not supported`,
    );
  if (e.index) throw compileError(e.pos, `@${e.name} is a ${ea.t.accum}, not an ArrayAccum`);
  const target = compileExpr(cx, e.target);
  if (target.t.kind !== 'EDGE') {
    throw compileError(
      e.target.pos,
      `@${e.name} is attached to edges: it needs an edge on the left of ".", not ${typeText(target.t)}`,
    );
  }
  const f = target.f;
  const slot = ea.slot;
  return {
    t: ea.t,
    accums: (ctx) => ctx.vars[slot] as EdgeAccums,
    edge: (ctx) => {
      const v = f(ctx);
      if (!(v instanceof EdgeVal))
        throw new QueryRuntimeError(`Runtime Error: @${e.name} of a NULL edge.`, 'GSQL-1001');
      return v.handle;
    },
  };
}

/** The vertex types a VERTEX-typed expression may have at run time. */
export function vertexTypesOf(cx: Cx, e: Expr, t: QType): string[] {
  if (t.kind === 'VERTEX' && t.vertexType) return [t.vertexType];
  if (e.kind === 'name') {
    const b = cx.lookup(e.name);
    if (b?.aliasTypes && b.aliasTypes.length > 0) return b.aliasTypes;
  }
  return cx.vertexTypeNames();
}

/** The edge types an EDGE value may have: its one type, its alias's types, or the graph's. */
export function edgeTypesOf(cx: Cx, e: Expr, t: QType & { kind: 'EDGE' }): string[] {
  if (t.edgeType) return [t.edgeType];
  const types = e.kind === 'name' ? cx.lookup(e.name)?.edgeTypes : undefined;
  return types ?? cx.edgeTypeNames();
}

/**
 * Of `types`, those that have the attribute `name`, with its type there; a forward type's reverse
 * type is listed with it (edge handles walked through it carry its name).
 */
export function edgeTypesWith(cx: Cx, types: readonly string[], name: string): Map<string, AttrType> {
  const out = new Map<string, AttrType>();
  for (const tn of types) {
    const def = cx.edgeType(tn);
    const a = def?.attributes.find((x) => x.name === name);
    if (!def || !a) continue;
    out.set(tn, a.type);
    out.set(def.name, a.type);
    if (def.reverseEdge) out.set(def.reverseEdge, a.type);
  }
  return out;
}

/** An attribute of a vertex type, including a primary id declared WITH primary_id_as_attribute. */
export function vertexAttribute(vt: VertexType | undefined, name: string): { type: AttrType } | undefined {
  if (!vt) return undefined;
  const a = vt.attributes.find((x) => x.name === name);
  if (a) return a;
  if (vt.keyKind === 'primary_id' && vt.primaryIdAsAttribute && vt.primaryId.name === name)
    return vt.primaryId;
  return undefined;
}
