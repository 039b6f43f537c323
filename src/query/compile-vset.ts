/**
 * Vertex-set expressions: seeds ({p}, {T.*}, {ANY}, {@@set}) and the set operators UNION,
 * INTERSECT and MINUS on vertex sets and on sets of values.
 */
import { compileSelectVertex } from './file-seeds.js';
import type { Expr, Pos } from '../gsql/ast-query.js';
import { collectionItems } from './accumulators.js';
import { compileExpr } from './expr-support.js';
import type { RunContext } from './context.js';
import { compileError } from './errors.js';
import type { Cx, Typed } from './scope.js';
import { namesTypes, runtimeTypeNames, typeNamesOf } from './type-names.js';
import { typeText, type QType } from './types.js';
import { valuesEqual, Vtx } from './values.js';

export function compileSetOp(l: Typed, r: Typed, op: 'UNION' | 'INTERSECT' | 'MINUS', pos: Pos): Typed {
  const lf = l.f;
  const rf = r.f;
  if (l.t.kind === 'VSET' && r.t.kind === 'VSET') {
    const vt = l.t.vertexType === r.t.vertexType ? l.t.vertexType : undefined;
    return {
      t: { kind: 'VSET', vertexType: op === 'UNION' ? vt : l.t.vertexType },
      f: (ctx) => setOp(op, lf(ctx) as Vtx[], rf(ctx) as Vtx[]),
    };
  }
  const coll = ['SET', 'BAG', 'LIST'];
  if (coll.includes(l.t.kind) && coll.includes(r.t.kind)) {
    const elem = (l.t as { elem: QType }).elem;
    // With a bag on either side the operators count duplicates: UNION adds the counts, INTERSECT
    // keeps the smaller count, MINUS subtracts.
    const bag = l.t.kind === 'BAG' || r.t.kind === 'BAG';
    return {
      t: { kind: bag ? 'BAG' : 'SET', elem },
      f: (ctx) => {
        const a = collectionItems(lf(ctx));
        const b = collectionItems(rf(ctx));
        return bag ? bagOpValues(op, a, b) : setOpValues(op, a, b);
      },
    };
  }
  throw compileError(
    pos,
    `${op} needs two vertex sets or two sets, not ${typeText(l.t)} and ${typeText(r.t)}`,
  );
}

function setOp(op: 'UNION' | 'INTERSECT' | 'MINUS', a: Vtx[], b: Vtx[]): Vtx[] {
  if (op === 'UNION') {
    const s = new Set(a);
    for (const v of b) s.add(v);
    return Array.from(s);
  }
  const sb = new Set(b);
  return op === 'INTERSECT' ? a.filter((v) => sb.has(v)) : a.filter((v) => !sb.has(v));
}

function setOpValues(op: 'UNION' | 'INTERSECT' | 'MINUS', a: unknown[], b: unknown[]): unknown[] {
  const out: unknown[] = [];
  const has = (xs: unknown[], x: unknown): boolean => xs.some((y) => valuesEqual(x, y));
  if (op === 'UNION') {
    for (const x of [...a, ...b]) if (!has(out, x)) out.push(x);
  } else {
    for (const x of a) if (has(b, x) === (op === 'INTERSECT') && !has(out, x)) out.push(x);
  }
  return out;
}

function bagOpValues(op: 'UNION' | 'INTERSECT' | 'MINUS', a: unknown[], b: unknown[]): unknown[] {
  if (op === 'UNION') return [...a, ...b];
  const rest = [...b];
  const out: unknown[] = [];
  for (const x of a) {
    const i = rest.findIndex((y) => valuesEqual(x, y));
    if (i >= 0) rest.splice(i, 1);
    if (i >= 0 === (op === 'INTERSECT')) out.push(x);
  }
  return out;
}

/**
 * A collection of vertices used where a vertex set is assigned (`S (person) = seedSet;`,
 * `S = @@vertexSet;`): the same vertices as a set, without duplicates. Undefined for other types.
 */
export function asVertexSet(x: Typed): Typed | undefined {
  if (x.t.kind === 'VSET') return x;
  if ((x.t.kind !== 'SET' && x.t.kind !== 'BAG' && x.t.kind !== 'LIST') || x.t.elem.kind !== 'VERTEX')
    return undefined;
  const f = x.f;
  return {
    t: { kind: 'VSET', vertexType: x.t.elem.vertexType },
    f: (ctx) => Array.from(new Set(collectionItems(f(ctx)).filter((v): v is Vtx => v instanceof Vtx))),
  };
}

/** Every vertex of the given types, each once, in type then row order. */
function wholeTypes(ctx: RunContext, typeNames: Iterable<string>): Vtx[] {
  const out: Vtx[] = [];
  for (const tn of new Set(typeNames)) {
    const interned = ctx.internedDense(tn);
    for (const row of ctx.graph.rows(tn)) out.push(interned[row] ?? ctx.intern(tn, row));
  }
  return out;
}

export function compileSeed(cx: Cx, e: Expr & { kind: 'seed' }): Typed {
  const parts: ((ctx: RunContext, out: Set<Vtx>) => void)[] = [];
  // While every item names whole vertex types, the seed is those types' vertices (no Set needed).
  const typeParts: ((ctx: RunContext) => Iterable<string>)[] = [];
  const types = new Set<string | undefined>();
  for (const item of e.items) {
    if (item.kind === 'any') {
      const all = cx.vertexTypeNames();
      types.add(undefined);
      typeParts.push(() => all);
      parts.push((ctx, out) => {
        for (const v of wholeTypes(ctx, all)) out.add(v);
      });
    } else if (item.kind === 'all') {
      // `{v_type.*}` with a STRING parameter naming the type (the algorithm library's style).
      const dynamic = cx.vertexType(item.vertexType)
        ? undefined
        : runtimeTypeNames(cx, item.vertexType, 'vertex');
      if (dynamic) {
        types.add(undefined);
        typeParts.push(dynamic);
        parts.push((ctx, out) => {
          for (const v of wholeTypes(ctx, dynamic(ctx))) out.add(v);
        });
        continue;
      }
      if (!cx.vertexType(item.vertexType)) {
        throw compileError(item.pos, `"${item.vertexType}" is not a vertex type of graph ${cx.graphName}`);
      }
      const tn = [item.vertexType];
      types.add(item.vertexType);
      typeParts.push(() => tn);
      parts.push((ctx, out) => {
        for (const v of wholeTypes(ctx, tn)) out.add(v);
      });
    } else if (item.kind === 'selectVertex') {
      const sv = compileSelectVertex(cx, item);
      types.add(sv.vertexType);
      parts.push(sv.add);
    } else if (item.kind === 'loadAccum') {
      throw compileError(item.pos, 'LOADACCUM(…) fills a global accumulator: @@acc = { LOADACCUM(…) }');
    } else {
      const x = compileExpr(cx, item.expr);
      const f = x.f;
      if (x.t.kind === 'VERTEX') {
        types.add(x.t.vertexType);
        parts.push((ctx, out) => {
          const v = f(ctx);
          if (v instanceof Vtx) out.add(v);
        });
      } else if (
        x.t.kind === 'VSET' ||
        ((x.t.kind === 'SET' || x.t.kind === 'LIST' || x.t.kind === 'BAG') && x.t.elem.kind === 'VERTEX')
      ) {
        types.add(x.t.kind === 'VSET' ? x.t.vertexType : (x.t.elem as { vertexType?: string }).vertexType);
        parts.push((ctx, out) => {
          for (const v of collectionItems(f(ctx))) if (v instanceof Vtx) out.add(v);
        });
      } else if (namesTypes(x.t)) {
        // `{v_type}`, `{v_type_set}`: every vertex of the types named at run time.
        const names = typeNamesOf(cx, x, 'vertex')!;
        types.add(undefined);
        typeParts.push(names);
        parts.push((ctx, out) => {
          for (const v of wholeTypes(ctx, names(ctx))) out.add(v);
        });
      } else {
        throw compileError(item.expr.pos, `a vertex set seed needs vertices, not ${typeText(x.t)}`);
      }
    }
  }
  const only = types.size === 1 ? [...types][0] : undefined;
  if (typeParts.length === e.items.length) {
    const names = (ctx: RunContext): string[] => typeParts.flatMap((p) => [...p(ctx)]);
    return {
      t: { kind: 'VSET', vertexType: only },
      f: (ctx) => wholeTypes(ctx, names(ctx)),
      raw: (ctx) => ctx.typeGids(names(ctx)),
    };
  }
  return {
    t: { kind: 'VSET', vertexType: only },
    f: (ctx) => {
      const out = new Set<Vtx>();
      for (const p of parts) p(ctx, out);
      return Array.from(out);
    },
  };
}
