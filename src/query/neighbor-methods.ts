/**
 * `v.neighborAttribute(edgeType, targetType, attr)`, `v.edgeAttribute(edgeType, attr)` and
 * `.filter(cond)` after them or after `v.neighbors(…)`: bags gathered over v's out-edges (and
 * undirected edges). Inside `filter`, the edge type's name stands for the edge being looked at and
 * a target vertex type's name for the neighbour (`worksFor.startYear >= yr`, `company.country`).
 */
import type { Expr } from '../gsql/ast-query.js';
import type { EdgeFilter, EdgeHandle } from '../engine/api.js';
import { compileExpr, expectType, fromStored, vertexAttribute } from './expr-support.js';
import type { RunContext } from './context.js';
import { compileError } from './errors.js';
import type { Cx, Eval, Typed } from './scope.js';
import { attrTypeToQ, T, typeText, type QType } from './types.js';
import { EdgeVal, QueryRuntimeError, Vtx } from './values.js';

type Method = Expr & { kind: 'method' };

/** The methods `filter` may follow. */
export const FILTERABLE = new Set(['neighbors', 'neighborattribute', 'edgeattribute']);

function literal(e: Method, i: number, what: string): string {
  const a = e.args[i];
  if (a?.kind !== 'string')
    throw compileError(a?.pos ?? e.namePos, `${e.name}() needs ${what} as a string literal`);
  return a.value;
}

/** Compiles `traversal` (one of FILTERABLE, on a vertex) with an optional `.filter(cond)`. */
export function compileTraversal(cx: Cx, traversal: Method, filter: Method | undefined): Typed {
  const name = traversal.name.toLowerCase();
  const vertex = compileExpr(cx, traversal.target);
  if (vertex.t.kind !== 'VERTEX')
    throw compileError(traversal.namePos, `${traversal.name}() needs a vertex, not ${typeText(vertex.t)}`);
  const arity = name === 'neighbors' ? [0, 1] : name === 'edgeattribute' ? [2, 2] : [3, 3];
  if (traversal.args.length < arity[0] || traversal.args.length > arity[1])
    throw compileError(
      traversal.namePos,
      `${traversal.name}() takes ${arity[0] === arity[1] ? arity[0] : `${arity[0]} or ${arity[1]}`} arguments`,
    );
  if (filter && filter.args.length !== 1) throw compileError(filter.namePos, 'filter() takes one condition');
  const edgeType = traversal.args.length > 0 ? literal(traversal, 0, 'the edge type') : undefined;
  const et = edgeType === undefined ? undefined : cx.edgeType(edgeType);
  if (edgeType !== undefined && !et)
    throw compileError(traversal.args[0].pos, `"${edgeType}" is not an edge type of graph ${cx.graphName}`);

  let targetType: string | undefined;
  let elem: QType = T.VERTEX;
  let pick: (ctx: RunContext, h: EdgeHandle) => unknown = (ctx, h) => ctx.vertex(h.tgtType, h.tgtRow);
  const tuples = cx.tuples;
  if (name === 'neighborattribute') {
    targetType = literal(traversal, 1, 'the target vertex type');
    const attr = literal(traversal, 2, 'the attribute name');
    const vt = cx.vertexType(targetType);
    if (!vt)
      throw compileError(
        traversal.args[1].pos,
        `"${targetType}" is not a vertex type of graph ${cx.graphName}`,
      );
    const a = vertexAttribute(vt, attr);
    if (!a)
      throw compileError(traversal.args[2].pos, `"${attr}" is not an attribute of vertex type ${targetType}`);
    elem = attrTypeToQ(a.type, cx.catalog.tuples);
    pick = (ctx, h) => fromStored(ctx, ctx.graph.attr(h.tgtType, h.tgtRow, attr), tuples);
  } else if (name === 'edgeattribute') {
    const attr = literal(traversal, 1, 'the attribute name');
    const a = et?.attributes.find((x) => x.name === attr);
    if (!a)
      throw compileError(traversal.args[1].pos, `"${attr}" is not an attribute of edge type ${edgeType}`);
    elem = attrTypeToQ(a.type, cx.catalog.tuples);
    pick = (ctx, h) => fromStored(ctx, ctx.graph.edgeAttr(h, attr), tuples);
  }
  const edgeFilter: EdgeFilter = { edgeType, targetType, direction: 'out' };

  // The names a filter condition may use: the edge type, and each vertex type the edges reach.
  const cond = filter
    ? cx.nested(() => {
        const edgeSlot =
          edgeType !== undefined
            ? cx.declare(edgeType, { kind: 'EDGE', edgeType }, filter.namePos, true).slot
            : -1;
        const reached = targetType
          ? [targetType]
          : et
            ? [...new Set(et.pairs.flatMap((p) => (et.directed ? [p.to] : [p.from, p.to])))].filter(
                (n) => n !== '*',
              )
            : [];
        const vertexSlots = new Map<string, number>();
        for (const n of reached) {
          if (n === edgeType) continue;
          vertexSlots.set(n, cx.declare(n, { kind: 'VERTEX', vertexType: n }, filter.namePos, true).slot);
        }
        const c = compileExpr(cx, filter.args[0]);
        expectType(c, T.BOOL, filter.args[0].pos, 'filter()');
        return { edgeSlot, vertexSlots: [...vertexSlots], f: c.f };
      })
    : undefined;

  const vf: Eval = vertex.f;
  return {
    t: { kind: 'BAG', elem },
    f: (ctx) => {
      const v = vf(ctx);
      if (!(v instanceof Vtx))
        throw new QueryRuntimeError(`Runtime Error: ${traversal.name}() of a NULL vertex.`, 'GSQL-1001');
      const out: unknown[] = [];
      for (const h of ctx.graph.edges(v.type, v.row, edgeFilter)) {
        if (cond) {
          if (cond.edgeSlot >= 0) ctx.vars[cond.edgeSlot] = new EdgeVal(h);
          for (const [type, slot] of cond.vertexSlots)
            ctx.vars[slot] = type === h.tgtType ? ctx.vertex(h.tgtType, h.tgtRow) : null;
          if (cond.f(ctx) !== true) continue;
        }
        out.push(pick(ctx, h));
      }
      return out;
    },
  };
}
