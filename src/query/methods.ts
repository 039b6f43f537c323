/**
 * Methods of accumulators (size, contains, get, top, pop, …), of collections and of vertices
 * (outdegree, neighbors).
 */
import type { EdgeFilter } from '../engine/api.js';
import type { Expr } from '../gsql/ast-query.js';
import {
  collectionContains,
  collectionItems,
  GroupByAccum,
  HeapAccum,
  ListAccum,
  makeAccum,
  MapAccum,
  SetAccum,
  type Accum,
} from './accumulators.js';
import { arity, num, type Method } from './builtin-args.js';
import { coerce, compileExpr, edgeAccumRef, vaccForUpdate, vertexAccumRef } from './expr-support.js';
import type { RunContext } from './context.js';
import { compileError } from './errors.js';
import type { Cx, Eval, Typed } from './scope.js';
import { accumValueType, T, typeText, type AccumT, type QType, type TupleT } from './types.js';
import { zeroOf } from './accum-scalar.js';
import { ArrayAccum } from './accum-array.js';
import { attrMethod } from './attr-methods.js';
import { compileJsonMethod } from './json-values.js';
import type { QueryFile } from './file-output.js';
import { toJson } from './print.js';
import { typeNamesOf } from './type-names.js';
import { compileTraversal, FILTERABLE } from './neighbor-methods.js';
import { TupleVal, VertexGids, type Vtx, toNumber } from './values.js';

/** A closure yielding the accumulator object an expression names (global or vertex-attached). */
export function accumRef(cx: Cx, e: Expr): { t: AccumT; get: (ctx: RunContext) => Accum } | undefined {
  if (e.kind === 'global') {
    const g = cx.globals.get(e.name);
    if (!g) throw compileError(e.pos, `the global accumulator @@${e.name} is not declared`);
    const slot = g.slot;
    if (e.index) return arrayCell(cx, e, '@@', g.t, (ctx) => ctx.vars[slot] as Accum);
    return { t: g.t, get: (ctx) => ctx.vars[slot] as Accum };
  }
  if (e.kind === 'vattach' && cx.eaccs.has(e.name)) {
    const { t, accums, edge } = edgeAccumRef(cx, e);
    return { t, get: (ctx) => accums(ctx).of(edge(ctx)) };
  }
  // `@x'` is a plain value, not an accumulator to update.
  if (e.kind === 'vattach' && !e.prev) {
    const { va, target } = vertexAccumRef(cx, e);
    const get = (ctx: RunContext): Accum => vaccForUpdate(ctx, target(ctx), va);
    if (e.index) return arrayCell(cx, e, '@', va.t, get);
    return { t: va.t, get };
  }
  return undefined;
}

/** `@@a[i][j]` / `v.@a[i]`: one cell of an ArrayAccum, with one integer index per dimension. */
export function arrayCell(
  cx: Cx,
  e: Expr & { name: string; index?: Expr[] },
  sigil: string,
  t: AccumT,
  array: (ctx: RunContext) => Accum,
): { t: AccumT; get: (ctx: RunContext) => Accum } {
  const index = e.index ?? [];
  const name = sigil + e.name;
  if (t.accum !== 'ArrayAccum') throw compileError(e.pos, `${name} is a ${t.accum}, not an ArrayAccum`);
  if (index.length !== t.dims) {
    throw compileError(
      e.pos,
      `${name} has ${t.dims} dimension${t.dims === 1 ? '' : 's'}, not ${index.length}`,
    );
  }
  const idx = index.map((i) => num(cx, i));
  return {
    t: t.elem as AccumT,
    get: (ctx) => (array(ctx) as ArrayAccum).cell(idx.map((f) => f(ctx))),
  };
}

export function compileMethod(cx: Cx, e: Method): Typed {
  const name = e.name.toLowerCase();
  if (name === 'filter' && e.target.kind === 'method' && FILTERABLE.has(e.target.name.toLowerCase()))
    return compileTraversal(cx, e.target, e);
  if (name === 'neighborattribute' || name === 'edgeattribute') return compileTraversal(cx, e, undefined);
  const acc = accumRef(cx, e.target);
  if (acc) return accumMethod(cx, e, name, acc);
  const target = compileExpr(cx, e.target);
  const tf = target.f;
  if ((name === 'getattr' || name === 'setattr') && (target.t.kind === 'VERTEX' || target.t.kind === 'EDGE'))
    return attrMethod(cx, e, name, target);
  if (target.t.kind === 'VERTEX') return vertexMethod(cx, e, name, tf);
  if (target.t.kind === 'JSONOBJECT' || target.t.kind === 'JSONARRAY')
    return compileJsonMethod(cx, e, name, target);
  const t = target.t;
  if (t.kind === 'FILE') return fileMethod(cx, e, name, tf);
  if (t.kind === 'LIST' || t.kind === 'SET' || t.kind === 'BAG' || t.kind === 'MAP' || t.kind === 'VSET') {
    switch (name) {
      case 'size': {
        arity(e, 0);
        // A vertex set kept as run indexes is counted as it is.
        const rf = target.raw ?? tf;
        return {
          t: T.INT,
          f: (ctx) => {
            const v = rf(ctx);
            return v instanceof VertexGids ? v.length : collectionItems(v).length;
          },
        };
      }
      case 'contains':
      case 'containskey': {
        arity(e, 1);
        const x = compileExpr(cx, e.args[0]).f;
        return { t: T.BOOL, f: (ctx) => collectionContains(tf(ctx), x(ctx)) };
      }
      case 'remove': {
        // `list.remove(i)` on a LIST variable: the variable's list without element i (a copy, so
        // the collection the value came from, e.g. the one a FOREACH walks, is left alone).
        const b = e.target.kind === 'name' ? cx.lookup(e.target.name) : undefined;
        if (t.kind !== 'LIST' || !b) break;
        arity(e, 1);
        const i = num(cx, e.args[0]);
        const slot = b.slot;
        return {
          t: T.VOID,
          f: (ctx) => {
            const k = toNumber(i(ctx));
            const items = collectionItems(ctx.vars[slot]);
            if (k >= 0 && k < items.length) ctx.vars[slot] = items.filter((_, j) => j !== k);
            return null;
          },
        };
      }
      case 'get':
        if (t.kind === 'MAP') {
          arity(e, 1);
          const k = compileExpr(cx, e.args[0]).f;
          return {
            // A nested MapAccum's values are accumulators: get() yields their values.
            t: t.value.kind === 'ACCUM' ? accumValueType(t.value) : t.value,
            f: (ctx) => {
              const m = tf(ctx);
              return m instanceof MapAccum
                ? m.get(k(ctx))
                : ((m as Map<unknown, unknown>).get(k(ctx)) ?? null);
            },
          };
        }
        if (t.kind === 'LIST') {
          arity(e, 1);
          const i = num(cx, e.args[0]);
          return { t: t.elem, f: (ctx) => listGet(collectionItems(tf(ctx)), i(ctx), t.elem) };
        }
    }
  }
  throw compileError(e.namePos, `${typeText(t)} has no method ${e.name}()`);
}

/** `f.println(a, b, …)`: one line of comma-separated fields in the FILE. */
function fileMethod(cx: Cx, e: Method, name: string, tf: Eval): Typed {
  if (name !== 'println') throw compileError(e.namePos, `FILE has no method ${e.name}()`);
  if (e.args.length === 0) throw compileError(e.namePos, 'println needs at least one value');
  const items = e.args.map((a) => compileExpr(cx, a));
  const vaccs = cx.vaccs;
  return {
    t: T.VOID,
    f: (ctx) => {
      (tf(ctx) as QueryFile).println(items.map((x) => toJson(ctx, x.f(ctx), x.t, vaccs)));
      return null;
    },
  };
}

/** get(i) of a list: out of range gives the element type's default, as TigerGraph does. */
function listGet(items: unknown[], i: number, elem: QType): unknown {
  if (i < 0 || i >= items.length || !Number.isInteger(i)) {
    const z = zeroOf(elem);
    return Array.isArray(z) ? [] : z;
  }
  return items[i];
}

/**
 * `@@g.get(k1, k2, …)` of a GroupByAccum: the accumulator fields of that group as a tuple
 * (`.get(1, "a").lists`); a missing group gives their initial values.
 */
function groupGet(cx: Cx, e: Method, t: AccumT, get: (ctx: RunContext) => Accum): Typed {
  const keys = t.groupKeys ?? [];
  const accs = t.groupAccums ?? [];
  arity(e, keys.length);
  const kf = e.args.map((a, i) => coerce(keys[i].type, compileExpr(cx, a), a.pos, `key ${keys[i].name}`));
  const tt: TupleT = {
    kind: 'TUPLE',
    name: 'GroupByAccum',
    fields: accs.map((a) => ({ name: a.name, type: accumValueType(a.type) })),
  };
  return {
    t: tt,
    f: (ctx) => {
      const g = (get(ctx) as GroupByAccum).get(kf.map((f) => f(ctx)));
      const values = g ? g.accs.map((a) => a.value()) : accs.map((a) => makeAccum(a.type).value());
      return new TupleVal(tt, values);
    },
  };
}

function accumMethod(
  cx: Cx,
  e: Method,
  name: string,
  acc: { t: AccumT; get: (ctx: RunContext) => Accum },
): Typed {
  const { t, get } = acc;
  const kind = t.accum;
  const collection = ['ListAccum', 'SetAccum', 'BagAccum', 'MapAccum', 'HeapAccum', 'GroupByAccum'].includes(
    kind,
  );
  const fail = (): never => {
    throw compileError(e.namePos, `${kind} has no method ${e.name}()`);
  };
  switch (name) {
    case 'reallocate': {
      if (kind !== 'ArrayAccum') fail();
      arity(e, t.dims ?? 1);
      const sizes = e.args.map((x) => num(cx, x));
      return {
        t: T.VOID,
        f: (ctx) => {
          (get(ctx) as ArrayAccum).reallocate(sizes.map((s) => s(ctx)));
          return null;
        },
      };
    }
    case 'size':
      if (!collection && kind !== 'ArrayAccum') fail();
      arity(e, 0);
      return {
        t: T.INT,
        f: (ctx) => {
          const a = get(ctx);
          if (a instanceof ArrayAccum) return a.size();
          if (a instanceof MapAccum) return a.entries.size;
          if (a instanceof GroupByAccum) return a.groups.size;
          return collectionItems(a).length;
        },
      };
    case 'contains': {
      if (kind !== 'ListAccum' && kind !== 'SetAccum' && kind !== 'BagAccum') fail();
      arity(e, 1);
      const x = compileExpr(cx, e.args[0]).f;
      return { t: T.BOOL, f: (ctx) => collectionContains(get(ctx), x(ctx)) };
    }
    case 'containskey': {
      if (kind !== 'MapAccum' && kind !== 'GroupByAccum') fail();
      const keys = e.args.map((a) => compileExpr(cx, a).f);
      return {
        t: T.BOOL,
        f: (ctx) => {
          const a = get(ctx);
          if (a instanceof GroupByAccum) return a.get(keys.map((k) => k(ctx))) !== undefined;
          return (a as MapAccum).has(keys[0](ctx));
        },
      };
    }
    case 'get': {
      if (kind === 'GroupByAccum') return groupGet(cx, e, t, get);
      arity(e, 1);
      if (kind === 'MapAccum') {
        const k = compileExpr(cx, e.args[0]).f;
        const vt = t.elem.kind === 'ACCUM' ? accumValueType(t.elem) : t.elem;
        return { t: vt, f: (ctx) => (get(ctx) as MapAccum).get(k(ctx)) };
      }
      if (kind === 'ListAccum') {
        const i = num(cx, e.args[0]);
        return { t: t.elem, f: (ctx) => listGet((get(ctx) as ListAccum).items, i(ctx), t.elem) };
      }
      return fail();
    }
    case 'clear':
      if (!collection) fail();
      arity(e, 0);
      return {
        t: T.VOID,
        f: (ctx) => {
          const a = get(ctx);
          if (a instanceof MapAccum) a.entries.clear();
          else if (a instanceof GroupByAccum) a.groups.clear();
          else if (a instanceof SetAccum) a.items.clear();
          else if (a instanceof ListAccum) a.items = [];
          else if (a instanceof HeapAccum) a.items = [];
          return null;
        },
      };
    case 'remove':
    case 'removeall': {
      if (kind !== 'SetAccum' && kind !== 'BagAccum') fail();
      if (kind === 'SetAccum' && name === 'removeall') fail();
      arity(e, 1);
      const x = compileExpr(cx, e.args[0]).f;
      return {
        t: T.VOID,
        f: (ctx) => {
          const a = get(ctx);
          if (a instanceof SetAccum) a.remove(x(ctx));
          else (a as ListAccum).remove(x(ctx), name === 'removeall');
          return null;
        },
      };
    }
    case 'update': {
      if (kind !== 'ListAccum') fail();
      arity(e, 2);
      const i = num(cx, e.args[0]);
      const x = coerce(t.elem, compileExpr(cx, e.args[1]), e.args[1].pos, 'update()');
      return { t: T.BOOL, f: (ctx) => (get(ctx) as ListAccum).update(i(ctx), x(ctx)) };
    }
    case 'top':
    case 'pop':
      if (kind !== 'HeapAccum') fail();
      arity(e, 0);
      return {
        t: t.elem,
        f: name === 'top' ? (ctx) => (get(ctx) as HeapAccum).top() : (ctx) => (get(ctx) as HeapAccum).pop(),
      };
    case 'resize': {
      if (kind !== 'HeapAccum') fail();
      arity(e, 1);
      const n = num(cx, e.args[0]);
      return { t: T.VOID, f: (ctx) => ((get(ctx) as HeapAccum).resize(n(ctx)), null) };
    }
  }
  return fail();
}

/**
 * The out-edge filters of outdegree()/neighbors(): all edges, one edge type named by a literal, or
 * the types a STRING or SET<STRING> expression names at run time.
 */
export function edgeFilters(cx: Cx, e: Method): (ctx: RunContext) => EdgeFilter[] {
  if (e.args.length === 0) {
    const all = [{ direction: 'out' as const }];
    return () => all;
  }
  const a = e.args[0];
  if (a.kind === 'string') {
    if (!cx.edgeType(a.value))
      throw compileError(a.pos, `"${a.value}" is not an edge type of graph ${cx.graphName}`);
    const one = [{ edgeType: a.value, direction: 'out' as const }];
    return () => one;
  }
  const names = typeNamesOf(cx, compileExpr(cx, a), 'edge');
  if (!names) throw compileError(a.pos, `${e.name}() needs an edge type name or a set of them`);
  let lastNames: string[] | undefined;
  let filters: EdgeFilter[] = [];
  return (ctx) => {
    const n = names(ctx);
    if (n !== lastNames) {
      lastNames = n;
      filters = n.map((edgeType) => ({ edgeType, direction: 'out' as const }));
    }
    return filters;
  };
}

/** outdegree() of (type, row) over the given out-edge filters. */
function outdegreeOf(ctx: RunContext, filters: EdgeFilter[], type: string, row: number): number {
  let n = 0;
  for (const filter of filters) {
    n +=
      filter.edgeType === undefined
        ? ctx.graph.edges(type, row, filter).length
        : ctx.outDegree(filter.edgeType, type, row);
  }
  return n;
}

/** outdegree() of the vertex with run index `gid` (SELECT kernels bind aliases by run index). */
export function outdegreeOfGid(ctx: RunContext, filters: EdgeFilter[], gid: number): number {
  if (filters.every((f) => f.edgeType !== undefined)) return ctx.outDegreeOfGid(filters, gid);
  const i = ctx.typeIndexAt(gid);
  return outdegreeOf(ctx, filters, ctx.typeNameAt(i), gid - ctx.typeStartAt(i));
}

function vertexMethod(cx: Cx, e: Method, name: string, tf: Eval): Typed {
  if (name === 'outdegree' || name === 'neighbors') {
    arity(e, 0, 1);
    const filters = edgeFilters(cx, e);
    if (name === 'outdegree') {
      return {
        t: T.INT,
        f: (ctx) => {
          const v = tf(ctx) as Vtx;
          return outdegreeOf(ctx, filters(ctx), v.type, v.row);
        },
      };
    }
    return {
      t: { kind: 'BAG', elem: T.VERTEX },
      f: (ctx) => {
        const v = tf(ctx) as Vtx;
        return filters(ctx).flatMap((filter) =>
          ctx.graph.edges(v.type, v.row, filter).map((h) => ctx.vertex(h.tgtType, h.tgtRow)),
        );
      },
    };
  }
  throw compileError(e.namePos, `a vertex has no method ${e.name}()`);
}
