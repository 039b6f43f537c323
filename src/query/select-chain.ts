/**
 * The chain executor (plan-select.ts's ChainPlan): the source candidates filtered by WHERE terms
 * over the source alone, then each step but the last turns the set of vertices reached so far into
 * the next set (with, per vertex, the number of matched paths reaching it when ACCUM needs it), and
 * the last step runs as a one-hop block from that set (select-hop.ts, kernels included).
 */
import type { BoundSelect, TypeNames } from './bound-select.js';
import type { RunContext } from './context.js';
import type { ChainPlan } from './plan-select.js';
import { shortestReach, StepWalk } from './select-expand.js';
import { CHUNK, compileHop, testOf, type SelectGen, type SourceSet } from './select-hop.js';
import type { Cx, Eval } from './scope.js';
import { VertexGids } from './values.js';

interface StepRun {
  hop: number;
  slot: number;
  filter: Eval | undefined;
  types: readonly string[] | undefined;
  dynamicTypes: readonly TypeNames[];
  repeat?: { min: number; max: number };
}

export function compileChain(cx: Cx, b: BoundSelect, plan: ChainPlan): (ctx: RunContext) => SelectGen {
  const counted = plan.counted && plan.frontier.length > 0;
  const final = compileHop(cx, b, {
    sourceVertex: plan.final.kind === 'hop' ? b.hops[plan.final.hop].from : plan.final.vertex,
    hop: plan.final.kind === 'hop' ? plan.final.hop : undefined,
    where: plan.where,
    counted,
  });
  const sourceSlot = b.vertices[0].slot;
  const sourceFilter = testOf(plan.sourceFilters);
  const steps: StepRun[] = plan.frontier.map((f) => {
    const hop = b.hops[f.hop];
    const c = b.vertices[hop.to].constraints[0];
    return {
      hop: f.hop,
      slot: b.vertices[hop.to].slot,
      filter: testOf(f.filters),
      types: c && c.types.length > 0 ? c.types : undefined,
      dynamicTypes: c?.dynamicTypes ?? [],
      repeat: hop.repeat,
    };
  });
  const simple = steps.length === 0 && !sourceFilter;

  return function* run(ctx) {
    const src = b.source(ctx);
    if (simple) return yield* final.run(ctx, { set: src, counts: null });
    let gids = ctx.gidsOf(src);
    if (sourceFilter) gids = filtered(ctx, gids, sourceSlot, sourceFilter);
    const [countsA, countsB] = ctx.pathCounts();
    let counts: Float64Array | null = null;
    for (let i = 0; i < steps.length; i++) {
      const next = i % 2 === 0 ? countsA : countsB;
      const reached = yield* expand(ctx, b, steps[i], gids, counts, counted ? next : null);
      gids = reached;
      counts = counted ? next : null;
    }
    const set: SourceSet = { set: new VertexGids(ctx, gids), counts };
    return yield* final.run(ctx, set);
  };
}

/** The vertices of `gids` passing `test` with their alias (slot) bound to them, in order. */
function filtered(ctx: RunContext, gids: Int32Array, slot: number, test: Eval): Int32Array {
  const out = new Int32Array(gids.length);
  let n = 0;
  for (let i = 0; i < gids.length; i++) {
    ctx.step();
    ctx.vars[slot] = undefined;
    ctx.gids[slot] = gids[i];
    if (test(ctx) === true) out[n++] = gids[i];
  }
  return out.subarray(0, n);
}

/**
 * One chain step: the distinct vertices one step (or, repeated, a shortest path within the
 * bounds) from `gids`, of the step's types and passing its filters, in storage order; with
 * `outCounts`, the number of matched paths reaching each (a source's count times its paths).
 */
function* expand(
  ctx: RunContext,
  b: BoundSelect,
  step: StepRun,
  gids: Int32Array,
  counts: Float64Array | null,
  outCounts: Float64Array | null,
): Generator<undefined, Int32Array, undefined> {
  const hop = b.hops[step.hop];
  const named =
    step.dynamicTypes.length > 0
      ? [...(step.types ?? []), ...step.dynamicTypes.flatMap((d) => d(ctx))]
      : step.types;
  const mark = ctx.chainMarks();
  let out = new Int32Array(Math.max(16, gids.length));
  let n = 0;
  ctx.marksOpen++;
  try {
    let source = 0;
    let weight = 1;
    const reach = (tg: number, paths: number): void => {
      if (mark[tg] === 0) {
        mark[tg] = 1;
        if (n === out.length) {
          const grown = new Int32Array(n * 2);
          grown.set(out);
          out = grown;
        }
        out[n++] = tg;
        if (outCounts) outCounts[tg] = 0;
      }
      if (outCounts) outCounts[tg] += weight * paths;
    };
    const one = (tg: number): void => reach(tg, 1);
    if (step.repeat) {
      // Intermediate vertices may be of any type: only the end of each shortest path is typed.
      const walk = new StepWalk(ctx, hop.atoms, false, undefined);
      const allowed = named ? new Set(named.map((t) => ctx.typeIndexOf(t))) : undefined;
      const { min, max } = step.repeat;
      for (; source < gids.length; source++) {
        if ((source & (CHUNK - 1)) === CHUNK - 1) yield;
        const g = gids[source];
        weight = counts ? counts[g] : 1;
        shortestReach(ctx, walk, g, min, max, (tg, paths) => {
          if (!allowed || allowed.has(ctx.typeIndexAt(tg))) reach(tg, paths);
        });
      }
    } else {
      const walk = new StepWalk(ctx, hop.atoms, false, named);
      for (; source < gids.length; source++) {
        if ((source & (CHUNK - 1)) === CHUNK - 1) yield;
        const g = gids[source];
        weight = counts ? counts[g] : 1;
        walk.forEach(g, one);
      }
    }
  } finally {
    // Also when the run stops between chunks (timeout, abort) or fails.
    for (let i = 0; i < n; i++) mark[out[i]] = 0;
    ctx.marksOpen--;
  }
  let reached: Int32Array = out.subarray(0, n).sort();
  if (step.filter) reached = filtered(ctx, reached, step.slot, step.filter);
  return reached;
}
