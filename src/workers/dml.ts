/**
 * A query's changes as data. A query run in a worker records each change it makes (the calls its
 * DML ops make on a QueryWriter) instead of applying it; the main thread replays the records in
 * order inside one write transaction, as the runtime would have applied the ops (query/run.ts).
 */
import type {
  AttrUpdate,
  EdgeHandle,
  ExternalId,
  UpsertEdgeOptions,
  UpsertResult,
  UpsertVertexOptions,
  WriteTx,
} from '../engine/api.js';
import type { QueryGraph, QueryWriter } from '../query/index.js';
import { packValue, type PackedValue, unpackValue } from '../store/mirror.js';

type PackedAttrs = Record<string, { value: PackedValue; op: AttrUpdate['op'] }>;

export type DmlRecord =
  | ['upsertVertex', string, ExternalId, PackedAttrs, UpsertVertexOptions | undefined]
  | ['upsertEdge', string, string, ExternalId, string, ExternalId, PackedAttrs, UpsertEdgeOptions | undefined]
  | ['deleteVertex', string, ExternalId, { permanent?: boolean } | undefined]
  | ['setVertexAttrs', string, number, PackedAttrs]
  | ['setEdgeAttrs', EdgeHandle, PackedAttrs]
  | ['deleteEdgeHandle', EdgeHandle];

function pack(attrs: Record<string, AttrUpdate>): PackedAttrs {
  const out: PackedAttrs = {};
  for (const [k, u] of Object.entries(attrs)) out[k] = { value: packValue(u.value), op: u.op };
  return out;
}

function unpack(attrs: PackedAttrs): Record<string, AttrUpdate> {
  const out: Record<string, AttrUpdate> = {};
  for (const [k, u] of Object.entries(attrs)) out[k] = { value: unpackValue(u.value), op: u.op };
  return out;
}

/** A QueryWriter that records; ids of rows are read from the snapshot (a row's id never changes). */
export class DmlRecorder implements QueryWriter {
  readonly records: DmlRecord[] = [];

  constructor(private readonly snapshot: Pick<QueryGraph, 'vertexId'>) {}

  upsertVertex(
    vertexType: string,
    id: ExternalId,
    attrs: Record<string, AttrUpdate>,
    opts?: UpsertVertexOptions,
  ): UpsertResult {
    this.records.push(['upsertVertex', vertexType, id, pack(attrs), opts]);
    return 'inserted';
  }

  upsertEdge(
    edgeType: string,
    fromType: string,
    fromId: ExternalId,
    toType: string,
    toId: ExternalId,
    attrs: Record<string, AttrUpdate>,
    opts?: UpsertEdgeOptions,
  ): UpsertResult {
    this.records.push(['upsertEdge', edgeType, fromType, fromId, toType, toId, pack(attrs), opts]);
    return 'inserted';
  }

  deleteVertex(vertexType: string, id: ExternalId, opts?: { permanent?: boolean }): boolean {
    this.records.push(['deleteVertex', vertexType, id, opts]);
    return true;
  }

  setVertexAttrs(vertexType: string, row: number, attrs: Record<string, AttrUpdate>): void {
    this.records.push(['setVertexAttrs', vertexType, row, pack(attrs)]);
  }

  setEdgeAttrs(edge: EdgeHandle, attrs: Record<string, AttrUpdate>): void {
    this.records.push(['setEdgeAttrs', edge, pack(attrs)]);
  }

  deleteEdgeHandle(edge: EdgeHandle): boolean {
    this.records.push(['deleteEdgeHandle', edge]);
    return true;
  }

  vertexId(vertexType: string, row: number): string {
    return this.snapshot.vertexId(vertexType, row);
  }
}

/** Applies the records in order (main thread, inside the query's write transaction). */
export function replayDml(tx: WriteTx, records: readonly DmlRecord[]): void {
  for (const r of records) {
    switch (r[0]) {
      case 'upsertVertex':
        tx.upsertVertex(r[1], r[2], unpack(r[3]), r[4]);
        break;
      case 'upsertEdge':
        tx.upsertEdge(r[1], r[2], r[3], r[4], r[5], unpack(r[6]), r[7]);
        break;
      case 'deleteVertex':
        tx.deleteVertex(r[1], r[2], r[3]);
        break;
      case 'setVertexAttrs':
        tx.setVertexAttrs(r[1], r[2], unpack(r[3]));
        break;
      case 'setEdgeAttrs':
        tx.setEdgeAttrs(r[1], unpack(r[2]));
        break;
      case 'deleteEdgeHandle':
        tx.deleteEdgeHandle(r[1]);
        break;
    }
  }
}
