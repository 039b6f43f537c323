/**
 * Rebuild: merge each changed block's delta and tombstones into a new compressed-sparse-row base, and
 * the per-segment summary TigerGraph's /rebuildnow writes.
 *
 * Segment size: 2^16 rows of one vertex type (SEGMENT_SIZE). Small enough that the summary says
 * which parts of a type changed, large enough that a million-vertex type has only 16 segments.
 * The vertextype/segid filters choose which segments are reported as selected; the merge and the
 * checkpoint always cover the whole graph, because the write-ahead log they truncate is global.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type EdgeBlock, mergeBlock } from '../store/edge-block.js';
import { GraphStore } from '../store/graph-store.js';
import { SEGMENT_BITS, SEGMENT_SIZE, type VertexTable } from '../store/vertex-table.js';
import type { RebuildOptions } from './api.js';

export function mergeAll(store: GraphStore, version: number, force: boolean): GraphStore {
  const next = new GraphStore(store.catalog, version, store.tables);
  for (const t of store.tables.values()) t.rebase();
  for (const b of store.blocks) {
    if (!b.dirty && !force) {
      next.addBlock(b);
      continue;
    }
    const from = store.tables.get(b.fromType) as VertexTable;
    const to = store.tables.get(b.toType) as VertexTable;
    next.addBlock(mergeBlock(b, version, from.count, to.count));
  }
  return next;
}

function asList<T>(v: T | readonly T[] | undefined): readonly T[] | undefined {
  return v === undefined ? undefined : Array.isArray(v) ? (v as readonly T[]) : [v as T];
}

/** Live out-edges per segment of the FROM rows of some blocks, in one pass over each block. */
function outEdgesPerSegment(blocks: EdgeBlock[], segments: number, version: number): Float64Array {
  const counts = new Float64Array(segments);
  for (const b of blocks) {
    b.settle();
    const rows = b.outOffsets.length - 1;
    for (let r = 0; r < rows; r++) counts[r >>> SEGMENT_BITS] += b.outOffsets[r + 1] - b.outOffsets[r];
    for (const [eid, v] of b.tomb) {
      if (eid < b.nBase && v <= version) counts[b.endpoints(eid)[0] >>> SEGMENT_BITS]--;
    }
    for (let s = 0; s < b.dCount; s++) {
      if (b.isLive(b.nBase + s, version)) counts[b.dSrc[s] >>> SEGMENT_BITS]++;
    }
  }
  return counts;
}

export interface RebuildSummary {
  text: string;
  selected: number;
  skipped: number;
}

/** One line per segment of every vertex type, [SELECTED] or [SKIPPED]; clears the dirty marks of selected ones. */
export function rebuildSummary(
  store: GraphStore,
  opts: RebuildOptions,
  version: number,
  lsn: number,
): RebuildSummary {
  const types = asList(opts.vertextype);
  const segids = asList(opts.segid);
  const ts = Date.now();
  const lines: string[] = [];
  let selected = 0;
  let skipped = 0;
  store.catalog.vertexTypes.forEach((vt, subtype) => {
    const t = store.tables.get(vt.name) as VertexTable;
    const out = (store.outBlocks.get(vt.name) ?? []).map((id) => store.blocks[id]);
    const segments = Math.max(1, Math.ceil(t.count / SEGMENT_SIZE));
    const edgeCounts = outEdgesPerSegment(out, segments, version);
    for (let seg = 0; seg < segments; seg++) {
      const lo = seg * SEGMENT_SIZE;
      const hi = Math.min(t.count, lo + SEGMENT_SIZE);
      let live = 0;
      let deleted = 0;
      for (let r = lo; r < hi; r++) {
        if (t.isVisible(r, version)) live++;
        else if (t.deleted[r] !== 0 && t.deleted[r] <= version) deleted++;
      }
      const edges = edgeCounts[seg];
      const chosen =
        (types === undefined || types.includes(vt.name)) &&
        (segids === undefined || segids.includes(seg)) &&
        (opts.force === true || t.dirtySegments.has(seg));
      if (chosen) {
        selected++;
        t.dirtySegments.delete(seg);
      } else skipped++;
      lines.push(
        `${chosen ? '[SELECTED]' : '[SKIPPED]'} Segment id: ${seg}, vertextype: ${vt.name}, vertexsubtypeid: ${subtype}, ` +
          `vertexcount: ${live}, edgecount: ${edges}, deletevertexcount: ${deleted}, postqueue_pos: ${lsn}, ` +
          `transaction id: ${version}, rebuild ts: ${ts}`,
      );
    }
  });
  return { text: lines.join('\n') + (lines.length > 0 ? '\n' : ''), selected, skipped };
}

/** Tries of a new summary file name (`rebuild_summary_<ms>[_<n>].txt`) before giving up. */
const SUMMARY_NAME_TRIES = 1000;

/**
 * Writes a rebuild's summary to a new file in `folder` and returns its path: named by the time in
 * milliseconds `now`, with `_1`, `_2`, … when rebuilds in the same millisecond already took the name.
 * Only a new file is written, never one a link placed at the name points to.
 */
export async function writeSummaryFile(folder: string, text: string, now: number): Promise<string> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const stem = join(folder, `rebuild_summary_${now}`);
  for (let n = 0; ; n++) {
    const file = n === 0 ? `${stem}.txt` : `${stem}_${n}.txt`;
    try {
      await writeFile(file, text, { flag: 'wx', mode: 0o600 });
      return file;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || n + 1 >= SUMMARY_NAME_TRIES) throw e;
    }
  }
}
