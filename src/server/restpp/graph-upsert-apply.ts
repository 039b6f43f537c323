/**
 * Upsert of REST++ `POST /graph/{graph}`, second half: a request prepareUpsert (graph-upsert.ts) has
 * checked is applied inside one write transaction, and the counts are returned the way TigerGraph
 * reports them.
 */
import type { VertexRun, VertexRunCounts, WriteTx } from '../../engine/api.js';
import {
  upsertError,
  type PreparedEdge,
  type PreparedUpsert,
  type PreparedVertexRun,
} from './graph-upsert.js';

export interface UpsertFlags {
  newVertexOnly: boolean;
  updateVertexOnly: boolean;
  vertexMustExist: boolean;
  sourceVertexMustExist: boolean;
  targetVertexMustExist: boolean;
}

export interface VertexKey {
  v_type: string;
  v_id: string;
}

/** The counts object TigerGraph returns (keys present only with the flags that produce them). */
export interface UpsertCounts {
  accepted_vertices: number;
  skipped_vertices?: number;
  vertices_already_exist?: VertexKey[];
  vertices_not_exist?: VertexKey[];
  accepted_edges: number;
  skipped_edges?: number;
  edge_vertices_not_exist?: VertexKey[];
}

/**
 * Applies a prepared upsert inside a write transaction and counts what happened. `columnRuns` are
 * vertex runs the fast reader (graph-upsert-columns.ts) read from the start of the body, before the
 * rest was prepared into `plan`; they are applied first, as the body lists them first. They come
 * only without vertex flags.
 */
export function applyUpsert(
  tx: WriteTx,
  plan: PreparedUpsert,
  flags: UpsertFlags,
  columnRuns: readonly VertexRun[] = [],
): UpsertCounts {
  const vertexFlag = flags.newVertexOnly || flags.updateVertexOnly;
  let acceptedVertices = 0;
  const skippedVertices: VertexKey[] = [];
  if (vertexFlag && columnRuns.length > 0) throw new Error('column runs are read without vertex flags');
  for (const run of columnRuns) acceptedVertices += acceptedOf(run.vertexType, tx.upsertVertices(run));
  if (!vertexFlag) acceptedVertices += applyVertexRuns(tx, plan.vertexRuns);
  else {
    for (const run of plan.vertexRuns) {
      for (let i = 0; i < run.ids.length; i++) {
        const r = tx.upsertVertex(run.type, run.ids[i], run.attrs[i], {
          newOnly: flags.newVertexOnly,
          updateOnly: flags.updateVertexOnly,
        });
        if (r === 'skipped') skippedVertices.push({ v_type: run.type, v_id: run.ids[i] });
        else acceptedVertices++;
      }
    }
  }

  const edgeCounts = edgeFlag(flags)
    ? applyEdgesChecked(tx, plan.edges, flags)
    : applyEdgeRuns(tx, plan.edges);
  return upsertCounts(flags, acceptedVertices, skippedVertices, edgeCounts);
}

function edgeFlag(flags: UpsertFlags): boolean {
  return flags.vertexMustExist || flags.sourceVertexMustExist || flags.targetVertexMustExist;
}

function upsertCounts(
  flags: UpsertFlags,
  acceptedVertices: number,
  skippedVertices: VertexKey[],
  edgeCounts: EdgeCounts,
): UpsertCounts {
  const vertexFlag = flags.newVertexOnly || flags.updateVertexOnly;
  return {
    accepted_vertices: acceptedVertices,
    ...(vertexFlag ? { skipped_vertices: skippedVertices.length } : {}),
    ...(flags.newVertexOnly ? { vertices_already_exist: skippedVertices } : {}),
    ...(vertexFlag && !flags.newVertexOnly ? { vertices_not_exist: skippedVertices } : {}),
    accepted_edges: edgeCounts.accepted,
    ...(edgeFlag(flags)
      ? { skipped_edges: edgeCounts.skipped, edge_vertices_not_exist: edgeCounts.missing }
      : {}),
  };
}

/**
 * How many vertices of a run were accepted (a permanently deleted id is not). prepareUpsert, or
 * readVertexColumns, checked every id and value, so the engine refuses none; if it did, the whole
 * request fails (and changes nothing) rather than part of it.
 */
function acceptedOf(type: string, c: VertexRunCounts): number {
  if (c.invalid > 0) {
    throw upsertError(`${c.invalid} vertices of type '${type}' were refused by the storage engine.`);
  }
  return c.inserted + c.updated;
}

/**
 * Without vertex flags: each vertex type object of the body goes to the engine as one run. Returns
 * how many were accepted (a permanently deleted id is not).
 */
function applyVertexRuns(tx: WriteTx, runs: readonly PreparedVertexRun[]): number {
  let accepted = 0;
  for (const { type, ids, attrs } of runs) {
    accepted += acceptedOf(
      type,
      tx.upsertVertices({ vertexType: type, ids, attrs, start: 0, end: ids.length }),
    );
  }
  return accepted;
}

interface EdgeCounts {
  accepted: number;
  skipped: number;
  missing: VertexKey[];
}

/**
 * Without endpoint flags: consecutive edges of one (edge type, source type, target type), as a body
 * lists them, go to the engine as one run. Missing endpoints are created; an edge is skipped only
 * when an endpoint was deleted permanently.
 */
function applyEdgeRuns(tx: WriteTx, edges: readonly PreparedEdge[]): EdgeCounts {
  const counts: EdgeCounts = { accepted: 0, skipped: 0, missing: [] };
  if (edges.length === 0) return counts;
  const fromIds = edges.map((e) => e.srcId);
  const toIds = edges.map((e) => e.tgtId);
  const attrs = edges.map((e) => e.attrs);
  for (let start = 0; start < edges.length;) {
    const first = edges[start];
    let end = start + 1;
    while (
      end < edges.length &&
      edges[end].edgeType.name === first.edgeType.name &&
      edges[end].srcType === first.srcType &&
      edges[end].tgtType === first.tgtType
    ) {
      end++;
    }
    const c = tx.upsertEdges(
      {
        edgeType: first.edgeType.name,
        fromType: first.srcType,
        toType: first.tgtType,
        fromIds,
        toIds,
        attrs,
        start,
        end,
      },
      { createMissingEndpoints: true },
    );
    // prepareUpsert checked every id and value, so the engine refuses none; if it did, the whole
    // request fails (and changes nothing) rather than part of it.
    if (c.invalid > 0) {
      throw upsertError(
        `${c.invalid} edge(s) of type '${first.edgeType.name}' were refused by the storage engine.`,
      );
    }
    counts.accepted += c.inserted + c.updated;
    counts.skipped += c.skipped;
    start = end;
  }
  return counts;
}

/** With endpoint flags: each edge's endpoints are looked up first, and missing ones reported once each. */
function applyEdgesChecked(tx: WriteTx, edges: readonly PreparedEdge[], flags: UpsertFlags): EdgeCounts {
  const counts: EdgeCounts = { accepted: 0, skipped: 0, missing: [] };
  const missingSeen = new Set<string>();
  const noteMissing = (type: string, id: string): void => {
    const key = `${type}\u0000${id}`;
    if (missingSeen.has(key)) return;
    missingSeen.add(key);
    counts.missing.push({ v_type: type, v_id: id });
  };
  for (const e of edges) {
    // For an undirected edge either endpoint flag means both (TigerGraph's rule).
    const either = !e.edgeType.edge.directed && (flags.sourceVertexMustExist || flags.targetVertexMustExist);
    const srcMust = flags.vertexMustExist || flags.sourceVertexMustExist || either;
    const tgtMust = flags.vertexMustExist || flags.targetVertexMustExist || either;
    const srcMissing = srcMust && !tx.vertexExists(e.srcType, e.srcId);
    const tgtMissing = tgtMust && !tx.vertexExists(e.tgtType, e.tgtId);
    if (srcMissing || tgtMissing) {
      counts.skipped++;
      if (srcMissing) noteMissing(e.srcType, e.srcId);
      if (tgtMissing) noteMissing(e.tgtType, e.tgtId);
      continue;
    }
    const r = tx.upsertEdge(e.edgeType.name, e.srcType, e.srcId, e.tgtType, e.tgtId, e.attrs, {
      createMissingEndpoints: true,
    });
    if (r === 'skipped') counts.skipped++;
    else counts.accepted++;
  }
  return counts;
}
