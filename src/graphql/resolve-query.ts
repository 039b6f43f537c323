/**
 * Resolution of the query side: the vertex lists of the graph type (filter, sort, paginate), the
 * edge fields of vertex types (computed once per batch of source vertices) and `to`.
 */
import type { GraphQLResolveInfo } from 'graphql';
import type { Attribute, Catalog } from '../catalog/types.js';
import type { ExternalId, ReadTx } from '../engine/api.js';
import { compileFilter, GraphQLRequestError, type AttrReader } from './filter.js';
import type { EdgeFieldModel, VertexModel } from './model.js';
import { paginate, sortItems, sortKeys } from './order.js';
import {
  argsKey,
  edgeReader,
  newBatch,
  vertexObj,
  vertexReader,
  type EdgeObj,
  type RequestContext,
  type VertexObj,
} from './runtime.js';
import { compileWhereExpr, type WhereExpr } from './where-expr.js';

export interface FilterArgs {
  where?: Record<string, unknown> | null;
  whereExpr?: string | null;
}

export interface ListArgs extends FilterArgs {
  order_by?: Record<string, unknown> | null;
  limit?: number | null;
  offset?: number | null;
}

/** What a filter is about: the type's name in messages and its attributes. */
export interface FilterSubject {
  name: string;
  kind: 'vertex' | 'edge';
  attributes: readonly Attribute[];
}

/** Compiled whereExprs of one schema (the schema is rebuilt, and this dropped, on a catalog change). */
export class WhereExprCache {
  private readonly compiled = new Map<string, WhereExpr>();

  constructor(
    private readonly catalog: Catalog,
    private readonly graph: string,
  ) {}

  get(subject: FilterSubject, text: string): WhereExpr {
    const key = `${subject.kind}:${subject.name}:${text}`;
    let w = this.compiled.get(key);
    if (!w) {
      w = compileWhereExpr(
        text,
        subject.attributes,
        this.catalog,
        this.graph,
        `${subject.kind} type '${subject.name}'`,
      );
      this.compiled.set(key, w);
    }
    return w;
  }
}

/** The predicate of `where`/`whereExpr`, or undefined when neither is given. */
export function predicateOf(
  ctx: RequestContext,
  cache: WhereExprCache,
  subject: FilterSubject,
  args: FilterArgs,
  tx: ReadTx,
): ((read: AttrReader) => boolean) | undefined {
  const hasWhere = args.where !== undefined && args.where !== null;
  const hasExpr = args.whereExpr !== undefined && args.whereExpr !== null;
  if (hasWhere && hasExpr) {
    throw new GraphQLRequestError(
      `where and whereExpr cannot be used at the same time (on ${subject.name}).`,
    );
  }
  if (hasWhere) {
    // `to(where: …)` runs once per edge: compile each distinct filter once per request.
    const key = argsKey(`where:${subject.kind}:${subject.name}`, args.where as Record<string, unknown>);
    let p = ctx.predicates.get(key);
    if (!p) ctx.predicates.set(key, (p = compileFilter(args.where as Record<string, unknown>)));
    return p;
  }
  if (!hasExpr) return undefined;
  const text = args.whereExpr as string;
  const key = `${subject.kind}:${subject.name}:${text}`;
  let p = ctx.predicates.get(key);
  // A predicate is bound to the request's first snapshot; mutation results on newer snapshots rebind.
  if (!p || tx !== ctx.tx) {
    p = cache.get(subject, text).bind(tx);
    if (tx === ctx.tx) ctx.predicates.set(key, p);
  }
  return p;
}

/** A vertex list of the graph type: every live vertex of the type, filtered, sorted, paginated. */
export function resolveVertexList(
  ctx: RequestContext,
  cache: WhereExprCache,
  vm: VertexModel,
  args: ListArgs,
  info: GraphQLResolveInfo,
): VertexObj[] {
  const tx = ctx.tx;
  const type = vm.type.name;
  const subject: FilterSubject = { name: type, kind: 'vertex', attributes: vm.attributes };
  const test = predicateOf(ctx, cache, subject, args, tx);
  const ids = idSeek(vm, args.where);
  let rows = ids ? seek(tx, type, ids) : Array.from(tx.rows(type));
  if (test) rows = rows.filter((row) => test((name) => tx.attr(type, row, name)));
  const keys = sortKeys(info.fieldNodes[0], args.order_by ?? undefined, ctx.rawVariables);
  rows = sortItems(rows, keys, (row, a) => tx.attr(type, row, a));
  rows = paginate(rows, args.limit, args.offset, keys.length > 0, `'${info.fieldName}'`);
  const batch = newBatch(tx);
  return rows.map((row) => vertexObj(batch, type, row));
}

/**
 * The ids a filter names when it is only `{<primary id>: {_eq: v}}` or `{_in: [...]}`: those
 * vertices are looked up instead of scanning the type (the filter still runs on them).
 */
function idSeek(
  vm: VertexModel,
  where: Record<string, unknown> | null | undefined,
): ExternalId[] | undefined {
  const vt = vm.type;
  if (!where || vt.keyKind === 'composite' || !['INT', 'UINT', 'STRING'].includes(vt.primaryId.type.kind)) {
    return undefined;
  }
  const members = Object.entries(where).filter(([, v]) => v !== null && v !== undefined);
  const idName = vt.keyKind === 'primary_id' ? vt.primaryId.name : vt.keyAttributes[0];
  if (members.length !== 1 || members[0][0] !== idName) return undefined;
  const ops = Object.entries(members[0][1] as Record<string, unknown>).filter(
    ([, v]) => v !== null && v !== undefined,
  );
  if (ops.length !== 1) return undefined;
  const [op, value] = ops[0];
  if (op === '_eq') return [value as ExternalId];
  if (op === '_in') return value as ExternalId[];
  return undefined;
}

/** Rows of the live vertices with these ids, in row order (the order a scan gives), once each. */
function seek(tx: ReadTx, type: string, ids: readonly ExternalId[]): number[] {
  const rows = new Set<number>();
  for (const id of ids) {
    const row = tx.lookup(type, id);
    if (row !== undefined) rows.add(row);
  }
  return [...rows].sort((a, b) => a - b);
}

/** Number of vertices a `<V>_aggregate` field counts. */
export function countVertices(
  ctx: RequestContext,
  cache: WhereExprCache,
  vm: VertexModel,
  args: FilterArgs,
): number {
  const tx = ctx.tx;
  const type = vm.type.name;
  const subject: FilterSubject = { name: type, kind: 'vertex', attributes: vm.attributes };
  const test = predicateOf(ctx, cache, subject, args, tx);
  if (!test) return tx.vertexCount(type);
  let n = 0;
  for (const row of tx.rows(type)) if (test((name) => tx.attr(type, row, name))) n++;
  return n;
}

/**
 * An edge field of a vertex: computed for every vertex of the parent's batch at the first call
 * (all their targets form one batch for the next hop), then answered from the batch's cache.
 */
export function resolveEdgeField(
  ctx: RequestContext,
  cache: WhereExprCache,
  em: EdgeFieldModel,
  parent: VertexObj,
  args: ListArgs,
  info: GraphQLResolveInfo,
): EdgeObj[] {
  const batch = parent.batch;
  const key = argsKey(info.fieldName, args as Record<string, unknown>);
  let computed = batch.edges.get(key);
  if (!computed) {
    const tx = batch.tx;
    const subject: FilterSubject = { name: em.edgeType, kind: 'edge', attributes: em.attributes };
    const test = predicateOf(ctx, cache, subject, args, tx);
    const keys = sortKeys(info.fieldNodes[0], args.order_by ?? undefined, ctx.rawVariables);
    const targets = newBatch(tx);
    computed = new Map();
    for (const v of batch.items) {
      if (computed.has(v.row) || v.type !== parent.type) continue;
      let edges: EdgeObj[] = tx
        .edges(v.type, v.row, { edgeType: em.edgeType, targetType: em.targetType })
        .map((handle) => ({
          tx,
          handle,
          source: v,
          target: { batch: targets, type: em.targetType, row: handle.tgtRow },
        }));
      if (test) edges = edges.filter((e) => test(edgeReader(e)));
      edges = sortItems(edges, keys, (e, a) => tx.edgeAttr(e.handle, a));
      edges = paginate(edges, args.limit, args.offset, keys.length > 0, `'${info.fieldName}'`);
      for (const e of edges) targets.items.push(e.target);
      computed.set(v.row, edges);
    }
    batch.edges.set(key, computed);
  }
  return computed.get(parent.row) ?? [];
}

/** The `to` (or `from`) vertex of an edge; null when it does not pass the field's filter. */
export function resolveEndpoint(
  ctx: RequestContext,
  cache: WhereExprCache,
  vm: VertexModel,
  v: VertexObj,
  args: FilterArgs,
): VertexObj | null {
  const subject: FilterSubject = { name: vm.type.name, kind: 'vertex', attributes: vm.attributes };
  const test = predicateOf(ctx, cache, subject, args, v.batch.tx);
  return !test || test(vertexReader(v)) ? v : null;
}

/** A vertex already known by row (mutation results) as a one-vertex-per-item batch on `tx`. */
export function vertexObjs(tx: ReadTx, type: string, rows: readonly number[]): VertexObj[] {
  const batch = newBatch(tx);
  return rows.map((row) => vertexObj(batch, type, row));
}
