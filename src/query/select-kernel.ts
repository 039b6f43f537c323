/**
 * SELECT kernels: a SELECT block's per-row work generated as one JavaScript function per phase (the
 * ACCUM phase over the source vertices and their edges, and each POST-ACCUM group), so that V8
 * compiles the loop over the CSR adjacency, WHERE, the accumulator updates and the collection of
 * the result as one piece of code instead of a chain of closure calls per row.
 *
 * A kernel computes exactly what the closures compute: statements and expressions it has no inline
 * form for call their closures (kernel-expr.ts), and the aliases are bound in `ctx.vars`/`ctx.gids`
 * as the closures expect. Updates of dense vertex accumulators are inline. When the clause reads
 * what it updates, the column is read from a copy-on-write snapshot taken at the clause's start
 * (when every read and update of it is inline) or its updates wait in `ctx.pending` for the
 * clause's end, as with the closures.
 */
import type { Expr, Stmt } from '../gsql/ast-query.js';
import { DenseKind } from './accum-dense.js';
import { emitExpr, KernelSource, use, type AliasCells, type KernelScope } from './kernel-expr.js';
import { emitStmts, int32Check } from './kernel-stmt.js';
import type { Cx, VertexAccum } from './scope.js';
import { existsBody, fusedPost, pullTargetLoop } from './select-bottom-up-code.js';
import { changeCollected, labelColumn, mentions, monotoneFilter, orderFree } from './select-kernel-shape.js';
import type {
  KernelPhase,
  ParallelAccum,
  ParallelPost,
  KernelVariant,
  SelectKernel,
  KernelBlock,
} from './select-kernel-types.js';

/**
 * Whether SELECT blocks use kernels and which variant (tests compare kernels with the closures and
 * the variants with each other), and how many SELECT runs used one.
 */
export const selectKernels: { enabled: boolean; force?: 'narrow' | 'wide'; runs: number } = {
  enabled: true,
  runs: 0,
};

/** The locals of the columns the code uses, read once per call. */
function columnLocals(out: KernelSource): string {
  return [...out.columns.keys()]
    .map(
      (i) =>
        `const C${i} = ctx.dense[${i}], V${i} = C${i}.vals, R${i} = C${i}.ready, I${i} = C${i}.init, ` +
        `PA${i} = C${i}.prevAt, PV${i} = C${i}.prevVals;` +
        (out.snapshot.has(i)
          ? ` C${i}.ensureSnapshot(); const SA${i} = C${i}.snapAt, SV${i} = C${i}.snapVals;`
          : ''),
    )
    .join('\n');
}

/** A generated phase and the columns it needs dense (and with previous values). */
interface Phase {
  fn: KernelPhase;
  columns: Map<number, VertexAccum>;
  primed: Set<number>;
  /** Columns the phase reads from a snapshot. */
  snapshot: ReadonlySet<number>;
}

function build(out: KernelSource, body: string): KernelPhase {
  const names = out.consts.map((_, i) => `k${i}`);
  const factory = new Function(
    ...names,
    `'use strict';\nreturn function phase(ctx, list, from, to, st) {\n${body}\n};`,
  );
  return factory(...out.consts) as KernelPhase;
}

/**
 * The ACCUM phase. A clause that reads what it updates defers its updates to its end; a column
 * whose every read and update in the clause is inline reads a snapshot instead and is updated at
 * once (same values, without queuing each update).
 */
function accumPhase(
  cx: Cx,
  b: KernelBlock,
  wide: boolean,
  walk: Walk = 'whole',
  post?: KernelPhase,
): Phase & { out: KernelSource } {
  const source = (out: KernelSource): KernelSource => {
    out.atomic = walk === 'sources' || walk === 'unmarked' || walk === 'owned';
    out.hoist = walk === 'pull';
    out.targetLocals = walk === 'pull';
    return out;
  };
  const first = emitAccumPhase(cx, b, source(new KernelSource(wide)), walk, post);
  const snapshot = new Set<number>();
  for (const i of first.deferredWrites) {
    const va = first.columns.get(i)!;
    if (first.inlineUses.get(i) === mentions([b.where, b.accum.stmts], va.name)) snapshot.add(i);
  }
  let collect = changeCollected(cx, b, first.columns, first.stmtClosures);
  // A deferred update changes the cell at the clause's end, too late to collect the row's target.
  if (collect !== undefined && first.deferredWrites.has(collect) && !snapshot.has(collect))
    collect = undefined;
  if (snapshot.size === 0 && collect === undefined) return { ...first.phase, out: first.out };
  const liveTargets = new Set([...snapshot].filter((i) => monotoneFilter(cx, b, first.columns.get(i)!)));
  const second = emitAccumPhase(
    cx,
    b,
    source(new KernelSource(wide, snapshot, liveTargets, collect)),
    walk,
    post,
  );
  return { ...second.phase, out: second.out };
}

const EXACT_GLOBALS = new Set(['OrAccum', 'AndAccum', 'MinAccum', 'MaxAccum']);

/**
 * Whether threads computing parts of the code get what one thread gets: nothing runs as a closure
 * a helper may compute otherwise, and every global update combines exactly in any order.
 */
function splittable(out: KernelSource): boolean {
  const exact = [...out.globals.values()].every(
    (t) =>
      EXACT_GLOBALS.has(t.accum) ||
      (t.accum === 'SumAccum' && (t.elem.kind === 'INT' || t.elem.kind === 'UINT')),
  );
  return exact && !out.globalAssigns && out.fallbacks === 0 && !out.stmtClosures;
}

/** The partitioned ACCUM phase (ParallelAccum) of a wide kernel, when the clause allows one. */
function parallelAccum(cx: Cx, b: KernelBlock, existsPost?: KernelPhase): ParallelAccum | undefined {
  // Virtual edges live in this run's memory, which helper threads do not see.
  if (cx.virtualEdges.size > 0) return undefined;
  if (!b.hasEdge) return parallelSourcePass(cx, b);
  const p = accumPhase(cx, b, true, 'partitioned');
  const out = p.out;
  if (!splittable(out) || out.sourceWrites) return undefined;
  if ([...out.deferredWrites].some((i) => !out.snapshot.has(i))) return undefined;
  const pull = accumPhase(cx, b, true, 'pull');
  const hoist =
    pull.out.hoisted.length > 0
      ? { hoist: { fill: hoistPhase(pull.out, b), count: pull.out.hoisted.length } }
      : {};
  const own = accumPhase(cx, b, true, 'sources');
  const label = own.out.notAtomic ? undefined : labelColumn(cx, b, own.out);
  const labels = label && {
    labels: {
      accum: accumPhase(cx, b, true, 'unmarked').fn,
      owned: accumPhase(cx, b, true, 'owned').fn,
      ...label,
    },
  };
  // A target collected on its cell's first change needs that change to be seen by one thread:
  // only a label walk, which lists the changed cells after the rows, collects it then.
  const onlyLabels = own.out.collectOnChange !== undefined;
  const bySource =
    !own.out.notAtomic && (!onlyLabels || labels)
      ? { bySource: { accum: own.fn, writes: [...own.out.atomicWrites], onlyLabels, ...labels } }
      : {};
  return {
    accum: p.fn,
    pull: pull.fn,
    ...hoist,
    ...(b.exists
      ? { exists: accumPhase(cx, b, true, 'exists', existsPost).fn, existsPosts: existsPost !== undefined }
      : {}),
    orderFree: orderFree(out),
    globals: [...out.globals],
    ...bySource,
  };
}

/**
 * A vertex-only SELECT's pass over its sources (WHERE, and ACCUM updates of exact globals only: no
 * vertex accumulator is written), split by ranges of the sources (ParallelAccum's `bySource`), as
 * WCC's `Roots = SELECT v FROM All:v WHERE v.@cc == getvid(v)`: each source is one row, marked in
 * the result by the one thread whose range holds it. Should the run's state rule the split by
 * sources out (parallel.ts), the other walks call the `partitioned` phase, which does the sources
 * whose run index lies in the partition `[st.lo, st.hi)`: each source again on one thread.
 */
function parallelSourcePass(cx: Cx, b: KernelBlock): ParallelAccum | undefined {
  // With nothing to compute per source the pass only collects them: no split is worth its round.
  if (b.where === undefined && b.accum.stmts.length === 0) return undefined;
  const own = accumPhase(cx, b, true, 'sources');
  if (!splittable(own.out) || own.out.sourceWrites || own.out.notAtomic || own.out.deferredWrites.size > 0)
    return undefined;
  const partitioned = accumPhase(cx, b, true, 'partitioned').fn;
  return {
    accum: partitioned,
    pull: partitioned,
    orderFree: orderFree(own.out),
    globals: [...own.out.globals],
    bySource: { accum: own.fn, writes: [], onlyLabels: false },
  };
}

/**
 * The fill of a pulled phase's hoisted values (ParallelAccum's `hoist`) for the sources
 * `list[from..to)` with edges in the block's steps (a pull only runs over compacted adjacencies):
 * the same code the rows would run, once per source, with the phase's constants, columns and
 * temporaries. A source without edges has no rows (and may have no value: PageRank divides by its
 * out-degree), so it gets none, and no error is made for it. One adjacency (PageRank's) is read
 * directly: at RMAT 2^20 the loop over the plan's hops took half of a 7.5 ms fill of 650k sources.
 */
function hoistPhase(out: KernelSource, b: KernelBlock): KernelPhase {
  const fills = out.hoisted.map((src, j) => `try { H${j}[sg] = ${src}; } catch { H${j}[sg] = NaN; }`);
  return build(
    out,
    `const vars = ctx.vars, gids = ctx.gids, stamp = st.stamp;
${columnLocals(out)}
${out.tempDecls()}
${hoistedLocals(out)}
let start = 0, end = 0, plan = null, one = null;
for (let n = from; n < to; n++) {
  const sg = list[n];
  if (sg < start || sg >= end) {
    plan = st.locate(sg); start = st.start; end = st.end;
    one = plan.length === 1 && plan[0].length === 1 ? plan[0][0].view.offsets : null;
  }
  const row = sg - start;
  let rows = false;
  if (one !== null) rows = row + 1 < one.length && one[row + 1] > one[row];
  else
    for (let k = 0; k < plan.length && !rows; k++) {
      const hops = plan[k];
      for (let h = 0; h < hops.length && !rows; h++) {
        const off = hops[h].view.offsets;
        rows = row + 1 < off.length && off[row + 1] > off[row];
      }
    }
  if (!rows) continue;
  vars[${b.sourceSlot}] = undefined; gids[${b.sourceSlot}] = sg;
  ${fills.join('\n  ')}
}`,
  );
}

/** The locals of a pulled phase's hoisted arrays (`H<j>`). */
const hoistedLocals = (out: KernelSource): string =>
  out.hoisted.length === 0
    ? ''
    : `const ${out.hoisted.map((_, j) => `H${j} = st.hoisted[${j}]`).join(', ')};`;

/**
 * How an ACCUM phase walks its rows: every source's edges ('whole'), every source's edges into the
 * targets `[st.lo, st.hi)` ('partitioned'), those targets' in-edges back to the sources ('pull'),
 * every source's edges with updates that threads may make at once ('sources', ParallelAccum's
 * `bySource`), the same for a label propagation without result marks ('unmarked', bySource's
 * `labels`) or with every update kept in the thread's own proposals ('owned', `labels` too), or
 * a bottom-up step of an existence-only hop ('exists', select-bottom-up-code.ts).
 */
type Walk = 'whole' | 'partitioned' | 'pull' | 'sources' | 'unmarked' | 'owned' | 'exists';

/**
 * An `owned` walk's row (see labelColumn): the source's value, kept in the thread's proposals
 * (`PR`) when it beats the best one so far. The proposals start as the
 * clause's snapshot, so this is the WHERE of the row against the snapshot and the thread's own
 * earlier rows; the listing applies what beats the cell (parallel-labels.ts).
 */
function emitProposal(ks: KernelScope, b: KernelBlock): string {
  const s = b.accum.stmts[0] as Stmt & { kind: 'assign' };
  const min = ks.cx.vaccs.get((s.target as Expr & { kind: 'vattach' }).name)!.dense === DenseKind.MinInt;
  const v = ks.out.temp();
  // The statement's value is read a second time here: not a use the snapshot decision counts.
  const uses = new Map(ks.out.inlineUses);
  const value = ks.cx.inClause('ACCUM', () => use(ks, emitExpr(ks, s.value)));
  for (const [i, n] of uses) ks.out.inlineUses.set(i, n);
  return `${v} = ${value}; ${int32Check(v)} if (${v} ${min ? '<' : '>'} PR[tg]) PR[tg] = ${v};`;
}

function emitAccumPhase(
  cx: Cx,
  b: KernelBlock,
  out: KernelSource,
  walk: Walk = 'whole',
  post?: KernelPhase,
): {
  out: KernelSource;
  phase: Phase;
  deferredWrites: Set<number>;
  inlineUses: Map<number, number>;
  columns: Map<number, VertexAccum>;
  stmtClosures: boolean;
} {
  const cells: AliasCells = new Map([[b.sourceSlot, 'sg']]);
  if (b.hasEdge) cells.set(b.targetSlot, 'tg');
  const ks: KernelScope = {
    cx,
    out,
    cells,
    sourceSlot: b.hasEdge ? b.sourceSlot : -1,
    querySlots: b.querySlots,
  };
  const where = b.where
    ? cx.inClause('WHERE', () => `if (${use(ks, emitExpr(ks, b.where!))} !== true) continue;`)
    : '';
  const rowAccum = cx.inClause('ACCUM', () => emitStmts(ks, b.accum.stmts, b.accum.rows, b.accum.deferred));
  // A source standing for several matched paths (the end of a chain) runs the row's ACCUM per path.
  const counted = b.counted && rowAccum.trim() !== '';
  const accum = counted ? `for (let r = 0; r < rep; r++) {\n${rowAccum}\n}` : rowAccum;
  const rep = counted ? 'const rep = counts === null ? 1 : counts[sg];' : '';
  const S = b.sourceSlot;
  const T = b.targetSlot;
  // The result list doubles as the list of the alias it collects (see compileSelect's run).
  const keepSource =
    b.needSources && b.hasEdge && b.resultIsTarget
      ? 'if (sourceMark[sg] === 0) { sourceMark[sg] = 1; sources[st.sourceCount++] = sg; }'
      : '';
  let body: string;
  if (!b.hasEdge && where === '' && accum.trim() === '') {
    // Nothing to run per source (`SELECT v FROM All:v POST-ACCUM …`): the pass only collects them.
    body = `ctx.steps(to - from);
for (let n = from; n < to; n++) {
  const sg = list[n];
  if (resultMark[sg] === 0) { resultMark[sg] = 1; result[st.resultCount++] = sg; }
}`;
  } else if (!b.hasEdge) {
    body = `for (let n = from; n < to; n++) {
  const sg = list[n];
  ${walk === 'partitioned' ? 'if (sg < plo || sg >= phi) continue;' : ''}
  vars[${S}] = undefined; gids[${S}] = sg;
  ctx.step();
  ${rep}
  ${where}
  ${accum}
  if (resultMark[sg] === 0) { resultMark[sg] = 1; result[st.resultCount++] = sg; }
  ${keepSource}
}`;
  } else {
    // Closures read the aliases through ctx.vars/ctx.gids (a Vtx made on first read); code whose
    // closures read only the source binds nothing per row.
    const closures = out.rowClosures;
    // A label propagation's result is listed from the changed cells after the split.
    const keepTargetResult =
      walk === 'unmarked' || walk === 'owned'
        ? ''
        : b.resultIsTarget && out.collectOnChange === undefined
          ? 'if (resultMark[tg] === 0) { resultMark[tg] = 1; result[st.resultCount++] = tg; }'
          : '';
    const keepTarget =
      b.needTargets && !b.resultIsTarget
        ? 'if (targetMark[tg] === 0) { targetMark[tg] = 1; targets[st.targetCount++] = tg; }'
        : '';
    // The source is collected once after its rows (the same vertices, in the same order), which
    // keeps the per-row loop down to the target's work.
    const sourceKept = !b.resultIsTarget || keepSource !== '';
    const keepSourceResult = b.resultIsTarget
      ? ''
      : 'if (resultMark[sg] === 0) { resultMark[sg] = 1; result[st.resultCount++] = sg; }';
    // An owned walk's row only proposes (its WHERE is the proposal's test, see emitProposal).
    const [rowTest, rowUpdate] = walk === 'owned' ? ['', emitProposal(ks, b)] : [where, accum];
    const memos = out.memoNames();
    const locals = [...out.locals];
    const bindSource = out.closures;
    const rowCode = {
      S,
      T,
      rep,
      where,
      accum,
      closures,
      bindSource,
      memos,
      keepTargetResult,
      keepTarget,
      locals,
    };
    if (walk === 'pull') body = pullBody({ ...rowCode, keepSource: `${keepSourceResult} ${keepSource}` });
    else if (walk === 'exists') body = existsBody({ ...rowCode, post: post && out.constant(post) });
    else
      body = `let start = 0, end = 0, plan = null;
${memos.length > 0 ? `let ${memos.join(', ')};` : ''}
for (let n = from; n < to; n++) {
  const sg = list[n]; vars[${S}] = undefined; gids[${S}] = sg;
  ${rep}
  ${memos.map((m) => `${m} = undefined;`).join(' ')}
  ${sourceKept ? 'let kept = false;' : ''}
  if (sg < start || sg >= end) { plan = st.locate(sg); start = st.start; end = st.end; }
  const row = sg - start;
  for (let k = 0; k < plan.length; k++) {
    const hops = plan[k];
    for (let h = 0; h < hops.length; h++) {
      const hop = hops[h], view = hop.view, base = hop.base;
      let tgts, b, e, skip;
      if (view.clean) {
        const off = view.offsets;
        if (row + 1 >= off.length) continue;
        b = off[row]; e = off[row + 1]; tgts = view.targets; skip = view.skipSelfLoops;
        ${walk === 'partitioned' ? NARROW_TO_PARTITION : ''}
      } else {
        tgts = st.collect(view, row); b = 0; e = st.collected; skip = false;
      }
      ctx.steps(e - b);
      for (let i = b; i < e; i++) {
        const tr = tgts[i];
        if (skip && tr === row) continue;
        const tg = base + tr;
        ${walk === 'partitioned' ? 'if (tg < plo || tg >= phi) continue;' : ''}
        ${closures ? `vars[${T}] = undefined; gids[${T}] = tg;` : ''}
        ${rowTest}
        ${rowUpdate}
        ${keepTargetResult}
        ${keepTarget}
        ${sourceKept ? 'kept = true;' : ''}
      }
    }
  }
  ${sourceKept ? `if (kept) { ${keepSourceResult} ${keepSource} }` : ''}
}`;
  }
  const head = `const vars = ctx.vars, gids = ctx.gids, P = ctx.pending;
const stamp = st.stamp, resultMark = st.resultMark, sourceMark = st.sourceMark, targetMark = st.targetMark;
const plo = st.lo, phi = st.hi;
const result = st.result, sources = st.sources, targets = st.targets, counts = st.counts;
${columnLocals(out)}
${out.tempDecls()}
${hoistedLocals(out)}
${walk === 'owned' ? 'const PR = st.owned.proposals;' : ''}`;
  return {
    out,
    phase: {
      fn: build(out, `${head}\n${body}`),
      columns: out.columns,
      primed: out.primed,
      snapshot: out.snapshot,
    },
    deferredWrites: out.deferredWrites,
    inlineUses: out.inlineUses,
    columns: out.columns,
    stmtClosures: out.stmtClosures,
  };
}

/** The code of one row of an ACCUM phase, as emitAccumPhase generates it. */
interface RowCode {
  S: number;
  T: number;
  rep: string;
  where: string;
  accum: string;
  closures: boolean;
  /** Whether some closure may read the source alias (KernelSource's `closures`): bound per row then. */
  bindSource: boolean;
  memos: string[];
  keepTargetResult: string;
  keepTarget: string;
  keepSource: string;
  /** Columns whose target cell is a local while the target's rows run (KernelSource's `targetLocals`). */
  locals: number[];
}

/**
 * The pulled ACCUM phase (ParallelAccum's `pull`): for each target run index in `[st.lo, st.hi)`,
 * its in-edges of each hop back to the sources in the list (`st.member`), in the hops' order and
 * ascending source order within a hop. A source's memos hold for one row only, and a source is
 * collected at its row (its rows are spread over targets and threads; the marks decide).
 */
function pullBody(r: RowCode): string {
  return `${pullTargetLoop(r.memos)}
  ${r.closures ? `vars[${r.T}] = undefined; gids[${r.T}] = tg;` : ''}
  ${r.locals.map((i) => `let L${i} = V${i}[tg];`).join(' ')}
  for (let h = 0; h < plan.length; h++) {
    const hop = plan[h], view = hop.view, base = hop.base;
    const off = view.offsets;
    if (row + 1 >= off.length) continue;
    const b = off[row], e = off[row + 1], srcs = view.targets, skip = view.skipSelfLoops;
    ctx.steps(e - b);
    for (let i = b; i < e; i++) {
      const sr = srcs[i];
      if (skip && sr === row) continue;
      const sg = base + sr;
      if (member !== null && member[sg] !== stamp) continue;
      ${r.bindSource ? `vars[${r.S}] = undefined; gids[${r.S}] = sg;` : ''}
      ${r.rep}
      ${r.memos.map((m) => `${m} = undefined;`).join(' ')}
      ${r.where}
      ${r.accum}
      ${r.keepTargetResult}
      ${r.keepTarget}
      ${r.keepSource}
    }
  }
  ${r.locals.map((i) => `V${i}[tg] = L${i};`).join(' ')}
}`;
}

/**
 * A clean view's targets of a row are sorted by row: the partitioned phase narrows `[b, e)` to the
 * targets in its partition by binary search (and skips the view when none is); a bound no target
 * crosses needs no search.
 */
const NARROW_TO_PARTITION = `{
          const lo = plo - base, hi = phi - base;
          if (b === e || tgts[b] >= hi || tgts[e - 1] < lo) continue;
          let x, y;
          if (tgts[b] < lo) {
            x = b; y = e;
            while (x < y) { const m = (x + y) >>> 1; if (tgts[m] < lo) x = m + 1; else y = m; }
            b = x;
          }
          if (tgts[e - 1] >= hi) {
            x = b; y = e;
            while (x < y) { const m = (x + y) >>> 1; if (tgts[m] < hi) x = m + 1; else y = m; }
            e = x;
          }
        }`;

function postPhase(
  cx: Cx,
  b: KernelBlock,
  p: KernelBlock['posts'][number],
  wide: boolean,
): Phase & { split: ParallelPost | undefined } {
  const out = new KernelSource(wide);
  const ks: KernelScope = {
    cx,
    out,
    cells: new Map([[p.slot, 'g']]),
    sourceSlot: -1,
    querySlots: b.querySlots,
  };
  // POST-ACCUM updates of vertex accumulators apply at once (each vertex is processed on its own).
  const stmts = cx.inClause('POST-ACCUM', () => emitStmts(ks, p.stmts, p.rows, false));
  const body = `const vars = ctx.vars, gids = ctx.gids, stamp = st.stamp;
${columnLocals(out)}
${out.tempDecls()}
for (let n = from; n < to; n++) {
  const g = list[n];
  ctx.step();
  vars[${p.slot}] = undefined; gids[${p.slot}] = g;
  ${stmts}
}`;
  return {
    fn: build(out, body),
    columns: out.columns,
    primed: out.primed,
    snapshot: out.snapshot,
    // Integer cells past their array's range (current or `@x'`) live in per-thread spill maps: the
    // owner sends its own with the job and adopts what a helper changed (parallel.ts). Virtual
    // edges (outdegree) live in this run's memory only.
    split: wide && splittable(out) && cx.virtualEdges.size === 0 ? { globals: [...out.globals] } : undefined,
  };
}

function havingPhase(cx: Cx, b: KernelBlock, having: Expr, wide: boolean): Phase {
  const out = new KernelSource(wide);
  const slot = b.resultIsTarget ? b.targetSlot : b.sourceSlot;
  const ks: KernelScope = {
    cx,
    out,
    cells: new Map([[slot, 'g']]),
    sourceSlot: -1,
    querySlots: b.querySlots,
  };
  const test = cx.inClause('HAVING', () => use(ks, emitExpr(ks, having)));
  const body = `const vars = ctx.vars, gids = ctx.gids, stamp = st.stamp, resultMark = st.resultMark;
${columnLocals(out)}
${out.tempDecls()}
let kept = from;
for (let n = from; n < to; n++) {
  const g = list[n];
  ctx.step();
  vars[${slot}] = undefined; gids[${slot}] = g;
  if (${test} === true) list[kept++] = g; else resultMark[g] = 0;
}
st.resultCount = kept;`;
  return { fn: build(out, body), columns: out.columns, primed: out.primed, snapshot: out.snapshot };
}

function variant(cx: Cx, b: KernelBlock, wide: boolean): KernelVariant & { phases: Phase[] } {
  const accum = accumPhase(cx, b, wide);
  const posts = b.posts.map((p) => postPhase(cx, b, p, wide));
  const having = b.having ? havingPhase(cx, b, b.having, wide) : undefined;
  const phases = having ? [accum, ...posts, having] : [accum, ...posts];
  const columns = [...new Set(phases.flatMap((p) => [...p.columns.keys()]))];
  const parallel = wide ? parallelAccum(cx, b, fusedPost(b, posts)) : undefined;
  return {
    ...(parallel ? { parallel } : {}),
    accum: accum.fn,
    posts: posts.map((p) => p.fn),
    parallelPosts: posts.map((p) => p.split),
    having: having?.fn,
    phases,
    begin(ctx, stamp, reads) {
      if (!wide) return;
      for (const i of columns) ctx.dense[i]!.prepareAll();
      for (const i of accum.snapshot) ctx.dense[i]!.snapshotAll(stamp, reads);
    },
  };
}

/** Generates the kernel of a SELECT block (called while the block's names are in scope). */
export function compileSelectKernel(cx: Cx, b: KernelBlock): SelectKernel {
  const narrow = variant(cx, b, false);
  const wide = variant(cx, b, true);
  const phases = [...narrow.phases, ...wide.phases];
  const used = [...new Map(phases.flatMap((p) => [...p.columns])).values()];
  const primed = new Set(phases.flatMap((p) => [...p.primed]));
  const kernel: SelectKernel = {
    index: -1,
    narrow,
    wide,
    usable(ctx) {
      const limit = ctx.gidLimit();
      for (const va of used) {
        const col = ctx.dense[va.index] ?? ctx.column(va);
        if (col === null || col.vals.length < limit) return false;
        if (primed.has(va.index) && col.prevAt === null) return false;
      }
      return true;
    },
  };
  kernel.index = cx.registerKernel(kernel);
  return kernel;
}
