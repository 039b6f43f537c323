/**
 * A batch of write operations produced from many input lines, applied in one write transaction
 * (one durable commit). Consecutive edge upserts of one type and endpoint types go to the engine as
 * one run (WriteTx.upsertEdges). An operation the engine refuses (EngineError) is counted against
 * its type and skipped; it never fails the batch. What a batch holds is in batch-ops.ts, how it
 * crosses threads in batch-image.ts, and how an image is applied in apply-image.ts.
 */
import type { Value } from '../catalog/value.js';
import { EngineError, type AttrShape, type EdgeRun, type ExternalId, type WriteTx } from '../engine/api.js';
import { applyImage, applyRun, applyVertices, edgeRun, type TakenImage } from './apply-image.js';
import { decodeValues, imageOf, type BatchImage } from './batch-image.js';
import {
  edgeRunEnd,
  OpKind,
  vertexRunEnd,
  type AttrMap,
  type BatchOps,
  type BatchSink,
} from './batch-ops.js';
import type { IdSegment } from './edge-lines.js';
import type { WordCoder } from './id-words.js';
import type { TokenWords } from './token-words.js';
import type { LoadStatistics, ObjectStatistics } from './statistics.js';
import { EMPTY_ATTRS, type AttrValues } from './targets.js';

/**
 * Operations are kept in parallel arrays that are reused from batch to batch, so the hot path
 * allocates nothing per edge beyond its ids and attributes.
 */
export class Batch implements BatchSink, BatchOps {
  conditionFailed = false;
  size = 0;
  /** Write operations held (an EdgeIds operation counts its edges). */
  weight = 0;
  readonly kinds: OpKind[] = [];
  readonly types: string[] = [];
  readonly fromTypes: string[] = [];
  readonly fromIds: ExternalId[] = [];
  readonly toTypes: string[] = [];
  readonly toIds: ExternalId[] = [];
  readonly fromCodes: number[] = [];
  readonly toCodes: number[] = [];
  /** The dictionary the codes are of, whose remembered rows the edge runs use (token-words.ts). */
  words: TokenWords | null = null;
  readonly attrs: (AttrMap | null)[] = [];
  readonly stats: ObjectStatistics[] = [];
  readonly segments: (IdSegment | null)[] = [];
  /** Attributes given as values (upsertEdgeValues): the shape's index in `shapeList`, or -1. */
  readonly shapeOf: number[] = [];
  readonly valueAt: number[] = [];
  /**
   * The values: in `numbers` while every one of the batch so far is a number (a DATETIME, an INT,
   * a DOUBLE: no box per value, nothing for the collector), else all in `mixed`.
   */
  private numbers = new Float64Array(1024);
  private readonly mixed: Value[] = [];
  private allNumbers = true;
  private valueCount = 0;
  readonly shapeList: AttrShape[] = [];
  /** The images of Image operations (taken from parse threads whole). */
  private readonly images: (TakenImage | null)[] = [];

  /**
   * Empties the batch and drops the ids, attributes and values it still refers to, keeping the
   * arrays' room, for a later load to take it from the pool (takeBatch).
   */
  release(): void {
    this.clear();
    this.words = null;
    this.fromIds.fill('');
    this.toIds.fill('');
    this.attrs.fill(null);
    this.mixed.fill(0);
  }

  /** Empties the batch for reuse (slots are overwritten by later operations). */
  clear(): void {
    this.size = 0;
    this.weight = 0;
    this.valueCount = 0;
    this.allNumbers = true;
    this.shapeList.length = 0;
  }

  get values(): ArrayLike<Value> {
    return this.allNumbers ? this.numbers : this.mixed;
  }

  private push(
    kind: OpKind,
    type: string,
    fromType: string,
    fromId: ExternalId,
    toType: string,
    toId: ExternalId,
    attrs: AttrMap | null,
    stats: ObjectStatistics,
    fromCode = -1,
    toCode = -1,
  ): void {
    const n = this.size++;
    this.weight++;
    this.kinds[n] = kind;
    this.types[n] = type;
    this.fromTypes[n] = fromType;
    this.fromIds[n] = fromId;
    this.toTypes[n] = toType;
    this.toIds[n] = toId;
    this.fromCodes[n] = fromCode;
    this.toCodes[n] = toCode;
    this.attrs[n] = attrs;
    this.stats[n] = stats;
    this.shapeOf[n] = -1;
  }

  upsertVertex(type: string, id: ExternalId, attrs: AttrMap, stats: ObjectStatistics): void {
    this.push(OpKind.Vertex, type, type, id, '', '', attrs, stats);
  }

  upsertEdge(
    type: string,
    fromType: string,
    fromId: ExternalId,
    toType: string,
    toId: ExternalId,
    attrs: AttrMap,
    stats: ObjectStatistics,
    fromCode = -1,
    toCode = -1,
  ): void {
    this.push(OpKind.Edge, type, fromType, fromId, toType, toId, attrs, stats, fromCode, toCode);
  }

  upsertEdgeValues(
    type: string,
    fromType: string,
    fromId: ExternalId,
    toType: string,
    toId: ExternalId,
    attrs: AttrValues,
    stats: ObjectStatistics,
    fromCode = -1,
    toCode = -1,
  ): void {
    const n = this.size;
    this.push(
      OpKind.Edge,
      type,
      fromType,
      fromId,
      toType,
      toId,
      attrs.shape === null ? EMPTY_ATTRS : null,
      stats,
      fromCode,
      toCode,
    );
    this.takeValues(n, attrs);
  }

  upsertVertexValues(type: string, id: ExternalId, attrs: AttrValues, stats: ObjectStatistics): void {
    const n = this.size;
    this.push(OpKind.Vertex, type, type, id, '', '', attrs.shape === null ? EMPTY_ATTRS : null, stats);
    this.takeValues(n, attrs);
  }

  /** Operation n's attributes: the shape of `attrs` (none when it gave none) and a copy of its values. */
  private takeValues(n: number, attrs: AttrValues): void {
    if (attrs.shape === null) return;
    const list = this.shapeList;
    // A batch holds few shapes (one per statement, and its lines with unset attributes).
    let k = n > 0 ? this.shapeOf[n - 1] : -1;
    if (k < 0 || list[k] !== attrs.shape) {
      k = list.indexOf(attrs.shape);
      if (k < 0) k = list.push(attrs.shape) - 1;
    }
    this.shapeOf[n] = k;
    // Written by index over the last batch's values: the arrays keep their room from batch to batch.
    let at = this.valueCount;
    this.valueAt[n] = at;
    const from = attrs.values;
    for (let j = 0; j < attrs.count; j++) {
      const v = from[j];
      if (this.allNumbers) {
        if (typeof v === 'number') {
          if (at === this.numbers.length) this.growNumbers();
          this.numbers[at++] = v;
          continue;
        }
        this.toMixed(at);
      }
      this.mixed[at++] = v;
    }
    this.valueCount = at;
  }

  private growNumbers(): void {
    const b = new Float64Array(this.numbers.length * 2);
    b.set(this.numbers);
    this.numbers = b;
  }

  /** The first `count` values move to `mixed`, which takes every later one of the batch. */
  private toMixed(count: number): void {
    for (let k = 0; k < count; k++) this.mixed[k] = this.numbers[k];
    this.allNumbers = false;
  }

  deleteVertex(type: string, id: ExternalId, stats: ObjectStatistics): void {
    this.push(OpKind.DeleteVertex, type, type, id, '', '', null, stats);
  }

  deleteEdge(
    type: string,
    fromType: string,
    fromId: ExternalId,
    toType: string,
    toId: ExternalId,
    stats: ObjectStatistics,
  ): void {
    this.push(OpKind.DeleteEdge, type, fromType, fromId, toType, toId, null, stats);
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
    this.push(OpKind.EdgeIds, type, fromType, '', toType, '', null, stats);
    this.weight += seg.n - 1;
  }

  /**
   * The operations as a BatchImage (segment buffers listed in `transfer`), with the counters they
   * count into named by kind and type as in `stats`.
   */
  image(stats: LoadStatistics, transfer: ArrayBuffer[], coder?: WordCoder): BatchImage {
    return imageOf(this, stats, transfer, coder);
  }

  /**
   * Appends the operations of an image, counting into `stats` (the same kinds and types). They
   * stay in the image's arrays, applied from there: nothing is copied per operation.
   */
  append(img: BatchImage, stats: LoadStatistics): void {
    if (img.size === 0) return;
    const counters = img.counters.map(([kind, typeName]) => stats.object(kind, typeName));
    decodeValues(img);
    this.images[this.size] = { img, counters };
    this.push(OpKind.Image, '', '', '', '', '', null, counters[0]);
    let weight = img.size - img.segments.length;
    for (const seg of img.segments) weight += seg.n;
    this.weight += weight - 1;
  }

  /** The codes of operations [start, end) with the rows remembered for them, when every end is coded. */
  private codesOf(start: number, end: number): EdgeRun['codes'] {
    const words = this.words;
    if (words === null) return undefined;
    const { fromCodes, toCodes } = this;
    for (let i = start; i < end; i++) if (fromCodes[i] < 0 || toCodes[i] < 0) return undefined;
    return { from: fromCodes, to: toCodes, cache: words.rows };
  }

  /**
   * Applies every operation inside `tx`, counting into the operations' statistics; `expectEdges`
   * is passed on to upsertEdges (UpsertEdgeOptions).
   */
  applyTo(tx: WriteTx, createMissingEndpoints: boolean, expectEdges = 0): void {
    const edgeOpts = { createMissingEndpoints, expectEdges, unchecked: true };
    const { kinds, types, fromTypes, fromIds, toTypes, toIds, attrs, stats } = this;
    const typesAt = (i: number): [string, string, string] => [types[i], fromTypes[i], toTypes[i]];
    const shapes = { list: this.shapeList, of: this.shapeOf, values: this.values, at: this.valueAt };
    for (let i = 0; i < this.size; i++) {
      const s = stats[i];
      try {
        switch (kinds[i]) {
          case OpKind.Vertex: {
            // Consecutive upserts of one type from one statement go as one run (upsertVertices).
            const end = vertexRunEnd(this, i);
            applyVertices(tx, { vertexType: types[i], ids: fromIds, attrs, shapes, start: i, end }, s);
            i = end - 1;
            break;
          }
          case OpKind.Edge: {
            const end = edgeRunEnd(this, i);
            const run = edgeRun(typesAt(i), fromIds, toIds, attrs, shapes, this.codesOf(i, end), i, end);
            applyRun(tx, run, edgeOpts, s);
            i = end - 1;
            break;
          }
          case OpKind.EdgeIds: {
            const seg = this.segments[i] as IdSegment;
            this.segments[i] = null;
            applyRun(
              tx,
              edgeRun(typesAt(i), seg.from, seg.to, null, undefined, undefined, 0, seg.n),
              edgeOpts,
              s,
            );
            break;
          }
          case OpKind.Image: {
            const taken = this.images[i] as TakenImage;
            this.images[i] = null;
            applyImage(tx, taken, edgeOpts);
            break;
          }
          case OpKind.DeleteVertex:
            tx.deleteVertex(types[i], fromIds[i]);
            s.validObject++;
            break;
          case OpKind.DeleteEdge:
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

/** Batches kept between inputs and loads (a committer's two, a parse thread's one). */
const pool: Batch[] = [];
const POOL_SIZE = 4;

/**
 * A batch whose arrays already have room from an earlier input when there is one: growing the
 * arrays of a new batch to a batch's size, copy after copy, made about 40% of what a load of
 * short lines allocated.
 */
export function takeBatch(): Batch {
  return pool.pop() ?? new Batch();
}

/** Gives a batch no one uses any more back to the pool. */
export function giveBatch(b: Batch): void {
  b.release();
  if (pool.length < POOL_SIZE) pool.push(b);
}
