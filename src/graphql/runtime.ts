/**
 * What resolvers pass around while one GraphQL request runs: the request context (the snapshot
 * every read of the request uses, the raw variables, the write hook for mutations) and the source
 * objects of vertex and edge fields. Vertices reached by one field form a batch, so the next edge
 * field is computed once for the whole batch instead of once per vertex.
 */
import type { Catalog } from '../catalog/types.js';
import type { EdgeHandle, ReadTx, WriteTx } from '../engine/api.js';
import { GraphQLRequestError, type AttrReader } from './filter.js';

/** Write privileges a mutation needs; the server layer decides what they mean. */
export type WriteKind = 'insert' | 'delete';

export interface RequestContext {
  readonly graph: string;
  readonly catalog: Catalog;
  /** The snapshot the request reads; mutations pin newer ones through `fresh`. */
  readonly tx: ReadTx;
  /** The request's variables before coercion (order_by key order). */
  readonly rawVariables: Record<string, unknown>;
  /** Compiled and bound predicates of this request, by type, argument and text. */
  readonly predicates: Map<string, (read: AttrReader) => boolean>;
  /** Runs one write transaction after checking the caller may do `kind`. */
  write<T>(kind: WriteKind, fn: (tx: WriteTx) => T): Promise<T>;
  /** A snapshot pinned now (released with the request). */
  fresh(): ReadTx;
}

/** Vertices reached by one field occurrence, with the edge fields already computed for them. */
export interface Batch {
  readonly tx: ReadTx;
  readonly items: VertexObj[];
  /** Edge field key -> source row -> edges. */
  readonly edges: Map<string, Map<number, EdgeObj[]>>;
}

export interface VertexObj {
  readonly batch: Batch;
  readonly type: string;
  readonly row: number;
}

export interface EdgeObj {
  readonly tx: ReadTx;
  readonly handle: EdgeHandle;
  readonly source: VertexObj;
  readonly target: VertexObj;
}

export function newBatch(tx: ReadTx): Batch {
  return { tx, items: [], edges: new Map() };
}

export function vertexObj(batch: Batch, type: string, row: number): VertexObj {
  const v = { batch, type, row };
  batch.items.push(v);
  return v;
}

export function vertexReader(v: VertexObj): AttrReader {
  return (name) => v.batch.tx.attr(v.type, v.row, name);
}

export function edgeReader(e: EdgeObj): AttrReader {
  return (name) => e.tx.edgeAttr(e.handle, name);
}

/** A stable key of field arguments (bigint-safe) for the per-batch cache. */
export function argsKey(name: string, args: Record<string, unknown>): string {
  return `${name}:${JSON.stringify(args, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))}`;
}

export function requestError(message: string): GraphQLRequestError {
  return new GraphQLRequestError(message);
}
