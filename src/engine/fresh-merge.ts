/**
 * The background merge (docs/architecture.md, "Fresh data"): after a load, blocks whose delta is
 * large get a new base built off the event loop (a merge thread, with helpers for large blocks)
 * from their edges live at a published version V, while writes go on; then, with writes paused
 * for a moment, a new GraphStore takes the new bases and re-applies what was written after V
 * (delta edges, tombstones) as deltas over them. Readers pinned to the old store keep it; new
 * readers see the merged one.
 *
 * Vertex tables are folded the same way, on the main thread a slice at a time: the values written
 * to value columns (strings, collections) since their heap was built, and the id index's keyed
 * part, go into new shared bases, so that workers' mirrors map them instead of copying every new
 * row (store/mirror.ts); what was written meanwhile stays overlaid.
 */
import type { BaseSource, BuiltBase } from '../store/base-builder.js';
import { baseSource, blockOnBase, carryColumns, type EdgeBlock, sealColumns } from '../store/edge-block.js';
import { type PendingHeap, ValueColumn } from '../store/columns.js';
import { GraphStore } from '../store/graph-store.js';
import type { PendingKeys } from '../store/id-index.js';
import type { VertexTable } from '../store/vertex-table.js';

/** A block chosen for merging and what its build reads. */
export interface MergeJob {
  block: EdgeBlock;
  source: BaseSource;
  /** The block's duplicates settled so far (EdgeBlock.dupCount), for the switch's count. */
  dups: number;
}

/**
 * How much a merge takes on: blocks (and vertex tables' value columns and id index) with at least
 * `minDelta` edges (tombstones, rows, keys) written since their base, and at least 1/`share` of
 * the base (a small delta over a large base reads nearly as fast as the base, and merging it would
 * copy the whole block, so the copying stays within `share` times what was written).
 */
export interface MergePolicy {
  minDelta: number;
  share: number;
  /** An idle merge (Database.scheduleIdleMerge): dropped if writes went on meanwhile after all. */
  idle?: boolean;
}

/** Whether `delta` written items over a base of `base` are worth folding under `policy`. */
function worth(delta: number, base: number, policy: MergePolicy): boolean {
  return delta >= Math.max(1, policy.minDelta) && delta * policy.share >= base;
}

/** The blocks worth merging at `version`. */
export function planMerge(store: GraphStore, version: number, policy: MergePolicy): MergeJob[] {
  const jobs: MergeJob[] = [];
  for (const b of store.blocks) {
    if (!worth(b.dCount + b.tomb.size, b.nBase, policy)) continue;
    const from = store.tables.get(b.fromType) as VertexTable;
    const to = store.tables.get(b.toType) as VertexTable;
    jobs.push({ block: b, source: baseSource(b, version, from.count, to.count), dups: b.dupCount });
  }
  return jobs;
}

/** A vertex table's value columns and keyed ids being folded into new bases. */
export interface TableFold {
  table: VertexTable;
  heaps: PendingHeap[];
  keys: PendingKeys | undefined;
}

/**
 * The vertex tables worth folding: value columns and keyed ids written since their base under
 * `policy`; an id index's log left behind by keys that moved to its direct array is dropped too.
 */
export function planTables(store: GraphStore, policy: MergePolicy): TableFold[] {
  const out: TableFold[] = [];
  for (const t of store.tables.values()) {
    const heaps: PendingHeap[] = [];
    for (const c of [t.idColumn, ...t.columns.values()]) {
      if (!(c instanceof ValueColumn) || !worth(c.overlay, c.base, policy)) continue;
      const p = c.beginRebase(t.count);
      if (p) heaps.push(p);
    }
    const ix = t.index;
    const keyed = ix.overlay === 0 || worth(ix.overlay, ix.base?.size ?? 0, policy);
    const keys = keyed ? ix.beginRebase() : undefined;
    if (heaps.length > 0 || keys) out.push({ table: t, heaps, keys });
  }
  return out;
}

/** Rows or keys encoded between two turns of the event loop. */
const FOLD_SLICE = 1 << 14;

const turn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Builds the folds' new bases a slice at a time, giving the event loop a turn after each; false
 * when `stop` ended it first.
 */
export async function prepareTables(
  folds: readonly TableFold[],
  stop = (): boolean => false,
): Promise<boolean> {
  for (const f of folds) {
    const steps = [...f.heaps.map((h) => h.builder), ...(f.keys?.builder ? [f.keys.builder] : [])];
    for (const b of steps) {
      while (b.step(FOLD_SLICE)) {
        await turn();
        if (stop()) return false;
      }
    }
  }
  return true;
}

/** Installs the folds of the tables `store` still has (call with writes quiesced). */
export function installTables(store: GraphStore, folds: readonly TableFold[]): void {
  for (const f of folds) {
    if (store.tables.get(f.table.type.name) !== f.table) continue;
    for (const h of f.heaps) h.column.finishRebase(h);
    if (f.keys) f.table.index.finishRebase(f.keys);
  }
}

/** Base rows whose attributes are copied between two turns of the event loop. */
const CARRY_SLICE = 1 << 14;

/**
 * The merged blocks on their new bases (at `mergedAt`), their attribute columns filled in slices
 * that give the event loop a turn in between; writes go on meanwhile. Values changed after
 * `mergedAt` are fixed when the blocks are installed (the caller keeps a reader pinned at
 * `mergedAt`, so the columns' history lists those rows).
 */
export async function prepareMerged(
  jobs: readonly MergeJob[],
  built: readonly BuiltBase[],
  mergedAt: number,
): Promise<EdgeBlock[]> {
  const out: EdgeBlock[] = [];
  for (let k = 0; k < jobs.length; k++) {
    const b = blockOnBase(jobs[k].block, built[k], mergedAt);
    if (b.columns.size > 0) {
      for (let from = 0; from < built[k].n; from += CARRY_SLICE) {
        carryColumns(b, jobs[k].block, built[k].order, from, Math.min(built[k].n, from + CARRY_SLICE));
        await turn();
      }
      sealColumns(b);
    }
    out.push(b);
  }
  return out;
}

/**
 * A new store over the same tables: each merged block still in `store` replaced by its prepared
 * successor with the writes after `mergedAt` (delta edges, tombstones, changed attribute values)
 * applied, every other block as it is; undefined when none of them is still there (a rebuild, a
 * schema change that rebuilt the blocks, a clear or a reload came first). Call with writes
 * quiesced: `now` is the published version, and each column's current value is its value at `now`.
 */
export function installMerged(
  store: GraphStore,
  mergedAt: number,
  now: number,
  jobs: readonly MergeJob[],
  built: readonly BuiltBase[],
  prepared: readonly EdgeBlock[],
): GraphStore | undefined {
  const byBlock = new Map<EdgeBlock, number>();
  jobs.forEach((j, i) => byBlock.set(j.block, i));
  if (!store.blocks.some((b) => byBlock.has(b))) return undefined;
  const next = new GraphStore(store.catalog, now, store.tables);
  for (const b of store.blocks) {
    const k = byBlock.get(b);
    next.addBlock(
      k === undefined ? b : withLaterWrites(b, prepared[k], built[k], mergedAt, now, jobs[k].dups),
    );
  }
  return next;
}

/** `b` (old's successor) with the delta edges, tombstones and attribute values written after `mergedAt`. */
function withLaterWrites(
  old: EdgeBlock,
  b: EdgeBlock,
  built: BuiltBase,
  mergedAt: number,
  now: number,
  /** `old`'s settled duplicates when the merge was planned. */
  dupsAtPlan: number,
): EdgeBlock {
  let inverse: Int32Array | undefined;
  // New id of an edge of the new base; the inverse of `order` is built once, when first needed.
  const baseId = (eid: number): number => {
    if (!inverse) {
      inverse = new Int32Array(old.edgeLimit).fill(-1);
      for (let i = 0; i < built.n; i++) inverse[built.order[i]] = i;
    }
    const id = eid < inverse.length ? inverse[eid] : -1;
    if (id >= 0 || b.columns.size === 0) return id;
    if (eid >= old.nBase && old.dVersion[eid - old.nBase] > mergedAt) return -1;
    // With attributes the build kept a pair's last repeat, while `old` kept its first edge live
    // (edge-block.ts): a write to that first edge since is the pair's, wherever the build put it.
    const [src, dst] = old.endpoints(eid);
    return b.baseEdgeOf(src, dst);
  };
  for (const [name, col] of old.columns) {
    const nc = b.columns.get(name);
    if (!nc || !col.history) continue;
    for (const [row, list] of col.history) {
      if (list[list.length - 1].version <= mergedAt) continue;
      const id = baseId(row);
      if (id >= 0) nc.init(id, col.get(row));
    }
  }
  const moved = new Map<number, number>();
  for (let s = 0; s < old.dCount; s++) {
    if (old.dVersion[s] <= mergedAt) continue;
    // Still unsettled (the slots from old.settled on): unsettled in `b` too, counted as they were.
    const eid =
      s >= old.settled
        ? b.appendUnchecked(old.dSrc[s], old.dDst[s], old.dVersion[s])
        : b.addEdge(old.dSrc[s], old.dDst[s], old.dVersion[s]);
    for (const [name, col] of b.columns)
      col.init(eid, (old.columns.get(name) as typeof col).get(old.nBase + s));
    if (s < old.settled) moved.set(old.nBase + s, eid);
  }
  for (const [eid, v] of old.tomb) {
    if (v <= mergedAt) continue;
    const id = moved.get(eid) ?? baseId(eid);
    if (id >= 0) b.bury(id, v);
  }
  // The repeats the build dropped are still counted by `old`, but for those `settle` took off the
  // counts while the merge ran (it settles slots in order, so those are the ones past dupsAtPlan).
  const dropped = built.dropped - old.dupsSince(dupsAtPlan, mergedAt);
  b.live.current = old.live.current - dropped;
  b.live.log = [now, b.live.current];
  b.dirty = b.dCount > 0 || b.tomb.size > 0;
  return b;
}
