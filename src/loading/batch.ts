/**
 * A batch of write operations produced from many input lines, applied in one write transaction
 * (one durable commit). Consecutive edge upserts of one type and endpoint types go to the engine as
 * one run (WriteTx.upsertEdges). An operation the engine refuses (EngineError) is counted against
 * its type and skipped; it never fails the batch.
 */
import type { Value } from '../catalog/value.js';
import {
  EngineError,
  type AttrUpdate,
  type EdgeRun,
  type ExternalId,
  type UpsertEdgeOptions,
  type UpsertOp,
  type VertexRunColumn,
  type WriteTx,
} from '../engine/api.js';
import { ByteReader, ByteWriter } from '../store/bytes.js';
import type { IdSegment } from './edge-lines.js';
import type { NewWords, WordCoder } from './id-words.js';
import type { LoadStatistics, ObjectKind, ObjectStatistics } from './statistics.js';

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

/** An attribute value as it crosses threads in `BatchImage.values` (see `encoded`). */
type PlainValue = number | string | boolean | bigint;

/**
 * A batch's operations as they cross threads (a parse worker to the committing thread), flat so
 * that cloning them is cheap: types by index into `names`, counters by index into `counters`, ids
 * as numbers in a Float64Array when they all are, and attribute maps as a shape (names and
 * operators, shared by the operations of one statement) plus their values in `values`, one after
 * another. Values that are not primitives (a LIST, a SET, a tuple) are encoded one after another
 * into the one buffer `encoded` (bytes.ts), their places in `values` listed in `encodedAt`, so a
 * piece with many of them crosses as two arrays rather than an object and a buffer each.
 */
export interface BatchImage {
  size: number;
  kinds: Uint8Array;
  types: Uint16Array;
  fromTypes: Uint16Array;
  toTypes: Uint16Array;
  names: string[];
  /** Int32Array: STRING ids coded by the parse thread (id-words.ts), decoded on arrival. */
  fromIds: ExternalId[] | Float64Array | Int32Array;
  toIds: ExternalId[] | Float64Array | Int32Array;
  words: NewWords | null;
  /** Set on arrival when both ends were coded (WordTable.take): edge runs pass them on (EdgeRun.codes). */
  codes?: EdgeRun['codes'];
  /** Per operation: its attribute shape, or -1 for none, and where its values start. */
  shape: Int32Array;
  valueAt: Int32Array;
  shapes: { names: string[]; ops: UpsertOp[] }[];
  values: PlainValue[];
  encoded: Uint8Array;
  encodedAt: Int32Array;
  stats: Uint16Array;
  counters: [ObjectKind, string][];
  /** The segments of the EdgeIds operations, in order. */
  segments: IdSegment[];
}

const enum Kind {
  Vertex,
  Edge,
  DeleteVertex,
  DeleteEdge,
  /** A segment of edges read on the edge file reader's thread (edge-lines.ts). */
  EdgeIds,
  /** The operations of a BatchImage, applied from its arrays (append). */
  Image,
}

/** An image appended to a batch, with the load's counters its operations count into. */
interface TakenImage {
  img: BatchImage;
  counters: ObjectStatistics[];
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
  /** The images of Image operations (taken from parse threads whole). */
  private readonly images: (TakenImage | null)[] = [];

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

  /**
   * The operations as a BatchImage (segment buffers listed in `transfer`), with the counters they
   * count into named by kind and type as in `stats`.
   */
  image(stats: LoadStatistics, transfer: ArrayBuffer[], coder?: WordCoder): BatchImage {
    const n = this.size;
    const names: string[] = [];
    const nameIndex = new Map<string, number>();
    // Operations come in runs of one type: the last name asked for is usually asked again.
    let lastName = '';
    let lastIndex = -1;
    const name = (t: string): number => {
      if (t === lastName && lastIndex >= 0) return lastIndex;
      let i = nameIndex.get(t);
      if (i === undefined) nameIndex.set(t, (i = names.push(t) - 1));
      lastName = t;
      lastIndex = i;
      return i;
    };
    const counters: [ObjectKind, string][] = [];
    const counterIndex = new Map<ObjectStatistics, number>();
    for (const [kind, o] of stats.entries()) counterIndex.set(o, counters.push([kind, o.typeName]) - 1);
    const shapes: BatchImage['shapes'] = [];
    const enc = new ByteWriter(256);
    const encodedAt: number[] = [];
    const img: BatchImage = {
      size: n,
      kinds: Uint8Array.from(this.kinds.slice(0, n)),
      types: new Uint16Array(n),
      fromTypes: new Uint16Array(n),
      toTypes: new Uint16Array(n),
      names,
      fromIds: idsImage(this.fromIds, n, transfer, coder),
      toIds: idsImage(this.toIds, n, transfer, coder),
      words: coder ? coder.takeNew() : null,
      shape: new Int32Array(n),
      valueAt: new Int32Array(n),
      shapes,
      values: [],
      encoded: new Uint8Array(0),
      encodedAt: new Int32Array(0),
      stats: new Uint16Array(n),
      counters,
      segments: [],
    };
    for (let i = 0; i < n; i++) {
      if (i > 0 && this.types[i] === this.types[i - 1] && this.stats[i] === this.stats[i - 1]) {
        img.types[i] = img.types[i - 1];
        img.stats[i] = img.stats[i - 1];
      } else {
        img.types[i] = name(this.types[i]);
        img.stats[i] = counterIndex.get(this.stats[i]) as number;
      }
      img.fromTypes[i] = name(this.fromTypes[i]);
      img.toTypes[i] = name(this.toTypes[i]);
      img.valueAt[i] = img.values.length;
      img.shape[i] = attrsImage(
        this.attrs[i],
        shapes,
        img.values,
        enc,
        encodedAt,
        i > 0 ? img.shape[i - 1] : -1,
      );
      const seg = this.segments[i];
      if (this.kinds[i] === Kind.EdgeIds && seg) {
        img.segments.push(seg);
        transfer.push(seg.from.buffer as ArrayBuffer, seg.to.buffer as ArrayBuffer);
        this.segments[i] = null;
      }
    }
    if (encodedAt.length > 0) {
      img.encoded = enc.result().slice();
      img.encodedAt = Int32Array.from(encodedAt);
      transfer.push(img.encoded.buffer as ArrayBuffer, img.encodedAt.buffer as ArrayBuffer);
    }
    return img;
  }

  /**
   * Appends the operations of an image, counting into `stats` (the same kinds and types). They
   * stay in the image's arrays, applied from there: nothing is copied per operation.
   */
  append(img: BatchImage, stats: LoadStatistics): void {
    if (img.size === 0) return;
    const counters = img.counters.map(([kind, typeName]) => stats.object(kind, typeName));
    if (img.encodedAt.length > 0) {
      const values = img.values as Value[];
      const r = new ByteReader(img.encoded);
      for (const k of img.encodedAt) values[k] = r.value();
    }
    this.images[this.size] = { img, counters };
    this.push(Kind.Image, '', '', '', '', '', null, counters[0]);
    let weight = img.size - img.segments.length;
    for (const seg of img.segments) weight += seg.n;
    this.weight += weight - 1;
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

  /**
   * Applies every operation inside `tx`, counting into the operations' statistics; `expectEdges`
   * is passed on to upsertEdges (UpsertEdgeOptions).
   */
  applyTo(tx: WriteTx, createMissingEndpoints: boolean, expectEdges = 0): void {
    const edgeOpts = { createMissingEndpoints, expectEdges };
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
          case Kind.Image: {
            const taken = this.images[i] as TakenImage;
            this.images[i] = null;
            applyImage(tx, taken, edgeOpts);
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

/**
 * Ids as they cross threads: a Float64Array (transferred) when every one is a number, coded by
 * `coder` when every one is a string.
 */
function idsImage(
  ids: ExternalId[],
  n: number,
  transfer: ArrayBuffer[],
  coder: WordCoder | undefined,
): ExternalId[] | Float64Array | Int32Array {
  let numbers = true;
  for (let i = 0; i < n && numbers; i++) numbers = typeof ids[i] === 'number';
  if (!numbers) {
    const coded = coder?.code(ids, n);
    if (!coded) return ids.slice(0, n);
    transfer.push(coded.buffer as ArrayBuffer);
    return coded;
  }
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = ids[i] as number;
  transfer.push(out.buffer);
  return out;
}

/**
 * Adds an attribute map's values to `values` (those that are not primitives encoded into `enc`,
 * their places listed in `encodedAt`); returns its shape's index (-1: none or empty).
 */
function attrsImage(
  a: AttrMap | null,
  shapes: BatchImage['shapes'],
  values: PlainValue[],
  enc: ByteWriter,
  encodedAt: number[],
  /** The shape of the operation before (most often this one's too). */
  previous: number,
): number {
  if (a === null) return -1;
  // A batch holds few shapes (one per statement, and its lines with unset attributes).
  let s =
    previous >= 0 && sameShape(a, shapes[previous])
      ? previous
      : shapes.findIndex((shape) => sameShape(a, shape));
  if (s < 0) {
    const names = Object.keys(a);
    if (names.length === 0) return -1;
    s = shapes.push({ names, ops: names.map((k) => a[k].op) }) - 1;
  }
  for (const k in a) {
    const v = a[k].value;
    if (v !== null && typeof v === 'object') {
      encodedAt.push(values.length);
      enc.value(v);
      values.push(0);
    } else values.push(v as PlainValue);
  }
  return s;
}

function sameShape(a: AttrMap, shape: BatchImage['shapes'][number]): boolean {
  let j = 0;
  for (const k in a) {
    if (shape.names[j] !== k || shape.ops[j] !== a[k].op) return false;
    j++;
  }
  return j === shape.names.length;
}

/**
 * Applies the operations of an image in order, as Batch.applyTo applies its own: consecutive edge
 * upserts of one type and counter as one run whose attributes are read by shape from the image's
 * values (EdgeRun.shapes).
 */
function applyImage(tx: WriteTx, taken: TakenImage, edgeOpts: UpsertEdgeOptions): void {
  const { img, counters } = taken;
  const { names, kinds, types, fromTypes, toTypes, fromIds, toIds, stats } = img;
  const shapes = { list: img.shapes, of: img.shape, values: img.values as Value[], at: img.valueAt };
  let seg = 0;
  for (let i = 0; i < img.size; i++) {
    const s = counters[stats[i]];
    try {
      switch (kinds[i] as Kind) {
        case Kind.Edge: {
          let end = i + 1;
          while (
            end < img.size &&
            kinds[end] === Kind.Edge &&
            types[end] === types[i] &&
            fromTypes[end] === fromTypes[i] &&
            toTypes[end] === toTypes[i] &&
            stats[end] === stats[i]
          )
            end++;
          const run = { edgeType: names[types[i]], fromType: names[fromTypes[i]], toType: names[toTypes[i]] };
          applyRun(
            tx,
            { ...run, fromIds, toIds, attrs: null, shapes, codes: img.codes, start: i, end },
            edgeOpts,
            s,
          );
          i = end - 1;
          break;
        }
        case Kind.EdgeIds: {
          const ids = img.segments[seg++];
          const run = { edgeType: names[types[i]], fromType: names[fromTypes[i]], toType: names[toTypes[i]] };
          applyRun(
            tx,
            { ...run, fromIds: ids.from, toIds: ids.to, attrs: null, start: 0, end: ids.n },
            edgeOpts,
            s,
          );
          break;
        }
        case Kind.Vertex: {
          let end = i + 1;
          while (
            end < img.size &&
            kinds[end] === Kind.Vertex &&
            types[end] === types[i] &&
            stats[end] === stats[i] &&
            img.shape[end] === img.shape[i]
          )
            end++;
          applyVertexRun(tx, img, names[types[i]], i, end, s);
          i = end - 1;
          break;
        }
        case Kind.DeleteVertex:
          tx.deleteVertex(names[types[i]], fromIds[i]);
          s.validObject++;
          break;
        case Kind.DeleteEdge:
          tx.deleteEdge(names[types[i]], names[fromTypes[i]], fromIds[i], names[toTypes[i]], toIds[i]);
          s.validObject++;
          break;
      }
    } catch (e) {
      if (!(e instanceof EngineError)) throw e;
      s.invalidAttribute++;
    }
  }
}

/**
 * Applies the vertex upserts [start, end) of an image, all of one type and one attribute shape, as
 * one run (WriteTx.upsertVertices) with a column per attribute of the shape: the outcome of
 * upsertVertex on each in order, counted the same way.
 */
function applyVertexRun(
  tx: WriteTx,
  img: BatchImage,
  vertexType: string,
  start: number,
  end: number,
  s: ObjectStatistics,
): void {
  const n = end - start;
  const ids =
    img.fromIds instanceof Float64Array ? img.fromIds.subarray(start, end) : img.fromIds.slice(start, end);
  const columns: VertexRunColumn[] = [];
  const k = img.shape[start];
  if (k >= 0) {
    const shape = img.shapes[k];
    shape.names.forEach((name, j) => {
      const values = new Array<Value>(n);
      for (let i = 0; i < n; i++) values[i] = img.values[img.valueAt[start + i] + j] as Value;
      const op = shape.ops[j];
      columns.push({ name, values, ops: op === 'set' ? null : new Array<UpsertOp>(n).fill(op) });
    });
  }
  try {
    const c = tx.upsertVertices({ vertexType, ids, attrs: null, columns, start: 0, end: n });
    // As upsertVertex one by one: every vertex not refused counts, a skipped one included.
    s.validObject += c.inserted + c.updated + c.skipped;
    s.invalidAttribute += c.invalid;
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    s.invalidAttribute += n;
  }
}

/**
 * Applies one run of edge upserts, counting what happened to its edges. The edges expected from
 * the batch on (`opts.expectEdges`) are fewer by the run's afterwards, so that the later runs of
 * the batch do not reserve room for them a second time.
 */
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
  } finally {
    if (opts.expectEdges) opts.expectEdges = Math.max(0, opts.expectEdges - (run.end - run.start));
  }
}
