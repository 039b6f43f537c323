/**
 * The generated code of a bottom-up step (select-bottom-up.ts): the kernel's phase for a clause
 * where only whether some row reaches a target matters (KernelBlock's `exists`).
 */

import type { KernelBlock, KernelPhase, ParallelPost } from './select-kernel-types.js';

/** The parts of a kernel row the bottom-up step uses (select-kernel.ts's RowCode). */
export interface ExistsCode {
  /** The target alias's slot. */
  T: number;
  /** WHERE as `if (…) continue;` (reads only the target), or ''. */
  where: string;
  /** Whether closures may read the target alias (then it is bound in ctx.vars/ctx.gids). */
  closures: boolean;
  memos: string[];
  /** Marks and lists the target as a result. */
  keepTargetResult: string;
  /**
   * The constant naming the POST-ACCUM group's phase to run over the targets the call listed
   * (fusedPost), if any.
   */
  post?: string;
}

/**
 * The POST-ACCUM phase a bottom-up step runs itself over the targets it lists (ParallelAccum's
 * `existsPosts`), saving the split POST-ACCUM's own round of messages: the block's one group, over
 * the target (the result), that threads may split and that updates no global (then no target's
 * WHERE can see another target's POST-ACCUM: WHERE reads only its own target's cells and query
 * state, and a split group touches only its vertex's own cells).
 */
export function fusedPost(
  b: KernelBlock,
  posts: readonly { fn: KernelPhase; split: ParallelPost | undefined }[],
): KernelPhase | undefined {
  if (!b.exists || b.posts.length !== 1 || b.posts[0].slot !== b.targetSlot) return undefined;
  const split = posts[0].split;
  return split !== undefined && split.globals.length === 0 ? posts[0].fn : undefined;
}

/**
 * The head of a pull's loop over the target run indexes `[plo, phi)`, shared by the pulled ACCUM
 * (select-kernel.ts) and the bottom-up step: `plan`, `start` and `end` describe the run the target
 * lies in, `row` is its row there, and `memos` are declared once; the body closes the loop.
 */
export function pullTargetLoop(memos: readonly string[]): string {
  return `let start = 0, end = 0, plan = null;
const member = st.member;
${memos.length > 0 ? `let ${memos.join(', ')};` : ''}
for (let tg = plo; tg < phi; tg++) {
  if (tg >= end) {
    plan = st.pullPlan(tg); start = st.start; end = st.end;
    if (plan.length === 0) { tg = end - 1; continue; }
  }
  const row = tg - start;`;
}

/**
 * For each target run index in `[st.lo, st.hi)`: its in-edges of each hop (reverse adjacency,
 * `st.pullPlan`) until the first source whose bit is set in `st.member` (one bit per run index:
 * 128 KiB for 2^20 vertices stays in cache where a byte or a stamp per vertex would not; every
 * vertex of the source type when null), then WHERE once, then the result mark. A thread writes
 * only its own targets' marks and meets them in ascending order, then runs the fused POST-ACCUM
 * (fusedPost) over them; the scan stops at the first source found (in-edges are sorted by source,
 * and loads give hubs, which large frontiers hold, the low rows).
 */
export function existsBody(r: ExistsCode): string {
  return `const first = st.resultCount;
${pullTargetLoop(r.memos)}
  let found = false;
  hops: for (let h = 0; h < plan.length; h++) {
    const hop = plan[h], view = hop.view, base = hop.base;
    const off = view.offsets;
    if (row + 1 >= off.length) continue;
    const b = off[row], e = off[row + 1], srcs = view.targets, skip = view.skipSelfLoops;
    for (let i = b; i < e; i++) {
      const sr = srcs[i];
      if (skip && sr === row) continue;
      const sg = base + sr;
      if (member === null || (member[sg >>> 5] & (1 << (sg & 31))) !== 0) {
        ctx.steps(i - b + 1);
        found = true;
        break hops;
      }
    }
    ctx.steps(e - b);
  }
  if (!found) continue;
  ${r.closures ? `vars[${r.T}] = undefined; gids[${r.T}] = tg;` : ''}
  ${r.memos.map((m) => `${m} = undefined;`).join(' ')}
  ${r.where}
  ${r.keepTargetResult}
}
${r.post ? `${r.post}(ctx, result, first, st.resultCount, st);` : ''}`;
}
