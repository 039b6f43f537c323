/** AdjacencyView over one edge block, in one direction, at one pinned version. */
import type { EdgeBlock } from '../store/edge-block.js';
import type { AdjacencyView } from './api.js';

export function view(
  edgeType: string,
  sourceType: string,
  targetType: string,
  b: EdgeBlock,
  forward: boolean,
  version: number,
  skipSelfLoops = false,
): AdjacencyView {
  b.settle();
  const offsets = forward ? b.outOffsets : b.inOffsets;
  const targets = forward ? b.outTargets : b.inSources;
  const eids = forward ? null : b.inEids;
  const deltaHead = forward ? b.outHead : b.inHead;
  const deltaNext = forward ? b.outNext : b.inNext;
  const deltaTarget = forward ? b.dDst : b.dSrc;
  const live = (eid: number): boolean => b.isLive(eid, version);
  const all = forward ? b.forEachOut.bind(b) : b.forEachIn.bind(b);
  const each: typeof all = skipSelfLoops
    ? (row, v, fn) => all(row, v, (t, eid) => t !== row && fn(t, eid))
    : all;
  return {
    edgeType,
    sourceType,
    targetType,
    offsets,
    targets,
    eids,
    deltaHead,
    deltaNext,
    deltaTarget,
    deltaBase: b.nBase,
    deltaVersion: b.dVersion,
    deltaCount: b.dCount,
    version,
    clean: b.dCount === 0 && b.tomb.size === 0,
    skipSelfLoops,
    live,
    forEach: (row, fn) => each(row, version, fn),
    degree: (row) => {
      let n = 0;
      each(row, version, () => n++);
      return n;
    },
  };
}
