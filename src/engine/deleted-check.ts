/**
 * The deleted-vertex check (/deleted_vertex_check): for every segment, compares the deletions the
 * vertex table records (its `deleted` stamps, TigerGraph's GPE side) with the deletions the primary-id
 * index records (ids whose entry no longer points at the row, the IDS side). Both are maintained
 * independently by every delete, re-insert and abort, so a difference means a bookkeeping bug.
 */
import type { GraphStore } from '../store/graph-store.js';
import { SEGMENT_BITS, type VertexTable } from '../store/vertex-table.js';
import type { DeletedVertexCheckOptions, DeletedVertexCheckResult, UnSyncEntry } from './api.js';
import { keyOfIdValue } from './tx-changes.js';

/** FNV-1a over row ids, as a non-negative 32-bit integer. */
function mix(h: number, row: number): number {
  for (let s = 0; s < 32; s += 8) h = Math.imul(h ^ ((row >>> s) & 0xff), 0x01000193);
  return h;
}

function segmentHashes(t: VertexTable, seg: number): { table: number; index: number } {
  let table = 0x811c9dc5;
  let index = 0x811c9dc5;
  const lo = seg << SEGMENT_BITS;
  const hi = Math.min(t.count, lo + (1 << SEGMENT_BITS));
  for (let r = lo; r < hi; r++) {
    if (t.deleted[r] !== 0) table = mix(table, r);
    if (t.index.get(keyOfIdValue(t.idColumn.get(r))) !== r) index = mix(index, r);
  }
  return { table: table >>> 0, index: index >>> 0 };
}

export function deletedVertexCheck(
  store: GraphStore,
  opts: DeletedVertexCheckOptions,
): DeletedVertexCheckResult {
  const types = opts.vertextype === undefined ? undefined : ([] as string[]).concat(opts.vertextype);
  const segids = opts.segid === undefined ? undefined : ([] as number[]).concat(opts.segid);
  const unsync: UnSyncEntry[] = [];
  for (const [name, t] of store.tables) {
    if (types && !types.includes(name)) continue;
    const segments = Math.ceil(t.count / (1 << SEGMENT_BITS));
    for (let seg = 0; seg < segments; seg++) {
      if (segids && !segids.includes(seg)) continue;
      const h = segmentHashes(t, seg);
      if (h.table !== h.index) {
        unsync.push({
          Segid: seg,
          IsRemote: false,
          VertexType: name,
          GPEDelHash: h.table,
          IDSDelHash: h.index,
        });
      }
    }
  }
  return { PassCheck: unsync.length === 0, UnSyncList: unsync };
}
