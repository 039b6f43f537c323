/**
 * The one-hop SELECT executor: from a set of source vertices over one edge step (or none: a
 * vertex-only block) with WHERE, ACCUM, POST-ACCUM, HAVING, ORDER BY and LIMIT. ACCUM runs once per
 * matched row (times the source's path count when the block ends a longer chain); accumulator
 * updates wait for the clause's end when it reads what it updates (GSQL's map-reduce semantics).
 * Steps whose edge types are named and whose edge alias is not read run as generated kernels
 * (select-kernel.ts); otherwise as closures.
 */
import type { AdjacencyView, EdgeFilter, EdgeHandle } from '../engine/api.js';
import type { Expr } from '../gsql/ast-query.js';
import type { BoundPredicate, BoundSelect } from './bound-select.js';
import type { RunContext } from './context.js';
import { gidList, readableList } from './run-buffers.js';
import { fillCells } from './shared-fill.js';
import {
  ascendingList,
  inStorageOrder,
  knownAscending,
  markAscending,
  sortCollected,
  sortedList,
} from './storage-order.js';
import { beginClause, endClause } from './select-clauses.js';
import { startParallelAccum, startParallelPost, worthSplitting } from './parallel.js';
import { bottomUpSources } from './parallel-plan.js';
import { bottomUpStep } from './select-bottom-up.js';
import { compileSelectKernel, selectKernels } from './select-kernel.js';
import { selectFinish } from './select-finish.js';
import { newSelectRun } from './select-run.js';
import type { Cx, Eval, RowStmt } from './scope.js';
import { EdgeVal, VertexGids, Vtx } from './values.js';

/** Vertices handled between two chances to yield to the event loop. */
export const CHUNK = 1024;

/** The block a one-hop executor runs: the last step of a chain, or a whole one-hop SELECT. */
export interface HopBlock {
  /** The vertex the block starts from (its alias is the block's source alias). */
  readonly sourceVertex: number;
  /** The hop walked; absent: a vertex-only block over the source vertices. */
  readonly hop?: number;
  readonly where: readonly BoundPredicate[];
  /** Whether sources come with path counts: ACCUM runs that many times per row. */
  readonly counted: boolean;
}

/** Source vertices, and per run index how many matched paths each stands for (null: one each). */
export interface SourceSet {
  readonly set: Vtx[] | VertexGids;
  readonly counts: Float64Array | null;
}

/** A SELECT yields between chunks of work (the event loop may run). */
export type SelectGen = Generator<undefined, Vtx[] | VertexGids, undefined>;

export interface HopRunner {
  run(ctx: RunContext, src: SourceSet): SelectGen;
}

/** Zeroes the marks of `list[0..count)`: all of them at once when the list is long. */
function clearListed(mark: Uint8Array, list: Int32Array, count: number): void {
  if (count * 16 > mark.length) fillCells(mark, 0);
  else for (let n = 0; n < count; n++) mark[list[n]] = 0;
}

/**
 * The run-index ranges of the vertex types whose cells a SELECT's clause may read: the types from
 * its lowest source's to its highest one's, and its target types.
 */
function clauseRanges(ctx: RunContext, gids: Int32Array, targetTypes: readonly string[]): [number, number][] {
  const ranges: [number, number][] = [];
  if (gids.length > 0) {
    let lo = gids[0];
    let hi = gids[gids.length - 1];
    if (!knownAscending(gids))
      for (let n = 0; n < gids.length; n++) {
        if (gids[n] < lo) lo = gids[n];
        if (gids[n] > hi) hi = gids[n];
      }
    ranges.push([ctx.typeRange(ctx.typeIndexAt(lo)).start, ctx.typeRange(ctx.typeIndexAt(hi)).end]);
  }
  for (const type of targetTypes) {
    const i = ctx.typeIndexOf(type);
    if (i >= 0) {
      const r = ctx.typeRange(i);
      ranges.push([r.start, r.end]);
    }
  }
  return ranges;
}

function runRows(ctx: RunContext, stmts: readonly RowStmt[]): void {
  for (let i = 0; i < stmts.length; i++) stmts[i](ctx);
}

/** One adjacency a source vertex type is walked through: the view and the target type's first run index. */
interface Hop {
  view: AdjacencyView;
  base: number;
}

/** WHERE's terms as one expression again (for the kernel generator). */
export function andOf(terms: readonly BoundPredicate[]): Expr | undefined {
  if (terms.length === 0) return undefined;
  return terms.slice(1).reduce<Expr>(
    (left, t) => ({
      kind: 'binary',
      op: 'AND',
      left,
      right: t.expr,
      opPos: t.expr.pos,
      pos: left.pos,
      start: left.start,
      end: t.expr.end,
    }),
    terms[0].expr,
  );
}

/** WHERE's terms as one test (undefined when there is none). */
export function testOf(terms: readonly BoundPredicate[]): Eval | undefined {
  if (terms.length === 0) return undefined;
  if (terms.length === 1) return terms[0].f;
  const fs = terms.map((t) => t.f);
  return (ctx) => {
    for (let i = 0; i < fs.length; i++) if (fs[i](ctx) !== true) return false;
    return true;
  };
}

export function compileHop(cx: Cx, b: BoundSelect, block: HopBlock): HopRunner {
  const hop = block.hop !== undefined ? b.hops[block.hop] : undefined;
  const sSlot = b.vertices[block.sourceVertex].slot;
  const targetVertex = hop?.to;
  const tSlot = targetVertex !== undefined ? b.vertices[targetVertex].slot : cx.newSlot();
  const eSlot = hop?.slot ?? -1;
  const resultIsTarget = b.result === targetVertex;
  const resultSlot = b.vertices[b.result].slot;

  // The edge step: named types, `_`, and types named by STRING / SET<STRING> variables.
  const steps: EdgeFilter[] = [];
  const dynSteps: ((ctx: RunContext) => EdgeFilter[])[] = [];
  for (const a of hop?.atoms ?? []) {
    if (a.dynamic) {
      const names = a.dynamic;
      const direction = a.direction;
      dynSteps.push((ctx) => names(ctx).map((edgeType) => ({ edgeType, direction })));
    } else
      steps.push(
        a.edgeType === undefined
          ? { direction: a.direction }
          : { edgeType: a.edgeType, direction: a.direction },
      );
  }
  // Target types: named ones, and those known only at run time (then the alias may be of any type).
  const tc = targetVertex !== undefined ? b.vertices[targetVertex].constraints[0] : undefined;
  const targetTypes = tc ? [...tc.types] : [];
  const dynTargets = tc ? [...tc.dynamicTypes] : [];
  if (dynTargets.length > 0) {
    const known = [...targetTypes];
    dynTargets.push(() => known);
  }
  const staticTTypes = targetTypes.length > 0 && dynTargets.length === 0 ? new Set(targetTypes) : undefined;
  const hasEdge = hop !== undefined;
  const sampler = b.sample;
  const whereF = testOf(block.where);
  const where = andOf(block.where);
  const accum = b.accum.rows;
  const deferAccum = b.accum.deferred;
  const counted = block.counted;
  const postGroups = b.posts.map((p) => ({
    slot: b.vertices[p.vertex].slot,
    target: p.vertex === targetVertex && p.vertex !== block.sourceVertex,
    stmts: p.rows,
    ast: p.stmts,
    deferGlobals: p.deferGlobals,
  }));
  const order = b.order;
  const limit = b.limit;
  const offset = b.offset;
  const edgeUsed =
    hop?.alias !== undefined &&
    (b.accum.hops.has(hop.index) || block.where.some((w) => w.hops.has(hop.index)) || b.callsEvaluate);
  const fast = !edgeUsed && sampler === undefined;
  const needSources = postGroups.some((g) => !g.target);
  const needTargets = postGroups.some((g) => g.target);
  // A vertex-only block with no WHERE, ACCUM or HAVING (`SELECT v FROM All:v POST-ACCUM …`) selects
  // every source: when they come in storage order, once each, they are its result as they are.
  const keepsSources =
    !hasEdge && block.where.length === 0 && b.accum.stmts.length === 0 && b.having === undefined;
  // Only whether some row reaches a target matters (no ACCUM, WHERE on the target alone, nothing
  // lists the sources): the hop may go bottom-up (select-bottom-up.ts).
  const exists =
    hasEdge &&
    resultIsTarget &&
    b.accum.stmts.length === 0 &&
    !needSources &&
    block.where.every((w) => w.hops.size === 0 && [...w.vertices].every((v) => v === targetVertex));
  const allTypes = cx.vertexTypeNames();
  const kernel =
    fast && (!hasEdge || steps.every((st) => st.edgeType !== undefined))
      ? compileSelectKernel(cx, {
          sourceSlot: sSlot,
          targetSlot: tSlot,
          hasEdge,
          resultIsTarget,
          needSources,
          needTargets,
          counted,
          ...(where ? { where } : {}),
          accum: { stmts: b.accum.stmts, rows: accum, deferred: deferAccum },
          posts: postGroups.map((g) => ({ slot: g.slot, stmts: g.ast, rows: g.stmts })),
          ...(b.having ? { having: b.having.expr } : {}),
          exists,
          querySlots: b.querySlots,
        })
      : undefined;

  /** Per-run state and the per-vertex work, in plain closures (hot code stays out of the generator). */
  const prepare = (ctx: RunContext, sourceCount: number, counts: Float64Array | null) => {
    // A SELECT from many sources reaches many targets: the kernel's wide variant suits it.
    const wide = sourceCount * 64 >= ctx.gidLimit();
    const stamp = ctx.nextStamp();
    ctx.selectStamp = stamp;
    const runSteps = dynSteps.length > 0 ? steps.concat(dynSteps.flatMap((d) => d(ctx))) : steps;
    const tTypes = dynTargets.length > 0 ? new Set(dynTargets.flatMap((d) => d(ctx))) : staticTTypes;
    // Per source type, each step in order: the adjacency walked directly when no edge alias is read
    // and the edge type is named, otherwise null (edge handles are listed).
    const plans = new Map<string, (Hop[] | null)[]>();
    const planOf = (sourceType: string): (Hop[] | null)[] =>
      runSteps.map(({ edgeType, direction = 'out' }) => {
        if (!fast || edgeType === undefined) return null;
        const hops: Hop[] = [];
        if (direction === 'both') return hops;
        for (const tt of tTypes ?? allTypes) {
          const base = ctx.base(tt);
          for (const view of ctx.graph.adjacency(edgeType, sourceType, tt, direction))
            hops.push({ view, base });
        }
        return hops;
      });
    let lastType = '';
    let lastPlan: (Hop[] | null)[] = [];
    const result: Vtx[] = [];
    const sources: Vtx[] = [];
    const targets: Vtx[] = [];
    // Distinct vertices are collected with per-run marks by run index (no Set, no Vtx per row).
    const [resultMark, sourceMark, targetMark] = ctx.marks();
    const vars = ctx.vars;
    const gids = ctx.gids;
    let reps = 1;
    const bind = (slot: number, v: Vtx): void => {
      vars[slot] = v;
      gids[slot] = v.gid;
    };
    /** ACCUM for one row: once per path the row stands for. */
    const accumRow = (): void => {
      for (let r = 0; r < reps; r++) runRows(ctx, accum);
    };
    /** Collects the source s (run index sg) and, when the row has one, the target with run index tg. */
    const keep = (s: Vtx, sg: number, tg: number): void => {
      if (resultIsTarget) {
        if (resultMark[tg] === 0) {
          resultMark[tg] = 1;
          result.push((vars[tSlot] as Vtx | undefined) ?? ctx.aliasVertex(tSlot));
        }
      } else if (resultMark[sg] === 0) {
        resultMark[sg] = 1;
        result.push(s);
      }
      if (needSources && sourceMark[sg] === 0) {
        sourceMark[sg] = 1;
        sources.push(s);
      }
      if (needTargets && tg >= 0 && targetMark[tg] === 0) {
        targetMark[tg] = 1;
        targets.push((vars[tSlot] as Vtx | undefined) ?? ctx.aliasVertex(tSlot));
      }
    };
    /** One matched row (source s, target with run index tg, its Vtx created only if read): WHERE, then ACCUM. */
    const match = (s: Vtx, sg: number, tg: number): void => {
      vars[tSlot] = undefined;
      gids[tSlot] = tg;
      if (whereF !== undefined && whereF(ctx) !== true) return;
      if (accum.length > 0) accumRow();
      keep(s, sg, tg);
    };
    /** Matches every row starting at source vertex s. */
    const visit = (source: Vtx): void => {
      const s = ctx.own(source);
      bind(sSlot, s);
      const sg = s.gid;
      if (counts !== null) reps = counts[sg];
      if (!hasEdge) {
        ctx.step();
        if (whereF && whereF(ctx) !== true) return;
        accumRow();
        keep(s, sg, -1);
        return;
      }
      if (s.type !== lastType) {
        lastType = s.type;
        let plan = plans.get(lastType);
        if (!plan) plans.set(lastType, (plan = planOf(lastType)));
        lastPlan = plan;
      }
      if (sampler !== undefined) {
        for (const h of sampler.pick(ctx, s, runSteps, tTypes)) edgeRow(s, sg, h);
        return;
      }
      const row = s.row;
      for (let k = 0; k < lastPlan.length; k++) {
        const hops = lastPlan[k];
        if (hops === null) {
          edgeRows(s, sg, runSteps[k]);
          continue;
        }
        for (let h = 0; h < hops.length; h++) {
          const { view, base } = hops[h];
          if (!view.clean) {
            view.forEach(row, (tr) => {
              ctx.step();
              match(s, sg, base + tr);
            });
            continue;
          }
          // The typed-array adjacency, read in place.
          const offsets = view.offsets;
          if (row + 1 >= offsets.length) continue;
          const end = offsets[row + 1];
          const begin = offsets[row];
          ctx.steps(end - begin);
          const tgts = view.targets;
          if (view.skipSelfLoops) {
            for (let i = begin; i < end; i++) if (tgts[i] !== row) match(s, sg, base + tgts[i]);
          } else for (let i = begin; i < end; i++) match(s, sg, base + tgts[i]);
        }
      }
    };
    /** The rows of one step through edge handles (the edge alias is bound). */
    const edgeRows = (s: Vtx, sg: number, step: EdgeFilter): void => {
      for (const h of ctx.graph.edges(s.type, s.row, step)) edgeRow(s, sg, h);
    };
    /** One row through an edge handle. */
    const edgeRow = (s: Vtx, sg: number, h: EdgeHandle): void => {
      ctx.step();
      if (tTypes && !tTypes.has(h.tgtType)) return;
      bind(tSlot, ctx.vertex(h.tgtType, h.tgtRow));
      if (eSlot >= 0) vars[eSlot] = new EdgeVal(h);
      if (whereF && whereF(ctx) !== true) return;
      accumRow();
      keep(s, sg, gids[tSlot]);
    };
    const post = (slot: number, stmts: readonly RowStmt[], v: Vtx): void => {
      ctx.step();
      bind(slot, v);
      runRows(ctx, stmts);
    };
    const targetTypes = [...(tTypes ?? allTypes)];
    const selectRun = newSelectRun(ctx, {
      stamp,
      marks: [resultMark, sourceMark, targetMark],
      steps: runSteps,
      targetTypes,
      counts,
    });
    /** Zeroes the marks this SELECT set: the collected lists name every marked cell. */
    const clearMarks = (): void => {
      for (const v of result) resultMark[v.gid] = 0;
      for (const v of sources) sourceMark[v.gid] = 0;
      for (const v of targets) targetMark[v.gid] = 0;
      const st = selectRun;
      if (!st.resultMarksClear) clearListed(resultMark, st.result, st.resultCount);
      clearListed(sourceMark, st.sources, st.sourceCount);
      clearListed(targetMark, st.targets, st.targetCount);
    };
    return {
      result,
      sources,
      targets,
      visit,
      post,
      bind,
      selectRun,
      wide,
      clearMarks,
      runSteps,
      targetTypes,
    };
  };

  const { limitWindow, finish } = selectFinish({ having: b.having?.f, order, limit, offset, resultSlot });

  const collect = function* (
    ctx: RunContext,
    src: Vtx[] | VertexGids,
    {
      result,
      sources,
      targets,
      visit,
      post,
      bind,
      selectRun,
      wide,
      runSteps,
      targetTypes,
    }: ReturnType<typeof prepare>,
  ): SelectGen {
    const usable = kernel !== undefined && selectKernels.enabled && kernel.usable(ctx);
    const gids = usable ? ctx.gidsOf(src) : undefined;
    // An existence-only hop from a large frontier goes bottom-up, at any thread count (parallel-plan.ts).
    const up =
      gids !== undefined && kernel?.wide.parallel?.exists !== undefined
        ? bottomUpSources(ctx, selectRun, gids)
        : undefined;
    // A clause other threads may share runs wide when that is worth it (parallel.ts); a pass over
    // the sources alone only when they are many enough for the wide variant anyway.
    const split =
      up === undefined &&
      gids !== undefined &&
      kernel?.wide.parallel !== undefined &&
      (hasEdge || wide) &&
      worthSplitting(ctx, gids, selectRun, kernel.wide.parallel.bySource !== undefined);
    const k =
      kernel !== undefined && gids !== undefined
        ? up !== undefined || (selectKernels.force ?? (wide || split ? 'wide' : 'narrow')) === 'wide'
          ? kernel.wide
          : kernel.narrow
        : undefined;
    if (k && gids) {
      // The kernel works on run indexes: no Vtx per source or per collected vertex.
      selectKernels.runs++;
      k.begin(ctx, selectRun.stamp, clauseRanges(ctx, gids, targetTypes));
      const st = selectRun;
      // The run's own result buffer: the result list is made anew (written once) unless it stays here.
      const runResult = st.result;
      // The sources as the result (keepsSources): no pass over them, nothing marked or sorted.
      const kept = keepsSources && ascendingList(gids) ? readableList(gids) : undefined;
      if (kept) ctx.steps(kept.length);
      else {
        const pendingAccum = beginClause(ctx, deferAccum, true);
        let parallel = false;
        try {
          const lists = {
            sources: needSources && resultIsTarget,
            targets: needTargets && !resultIsTarget,
            resultIsTarget,
          };
          if (up && kernel)
            parallel = yield* bottomUpStep(
              ctx,
              kernel,
              gids,
              st,
              { steps: runSteps, targetTypes },
              lists,
              up,
            );
          else {
            // A wide clause may run on several threads (parallel.ts).
            parallel =
              split &&
              k === kernel.wide &&
              startParallelAccum(ctx, kernel, k, gids, selectRun, runSteps, targetTypes, lists);
            if (!parallel)
              for (let from = 0; from < gids.length; from += CHUNK) {
                k.accum(ctx, gids, from, Math.min(gids.length, from + CHUNK), selectRun);
                yield;
              }
          }
        } finally {
          endClause(ctx);
        }
        pendingAccum?.apply();
        // A split lists its result, sources and targets in run-index order already (parallel.ts).
        if (!parallel) {
          st.result = sortedList(st.result, st.resultCount, st.resultMark, st.newList);
          sortCollected(st.sources, st.sourceCount, st.sourceMark);
          sortCollected(st.targets, st.targetCount, st.targetMark);
        }
      }
      for (let i = 0; i < postGroups.length; i++) {
        // A bottom-up step, or a split by sources, ran its fused POST-ACCUM group over the targets it listed.
        if ((up && kernel?.wide.parallel?.existsPosts) || st.postsFused) continue;
        // The kernel collects the result's alias only in the result list (same vertices, same order).
        const [list, count] = kept
          ? [kept, kept.length]
          : postGroups[i].target === resultIsTarget
            ? [st.result, st.resultCount]
            : postGroups[i].target
              ? [st.targets, st.targetCount]
              : [st.sources, st.sourceCount];
        const pendingPost = beginClause(ctx, postGroups[i].deferGlobals, false);
        try {
          // A wide kernel's group may run on several threads (parallel.ts).
          const parallel =
            kernel !== undefined &&
            k === kernel.wide &&
            startParallelPost(ctx, kernel, k, i, list, count, selectRun);
          if (!parallel)
            for (let from = 0; from < count; from += CHUNK) {
              k.posts[i](ctx, list, from, Math.min(count, from + CHUNK), selectRun);
              yield;
            }
        } finally {
          endClause(ctx);
        }
        pendingPost?.apply();
      }
      if (k.having) k.having(ctx, st.result, 0, st.resultCount, st);
      const made = st.result !== runResult ? st.result.subarray(0, st.resultCount) : undefined;
      const out = new VertexGids(ctx, kept ?? made ?? gidList(st.result, st.resultCount, st.newList));
      markAscending(out.gids);
      if (order.length > 0) return finish(ctx, ctx.vertexList(out) as Vtx[], bind, false);
      // Without ORDER BY, LIMIT takes a slice of the run indexes (no vertex objects).
      return limit || offset ? new VertexGids(ctx, out.gids.subarray(...limitWindow(ctx, out.length))) : out;
    }
    const pendingAccum = beginClause(ctx, deferAccum, true);
    let n = 0;
    try {
      for (const s of ctx.vertexList(src) as Vtx[]) {
        if ((++n & (CHUNK - 1)) === 0) yield;
        visit(s);
      }
    } finally {
      endClause(ctx);
    }
    pendingAccum?.apply();
    inStorageOrder(result);
    inStorageOrder(sources);
    inStorageOrder(targets);
    for (const g of postGroups) {
      const list = g.target ? targets : sources;
      const pendingPost = beginClause(ctx, g.deferGlobals, false);
      try {
        for (const v of list) {
          if ((++n & (CHUNK - 1)) === 0) yield;
          post(g.slot, g.stmts, v);
        }
      } finally {
        endClause(ctx);
      }
      pendingPost?.apply();
    }
    return finish(ctx, result, bind, true);
  };

  return {
    *run(ctx, { set, counts }) {
      const parts = prepare(ctx, set.length, counts);
      ctx.marksOpen++;
      try {
        return yield* collect(ctx, set, parts);
      } finally {
        parts.clearMarks();
        ctx.marksOpen--;
      }
    },
  };
}
