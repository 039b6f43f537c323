/**
 * Data changes made by a query (attribute updates, INSERT INTO, DELETE). They are recorded while the
 * query runs and applied, in order, in one write transaction when it ends; a run-time error before
 * then leaves the graph unchanged.
 */
import type { EdgeType } from '../catalog/types.js';
import type { AttrUpdate, ExternalId } from '../engine/api.js';
import { Tuple, VertexRef, type Primitive, type Value } from '../catalog/value.js';
import type { Stmt } from '../gsql/ast-query.js';
import { collectionItems, GroupByAccum, MapAccum } from './accumulators.js';
import { compileExpr } from './expr-support.js';
import type { RunContext } from './context.js';
import { compileError } from './errors.js';
import type { QueryWriter } from './graph.js';
import type { Cx, Eval, RowStmt } from './scope.js';
import { Flow } from './scope.js';
import { typeText } from './types.js';
import { runtimeTypeNames } from './type-names.js';
import { QueryRuntimeError, TupleVal, Vtx } from './values.js';
import { compileVirtualInsert } from './virtual-edge.js';

/** A run-time value in the form the engine stores. */
export function toStored(tx: Pick<QueryWriter, 'vertexId'>, v: unknown): Value {
  if (v instanceof Vtx) return new VertexRef(v.type, tx.vertexId(v.type, v.row));
  if (v instanceof TupleVal)
    return new Tuple(
      v.type.name,
      v.values.map((x) => toStored(tx, x)),
    );
  if (v instanceof MapAccum) {
    const m = new Map<Primitive, Value>();
    for (const { key, acc } of v.entries.values()) m.set(key as Primitive, toStored(tx, acc.value()));
    return m;
  }
  if (v instanceof Map) {
    const m = new Map<Primitive, Value>();
    for (const [k, x] of v) m.set(k as Primitive, toStored(tx, x));
    return m;
  }
  if (Array.isArray(v) || (typeof v === 'object' && v !== null && !(v instanceof GroupByAccum))) {
    return collectionItems(v).map((x) => toStored(tx, x));
  }
  return v as Value;
}

export function attrUpdate(tx: QueryWriter, v: unknown): AttrUpdate {
  return { value: toStored(tx, v), op: 'set' };
}

/** An id for the engine: a vertex's external id, or a scalar as given. */
function idOf(tx: QueryWriter, v: unknown): ExternalId {
  if (v instanceof Vtx) return tx.vertexId(v.type, v.row);
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'string') return v;
  return String(v);
}

export function compileInsert(cx: Cx, s: Stmt & { kind: 'insert' }): RowStmt {
  const virtual = cx.virtualEdges.get(s.typeName);
  if (virtual) return compileVirtualInsert(cx, s, virtual);
  const vt = cx.vertexType(s.typeName);
  const et = vt ? undefined : cx.edgeType(s.typeName);
  if (!vt && !et && !s.columns) {
    const names = runtimeTypeNames(cx, s.typeName, 'edge');
    if (names) return compileRuntimeEdgeInsert(cx, s, names);
  }
  if (!vt && !et)
    throw compileError(s.typePos, `"${s.typeName}" is not a vertex or edge type of graph ${cx.graphName}`);
  const values = s.values.map((v) => ({
    ...compileExpr(cx, v.expr),
    vertexType: v.vertexType,
    pos: v.expr.pos,
  }));
  if (vt) {
    const attrNames =
      vt.keyKind === 'primary_id' ? vt.attributes.map((a) => a.name) : vt.attributes.map((a) => a.name);
    const cols = s.columns ?? (vt.keyKind === 'primary_id' ? ['PRIMARY_ID', ...attrNames] : attrNames);
    if (cols.length !== values.length) {
      throw compileError(
        s.pos,
        `INSERT INTO ${vt.name} needs ${cols.length} values, but ${values.length} are given`,
      );
    }
    const idIndex =
      vt.keyKind === 'primary_id'
        ? cols.findIndex((c) => c.toUpperCase() === 'PRIMARY_ID' || c === vt.primaryId.name)
        : cols.indexOf(vt.keyAttributes[0]);
    if (idIndex < 0) throw compileError(s.pos, `INSERT INTO ${vt.name} needs the primary id`);
    const attrCols = cols
      .map((c, i) => ({ c, i }))
      .filter(({ i }) => i !== idIndex || vt.keyKind !== 'primary_id')
      .map(({ c, i }) => {
        if (!attrNames.includes(c))
          throw compileError(s.pos, `"${c}" is not an attribute of vertex type ${vt.name}`);
        return { name: c, f: values[i].f };
      });
    const idF = values[idIndex].f;
    const name = vt.name;
    return (ctx) => {
      const id = idF(ctx);
      const attrs = attrCols.map((a) => [a.name, a.f(ctx)] as const);
      ctx.dml.push((tx) => {
        const up: Record<string, AttrUpdate> = {};
        for (const [n, v] of attrs) up[n] = attrUpdate(tx, v);
        tx.upsertVertex(name, idOf(tx, id), up);
      });
      return Flow.Next;
    };
  }
  const edge = et!;
  const attrNames = edge.attributes.map((a) => a.name);
  const cols = s.columns ?? ['FROM', 'TO', ...attrNames];
  if (cols.length !== values.length) {
    throw compileError(
      s.pos,
      `INSERT INTO ${edge.name} needs ${cols.length} values, but ${values.length} are given`,
    );
  }
  const endpoint = (i: number, side: 'from' | 'to'): { f: Eval; type: (v: unknown) => string } => {
    const v = values[i];
    const declared = v.vertexType ?? (v.t.kind === 'VERTEX' ? v.t.vertexType : undefined);
    const candidates = [...new Set(edge.pairs.map((p) => p[side]))].filter((t) => t !== '*');
    if (declared && !cx.vertexType(declared)) throw compileError(v.pos, `"${declared}" is not a vertex type`);
    const fixed = declared ?? (candidates.length === 1 ? candidates[0] : undefined);
    if (!fixed && v.t.kind !== 'VERTEX') {
      throw compileError(
        v.pos,
        `the ${side.toUpperCase()} vertex type of ${edge.name} is ambiguous; write it after the id`,
      );
    }
    return { f: v.f, type: (x) => (x instanceof Vtx ? x.type : fixed!) };
  };
  const fi = cols.findIndex((c) => c.toUpperCase() === 'FROM');
  const ti = cols.findIndex((c) => c.toUpperCase() === 'TO');
  if (fi < 0 || ti < 0) throw compileError(s.pos, `INSERT INTO ${edge.name} needs FROM and TO`);
  const from = endpoint(fi, 'from');
  const to = endpoint(ti, 'to');
  const attrCols = cols
    .map((c, i) => ({ c, i }))
    .filter(({ i }) => i !== fi && i !== ti)
    .map(({ c, i }) => {
      if (!attrNames.includes(c))
        throw compileError(s.pos, `"${c}" is not an attribute of edge type ${edge.name}`);
      return { name: c, f: values[i].f };
    });
  const name = edge.name;
  return (ctx) => {
    const a = from.f(ctx);
    const b = to.f(ctx);
    const attrs = attrCols.map((x) => [x.name, x.f(ctx)] as const);
    ctx.dml.push((tx) => {
      const up: Record<string, AttrUpdate> = {};
      for (const [n, v] of attrs) up[n] = attrUpdate(tx, v);
      tx.upsertEdge(name, from.type(a), idOf(tx, a), to.type(b), idOf(tx, b), up, {
        createMissingEndpoints: true,
      });
    });
    return Flow.Next;
  };
}

/**
 * `INSERT INTO EDGE e VALUES (from, to, attrs…)` where e is a STRING parameter naming the edge type
 * (the library's `similarity_edge_type`): the type and its attribute count are checked when the
 * statement runs.
 */
function compileRuntimeEdgeInsert(
  cx: Cx,
  s: Stmt & { kind: 'insert' },
  names: (ctx: RunContext) => string[],
): RowStmt {
  const values = s.values.map((v) => compileExpr(cx, v.expr).f);
  const declared = s.values.map((v) => v.vertexType);
  const catalog = cx.catalog;
  const endpointType = (edge: EdgeType, side: 'from' | 'to', v: unknown, i: number): string => {
    if (v instanceof Vtx) return v.type;
    const given = declared[i];
    if (given) return given;
    const candidates = [...new Set(edge.pairs.map((p) => p[side]))].filter((t) => t !== '*');
    if (candidates.length === 1) return candidates[0];
    throw new QueryRuntimeError(
      `Runtime Error: the ${side.toUpperCase()} vertex type of ${edge.name} is ambiguous; write it after the id.`,
    );
  };
  return (ctx) => {
    const given = names(ctx);
    if (given.length !== 1) {
      throw new QueryRuntimeError(
        `Runtime Error: INSERT INTO needs one edge type name, not ${given.length}.`,
      );
    }
    const name = given[0];
    const edge = catalog.edgeTypes.find((e) => e.name === name);
    if (!edge)
      throw new QueryRuntimeError(
        `Runtime Error: "${name}" is a reverse edge type; insert into ${catalog.edgeTypes.find((e) => e.reverseEdge === name)?.name} instead.`,
      );
    if (values.length !== 2 + edge.attributes.length) {
      throw new QueryRuntimeError(
        `Runtime Error: INSERT INTO ${edge.name} needs ${2 + edge.attributes.length} values, but ${values.length} are given.`,
      );
    }
    const vals = values.map((f) => f(ctx));
    const [a, b] = vals;
    const fromType = endpointType(edge, 'from', a, 0);
    const toType = endpointType(edge, 'to', b, 1);
    ctx.dml.push((tx) => {
      const up: Record<string, AttrUpdate> = {};
      edge.attributes.forEach((attr, i) => (up[attr.name] = attrUpdate(tx, vals[i + 2])));
      tx.upsertEdge(edge.name, fromType, idOf(tx, a), toType, idOf(tx, b), up, {
        createMissingEndpoints: true,
      });
    });
    return Flow.Next;
  };
}

/** `DELETE (x)` inside ACCUM/POST-ACCUM: deletes the vertex or edge bound to alias x. */
export function compileDeleteAlias(cx: Cx, s: Stmt & { kind: 'delete' }): RowStmt {
  const b = cx.lookup(s.alias);
  if (!b) throw compileError(s.pos, `"${s.alias}" is not defined`);
  const slot = b.slot;
  const alias = b.aliasTypes !== undefined;
  if (b.t.kind === 'VERTEX') {
    return (ctx) => {
      const v = alias
        ? ((ctx.vars[slot] as Vtx | undefined) ?? ctx.aliasVertex(slot))
        : (ctx.vars[slot] as Vtx);
      ctx.dml.push((tx) => void tx.deleteVertex(v.type, tx.vertexId(v.type, v.row)));
      return Flow.Next;
    };
  }
  if (b.t.kind === 'EDGE') {
    const virtual = (b.edgeTypes ?? (b.t.edgeType ? [b.t.edgeType] : [])).find((n) => cx.virtualEdges.has(n));
    if (virtual !== undefined)
      throw compileError(s.pos, `a virtual edge (${virtual}) cannot be deleted; it ends with the query`);
    return (ctx) => {
      const h = (ctx.vars[slot] as { handle: Parameters<QueryWriter['deleteEdgeHandle']>[0] }).handle;
      // Virtual edges (negative blocks) live in the run only.
      if (h.block < 0) return Flow.Next;
      ctx.dml.push((tx) => void tx.deleteEdgeHandle(h));
      return Flow.Next;
    };
  }
  throw compileError(s.pos, `DELETE needs a vertex or edge alias, but "${s.alias}" is ${typeText(b.t)}`);
}

/** Records the deletion of every vertex of a vertex set (DELETE s FROM …). */
export function deleteVertices(ctx: RunContext, vs: Vtx[]): void {
  for (const v of vs) ctx.dml.push((tx) => void tx.deleteVertex(v.type, tx.vertexId(v.type, v.row)));
}
