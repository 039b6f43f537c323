/**
 * Virtual edges, compiled: `CREATE DIRECTED|UNDIRECTED VIRTUAL EDGE` declares an edge type known to
 * the rest of the query (patterns, attribute reads, edge accumulators type-check against it), and
 * `INSERT INTO` it adds edges to the run's virtual-edge graph (virtual-edge-graph.ts) instead of
 * recording a change to the database. Nothing of a virtual edge outlives the run.
 */
import type { AttrType, EdgeType } from '../catalog/types.js';
import type { Value } from '../catalog/value.js';
import type { Pos, Stmt, TypeExpr, VirtualEdgeDecl } from '../gsql/ast-query.js';
import type { RunContext } from './context.js';
import { compileError } from './errors.js';
import { coerce, compileExpr } from './expr-support.js';
import type { QueryGraph } from './graph.js';
import { Flow, type Cx, type Eval, type RowStmt } from './scope.js';
import { attrTypeToQ, typeText } from './types.js';
import { QueryRuntimeError, Vtx } from './values.js';
import { VirtualEdgeGraph, virtualEdgesOf } from './virtual-edge-graph.js';

/** The attribute types a virtual edge may have: GSQL's base types. */
function attrType(t: TypeExpr): AttrType | undefined {
  if (t.kind !== 'base') return undefined;
  switch (t.name) {
    case 'INT':
    case 'UINT':
      return { kind: t.name, bytes: 8 };
    case 'STRING':
      return { kind: 'STRING', compress: false };
    default:
      return { kind: t.name };
  }
}

/**
 * Refuses a virtual edge declared inside IF, WHILE, FOREACH, CASE or TRY: a type of the query must
 * not depend on its control flow, so declarations stand at the top level of the body.
 */
export function checkVirtualEdgePlaces(body: readonly Stmt[]): void {
  for (const s of body) if (s.kind !== 'createVirtualEdge') findNested(s);
}

function findNested(v: unknown): void {
  if (Array.isArray(v)) {
    for (const x of v) findNested(x);
    return;
  }
  if (typeof v !== 'object' || v === null) return;
  const node = v as { kind?: unknown; pos?: Pos; name?: unknown };
  if (node.kind === 'createVirtualEdge' && node.pos) {
    throw compileError(
      node.pos,
      `virtual edge ${String(node.name)} must be declared at the top level of the query body`,
    );
  }
  for (const x of Object.values(v)) findNested(x);
}

/** Checks a declaration and makes its type known to the rest of the query. */
export function compileCreateVirtualEdge(cx: Cx, s: VirtualEdgeDecl): RowStmt {
  if (cx.clause !== 'body') throw compileError(s.pos, `CREATE VIRTUAL EDGE is not allowed in ${cx.clause}`);
  // TigerGraph runs virtual edges in distributed queries only; an anonymous INTERPRET QUERY
  // cannot say DISTRIBUTED, so it is let through.
  if (!cx.distributed && cx.queryName !== '') {
    throw compileError(
      s.pos,
      `virtual edge ${s.name} needs a distributed query: write CREATE DISTRIBUTED QUERY ${cx.queryName}`,
    );
  }
  if (cx.virtualEdges.has(s.name))
    throw compileError(s.namePos, `the virtual edge type ${s.name} is already declared in this query`);
  if (cx.edgeType(s.name) || cx.catalog.edgeTypes.some((e) => e.name === s.name || e.reverseEdge === s.name))
    throw compileError(s.namePos, `"${s.name}" is already an edge type; a virtual edge needs a new name`);
  if (cx.catalog.vertexTypes.some((v) => v.name === s.name))
    throw compileError(s.namePos, `"${s.name}" is a vertex type; a virtual edge needs a new name`);
  for (const end of [...s.from, ...s.to]) {
    if (!cx.vertexType(end.name))
      throw compileError(end.pos, `"${end.name}" is not a vertex type of graph ${cx.graphName}`);
  }
  const seen = new Set<string>();
  const defaults: Eval[] = [];
  const attributes = s.attributes.map((a) => {
    if (seen.has(a.name)) throw compileError(a.pos, `the attribute ${a.name} is declared twice`);
    seen.add(a.name);
    const type = attrType(a.type);
    if (!type) {
      throw compileError(
        a.type.pos,
        `attribute ${a.name} of virtual edge ${s.name}: its type must be INT, UINT, FLOAT, DOUBLE, STRING, BOOL or DATETIME`,
      );
    }
    const q = attrTypeToQ(type);
    defaults.push(
      a.default
        ? coerce(q, compileExpr(cx, a.default), a.default.pos, `the DEFAULT of attribute ${a.name}`)
        : zeroValue(type),
    );
    return { name: a.name, type };
  });
  const def: EdgeType = {
    name: s.name,
    directed: s.directed,
    pairs: s.from.flatMap((f) => s.to.map((t) => ({ from: f.name, to: t.name }))),
    attributes,
    discriminator: [],
  };
  cx.virtualEdges.set(s.name, def);
  const name = s.name;
  // The defaults are computed when the declaration runs (they may read parameters).
  return (ctx) => {
    const g = virtualEdgesOf(ctx.graph);
    if (g) g.set(name).defaults = defaults.map((f) => f(ctx) as Value);
    return Flow.Next;
  };
}

function zeroValue(t: AttrType): Eval {
  const v: Value = t.kind === 'STRING' ? '' : t.kind === 'BOOL' ? false : 0;
  return () => v;
}

/** `INSERT INTO V [(FROM, TO, a, …)] VALUES (from, to, a, …)` for a virtual edge type V. */
export function compileVirtualInsert(cx: Cx, s: Stmt & { kind: 'insert' }, def: EdgeType): RowStmt {
  const cols = s.columns ?? ['FROM', 'TO', ...def.attributes.map((a) => a.name)];
  if (cols.length !== s.values.length) {
    throw compileError(
      s.pos,
      `INSERT INTO ${def.name} needs ${cols.length} values, but ${s.values.length} are given`,
    );
  }
  let fromF: Eval | undefined;
  let toF: Eval | undefined;
  const given = new Map<number, Eval>();
  cols.forEach((c, i) => {
    const v = s.values[i];
    const side = c.toUpperCase() === 'FROM' ? 'from' : c.toUpperCase() === 'TO' ? 'to' : undefined;
    if (side) {
      if (v.vertexType !== undefined)
        throw compileError(
          v.expr.pos,
          `the ${c.toUpperCase()} end of virtual edge ${def.name} must be a vertex, not an id`,
        );
      const x = compileExpr(cx, v.expr);
      if (x.t.kind !== 'VERTEX')
        throw compileError(
          v.expr.pos,
          `the ${c.toUpperCase()} end of ${def.name} must be a vertex, not ${typeText(x.t)}`,
        );
      const allowed = new Set(def.pairs.map((p) => p[side]));
      if (x.t.vertexType !== undefined && !allowed.has(x.t.vertexType))
        throw compileError(
          v.expr.pos,
          `${def.name} does not go ${side} ${x.t.vertexType}: its ${c.toUpperCase()} types are ${[...allowed].join(', ')}`,
        );
      if (side === 'from') fromF = x.f;
      else toF = x.f;
      return;
    }
    const a = def.attributes.findIndex((x) => x.name === c);
    if (a < 0) throw compileError(s.pos, `"${c}" is not an attribute of virtual edge ${def.name}`);
    const q = attrTypeToQ(def.attributes[a].type);
    given.set(a, coerce(q, compileExpr(cx, v.expr), v.expr.pos, `attribute ${c} of ${def.name}`));
  });
  if (!fromF || !toF) throw compileError(s.pos, `INSERT INTO ${def.name} needs FROM and TO`);
  const from = fromF;
  const to = toF;
  const name = def.name;
  const count = def.attributes.length;
  const pairs = new Set(def.pairs.map((p) => `${p.from}>${p.to}`));
  return (ctx) => {
    const a = endpoint(from(ctx), name, 'FROM');
    const b = endpoint(to(ctx), name, 'TO');
    if (!pairs.has(`${a.type}>${b.type}`))
      throw new QueryRuntimeError(`Runtime Error: ${name} does not connect ${a.type} to ${b.type}.`);
    const set = graphOf(ctx, name).set(name);
    const attrs: Value[] = [];
    for (let i = 0; i < count; i++) {
      const f = given.get(i);
      attrs.push(f ? (f(ctx) as Value) : set.defaults[i]);
    }
    set.insert(a.type, a.row, b.type, b.row, attrs);
    return Flow.Next;
  };
}

function endpoint(v: unknown, name: string, side: string): Vtx {
  if (v instanceof Vtx) return v;
  throw new QueryRuntimeError(`Runtime Error: the ${side} end of virtual edge ${name} is not a vertex.`);
}

function graphOf(ctx: RunContext, name: string): VirtualEdgeGraph {
  const g = virtualEdgesOf(ctx.graph);
  if (!g) throw new QueryRuntimeError(`Runtime Error: virtual edge ${name} is not declared in this run.`);
  return g;
}

/** The graph a run of a query with virtual edge types reads (the snapshot itself when it has none). */
export function runGraph(cx: Cx, graph: QueryGraph): QueryGraph {
  if (cx.virtualEdges.size === 0) return graph;
  return new VirtualEdgeGraph(graph, cx.graphName, [...cx.virtualEdges.values()]);
}

/** Before a SELECT over virtual edges starts: the edges inserted so far become visible. */
export function flushVirtualEdges(ctx: RunContext): void {
  virtualEdgesOf(ctx.graph)?.flush();
}
