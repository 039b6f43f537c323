/**
 * What a loading batch holds (batch.ts): the operations an input's statements produce for each
 * line (BatchSink), their kinds, and the parallel arrays they are kept in, which building an image
 * (batch-image.ts) reads.
 */
import type { Value } from '../catalog/value.js';
import type { AttrShape, AttrUpdate, ExternalId } from '../engine/api.js';
import type { IdSegment } from './edge-lines.js';
import type { ObjectStatistics } from './statistics.js';
import type { AttrValues } from './targets.js';

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
    /** The ends' codes in the load's dictionary of id words (token-words.ts), or -1. */
    fromCode?: number,
    toCode?: number,
  ): void;
  /** upsertEdge with the attributes of an AttrValues, copied (it is reused for the next line). */
  upsertEdgeValues(
    type: string,
    fromType: string,
    fromId: ExternalId,
    toType: string,
    toId: ExternalId,
    attrs: AttrValues,
    stats: ObjectStatistics,
    fromCode?: number,
    toCode?: number,
  ): void;
  /** upsertVertex with the attributes of an AttrValues, copied (it is reused for the next line). */
  upsertVertexValues(type: string, id: ExternalId, attrs: AttrValues, stats: ObjectStatistics): void;
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

export enum OpKind {
  Vertex,
  Edge,
  DeleteVertex,
  DeleteEdge,
  /** A segment of edges read on the edge file reader's thread (edge-lines.ts). */
  EdgeIds,
  /** The operations of a BatchImage, applied from its arrays (append). */
  Image,
}

/** A batch's operations: slot i of every array belongs to operation i, for i below `size`. */
export interface BatchOps {
  readonly size: number;
  readonly kinds: readonly OpKind[];
  readonly types: readonly string[];
  readonly fromTypes: readonly string[];
  readonly fromIds: readonly ExternalId[];
  readonly toTypes: readonly string[];
  readonly toIds: readonly ExternalId[];
  /** The ids' codes in the load's dictionary of id words (-1: not coded). */
  readonly fromCodes: readonly number[];
  readonly toCodes: readonly number[];
  readonly attrs: readonly (AttrMap | null)[];
  readonly stats: readonly ObjectStatistics[];
  /** Attributes given as values: a shape's index in `shapeList` (-1: none, see `attrs`), and where its values start. */
  readonly shapeOf: readonly number[];
  readonly valueAt: readonly number[];
  readonly values: ArrayLike<Value>;
  readonly shapeList: readonly AttrShape[];
  /** The id segments of EdgeIds operations; building an image takes them (sets their slots to null). */
  readonly segments: (IdSegment | null)[];
}

/** Operations as parallel arrays, by name or by index (a batch's own, or an image's). */
interface OpArrays {
  readonly size: number;
  readonly kinds: ArrayLike<number>;
  readonly types: ArrayLike<unknown>;
  readonly fromTypes: ArrayLike<unknown>;
  readonly toTypes: ArrayLike<unknown>;
  readonly stats: ArrayLike<unknown>;
}

/**
 * The end of the run of vertex upserts like the one at `start` (same type, same counters): what
 * goes to the engine as one run (WriteTx.upsertVertices).
 */
export function vertexRunEnd(ops: OpArrays, start: number): number {
  const { kinds, types, stats } = ops;
  let j = start + 1;
  while (j < ops.size && kinds[j] === OpKind.Vertex && types[j] === types[start] && stats[j] === stats[start])
    j++;
  return j;
}

/**
 * The end of the run of edge upserts like the one at `start` (same types, same counters): what
 * goes to the engine as one run (WriteTx.upsertEdges).
 */
export function edgeRunEnd(ops: OpArrays, start: number): number {
  const { kinds, types, fromTypes, toTypes, stats } = ops;
  let j = start + 1;
  while (
    j < ops.size &&
    kinds[j] === OpKind.Edge &&
    types[j] === types[start] &&
    fromTypes[j] === fromTypes[start] &&
    toTypes[j] === toTypes[start] &&
    stats[j] === stats[start]
  )
    j++;
  return j;
}
