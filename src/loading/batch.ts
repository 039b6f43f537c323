/**
 * A batch of write operations produced from many input lines, applied in one write transaction
 * (one durable commit). An operation the engine refuses (EngineError) is counted against its type
 * and skipped; it never fails the batch.
 */
import { EngineError, type AttrUpdate, type ExternalId, type WriteTx } from '../engine/api.js';
import type { ObjectStatistics } from './statistics.js';

export type AttrMap = Record<string, AttrUpdate>;

export interface BatchSink {
  /** Set by an executor whose WHERE condition was false for the current line. */
  conditionFailed: boolean;
  upsertVertex(type: string, id: ExternalId, attrs: AttrMap, stats: ObjectStatistics): void;
  upsertEdge(
    type: string,
    fromType: string,
    fromId: ExternalId,
    toType: string,
    toId: ExternalId,
    attrs: AttrMap,
    stats: ObjectStatistics,
  ): void;
  deleteVertex(type: string, id: ExternalId, stats: ObjectStatistics): void;
  deleteEdge(
    type: string,
    fromType: string,
    fromId: ExternalId,
    toType: string,
    toId: ExternalId,
    stats: ObjectStatistics,
  ): void;
}

const enum Kind {
  Vertex,
  Edge,
  DeleteVertex,
  DeleteEdge,
}

interface Op {
  kind: Kind;
  type: string;
  fromType: string;
  fromId: ExternalId;
  toType: string;
  toId: ExternalId;
  attrs: AttrMap | null;
  stats: ObjectStatistics;
}

export class Batch implements BatchSink {
  conditionFailed = false;
  ops: Op[] = [];

  get size(): number {
    return this.ops.length;
  }

  upsertVertex(type: string, id: ExternalId, attrs: AttrMap, stats: ObjectStatistics): void {
    this.ops.push({
      kind: Kind.Vertex,
      type,
      fromType: type,
      fromId: id,
      toType: '',
      toId: '',
      attrs,
      stats,
    });
  }

  upsertEdge(
    type: string,
    fromType: string,
    fromId: ExternalId,
    toType: string,
    toId: ExternalId,
    attrs: AttrMap,
    stats: ObjectStatistics,
  ): void {
    this.ops.push({ kind: Kind.Edge, type, fromType, fromId, toType, toId, attrs, stats });
  }

  deleteVertex(type: string, id: ExternalId, stats: ObjectStatistics): void {
    this.ops.push({
      kind: Kind.DeleteVertex,
      type,
      fromType: type,
      fromId: id,
      toType: '',
      toId: '',
      attrs: null,
      stats,
    });
  }

  deleteEdge(
    type: string,
    fromType: string,
    fromId: ExternalId,
    toType: string,
    toId: ExternalId,
    stats: ObjectStatistics,
  ): void {
    this.ops.push({ kind: Kind.DeleteEdge, type, fromType, fromId, toType, toId, attrs: null, stats });
  }

  /** Applies every operation inside `tx`; returns nothing, counts into the operations' statistics. */
  applyTo(tx: WriteTx, createMissingEndpoints: boolean): void {
    const edgeOpts = { createMissingEndpoints };
    for (const op of this.ops) {
      try {
        switch (op.kind) {
          case Kind.Vertex:
            tx.upsertVertex(op.type, op.fromId, op.attrs as AttrMap);
            op.stats.validObject++;
            break;
          case Kind.Edge:
            if (
              tx.upsertEdge(
                op.type,
                op.fromType,
                op.fromId,
                op.toType,
                op.toId,
                op.attrs as AttrMap,
                edgeOpts,
              ) === 'skipped'
            ) {
              // VERTEX_MUST_EXIST: an endpoint vertex is missing.
              op.stats.noIdFound++;
            } else op.stats.validObject++;
            break;
          case Kind.DeleteVertex:
            tx.deleteVertex(op.type, op.fromId);
            op.stats.validObject++;
            break;
          case Kind.DeleteEdge:
            tx.deleteEdge(op.type, op.fromType, op.fromId, op.toType, op.toId);
            op.stats.validObject++;
            break;
        }
      } catch (e) {
        if (!(e instanceof EngineError)) throw e;
        op.stats.invalidAttribute++;
      }
    }
  }
}
