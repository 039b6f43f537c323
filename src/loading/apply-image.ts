/**
 * Applying a batch's operations inside a write transaction, counting what happened to each into
 * the load's statistics: runs of edge upserts (WriteTx.upsertEdges), and the operations of an
 * image taken from a parse thread, applied from the image's arrays (runs of edges by attribute
 * shape, runs of vertices likewise). An operation the engine refuses
 * (EngineError) is counted against its type and skipped; it never fails the batch.
 */
import type { Value } from '../catalog/value.js';
import {
  EngineError,
  type EdgeRun,
  type UpsertEdgeOptions,
  type ExternalId,
  type VertexRun,
  type WriteTx,
} from '../engine/api.js';
import { edgeRunEnd, OpKind, vertexRunEnd } from './batch-ops.js';
import type { BatchImage } from './batch-image.js';
import type { ObjectStatistics } from './statistics.js';

/** An image appended to a batch, with the load's counters its operations count into. */
export interface TakenImage {
  img: BatchImage;
  counters: ObjectStatistics[];
}

/**
 * Applies the operations of an image in order, as Batch.applyTo applies its own: consecutive edge
 * upserts of one type and counter as one run whose attributes are read by shape from the image's
 * values (EdgeRun.shapes).
 */
export function applyImage(tx: WriteTx, taken: TakenImage, edgeOpts: UpsertEdgeOptions): void {
  const { img, counters } = taken;
  const { names, kinds, types, fromTypes, toTypes, fromIds, toIds, stats } = img;
  const shapes = { list: img.shapes, of: img.shape, values: img.values as ArrayLike<Value>, at: img.valueAt };
  let seg = 0;
  for (let i = 0; i < img.size; i++) {
    const s = counters[stats[i]];
    try {
      switch (kinds[i] as OpKind) {
        case OpKind.Edge: {
          const end = edgeRunEnd(img, i);
          const types3 = [names[types[i]], names[fromTypes[i]], names[toTypes[i]]] as const;
          applyRun(tx, edgeRun(types3, fromIds, toIds, null, shapes, img.codes, i, end), edgeOpts, s);
          i = end - 1;
          break;
        }
        case OpKind.EdgeIds: {
          const ids = img.segments[seg++];
          const types3 = [names[types[i]], names[fromTypes[i]], names[toTypes[i]]] as const;
          applyRun(tx, edgeRun(types3, ids.from, ids.to, null, undefined, undefined, 0, ids.n), edgeOpts, s);
          break;
        }
        case OpKind.Vertex: {
          // Consecutive upserts of one type and counter as one run, attributes by shape.
          const end = vertexRunEnd(img, i);
          applyVertices(
            tx,
            {
              vertexType: names[types[i]],
              ids: fromIds as ArrayLike<ExternalId>,
              attrs: null,
              shapes,
              start: i,
              end,
            },
            s,
          );
          i = end - 1;
          break;
        }
        case OpKind.DeleteVertex:
          tx.deleteVertex(names[types[i]], fromIds[i]);
          s.validObject++;
          break;
        case OpKind.DeleteEdge:
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

/** Applies a run of vertex upserts, counting them as upsertVertex one by one would. */
export function applyVertices(tx: WriteTx, run: VertexRun, s: ObjectStatistics): void {
  try {
    const c = tx.upsertVertices(run);
    // Every vertex not refused counts, a skipped one included.
    s.validObject += c.inserted + c.updated + c.skipped;
    s.invalidAttribute += c.invalid;
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    s.invalidAttribute += run.end - run.start;
  }
}

/**
 * An EdgeRun with every field present and in one order, whichever path made it (a batch's edges,
 * an image's, a segment of integer ids): the engine's run loop then sees one object shape, where
 * runs of different shapes made V8 throw away and recompile its optimized code (about 0.1 s of a
 * compiler thread each time).
 */
export function edgeRun(
  [edgeType, fromType, toType]: readonly [string, string, string],
  fromIds: EdgeRun['fromIds'],
  toIds: EdgeRun['toIds'],
  attrs: EdgeRun['attrs'],
  shapes: EdgeRun['shapes'],
  codes: EdgeRun['codes'],
  start: number,
  end: number,
): EdgeRun {
  return { edgeType, fromType, toType, fromIds, toIds, attrs, shapes, codes, start, end };
}

/**
 * Applies one run of edge upserts, counting what happened to its edges. The edges expected from
 * the batch on (`opts.expectEdges`) are fewer by the run's afterwards, so that the later runs of
 * the batch do not reserve room for them a second time.
 */
export function applyRun(tx: WriteTx, run: EdgeRun, opts: UpsertEdgeOptions, s: ObjectStatistics): void {
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
