/**
 * A helper thread's side of a split SELECT (parallel.ts): the owner's job run on a RunContext of
 * this thread's own over the same snapshot, with the owner's layout, variables and shared cells.
 */
import { makeAccum } from './accumulators.js';
import { DenseColumn } from './accum-dense.js';
import type { CompiledQuery } from './compile-query.js';
import { RunContext } from './context.js';
import type { QueryGraph } from './graph.js';
import type { AccumJob, HelperOutcome } from './parallel-job.js';
import { runPartitions } from './parallel.js';
import type { SelectKernel } from './select-kernel-types.js';
import { newSelectRun } from './select-run.js';

/**
 * A helper thread's side: runs partitions of `job` (taken from `take`) with `query`'s kernel on a
 * RunContext of its own over `graph`, the same snapshot the owner reads.
 */
export function helpParallelAccum(
  query: CompiledQuery,
  graph: QueryGraph,
  job: AccumJob,
  take: () => number,
): HelperOutcome {
  const kernel = query.kernels?.[job.kernel] as SelectKernel | undefined;
  const wide = kernel?.wide;
  const fn =
    job.phase < 0
      ? job.pull
        ? job.pull.exists
          ? wide?.parallel?.exists
          : wide?.parallel?.pull
        : job.bySource
          ? job.labels
            ? wide?.parallel?.bySource?.labels?.[job.labels.owned ? 'owned' : 'accum']
            : wide?.parallel?.bySource?.accum
          : wide?.parallel?.accum
      : wide?.parallelPosts[job.phase]
        ? wide.posts[job.phase]
        : undefined;
  const post = job.fusedPost && wide?.parallel?.existsPosts ? wide.posts[0] : undefined;
  if (!fn || (job.fusedPost && !post)) throw new Error('parallel SELECT: the helper compiled another kernel');
  const ctx = new RunContext(
    graph,
    query.graph,
    query.slots ?? 0,
    job.deadline !== undefined ? { deadline: job.deadline } : {},
  );
  ctx.adoptLayout(job.layout.types, job.layout.starts, job.layout.end);
  for (const [slot, v] of job.vars) ctx.vars[slot] = v;
  const partials = new Map<number, ReturnType<typeof makeAccum>>();
  for (const [slot, t] of job.globals) {
    const a = makeAccum(t);
    partials.set(slot, a);
    ctx.vars[slot] = a;
  }
  const accums = query.vertexAccums ?? [];
  for (const c of job.columns) {
    const va = accums[c.index];
    if (!va) throw new Error('parallel SELECT: the helper compiled another query');
    const col = DenseColumn.over(c.kind, () => va.make(ctx), c);
    col.adoptSpills(c);
    ctx.dense[c.index] = col;
  }
  const st = newSelectRun(ctx, {
    stamp: job.stamp,
    marks: job.marks,
    steps: job.steps,
    targetTypes: job.targetTypes,
    counts: job.counts,
  });
  if (job.pull) {
    st.pullSource = job.pull.source;
    st.member = job.pull.member;
    st.hoisted = job.pull.hoisted?.arrays;
  }
  // A split by sources' rows collect into the thread's own list: the shared one is listed after.
  if (job.listing && !job.bySource) st.result = job.listing.result;
  try {
    runPartitions(ctx, fn, job, st, take, wide?.parallel?.hoist?.fill, post);
    const spills: HelperOutcome['spills'] = [];
    for (const c of job.columns) {
      const s = ctx.dense[c.index]?.spills();
      if (!s) continue;
      // Only what this helper changed: a cell it was sent and left alone may have been updated by
      // the thread whose partition holds it, and must not be overwritten with the sent value.
      const spill = changedFrom(s.spill, c.spill);
      const prev = changedFrom(s.prev, c.prev);
      if (spill.length > 0 || prev.length > 0) spills.push([c.index, { spill, prev, snap: [] }]);
    }
    return { globals: [...partials].map(([slot, a]) => [slot, a.value()]), spills };
  } finally {
    ctx.release();
  }
}

/** The entries of `now` that `sent` did not have with the same value. */
function changedFrom(now: [number, unknown][], sent: [number, unknown][]): [number, unknown][] {
  if (sent.length === 0) return now;
  const before = new Map(sent);
  return now.filter(([g, v]) => !before.has(g) || !Object.is(before.get(g), v));
}
