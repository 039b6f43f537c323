/**
 * Bulk edge upsert (WriteTx.upsertEdges): a run of edges of one edge type between one FROM and one
 * TO vertex type, as a loading batch produces them. The outcome is that of upsertEdge on each edge in
 * order. What upsertEdge does per edge is done once per run here: the route, the blocks, attribute
 * columns and defaults, sizing the delta, marking the block and the changed segments. The run is
 * logged as one UPSERT_EDGES op (wal-record.ts): ids and attributes only, with no op for endpoints
 * the run creates, because replaying the run creates them again in the same order.
 */
import type { AttrUpdate, EdgeRun, EdgeRunCounts, UpsertEdgeOptions } from './api.js';
import { EngineError } from './api.js';
import { EdgeRunWriter } from './edge-run-writer.js';
import type { WriteTxImpl } from './write-tx.js';

const NO_ATTRS: Record<string, AttrUpdate> = {};

export function upsertEdgeRun(tx: WriteTxImpl, run: EdgeRun, opts: UpsertEdgeOptions): EdgeRunCounts {
  const counts: EdgeRunCounts = { inserted: 0, updated: 0, skipped: 0, invalid: 0 };
  if (run.end <= run.start) return counts;
  const route = tx.route(run.edgeType, run.fromType, run.toType);
  // Discriminated edge types match on attribute values; they take the per-edge path.
  if (route.et.discriminator.length > 0) return oneByOne(tx, run, opts, counts);
  return new EdgeRunWriter(tx, run, opts, route).write();
}

/** The per-edge path (discriminated edge types), with the run's counting. */
function oneByOne(
  tx: WriteTxImpl,
  run: EdgeRun,
  opts: UpsertEdgeOptions,
  counts: EdgeRunCounts,
): EdgeRunCounts {
  for (let i = run.start; i < run.end; i++) {
    try {
      const r = tx.upsertEdge(
        run.edgeType,
        run.fromType,
        run.fromIds[i],
        run.toType,
        run.toIds[i],
        run.attrs?.[i] ?? shapedAttrs(run, i),
        opts,
      );
      counts[r]++;
    } catch (e) {
      if (!(e instanceof EngineError)) throw e;
      counts.invalid++;
    }
  }
  return counts;
}

/** The attributes of edge i of a run given by shape (EdgeRun.shapes) as a record. */
function shapedAttrs(run: EdgeRun, i: number): Record<string, AttrUpdate> {
  const shapes = run.shapes;
  const k = shapes === undefined ? -1 : shapes.of[i];
  if (shapes === undefined || k < 0) return NO_ATTRS;
  const shape = shapes.list[k];
  const values = shapes.values;
  const at = shapes.at[i];
  const out: Record<string, AttrUpdate> = {};
  shape.names.forEach((name, j) => (out[name] = { value: values[at + j], op: shape.ops[j] }));
  return out;
}
