/**
 * The per-run state a SELECT kernel reads and fills (select-kernel.ts's SelectRun): marks and
 * lists of collected vertices (run indexes), the adjacencies walked from each source vertex type,
 * and a buffer for the targets of a row whose adjacency is not compacted yet.
 */
import type { EdgeFilter } from '../engine/api.js';
import type { RunContext } from './context.js';
import type { KernelHop, SelectRun } from './select-kernel-types.js';
import { virtualEdgesOf } from './virtual-edge-graph.js';

export interface SelectRunParts {
  stamp: number;
  /** Result, source and target marks, by run index. */
  marks: [Uint8Array, Uint8Array, Uint8Array];
  /** The block's edge steps for this run (types named at run time resolved). */
  steps: EdgeFilter[];
  /** The target vertex types, in catalog order. */
  targetTypes: string[];
  /** Path counts of the sources by run index (null: one each). */
  counts: Float64Array | null;
}

/** A run's adjacency plans, per edge step list (see runPlans). */
interface RunPlans {
  plans: Map<string, KernelHop[][]>;
  pulls: Map<string, KernelHop[]>;
}

const plansByRun = new WeakMap<RunContext, WeakMap<EdgeFilter[], RunPlans>>();

/**
 * The adjacency plans of a SELECT with edge steps `steps` (the compiled block's own list) and target
 * types `targetTypes` in this run: kept for the run, so a SELECT run again over the same snapshot
 * (each round of a WHILE loop's hop) looks its adjacencies up once (on RMAT 2^20 a source type's
 * forward and reverse look-ups cost about 0.05 ms per SELECT). A graph with virtual edges changes
 * between SELECTs (virtual-edge.ts): its plans are made per SELECT.
 */
function runPlans(ctx: RunContext, steps: EdgeFilter[]): RunPlans {
  const fresh = (): RunPlans => ({ plans: new Map(), pulls: new Map() });
  if (virtualEdgesOf(ctx.graph) !== undefined) return fresh();
  let bySteps = plansByRun.get(ctx);
  if (!bySteps) plansByRun.set(ctx, (bySteps = new WeakMap()));
  let known = bySteps.get(steps);
  if (!known) bySteps.set(steps, (known = fresh()));
  return known;
}

export function newSelectRun(ctx: RunContext, p: SelectRunParts): SelectRun {
  const { plans, pulls } = runPlans(ctx, p.steps);
  // Target types known only at run time may differ between runs of a block: they are in the keys.
  const targetsKey = p.targetTypes.join('\0');
  const lists = ctx.gidBuffers();
  let scratch = new Int32Array(64);
  return {
    stamp: p.stamp,
    resultMark: p.marks[0],
    sourceMark: p.marks[1],
    targetMark: p.marks[2],
    result: lists[0],
    resultCount: 0,
    postsFused: false,
    newList: (n) => ctx.resultList(n),
    resultMarksClear: false,
    sources: lists[1],
    sourceCount: 0,
    targets: lists[2],
    targetCount: 0,
    counts: p.counts,
    start: 0,
    end: 0,
    locate(gid) {
      const range = ctx.typeRange(ctx.typeIndexAt(gid));
      this.start = range.start;
      this.end = range.end;
      return this.plan(range.type);
    },
    plan(sourceType) {
      const key = `${sourceType}\0${targetsKey}`;
      let plan = plans.get(key);
      if (!plan) {
        plan = p.steps.map(({ edgeType, direction = 'out' }) => {
          if (edgeType === undefined || direction === 'both') return [];
          return p.targetTypes.flatMap((type) =>
            ctx.graph
              .adjacency(edgeType, sourceType, type, direction)
              .map((view) => ({ view, base: ctx.base(type) })),
          );
        });
        plans.set(key, plan);
      }
      return plan;
    },
    collect(view, row) {
      let n = 0;
      view.forEach(row, (tr) => {
        if (n === scratch.length) {
          const next = new Int32Array(n * 2);
          next.set(scratch);
          scratch = next;
        }
        scratch[n++] = tr;
      });
      this.collected = n;
      return scratch;
    },
    collected: 0,
    lo: 0,
    hi: 0x7fffffff,
    pullPlan(gid) {
      const range = ctx.typeRange(ctx.typeIndexAt(gid));
      this.start = range.start;
      this.end = range.end;
      const key = `${this.pullSource}\0${range.type}\0${targetsKey}`;
      let plan = pulls.get(key);
      if (!plan) {
        plan = p.targetTypes.includes(range.type)
          ? reverseHops(ctx, p.steps, range.type, this.pullSource)
          : [];
        pulls.set(key, plan);
      }
      return plan;
    },
    pullSource: '',
    member: null,
  };
}

/**
 * The adjacencies from target type `target` back to source type `source`, per edge step in order:
 * the same edges as the steps' forward hops into `target` (parallel.ts checks the counts).
 */
function reverseHops(ctx: RunContext, steps: EdgeFilter[], target: string, source: string): KernelHop[] {
  const base = ctx.base(source);
  return steps.flatMap(({ edgeType, direction = 'out' }) => {
    if (edgeType === undefined || direction === 'both') return [];
    const back = direction === 'out' ? 'in' : 'out';
    return ctx.graph.adjacency(edgeType, target, source, back).map((view) => ({ view, base }));
  });
}
