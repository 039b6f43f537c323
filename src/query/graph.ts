/**
 * The narrow view of the database a query run needs. The engine's ReadTx and WriteTx satisfy these
 * structurally; tests can supply small in-memory graphs.
 */
import type { ReadTx, WriteTx } from '../engine/api.js';

/** Reading the pinned snapshot. */
export type QueryGraph = Pick<
  ReadTx,
  | 'catalog'
  | 'rows'
  | 'rowLimit'
  | 'lookup'
  | 'vertexId'
  | 'attr'
  | 'edges'
  | 'edgeAttr'
  | 'edgeRecord'
  | 'isLive'
  | 'adjacency'
>;

/** Applying a query's changes at its end, in one transaction. */
export type QueryWriter = Pick<
  WriteTx,
  | 'upsertVertex'
  | 'upsertEdge'
  | 'deleteVertex'
  | 'setVertexAttrs'
  | 'setEdgeAttrs'
  | 'deleteEdgeHandle'
  | 'vertexId'
>;

/** A database a query runs against: a snapshot to read and a transaction to commit its changes. */
export interface QueryDatabase {
  readonly catalog: ReadTx['catalog'];
  read(): QueryGraph & { release(): void };
  write<R>(fn: (tx: QueryWriter) => R): Promise<R>;
}
