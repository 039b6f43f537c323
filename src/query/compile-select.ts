/**
 * SELECT blocks: one-hop (or vertex-only) matching with WHERE, ACCUM, POST-ACCUM, HAVING,
 * ORDER BY and LIMIT. ACCUM runs once per matched row; accumulator updates wait for the clause's
 * end, so every row reads the state from before the clause (GSQL's map-reduce semantics).
 */
import type { AdjacencyView, EdgeFilter, EdgeHandle } from '../engine/api.js';
import type { Pos, SelectBlock, Stmt } from '../gsql/ast-query.js';
import { compileExpr, expectType } from './expr-support.js';
import { callsEvaluate } from './evaluate.js';
import { compileSample } from './select-sample.js';
import { inStorageOrder, sortCollected } from './storage-order.js';
import type { RunContext } from './context.js';
import { compileError } from './errors.js';
import { beginClause, endClause, namesIn, readsAsVertex, readsWhatItWrites } from './select-clauses.js';
import { compileSelectKernel, selectKernels } from './select-kernel.js';
import { selectFinish } from './select-finish.js';
import { newSelectRun } from './select-run.js';
import type { Cx, Eval, RowStmt, Typed } from './scope.js';
import { runtimeTypeNames } from './type-names.js';
import { T, isNumeric, typeText, type QType } from './types.js';
import { EdgeVal, VertexGids, Vtx } from './values.js';

interface Step {
  filter: EdgeFilter;
}

/** Vertices handled between two chances to yield to the event loop. */
const CHUNK = 1024;

function runRows(ctx: RunContext, stmts: RowStmt[]): void {
  for (let i = 0; i < stmts.length; i++) stmts[i](ctx);
}

/** One adjacency a source vertex type is walked through: the view and the target type's first run index. */
interface Hop {
  view: AdjacencyView;
  base: number;
}

export function compileSelect(cx: Cx, b: SelectBlock, _pos: Pos): Typed {
  return cx.nested(() => compileSelectIn(cx, b));
}

function compileSelectIn(cx: Cx, b: SelectBlock): Typed {
  const querySlots = cx.slots;
  // The source: a vertex-set variable, or a vertex type (V2 style `FROM Person:p`).
  const srcBinding = cx.lookup(b.source.name);
  let source: Eval;
  let sourceTypes: string[] = [];
  if (srcBinding && srcBinding.t.kind === 'VSET') {
    const slot = srcBinding.slot;
    source = (ctx) => ctx.vars[slot];
    if (srcBinding.t.vertexType) sourceTypes = [srcBinding.t.vertexType];
  } else if (!srcBinding && cx.vertexType(b.source.name)) {
    const tn = b.source.name;
    sourceTypes = [tn];
    source = (ctx) => ctx.typeGids([tn]);
  } else if (srcBinding) {
    throw compileError(
      b.source.pos,
      `FROM needs a vertex set, but "${b.source.name}" is ${typeText(srcBinding.t)}`,
    );
  } else {
    throw compileError(b.source.pos, `"${b.source.name}" is neither a vertex set variable nor a vertex type`);
  }
  const srcAliasName = b.source.alias ?? (b.result === b.source.name ? b.source.name : undefined);
  const declareAlias = (name: string, types: string[], pos: Pos): number => {
    const t: QType = { kind: 'VERTEX', vertexType: types.length === 1 ? types[0] : undefined };
    const binding = cx.declare(name, t, pos, true);
    binding.aliasTypes = types;
    return binding.slot;
  };
  const sSlot = srcAliasName ? declareAlias(srcAliasName, sourceTypes, b.source.pos) : cx.newSlot();
  // 1.x style: inside the block the source set's own name may stand for its alias
  // (`FROM S:s WHERE S.attr == …`, `SELECT S FROM S:s`).
  const setAsAlias =
    srcBinding !== undefined &&
    srcAliasName !== undefined &&
    srcAliasName !== b.source.name &&
    (b.result === b.source.name || readsAsVertex(b, b.source.name));
  if (setAsAlias) cx.bindAs(b.source.name, cx.lookup(srcAliasName)!);

  // The edge step.
  const steps: Step[] = [];
  // Edge and target types named by STRING / SET<STRING> variables, resolved when the SELECT runs.
  const dynSteps: ((ctx: RunContext) => Step[])[] = [];
  const dynTargets: ((ctx: RunContext) => string[])[] = [];
  let eSlot = -1;
  let tSlot = -1;
  let targetTypes: string[] = [];
  if (b.edge && b.target) {
    const edgeNames: string[] = [];
    for (const et of b.edge.types) {
      if (et.name === '_' || et.name.toUpperCase() === 'ANY') {
        steps.push({ filter: { direction: et.direction === 'in' ? 'in' : 'out' } });
        continue;
      }
      const def = cx.edgeType(et.name);
      if (!def) {
        const names = runtimeTypeNames(cx, et.name, 'edge');
        if (!names) throw compileError(et.pos, `"${et.name}" is not an edge type of graph ${cx.graphName}`);
        const direction = et.direction === 'in' ? 'in' : 'out';
        dynSteps.push((ctx) => names(ctx).map((edgeType) => ({ filter: { edgeType, direction } })));
        continue;
      }
      edgeNames.push(et.name);
      let direction: 'out' | 'in' = et.direction === 'in' ? 'in' : 'out';
      if (
        et.direction === 'any' &&
        def.directed &&
        def.name === et.name &&
        cx.syntax === 'v2' &&
        !b.edge.arrow
      ) {
        throw compileError(
          et.pos,
          `the directed edge type ${et.name} needs a direction in SYNTAX v2: "${et.name}>" or "<${et.name}"`,
        );
      }
      if (et.direction !== 'any' && !def.directed) direction = 'out';
      steps.push({ filter: { edgeType: et.name, direction } });
    }
    if (b.edge.types.length === 0) steps.push({ filter: { direction: 'out' } });
    for (const t of b.target.types) {
      // `ANY:t` / `_:t`: a target of any type, as with no type at all.
      if (t.name === '_' || t.name.toUpperCase() === 'ANY') continue;
      if (cx.vertexType(t.name)) {
        targetTypes.push(t.name);
        continue;
      }
      const names = runtimeTypeNames(cx, t.name, 'vertex');
      if (!names) throw compileError(t.pos, `"${t.name}" is not a vertex type of graph ${cx.graphName}`);
      dynTargets.push(names);
    }
    // Types known only at run time: the target alias may be of any type.
    if (dynTargets.length > 0) {
      const known = targetTypes;
      dynTargets.push(() => known);
      targetTypes = [];
    }
    if (b.edge.alias) {
      const oneType = edgeNames.length === 1 && dynSteps.length === 0;
      const binding = cx.declare(
        b.edge.alias,
        { kind: 'EDGE', edgeType: oneType ? edgeNames[0] : undefined },
        b.edge.pos,
        true,
      );
      eSlot = binding.slot;
    }
    if (b.target.alias) tSlot = declareAlias(b.target.alias, targetTypes, b.target.pos);
    else if (b.result !== srcAliasName) tSlot = declareAlias(b.result, targetTypes, b.target.pos);
    else tSlot = cx.newSlot();
  }
  const resultIsSource = b.result === srcAliasName || (setAsAlias && b.result === b.source.name);
  const targetAlias = b.target?.alias ?? (b.target && !resultIsSource ? b.result : undefined);
  let resultIsTarget: boolean;
  if (resultIsSource) resultIsTarget = false;
  else if (b.result === targetAlias) resultIsTarget = true;
  else
    throw compileError(b.resultPos, `SELECT must name an alias of the FROM clause; "${b.result}" is not one`);

  const sampler = compileSample(cx, b);
  const where = b.where ? cx.inClause('WHERE', () => compileExpr(cx, b.where!)) : undefined;
  if (where && b.where) expectType(where, T.BOOL, b.where.pos, 'WHERE');
  const accum = cx.inClause('ACCUM', () => cx.withClauseSlots(() => cx.compileRowStmts(cx, b.accum)));
  const postGroups: {
    slot: number;
    target: boolean;
    ast: Stmt[];
    stmts: RowStmt[];
    deferGlobals: boolean;
  }[] = [];
  // The edge alias names one matched edge: it means nothing once the rows are reduced to vertices.
  const edgeAlias = b.edge?.alias;
  if (edgeAlias) {
    for (const [clauseName, part] of [
      ['POST-ACCUM', b.postAccum],
      ['HAVING', b.having],
      ['ORDER BY', b.orderBy],
    ] as const) {
      if (part && namesIn(part, new Set()).has(edgeAlias)) {
        throw compileError(
          b.edge!.pos,
          `the edge alias ${edgeAlias} cannot be used in ${clauseName}; use it in WHERE or ACCUM`,
        );
      }
    }
  }
  // Clauses run in order; within one, each statement runs once per distinct vertex of the alias it uses.
  for (const clauseStmts of b.postAccum) {
    const bySource: Stmt[] = [];
    const byTarget: Stmt[] = [];
    for (const s of clauseStmts) {
      const used = namesIn(s, new Set());
      const usesTarget = targetAlias !== undefined && used.has(targetAlias);
      const usesSource = srcAliasName !== undefined && used.has(srcAliasName);
      if (usesTarget && usesSource) {
        throw compileError(s.pos, 'a POST-ACCUM statement may use only one vertex alias');
      }
      if (usesTarget || (!usesSource && resultIsTarget)) byTarget.push(s);
      else bySource.push(s);
    }
    for (const [stmts, target] of [
      [bySource, false],
      [byTarget, true],
    ] as const) {
      if (stmts.length === 0) continue;
      postGroups.push({
        slot: target ? tSlot : sSlot,
        target,
        ast: stmts,
        stmts: cx.inClause('POST-ACCUM', () => cx.withClauseSlots(() => cx.compileRowStmts(cx, stmts))),
        deferGlobals: readsWhatItWrites(stmts, true),
      });
    }
  }
  const having = b.having ? cx.inClause('HAVING', () => compileExpr(cx, b.having!)) : undefined;
  if (having && b.having) expectType(having, T.BOOL, b.having.pos, 'HAVING');
  const order = b.orderBy.map((o) => ({
    f: cx.inClause('ORDER BY', () => compileExpr(cx, o.expr)).f,
    desc: o.descending,
  }));
  const limitOf = (e: SelectBlock['limit']): Eval | undefined => {
    if (!e) return undefined;
    const x = compileExpr(cx, e);
    if (!isNumeric(x.t)) throw compileError(e.pos, `LIMIT needs an integer, not ${typeText(x.t)}`);
    return x.f;
  };
  const limit = limitOf(b.limit);
  const offset = limitOf(b.offset);
  const resultSlot = resultIsTarget ? tSlot : sSlot;
  const whereF = where?.f;
  const hasEdge = b.edge !== undefined && b.target !== undefined;
  const staticTTypes = targetTypes.length > 0 ? new Set(targetTypes) : undefined;

  // The edge alias is bound only when some clause reads it; otherwise the fast path applies.
  const edgeUsed =
    b.edge?.alias !== undefined &&
    (namesIn([b.where, b.accum, b.postAccum, b.having, b.orderBy], new Set()).has(b.edge.alias) ||
      callsEvaluate([b.where, b.accum]));
  const fast = !edgeUsed && sampler === undefined;
  // Deferring updates to the clause end only matters when the clause reads what it accumulates.
  // WHERE runs per row between ACCUM rows, so what it reads must not change before the clause ends.
  const deferAccum = readsWhatItWrites(b.accum, false, b.where);
  const needSources = postGroups.some((g) => !g.target);
  const needTargets = postGroups.some((g) => g.target);
  const allTypes = cx.vertexTypeNames();
  // Blocks whose edge steps all name their types run as generated code (select-kernel.ts).
  const kernel =
    fast && (!hasEdge || steps.every((st) => st.filter.edgeType !== undefined))
      ? compileSelectKernel(cx, {
          sourceSlot: sSlot,
          targetSlot: tSlot,
          hasEdge,
          resultIsTarget,
          needSources,
          needTargets,
          ...(b.where ? { where: b.where } : {}),
          accum: { stmts: b.accum, rows: accum, deferred: deferAccum },
          posts: postGroups.map((g) => ({ slot: g.slot, stmts: g.ast, rows: g.stmts })),
          ...(b.having ? { having: b.having } : {}),
          querySlots,
        })
      : undefined;

  /** Per-run state and the per-vertex work, in plain closures (hot code stays out of the generator). */
  const prepare = (ctx: RunContext, sourceCount: number) => {
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
      runSteps.map(({ filter }) => {
        const { edgeType, direction = 'out' } = filter;
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
    /** Binds an alias slot to a vertex. */
    const bind = (slot: number, v: Vtx): void => {
      vars[slot] = v;
      gids[slot] = v.gid;
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
      if (accum.length > 0) runRows(ctx, accum);
      keep(s, sg, tg);
    };
    /** Matches every row starting at source vertex s. */
    const visit = (source: Vtx): void => {
      const s = ctx.own(source);
      bind(sSlot, s);
      const sg = s.gid;
      if (!hasEdge) {
        ctx.step();
        if (whereF && whereF(ctx) !== true) return;
        runRows(ctx, accum);
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
        const rows = sampler.pick(
          ctx,
          s,
          runSteps.map((st) => st.filter),
          tTypes,
        );
        for (const h of rows) edgeRow(s, sg, h);
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
    const edgeRows = (s: Vtx, sg: number, step: Step): void => {
      for (const h of ctx.graph.edges(s.type, s.row, step.filter)) edgeRow(s, sg, h);
    };
    /** One row through an edge handle. */
    const edgeRow = (s: Vtx, sg: number, h: EdgeHandle): void => {
      ctx.step();
      if (tTypes && !tTypes.has(h.tgtType)) return;
      bind(tSlot, ctx.vertex(h.tgtType, h.tgtRow));
      if (eSlot >= 0) vars[eSlot] = new EdgeVal(h);
      if (whereF && whereF(ctx) !== true) return;
      runRows(ctx, accum);
      keep(s, sg, gids[tSlot]);
    };
    const post = (slot: number, stmts: RowStmt[], v: Vtx): void => {
      ctx.step();
      bind(slot, v);
      runRows(ctx, stmts);
    };
    const selectRun = newSelectRun(ctx, {
      stamp,
      marks: [resultMark, sourceMark, targetMark],
      steps: runSteps.map((st) => st.filter),
      targetTypes: [...(tTypes ?? allTypes)],
    });
    /** Zeroes the marks this SELECT set: the collected lists name every marked cell. */
    const clearMarks = (): void => {
      for (const v of result) resultMark[v.gid] = 0;
      for (const v of sources) sourceMark[v.gid] = 0;
      for (const v of targets) targetMark[v.gid] = 0;
      const st = selectRun;
      for (let n = 0; n < st.resultCount; n++) resultMark[st.result[n]] = 0;
      for (let n = 0; n < st.sourceCount; n++) sourceMark[st.sources[n]] = 0;
      for (let n = 0; n < st.targetCount; n++) targetMark[st.targets[n]] = 0;
    };
    return { result, sources, targets, visit, post, bind, selectRun, wide, clearMarks };
  };

  // A generator so that a long SELECT can pause every thousand vertices or so.
  const run = function* (ctx: RunContext): Generator<undefined, Vtx[] | VertexGids, undefined> {
    const src = source(ctx) as Vtx[] | VertexGids;
    const parts = prepare(ctx, src.length);
    ctx.marksOpen++;
    try {
      return yield* collect(ctx, src, parts);
    } finally {
      parts.clearMarks();
      ctx.marksOpen--;
    }
  };
  const collect = function* (
    ctx: RunContext,
    src: Vtx[] | VertexGids,
    { result, sources, targets, visit, post, bind, selectRun, wide }: ReturnType<typeof prepare>,
  ): Generator<undefined, Vtx[] | VertexGids, undefined> {
    const k =
      kernel !== undefined && selectKernels.enabled && kernel.usable(ctx)
        ? (selectKernels.force ?? (wide ? 'wide' : 'narrow')) === 'wide'
          ? kernel.wide
          : kernel.narrow
        : undefined;
    if (k) {
      // The kernel works on run indexes: no Vtx per source or per collected vertex.
      selectKernels.runs++;
      k.begin(ctx, selectRun.stamp);
      const gids = ctx.gidsOf(src);
      const pendingAccum = beginClause(ctx, deferAccum, true);
      try {
        for (let from = 0; from < gids.length; from += CHUNK) {
          k.accum(ctx, gids, from, Math.min(gids.length, from + CHUNK), selectRun);
          yield;
        }
      } finally {
        endClause(ctx);
      }
      pendingAccum?.apply();
      {
        const st = selectRun;
        sortCollected(st.result, st.resultCount, st.resultMark);
        sortCollected(st.sources, st.sourceCount, st.sourceMark);
        sortCollected(st.targets, st.targetCount, st.targetMark);
      }
      for (let i = 0; i < postGroups.length; i++) {
        // The kernel collects the result's alias only in the result list (same vertices, same order).
        const st = selectRun;
        const [list, count] =
          postGroups[i].target === resultIsTarget
            ? [st.result, st.resultCount]
            : postGroups[i].target
              ? [st.targets, st.targetCount]
              : [st.sources, st.sourceCount];
        const pendingPost = beginClause(ctx, postGroups[i].deferGlobals, false);
        try {
          for (let from = 0; from < count; from += CHUNK) {
            k.posts[i](ctx, list, from, Math.min(count, from + CHUNK), selectRun);
            yield;
          }
        } finally {
          endClause(ctx);
        }
        pendingPost?.apply();
      }
      if (k.having) {
        const st = selectRun;
        k.having(ctx, st.result, 0, st.resultCount, st);
      }
      const out = new VertexGids(ctx, selectRun.result.slice(0, selectRun.resultCount));
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

  const { limitWindow, finish } = selectFinish({ having: having?.f, order, limit, offset, resultSlot });
  const runSync = (ctx: RunContext): Vtx[] | VertexGids => {
    const g = run(ctx);
    let r = g.next();
    while (!r.done) r = g.next();
    return r.value;
  };
  // At query-body level the SELECT yields to the event loop between chunks of vertices.
  const runAsync = async (ctx: RunContext): Promise<Vtx[] | VertexGids> => {
    const g = run(ctx);
    let r = g.next();
    try {
      while (!r.done) {
        await ctx.tick();
        r = g.next();
      }
    } finally {
      // Stopped between chunks (timeout, abort): the SELECT still clears its marks.
      if (!r.done) g.return(new VertexGids(ctx, new Int32Array(0)));
    }
    return r.value;
  };
  const vertexType = resultIsTarget
    ? targetTypes.length === 1
      ? targetTypes[0]
      : undefined
    : sourceTypes.length === 1
      ? sourceTypes[0]
      : undefined;
  return {
    t: { kind: 'VSET', vertexType },
    f: (ctx) => ctx.vertexList(runSync(ctx)),
    async: async (ctx) => ctx.vertexList(await runAsync(ctx)),
    raw: runSync,
    rawAsync: runAsync,
  };
}
