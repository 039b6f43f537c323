/**
 * A batch of write operations produced from many input lines, applied in one write transaction
 * (one durable commit). Consecutive edge upserts of one type and endpoint types go to the engine as
 * one run (WriteTx.upsertEdges). An operation the engine refuses (EngineError) is counted against
 * its type and skipped; it never fails the batch.
 */
import {
  EngineError,
  type AttrUpdate,
  type EdgeRun,
  type ExternalId,
  type UpsertEdgeOptions,
  type WriteTx,
} from '../engine/api.js';
import type { IdSegment } from './edge-lines.js';
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
  /** A segment of edges read on the edge file reader's thread (edge-lines.ts). */
  EdgeIds,
}

/**
 * Operations are kept in parallel arrays that are reused from batch to batch, so the hot path
 * allocates nothing per edge beyond its ids and attributes.
 */
export class Batch implements BatchSink {
  conditionFailed = false;
  size = 0;
  /** Write operations held (an EdgeIds operation counts its edges). */
  weight = 0;
  private readonly kinds: Kind[] = [];
  private readonly types: string[] = [];
  private readonly fromTypes: string[] = [];
  private readonly fromIds: ExternalId[] = [];
  private readonly toTypes: string[] = [];
  private readonly toIds: ExternalId[] = [];
  private readonly attrs: (AttrMap | null)[] = [];
  private readonly stats: ObjectStatistics[] = [];
  private readonly segments: (IdSegment | null)[] = [];

  /** Empties the batch for reuse (slots are overwritten by later operations). */
  clear(): void {
    this.size = 0;
    this.weight = 0;
  }

  private push(
    kind: Kind,
    type: string,
    fromType: string,
    fromId: ExternalId,
    toType: string,
    toId: ExternalId,
    attrs: AttrMap | null,
    stats: ObjectStatistics,
  ): void {
    const n = this.size++;
    this.weight++;
    this.kinds[n] = kind;
    this.types[n] = type;
    this.fromTypes[n] = fromType;
    this.fromIds[n] = fromId;
    this.toTypes[n] = toType;
    this.toIds[n] = toId;
    this.attrs[n] = attrs;
    this.stats[n] = stats;
  }

  upsertVertex(type: string, id: ExternalId, attrs: AttrMap, stats: ObjectStatistics): void {
    this.push(Kind.Vertex, type, type, id, '', '', attrs, stats);
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
    this.push(Kind.Edge, type, fromType, fromId, toType, toId, attrs, stats);
  }

  deleteVertex(type: string, id: ExternalId, stats: ObjectStatistics): void {
    this.push(Kind.DeleteVertex, type, type, id, '', '', null, stats);
  }

  deleteEdge(
    type: string,
    fromType: string,
    fromId: ExternalId,
    toType: string,
    toId: ExternalId,
    stats: ObjectStatistics,
  ): void {
    this.push(Kind.DeleteEdge, type, fromType, fromId, toType, toId, null, stats);
  }

  /** Upserts the edges of a segment (the same as upsertEdge for each of its ids in order). */
  upsertEdgeIds(
    type: string,
    fromType: string,
    toType: string,
    seg: IdSegment,
    stats: ObjectStatistics,
  ): void {
    if (seg.n === 0) return;
    this.segments[this.size] = seg;
    this.push(Kind.EdgeIds, type, fromType, '', toType, '', null, stats);
    this.weight += seg.n - 1;
  }

  /** The end of the run of edge upserts like the one at `start` (same types, same counters). */
  private runEnd(start: number): number {
    const { kinds, types, fromTypes, toTypes, stats } = this;
    let j = start + 1;
    while (
      j < this.size &&
      kinds[j] === Kind.Edge &&
      types[j] === types[start] &&
      fromTypes[j] === fromTypes[start] &&
      toTypes[j] === toTypes[start] &&
      stats[j] === stats[start]
    )
      j++;
    return j;
  }

  /** Applies every operation inside `tx`, counting into the operations' statistics. */
  applyTo(tx: WriteTx, createMissingEndpoints: boolean): void {
    const edgeOpts = { createMissingEndpoints };
    const { kinds, types, fromTypes, fromIds, toTypes, toIds, attrs, stats } = this;
    for (let i = 0; i < this.size; i++) {
      const s = stats[i];
      try {
        switch (kinds[i]) {
          case Kind.Vertex:
            tx.upsertVertex(types[i], fromIds[i], attrs[i] as AttrMap);
            s.validObject++;
            break;
          case Kind.Edge: {
            const end = this.runEnd(i);
            const run = { edgeType: types[i], fromType: fromTypes[i], toType: toTypes[i] };
            applyRun(tx, { ...run, fromIds, toIds, attrs, start: i, end }, edgeOpts, s);
            i = end - 1;
            break;
          }
          case Kind.EdgeIds: {
            const seg = this.segments[i] as IdSegment;
            this.segments[i] = null;
            const run = { edgeType: types[i], fromType: fromTypes[i], toType: toTypes[i] };
            applyRun(
              tx,
              { ...run, fromIds: seg.from, toIds: seg.to, attrs: null, start: 0, end: seg.n },
              edgeOpts,
              s,
            );
            break;
          }
          case Kind.DeleteVertex:
            tx.deleteVertex(types[i], fromIds[i]);
            s.validObject++;
            break;
          case Kind.DeleteEdge:
            tx.deleteEdge(types[i], fromTypes[i], fromIds[i], toTypes[i], toIds[i]);
            s.validObject++;
            break;
        }
      } catch (e) {
        if (!(e instanceof EngineError)) throw e;
        s.invalidAttribute++;
      }
    }
  }
}

/** Applies one run of edge upserts, counting what happened to its edges. */
function applyRun(tx: WriteTx, run: EdgeRun, opts: UpsertEdgeOptions, s: ObjectStatistics): void {
  try {
    const c = tx.upsertEdges(run, opts);
    s.validObject += c.inserted + c.updated;
    // VERTEX_MUST_EXIST: an endpoint vertex is missing.
    s.noIdFound += c.skipped;
    s.invalidAttribute += c.invalid;
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    // The run's types were refused: every edge of it is.
    s.invalidAttribute += run.end - run.start;
  }
}
