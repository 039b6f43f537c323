/** Lines read as the two ids of an input's one edge statement (edge-lines.ts), into a batch. */
import type { Batch } from './batch.js';
import type { IntEdgeShape } from './compiler.js';
import type { IdSegment } from './edge-lines.js';
import type { LoadStatistics } from './statistics.js';

export function addIdSegment(batch: Batch, e: IntEdgeShape, seg: IdSegment, stats: LoadStatistics): void {
  batch.upsertEdgeIds(e.edgeType, e.fromType, e.toType, seg, e.counters(stats));
  stats.validLine += seg.n;
  stats.bytes += seg.bytes;
}
