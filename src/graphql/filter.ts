/**
 * `where` filters compiled once per request into predicates bound to one snapshot: over a vertex
 * row (`<V>Filter`, with `_id` and neighbour members) or over an edge (`<e>Filter`, `<object>_exp`).
 * Several members in one filter object must all hold; `_and: []` holds, `_or: []` does not.
 * Beyond TigerGraph: `_in`, `_nin`, `_like` (GSQL LIKE: `%` any run, `_` one character), `_id`,
 * and `_some`/`_none`/`_all` over a vertex's edges of one field.
 */
import type { Value } from '../catalog/value.js';
import type { EdgeHandle, ReadTx } from '../engine/api.js';
import type { EdgeFieldModel, VertexModel } from './model.js';

/** Reads one attribute of the vertex or edge being tested. */
export type AttrReader = (attribute: string) => Value;
export type RowTest = (row: number) => boolean;
export type EdgeTest = (edge: EdgeHandle) => boolean;

/**
 * Counts the work a predicate does beyond its own item (the edges a neighbour filter walks), so a
 * request's deadline can stop a filter that walks millions of edges for one vertex.
 */
export interface Work {
  add(n: number): void;
}

/** A predicate maker: binds to a snapshot (and a work counter). */
type Binder<T> = (tx: ReadTx, work?: Work) => (x: T) => boolean;

/** A GraphQL request error raised while planning or running (the message goes to the client as is). */
export class GraphQLRequestError extends Error {
  constructor(
    message: string,
    /** A code for `extensions.code`. */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'GraphQLRequestError';
  }
}

/** A neighbour member of a vertex filter, for the cost estimate. */
export interface NeighbourUse {
  edge: EdgeFieldModel;
  target: VertexFilter | undefined;
}

export interface VertexFilter {
  bind(tx: ReadTx, work?: Work): RowTest;
  /** Neighbour members anywhere in the filter (each is a walk over the vertex's edges). */
  readonly neighbours: readonly NeighbourUse[];
}

export interface EdgeFilter {
  bind(tx: ReadTx, work?: Work): EdgeTest;
  readonly target: VertexFilter | undefined;
}

/** The vertex models of the schema, by type name. */
export type VertexModels = ReadonlyMap<string, VertexModel>;

type Scalar = number | bigint | string | boolean;
type Obj = Record<string, unknown>;

function compare(a: Scalar, b: Scalar): number {
  if (typeof a === 'boolean' || typeof b === 'boolean') return Number(a) - Number(b);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** GSQL LIKE as a regular expression (`\` escapes the next character). */
export function likePattern(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\' && i + 1 < pattern.length) re += pattern[++i].replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (c === '%') re += '[\\s\\S]*';
    else if (c === '_') re += '[\\s\\S]';
    else re += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

function operator(op: string, arg: unknown): (v: Value) => boolean {
  switch (op) {
    case '_eq':
      return (v) => compare(v as Scalar, arg as Scalar) === 0;
    case '_neq':
      return (v) => compare(v as Scalar, arg as Scalar) !== 0;
    case '_lt':
      return (v) => compare(v as Scalar, arg as Scalar) < 0;
    case '_lte':
      return (v) => compare(v as Scalar, arg as Scalar) <= 0;
    case '_gt':
      return (v) => compare(v as Scalar, arg as Scalar) > 0;
    case '_gte':
      return (v) => compare(v as Scalar, arg as Scalar) >= 0;
    case '_in':
    case '_nin': {
      const items = arg as Scalar[];
      const want = op === '_in';
      return (v) => items.some((x) => compare(v as Scalar, x) === 0) === want;
    }
    case '_like': {
      const re = likePattern(arg as string);
      return (v) => typeof v === 'string' && re.test(v);
    }
    default:
      throw new GraphQLRequestError(`Unknown filter operator '${op}'.`);
  }
}

/** The operators of one member (`{_gt: 1, _lt: 5}`) as one value test; null operators impose nothing. */
function valueTest(ops: Obj): (v: Value) => boolean {
  const tests = Object.entries(ops)
    .filter(([, arg]) => arg !== null && arg !== undefined)
    .map(([op, arg]) => operator(op, arg));
  return (v) => tests.every((t) => t(v));
}

/** Binds a list of parts to one snapshot and ANDs them. */
function all<T>(parts: Binder<T>[]): Binder<T> {
  return (tx, work) => {
    const bound = parts.map((p) => p(tx, work));
    if (bound.length === 1) return bound[0];
    return (x) => {
      for (const t of bound) if (!t(x)) return false;
      return true;
    };
  };
}

/**
 * The logical members of a filter object, shared by vertex and edge filters: `member` compiles one
 * non-logical member.
 */
function compileLogical<T>(filter: Obj, member: (key: string, value: unknown) => Binder<T>): Binder<T> {
  const parts: Binder<T>[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (value === null || value === undefined) continue;
    if (key === '_and' || key === '_or') {
      const subs = (value as Obj[]).map((f) => compileLogical(f, member));
      const and = key === '_and';
      parts.push((tx, work) => {
        const bound = subs.map((s) => s(tx, work));
        return and ? (x) => bound.every((t) => t(x)) : (x) => bound.some((t) => t(x));
      });
    } else if (key === '_not') {
      const sub = compileLogical(value as Obj, member);
      parts.push((tx, work) => {
        const t = sub(tx, work);
        return (x) => !t(x);
      });
    } else parts.push(member(key, value));
  }
  if (parts.length === 0) return () => () => true;
  return all(parts);
}

/** How a vertex attribute is read: the primary id (composite: as text), a column, or by name. */
export type AttrAccess = 'compositeId' | 'id' | 'column' | 'named';

export function attrAccess(vm: VertexModel, attribute: string): AttrAccess {
  if (attribute === '_id') return vm.type.keyKind === 'composite' ? 'compositeId' : 'id';
  return vm.type.attributes.some((a) => a.name === attribute) ? 'column' : 'named';
}

/** One vertex attribute of one row, read as `access` says (no reader made: a lookup of a few rows). */
export function readAttr(
  tx: ReadTx,
  type: string,
  access: AttrAccess,
  attribute: string,
  row: number,
): Value {
  switch (access) {
    case 'compositeId':
      return tx.vertexId(type, row);
    case 'id':
      return tx.vertexIdValue(type, row);
    case 'column':
      return tx.column(type, attribute).get(row);
    case 'named':
      return tx.attr(type, row, attribute);
  }
}

/** A reader of one vertex attribute (or the primary id itself) over rows of one snapshot. */
export function vertexAttrReader(tx: ReadTx, vm: VertexModel, attribute: string): (row: number) => Value {
  const type = vm.type.name;
  switch (attrAccess(vm, attribute)) {
    case 'compositeId':
      return (row) => tx.vertexId(type, row);
    case 'id':
      return (row) => tx.vertexIdValue(type, row);
    case 'column': {
      const col = tx.column(type, attribute);
      return (row) => col.get(row);
    }
    case 'named':
      return (row) => tx.attr(type, row, attribute);
  }
}

/** Whether some edge of `edge` from `row` passes `test`. */
function someEdge(tx: ReadTx, edge: EdgeFieldModel, row: number, test: EdgeTest, work?: Work): boolean {
  const edges = tx.edges(edge.sourceType, row, { edgeType: edge.edgeType, targetType: edge.targetType });
  work?.add(edges.length);
  for (const h of edges) if (test(h)) return true;
  return false;
}

/** `_some`, `_none` or `_all` of a neighbour member, over edges passing `edges`. */
function quantified(quantifier: string, edge: EdgeFieldModel, edges: EdgeFilter): Binder<number> {
  return (tx, work) => {
    const t = edges.bind(tx, work);
    if (quantifier === '_some') return (row) => someEdge(tx, edge, row, t, work);
    if (quantifier === '_none') return (row) => !someEdge(tx, edge, row, t, work);
    return (row) => !someEdge(tx, edge, row, (h) => !t(h), work);
  };
}

/** Compiles a coerced `<V>Filter` of vertex type `vm`. */
export function compileVertexFilter(filter: Obj, vm: VertexModel, models: VertexModels): VertexFilter {
  const neighbours: NeighbourUse[] = [];
  const bind = compileLogical<number>(filter, (key, value) => {
    const edge = vm.edges.find((e) => e.field === key);
    if (!edge) {
      const test = valueTest(value as Obj);
      return (tx) => {
        const read = vertexAttrReader(tx, vm, key);
        return (row) => test(read(row));
      };
    }
    const parts: Binder<number>[] = [];
    for (const [quantifier, inner] of Object.entries(value as Obj)) {
      if (inner === null || inner === undefined) continue;
      const e = compileEdgeExp(inner as Obj, edge, models);
      neighbours.push({ edge, target: e.target });
      parts.push(quantified(quantifier, edge, e));
    }
    return parts.length === 0 ? () => () => true : all(parts);
  });
  return { bind, neighbours };
}

function edgeAttrTest(key: string, value: unknown): Binder<EdgeHandle> {
  const test = valueTest(value as Obj);
  return (tx) => (h) => test(tx.edgeAttr(h, key));
}

/** Compiles a coerced `<e>Filter` (edge attributes only). */
export function compileEdgeFilter(filter: Obj): EdgeFilter {
  return { bind: compileLogical<EdgeHandle>(filter, edgeAttrTest), target: undefined };
}

/** Compiles a coerced `<object>_exp` of a neighbour member: edge attributes and the `to` vertex. */
function compileEdgeExp(filter: Obj, edge: EdgeFieldModel, models: VertexModels): EdgeFilter {
  let target: VertexFilter | undefined;
  const bind = compileLogical<EdgeHandle>(filter, (key, value) => {
    if (key !== 'to') return edgeAttrTest(key, value);
    const vm = models.get(edge.targetType) as VertexModel;
    const t = compileVertexFilter(value as Obj, vm, models);
    target = t;
    return (tx, work) => {
      const test = t.bind(tx, work);
      return (h) => test(h.tgtRow);
    };
  });
  return { bind, target };
}
