/**
 * The arguments of plan fields: `where`/`whereExpr` as one compiled predicate (they exclude each
 * other), the id lookups a `where` on the primary id allows, `order_by` keys in written order, and
 * checked `limit`/`offset`.
 */
import type { ValueNode } from 'graphql';
import type { Attribute, Catalog } from '../catalog/types.js';
import type { ExternalId } from '../engine/api.js';
import { formatDatetime } from '../util/datetime.js';
import {
  compileEdgeFilter,
  compileVertexFilter,
  GraphQLRequestError,
  type EdgeFilter,
  type VertexFilter,
  type VertexModels,
} from './filter.js';
import { idAttribute, type EdgeFieldModel, type VertexModel } from './model.js';
import { sortKeys, type SortKey } from './order.js';
import { compileWhereExpr, type WhereExpr } from './where-expr.js';

export type Args = Record<string, unknown>;

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
      // Hostile clients could send endless distinct texts: the cache stays bounded.
      if (this.compiled.size >= 1000) this.compiled.clear();
      this.compiled.set(key, w);
    }
    return w;
  }
}

function has(args: Args, name: string): boolean {
  return args[name] !== undefined && args[name] !== null;
}

function exclusive(args: Args, subject: string): void {
  if (has(args, 'where') && has(args, 'whereExpr')) {
    throw new GraphQLRequestError(`where and whereExpr cannot be used at the same time (on ${subject}).`);
  }
}

/** The vertex predicate of `where` or `whereExpr`, or undefined when neither is given. */
export function vertexPredicate(
  args: Args,
  vm: VertexModel,
  models: VertexModels,
  cache: WhereExprCache,
): VertexFilter | undefined {
  const type = vm.type.name;
  exclusive(args, type);
  if (has(args, 'where')) return compileVertexFilter(args.where as Args, vm, models);
  if (!has(args, 'whereExpr')) return undefined;
  const w = cache.get({ name: type, kind: 'vertex', attributes: vm.attributes }, args.whereExpr as string);
  return {
    neighbours: [],
    bind(tx) {
      const test = w.bind(tx);
      return (row) => test((name) => tx.attr(type, row, name));
    },
  };
}

/** The edge predicate of an edge field's `where` or `whereExpr`. */
export function edgePredicate(
  args: Args,
  edge: EdgeFieldModel,
  cache: WhereExprCache,
): EdgeFilter | undefined {
  exclusive(args, edge.edgeType);
  if (has(args, 'where')) return compileEdgeFilter(args.where as Args);
  if (!has(args, 'whereExpr')) return undefined;
  const w = cache.get(
    { name: edge.edgeType, kind: 'edge', attributes: edge.attributes },
    args.whereExpr as string,
  );
  return {
    target: undefined,
    bind(tx) {
      const test = w.bind(tx);
      return (h) => test((name) => tx.edgeAttr(h, name));
    },
  };
}

/**
 * The ids a filter names when it is only `{_id: {_eq: v}}` or `{_id: {_in: [...]}}` (or the same on
 * the attribute that is the primary id): those vertices are looked up instead of scanning the type
 * (the filter still runs on them).
 */
export function seekIds(vm: VertexModel, where: unknown): ExternalId[] | undefined {
  const vt = vm.type;
  // A composite id's text may contain the commas that separate its parts: it is not looked up.
  if (typeof where !== 'object' || where === null || vt.keyKind === 'composite') return undefined;
  const members = Object.entries(where).filter(([, v]) => v !== null && v !== undefined);
  if (members.length !== 1) return undefined;
  const [name, ops] = members[0];
  if (name !== '_id' && name !== idAttribute(vt)) return undefined;
  const given = Object.entries(ops as Args).filter(([, v]) => v !== null && v !== undefined);
  if (given.length !== 1) return undefined;
  const [op, value] = given[0];
  const values = op === '_eq' ? [value] : op === '_in' ? (value as unknown[]) : undefined;
  if (!values) return undefined;
  const datetime = vt.primaryId.type.kind === 'DATETIME';
  return values.map((v) => (datetime && typeof v === 'number' ? formatDatetime(v) : (v as ExternalId)));
}

/** The sort keys of an `order_by` argument as written in `node`. */
export function orderOf(args: Args, node: ValueNode | undefined, raw: Record<string, unknown>): SortKey[] {
  return sortKeys(node, args.order_by, raw);
}
