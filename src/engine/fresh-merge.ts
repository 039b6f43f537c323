/**
 * The background merge (docs/architecture.md, "Fresh data"): after a load, blocks whose delta is
 * large get a new base built on a merge thread from their edges live at a published version V,
 * while writes go on; then, with writes paused for a moment, a new GraphStore takes the new bases
 * and re-applies what was written after V (delta edges, tombstones) as deltas over them. Readers
 * pinned to the old store keep it; new readers see the merged one.
 */
import type { BaseSource, BuiltBase } from '../store/base-builder.js';
import { baseSource, blockOnBase, type EdgeBlock } from '../store/edge-block.js';
import { GraphStore } from '../store/graph-store.js';
import type { VertexTable } from '../store/vertex-table.js';

/** A block chosen for merging and what its build reads. */
export interface MergeJob {
  block: EdgeBlock;
  source: BaseSource;
}

/**
 * The blocks worth merging at `version`: at least `minDelta` delta edges, and at least an eighth of
 * the base (a small delta over a large base reads nearly as fast as the base, and merging it would
 * copy the whole block).
 */
export function planMerge(store: GraphStore, version: number, minDelta: number): MergeJob[] {
  const jobs: MergeJob[] = [];
  for (const b of store.blocks) {
    if (b.dCount < Math.max(1, minDelta) || b.dCount * 8 < b.nBase) continue;
    const from = store.tables.get(b.fromType) as VertexTable;
    const to = store.tables.get(b.toType) as VertexTable;
    jobs.push({ block: b, source: baseSource(b, version, from.count, to.count) });
  }
  return jobs;
}

/**
 * A new store over the same tables: each merged block on its new base (built at `mergedAt`) plus
 * the writes after `mergedAt` as deltas, every other block as it is. Call with writes quiesced:
 * `now` is the published version, and each column's current value is its value at `now`.
 */
export function installMerged(
  store: GraphStore,
  mergedAt: number,
  now: number,
  jobs: readonly MergeJob[],
  built: readonly BuiltBase[],
): GraphStore {
  const byBlock = new Map<EdgeBlock, BuiltBase>();
  jobs.forEach((j, i) => byBlock.set(j.block, built[i]));
  const next = new GraphStore(store.catalog, now, store.tables);
  for (const b of store.blocks) {
    const base = byBlock.get(b);
    next.addBlock(base ? withLaterWrites(b, base, mergedAt, now) : b);
  }
  return next;
}

/** `old`'s merged successor: the new base, then the delta edges and tombstones written after `mergedAt`. */
function withLaterWrites(old: EdgeBlock, built: BuiltBase, mergedAt: number, now: number): EdgeBlock {
  const b = blockOnBase(old, built, now);
  const moved = new Map<number, number>();
  for (let s = 0; s < old.dCount; s++) {
    if (old.dVersion[s] <= mergedAt) continue;
    const eid = b.addEdge(old.dSrc[s], old.dDst[s], old.dVersion[s]);
    for (const [name, col] of b.columns)
      col.init(eid, (old.columns.get(name) as typeof col).get(old.nBase + s));
    moved.set(old.nBase + s, eid);
  }
  let newId: Int32Array | undefined;
  for (const [eid, v] of old.tomb) {
    if (v <= mergedAt) continue;
    let id = moved.get(eid);
    if (id === undefined) {
      // An edge of the new base: invert `order` once, only when such a tombstone exists.
      if (!newId) {
        newId = new Int32Array(old.edgeLimit).fill(-1);
        for (let i = 0; i < built.n; i++) newId[built.order[i]] = i;
      }
      id = newId[eid];
    }
    if (id >= 0) b.bury(id, v);
  }
  b.live.current = old.live.current;
  b.live.log = [now, old.live.current];
  b.dirty = b.dCount > 0 || b.tomb.size > 0;
  return b;
}
