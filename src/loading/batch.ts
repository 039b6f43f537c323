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
import { packValue, unpackValue, type PackedValue } from '../store/mirror.js';
import type { IdSegment } from './edge-lines.js';
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

/**
 * A batch's operations as they cross threads (a parse worker to the committing thread): types by
 * index into `names`, counters by index into `counters`, attribute values that are not primitives
 * encoded (`packed` marks the operations that hold any).
 */
export interface BatchImage {
  size: number;
  kinds: Uint8Array;
  types: Uint16Array;
  fromTypes: Uint16Array;
  toTypes: Uint16Array;
  names: string[];
  fromIds: ExternalId[];
  toIds: ExternalId[];
  attrs: (AttrMap | PackedAttrMap | null)[];
  packed: Uint8Array;
  stats: Uint16Array;
  counters: [ObjectKind, string][];
  /** The segments of the EdgeIds operations, in order. */
  segments: IdSegment[];
}

type PackedAttrMap = Record<string, { value: PackedValue; op: AttrUpdate['op'] }>;

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

  /**
   * The operations as a BatchImage (segment buffers listed in `transfer`), with the counters they
   * count into named by kind and type as in `stats`.
   */
  image(stats: LoadStatistics, transfer: ArrayBuffer[]): BatchImage {
    const n = this.size;
    const names: string[] = [];
    const nameIndex = new Map<string, number>();
    const name = (t: string): number => {
      let i = nameIndex.get(t);
      if (i === undefined) nameIndex.set(t, (i = names.push(t) - 1));
      return i;
    };
    const counters: [ObjectKind, string][] = [];
    const counterIndex = new Map<ObjectStatistics, number>();
    for (const [kind, o] of stats.entries()) counterIndex.set(o, counters.push([kind, o.typeName]) - 1);
    const img: BatchImage = {
      size: n,
      kinds: Uint8Array.from(this.kinds.slice(0, n)),
      types: new Uint16Array(n),
      fromTypes: new Uint16Array(n),
      toTypes: new Uint16Array(n),
      names,
      fromIds: this.fromIds.slice(0, n),
      toIds: this.toIds.slice(0, n),
      attrs: new Array<AttrMap | PackedAttrMap | null>(n),
      packed: new Uint8Array(n),
      stats: new Uint16Array(n),
      counters,
      segments: [],
    };
    for (let i = 0; i < n; i++) {
      img.types[i] = name(this.types[i]);
      img.fromTypes[i] = name(this.fromTypes[i]);
      img.toTypes[i] = name(this.toTypes[i]);
      img.stats[i] = counterIndex.get(this.stats[i]) as number;
      const a = this.attrs[i];
      // An empty map crosses as null (most edges have no attributes).
      if (a === null || isEmpty(a)) img.attrs[i] = null;
      else if (hasObjectValue(a)) {
        img.attrs[i] = packAttrs(a);
        img.packed[i] = 1;
      } else img.attrs[i] = a;
      const seg = this.segments[i];
      if (this.kinds[i] === Kind.EdgeIds && seg) {
        img.segments.push(seg);
        transfer.push(seg.from.buffer as ArrayBuffer, seg.to.buffer as ArrayBuffer);
        this.segments[i] = null;
      }
    }
    return img;
  }

  /** Appends the operations of an image, counting into `stats` (the same kinds and types). */
  append(img: BatchImage, stats: LoadStatistics): void {
    const counters = img.counters.map(([kind, typeName]) => stats.object(kind, typeName));
    const { names } = img;
    let seg = 0;
    for (let i = 0; i < img.size; i++) {
      const kind = img.kinds[i] as Kind;
      const s = counters[img.stats[i]];
      const type = names[img.types[i]];
      if (kind === Kind.EdgeIds) {
        this.upsertEdgeIds(type, names[img.fromTypes[i]], names[img.toTypes[i]], img.segments[seg++], s);
        continue;
      }
      const a = img.attrs[i];
      const attrs =
        img.packed[i] === 1
          ? unpackAttrs(a as PackedAttrMap)
          : ((a as AttrMap | null) ?? (kind === Kind.Edge ? null : {}));
      this.push(
        kind,
        type,
        names[img.fromTypes[i]],
        img.fromIds[i],
        names[img.toTypes[i]],
        img.toIds[i],
        attrs,
        s,
      );
    }
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

function isEmpty(a: AttrMap): boolean {
  for (const _k in a) return false;
  return true;
}

function hasObjectValue(a: AttrMap): boolean {
  for (const k in a) {
    const v = a[k].value;
    if (v !== null && typeof v === 'object') return true;
  }
  return false;
}

function packAttrs(a: AttrMap): PackedAttrMap {
  const out: PackedAttrMap = {};
  for (const k in a) out[k] = { value: packValue(a[k].value), op: a[k].op };
  return out;
}

function unpackAttrs(a: PackedAttrMap): AttrMap {
  const out: AttrMap = {};
  for (const k in a) out[k] = { value: unpackValue(a[k].value), op: a[k].op };
  return out;
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
