/**
 * WAL record encoding (the durability layer stores these bytes opaquely, framed and checksummed).
 *
 * A record is one committed transaction:
 *   u8 RECORD_FORMAT (=3; 1 and 2 are still read) | u8 kind | varuint commit version | body
 * kind 1 DATA: a sequence of ops, each starting with an op byte; values use the tagged Value
 *   encoding of bytes.ts, ids are the typed stored id value:
 *     1 UPSERT_VERTEX  str type, value id, varuint n, n × (str attribute, value)
 *     2 UPSERT_EDGE    str stored edge type, str FROM type, value FROM id, str TO type, value TO id,
 *                      varuint n, n × (str attribute, value)   (discriminator attributes included)
 *     3 DELETE_VERTEX  str type, value id, u8 permanent
 *     4 DELETE_EDGE    str stored edge type, str FROM type, value FROM id, str TO type, value TO id,
 *                      varuint n, n × (str discriminator attribute, value)
 *     5 UPSERT_EDGES   str stored edge type, str FROM type, str TO type, u32 count,
 *                      count × (value FROM id, value TO id, varuint n, n × (str attribute, value))
 *                      (format 2: a bulk run; its missing endpoints are not logged, replay creates
 *                      them again as the original run did)
 *     6 UPSERT_VERTICES str type, u32 count, count × (value id, varuint n, n × (str attribute, value))
 *                      (format 3: a bulk run of UPSERT_VERTEX ops of one type)
 *   Type and attribute names are interned per record: varuint 0 + str for a first occurrence,
 *   varuint k for the k-th distinct name of the record.
 *   Attribute values are the final values written (upsert ops already applied), so replay is a
 *   plain re-application in order. Vertices created implicitly by an edge are logged before it.
 * kind 2 CATALOG: str catalog as JSON (catalog objects are plain JSON data) — a schema change, data migrated on replay.
 * kind 3 CLEAR: the graph store was cleared (catalog kept).
 */
import type { Catalog } from '../catalog/types.js';
import type { Value } from '../catalog/value.js';
import { type AttrUpdate, EngineError, type ExternalId } from './api.js';
import { ByteReader, ByteWriter } from '../store/bytes.js';
import type { WriteTxImpl } from './write-tx.js';

export const RECORD_FORMAT = 3;
/** The oldest record format this build still reads (format 1 has no UPSERT_EDGES op, 2 no UPSERT_VERTICES). */
const OLDEST_RECORD_FORMAT = 1;
const KIND_DATA = 1;
const KIND_CATALOG = 2;
const KIND_CLEAR = 3;

const OP_UPSERT_VERTEX = 1;
const OP_UPSERT_EDGE = 2;
const OP_DELETE_VERTEX = 3;
const OP_DELETE_EDGE = 4;
const OP_UPSERT_EDGES = 5;
const OP_UPSERT_VERTICES = 6;

export class RecordWriter {
  private w = new ByteWriter(256);
  private names = new Map<string, number>();
  ops = 0;
  /** The open run's op and names, written before its first item. */
  private run: [number, string[]] | undefined;
  /** Where the open run's count goes; -1 until its first item is written. */
  private runAt = -1;
  private runCount = 0;

  /** The last name written and its number (an edge run writes its one attribute name per edge). */
  private lastName = '';
  private lastKey = 0;

  private name(s: string): void {
    if (s === this.lastName && this.lastKey > 0) return this.w.varuint(this.lastKey);
    const k = this.names.get(s);
    if (k !== undefined) {
      this.w.varuint(k);
      this.lastName = s;
      this.lastKey = k;
    } else {
      this.names.set(s, this.names.size + 1);
      this.w.varuint(0);
      this.w.str(s);
    }
  }

  constructor(version: number) {
    this.w.u8(RECORD_FORMAT);
    this.w.u8(KIND_DATA);
    this.w.varuint(version);
  }

  private attrs(list: readonly (readonly [string, Value])[]): void {
    this.w.varuint(list.length);
    for (const [k, v] of list) {
      this.name(k);
      this.w.value(v);
    }
  }

  upsertVertex(type: string, id: Value, attrs: readonly (readonly [string, Value])[]): void {
    this.ops++;
    this.w.u8(OP_UPSERT_VERTEX);
    this.name(type);
    this.w.value(id);
    this.attrs(attrs);
  }

  private edgeHead(op: number, et: string, ft: string, fid: Value, tt: string, tid: Value): void {
    this.ops++;
    this.w.u8(op);
    this.name(et);
    this.name(ft);
    this.w.value(fid);
    this.name(tt);
    this.w.value(tid);
  }

  upsertEdge(
    et: string,
    ft: string,
    fid: Value,
    tt: string,
    tid: Value,
    attrs: readonly (readonly [string, Value])[],
  ): void {
    this.edgeHead(OP_UPSERT_EDGE, et, ft, fid, tt, tid);
    this.attrs(attrs);
  }

  /**
   * Opens a run of edge upserts of one stored (edge type, FROM type, TO type). Nothing is written
   * until its first edge; no other op may be written until endRun.
   */
  beginEdgeRun(et: string, ft: string, tt: string): void {
    this.beginRun(OP_UPSERT_EDGES, [et, ft, tt]);
  }

  /** Opens a run of vertex upserts of one type, as beginEdgeRun does for edges. */
  beginVertexRun(type: string): void {
    this.beginRun(OP_UPSERT_VERTICES, [type]);
  }

  private beginRun(op: number, names: string[]): void {
    this.run = [op, names];
    this.runAt = -1;
    this.runCount = 0;
  }

  /** Counts one item of the open run, writing the run's head before the first. */
  private runItem(): void {
    if (this.runAt < 0) {
      const [op, names] = this.run as [number, string[]];
      this.w.u8(op);
      for (const n of names) this.name(n);
      this.runAt = this.w.pos;
      this.w.u32(0);
    }
    this.ops++;
    this.runCount++;
  }

  /** Writes one edge of the open edge run; its `attrs` attributes follow through runAttr. */
  runEdge(fid: Value, tid: Value, attrs: number): void {
    this.runItem();
    this.w.value(fid);
    this.w.value(tid);
    this.w.varuint(attrs);
  }

  /** Writes one vertex of the open vertex run; its `attrs` attributes follow through runAttr. */
  runVertex(id: Value, attrs: number): void {
    this.runItem();
    this.w.value(id);
    this.w.varuint(attrs);
  }

  runAttr(name: string, v: Value): void {
    this.name(name);
    this.w.value(v);
  }

  /** runAttr of a number (the same bytes), without the number passing as a boxed Value. */
  runNumber(name: string, v: number): void {
    this.name(name);
    this.w.number(v);
  }

  endRun(): void {
    if (this.runAt >= 0) this.w.u32At(this.runAt, this.runCount);
    this.run = undefined;
    this.runAt = -1;
  }

  deleteVertex(type: string, id: Value, permanent: boolean): void {
    this.ops++;
    this.w.u8(OP_DELETE_VERTEX);
    this.name(type);
    this.w.value(id);
    this.w.u8(permanent ? 1 : 0);
  }

  deleteEdge(
    et: string,
    ft: string,
    fid: Value,
    tt: string,
    tid: Value,
    disc: readonly (readonly [string, Value])[],
  ): void {
    this.edgeHead(OP_DELETE_EDGE, et, ft, fid, tt, tid);
    this.attrs(disc);
  }

  bytes(): Uint8Array {
    return this.w.result();
  }
}

export function catalogRecord(version: number, catalog: Catalog): Uint8Array {
  const w = new ByteWriter(1024);
  w.u8(RECORD_FORMAT);
  w.u8(KIND_CATALOG);
  w.varuint(version);
  w.str(JSON.stringify(catalog));
  return w.result();
}

export function clearRecord(version: number): Uint8Array {
  const w = new ByteWriter(16);
  w.u8(RECORD_FORMAT);
  w.u8(KIND_CLEAR);
  w.varuint(version);
  return w.result();
}

export type DecodedRecord =
  | { kind: 'data'; version: number; reader: ByteReader }
  | { kind: 'catalog'; version: number; catalog: Catalog }
  | { kind: 'clear'; version: number };

export function decodeRecord(bytes: Uint8Array): DecodedRecord {
  const r = new ByteReader(bytes);
  const format = r.u8();
  if (format < OLDEST_RECORD_FORMAT || format > RECORD_FORMAT) {
    throw new EngineError(
      'DATA-DIR',
      `WAL record format ${format} is not supported (this build reads ${OLDEST_RECORD_FORMAT} to ${RECORD_FORMAT}).`,
    );
  }
  const kind = r.u8();
  const version = r.varuint();
  if (kind === KIND_DATA) return { kind: 'data', version, reader: r };
  if (kind === KIND_CATALOG) return { kind: 'catalog', version, catalog: JSON.parse(r.str()) as Catalog };
  if (kind === KIND_CLEAR) return { kind: 'clear', version };
  throw new EngineError('DATA-DIR', `Unknown WAL record kind ${kind}.`);
}

/** Reads interned names of one record. */
class NameReader {
  private names: string[] = [];
  constructor(private readonly r: ByteReader) {}
  next(): string {
    const k = this.r.varuint();
    if (k !== 0) return this.names[k - 1];
    const s = this.r.str();
    this.names.push(s);
    return s;
  }
}

function readAttrs(
  r: ByteReader,
  names: NameReader,
  n = r.varuint(),
): Record<string, { value: Value; op: 'set' }> {
  const out: Record<string, { value: Value; op: 'set' }> = {};
  for (let i = 0; i < n; i++) {
    const k = names.next();
    out[k] = { value: r.value(), op: 'set' };
  }
  return out;
}

/** Re-applies the ops of a DATA record through a write transaction. */
export function replayData(r: ByteReader, tx: WriteTxImpl): void {
  const names = new NameReader(r);
  while (!r.done) {
    const op = r.u8();
    switch (op) {
      case OP_UPSERT_VERTEX: {
        const type = names.next();
        const id = r.value() as string | number | bigint;
        tx.upsertVertex(type, id, readAttrs(r, names));
        break;
      }
      case OP_UPSERT_EDGE:
      case OP_DELETE_EDGE: {
        const et = names.next();
        const ft = names.next();
        const fid = r.value() as string | number | bigint;
        const tt = names.next();
        const tid = r.value() as string | number | bigint;
        const attrs = readAttrs(r, names);
        if (op === OP_UPSERT_EDGE)
          tx.upsertEdge(et, ft, fid, tt, tid, attrs, { createMissingEndpoints: true });
        else {
          const disc: Record<string, Value> = {};
          for (const [k, u] of Object.entries(attrs)) disc[k] = u.value;
          tx.deleteEdge(et, ft, fid, tt, tid, disc);
        }
        break;
      }
      case OP_UPSERT_EDGES:
        replayEdgeRun(r, names, tx);
        break;
      case OP_UPSERT_VERTICES:
        replayVertexRun(r, names, tx);
        break;
      case OP_DELETE_VERTEX: {
        const type = names.next();
        const id = r.value() as string | number | bigint;
        tx.deleteVertex(type, id, { permanent: r.u8() === 1 });
        break;
      }
      default:
        throw new EngineError('DATA-DIR', `Unknown WAL op ${op}.`);
    }
  }
}

function replayEdgeRun(r: ByteReader, names: NameReader, tx: WriteTxImpl): void {
  const edgeType = names.next();
  const fromType = names.next();
  const toType = names.next();
  const n = r.u32();
  const fromIds: ExternalId[] = new Array<ExternalId>(n);
  const toIds: ExternalId[] = new Array<ExternalId>(n);
  let attrs: (Record<string, AttrUpdate> | null)[] | null = null;
  for (let i = 0; i < n; i++) {
    fromIds[i] = r.value() as ExternalId;
    toIds[i] = r.value() as ExternalId;
    const k = r.varuint();
    if (k > 0) {
      attrs ??= new Array<Record<string, AttrUpdate> | null>(n).fill(null);
      attrs[i] = readAttrs(r, names, k);
    }
  }
  const c = tx.upsertEdges(
    { edgeType, fromType, toType, fromIds, toIds, attrs, start: 0, end: n },
    { createMissingEndpoints: true, unchecked: true },
  );
  if (c.invalid > 0)
    throw new EngineError(
      'DATA-DIR',
      `A logged ${edgeType} edge run has ${c.invalid} edges that do not apply.`,
    );
}

function replayVertexRun(r: ByteReader, names: NameReader, tx: WriteTxImpl): void {
  const vertexType = names.next();
  const n = r.u32();
  const ids: ExternalId[] = new Array<ExternalId>(n);
  let attrs: (Record<string, AttrUpdate> | null)[] | null = null;
  for (let i = 0; i < n; i++) {
    ids[i] = r.value() as ExternalId;
    const k = r.varuint();
    if (k > 0) {
      attrs ??= new Array<Record<string, AttrUpdate> | null>(n).fill(null);
      attrs[i] = readAttrs(r, names, k);
    }
  }
  const c = tx.upsertVertices({ vertexType, ids, attrs, start: 0, end: n });
  if (c.invalid > 0 || c.skipped > 0)
    throw new EngineError(
      'DATA-DIR',
      `A logged ${vertexType} vertex run has ${c.invalid + c.skipped} vertices that do not apply.`,
    );
}

/** A vertex a DATA record writes: upserted, deleted, or named as an endpoint of an edge run. */
export interface VertexTouch {
  type: string;
  id: ExternalId;
  how: 'upsert' | 'delete' | 'endpoint';
}

/**
 * The vertices a DATA record writes, in record order (commit listeners read this; replay does
 * not), read lazily so a reader can stop early. An edge run's endpoints are listed because the run
 * may have created them.
 */
export function* vertexTouches(bytes: Uint8Array): Generator<VertexTouch> {
  const d = decodeRecord(bytes);
  if (d.kind !== 'data') return;
  const r = d.reader;
  const names = new NameReader(r);
  while (!r.done) {
    const op = r.u8();
    switch (op) {
      case OP_UPSERT_VERTEX:
      case OP_DELETE_VERTEX: {
        const type = names.next();
        const id = r.value() as ExternalId;
        if (op === OP_UPSERT_VERTEX) readAttrs(r, names);
        else r.u8();
        yield { type, id, how: op === OP_UPSERT_VERTEX ? 'upsert' : 'delete' };
        break;
      }
      case OP_UPSERT_EDGE:
      case OP_DELETE_EDGE:
        names.next();
        names.next();
        r.value();
        names.next();
        r.value();
        readAttrs(r, names);
        break;
      case OP_UPSERT_EDGES: {
        names.next();
        const from = names.next();
        const to = names.next();
        const n = r.u32();
        for (let i = 0; i < n; i++) {
          yield { type: from, id: r.value() as ExternalId, how: 'endpoint' };
          yield { type: to, id: r.value() as ExternalId, how: 'endpoint' };
          readAttrs(r, names);
        }
        break;
      }
      case OP_UPSERT_VERTICES: {
        const type = names.next();
        const n = r.u32();
        for (let i = 0; i < n; i++) {
          yield { type, id: r.value() as ExternalId, how: 'upsert' };
          readAttrs(r, names);
        }
        break;
      }
      default:
        throw new EngineError('DATA-DIR', `Unknown WAL op ${op}.`);
    }
  }
}
