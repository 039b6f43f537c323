/**
 * The rows executor (plan-select.ts's RowsPlan): partial matches are rows of the pattern variables
 * still needed, each standing for a number of matched paths. Every step extends each row from its
 * anchor vertex over one edge step (or a repeated step's shortest paths), checks the vertex
 * reached, tests the WHERE terms that became testable, and keeps only the variables later steps or
 * clauses read; rows that become equal merge, adding their path counts. ACCUM then runs once per
 * path (or once per distinct PER binding), and POST-ACCUM once per distinct vertex of its alias.
 */
import type { EdgeHandle } from '../engine/api.js';
import type { BoundSelect, Uses, VertexConstraint } from './bound-select.js';
import type { RunContext } from './context.js';
import type { RowsPlan, RowStep } from './plan-select.js';
import { beginClause, endClause } from './select-clauses.js';
import { shortestReach, StepWalk } from './select-expand.js';
import { selectFinish } from './select-finish.js';
import { CHUNK, testOf, type SelectGen } from './select-hop.js';
import type { Eval, RowStmt } from './scope.js';
import { EdgeVal, VertexGids, type Vtx } from './values.js';

/** A column of a row: a vertex (run index) or an edge (its EdgeVal). */
interface Column {
  vertex?: number;
  hop?: number;
  slot: number;
}

/** Rows of one layout: `vals` holds `width` values per row, `paths` the count each stands for. */
class Rows {
  readonly vals: unknown[] = [];
  readonly paths: number[] = [];
  private readonly index = new Map<string | number, number>();
  constructor(readonly columns: readonly Column[]) {}

  get length(): number {
    return this.paths.length;
  }

  /** Adds a row (merging it into an equal one). */
  add(values: unknown[], paths: number): void {
    const key = this.columns.length === 1 && typeof values[0] === 'number' ? values[0] : keyOf(values);
    const at = this.index.get(key);
    if (at !== undefined) {
      this.paths[at] += paths;
      return;
    }
    this.index.set(key, this.paths.length);
    for (const v of values) this.vals.push(v);
    this.paths.push(paths);
  }
}

function keyOf(values: unknown[]): string {
  let k = '';
  for (const v of values) {
    if (typeof v === 'number') k += `${v},`;
    else {
      const h = (v as EdgeVal).handle;
      k += `e${h.block}:${h.eid}:${h.reversed ? 1 : 0},`;
    }
  }
  return k;
}

/** The columns of a layout: the kept vertices, then the kept edges, in index order. */
function layout(b: BoundSelect, keep: Uses): Column[] {
  return [
    ...[...keep.vertices].sort((x, y) => x - y).map((v) => ({ vertex: v, slot: b.vertices[v].slot })),
    ...[...keep.hops].sort((x, y) => x - y).map((h) => ({ hop: h, slot: b.hops[h].slot })),
  ];
}

/** Binds the row's variables (vertices by run index, edges by value). */
function bindRow(ctx: RunContext, rows: Rows, r: number): void {
  const cols = rows.columns;
  const w = cols.length;
  for (let c = 0; c < w; c++) {
    const v = rows.vals[r * w + c];
    const slot = cols[c].slot;
    if (cols[c].vertex !== undefined) {
      ctx.vars[slot] = undefined;
      ctx.gids[slot] = v as number;
    } else ctx.vars[slot] = v;
  }
}

/** A test of whether a vertex (run index) meets a vertex's constraints, set up per run. */
type Acceptor = (gid: number) => boolean;

function acceptor(ctx: RunContext, constraints: readonly VertexConstraint[]): Acceptor | undefined {
  if (constraints.length === 0) return undefined;
  const tests = constraints.map((c) => {
    const types = new Set(
      [...c.types, ...c.dynamicTypes.flatMap((d) => d(ctx))].map((t) => ctx.typeIndexOf(t)),
    );
    const members = c.sets.map((slot) => new Set(ctx.gidsOf(ctx.vars[slot] as Vtx[] | VertexGids)));
    return (g: number): boolean =>
      (types.size > 0 && types.has(ctx.typeIndexAt(g))) || members.some((m) => m.has(g));
  });
  return (g) => tests.every((t) => t(g));
}

interface StepCode {
  step: RowStep;
  filter: Eval | undefined;
  columns: Column[];
  /** Where the anchor (and a bound target) are in the input row. */
  anchorAt: number;
  targetAt: number;
}

export function compileRows(b: BoundSelect, plan: RowsPlan): (ctx: RunContext) => SelectGen {
  const startColumns = layout(b, plan.startKeep);
  const startFilter = testOf(plan.startFilters);
  const startSlot = b.vertices[plan.start].slot;
  // Vertex 0's candidates come from the source, which already meets its first constraint.
  const startConstraints =
    plan.start === 0 && plan.startSet === undefined
      ? b.vertices[0].constraints.slice(1)
      : b.vertices[plan.start].constraints;
  let inputColumns = startColumns;
  const steps: StepCode[] = plan.steps.map((step) => {
    const columns = layout(b, step.keep);
    const code = {
      step,
      filter: testOf(step.filters),
      columns,
      anchorAt: inputColumns.findIndex((c) => c.vertex === step.anchor),
      targetAt: step.targetBound ? inputColumns.findIndex((c) => c.vertex === step.target) : -1,
    };
    inputColumns = columns;
    return code;
  });
  const finalColumns = inputColumns;
  const accum = b.accum.rows;
  const collectVertices = [...new Set([b.result, ...b.posts.map((p) => p.vertex)])];
  const { finish } = selectFinish({
    having: b.having?.f,
    order: b.order,
    limit: b.limit,
    offset: b.offset,
    resultSlot: b.vertices[b.result].slot,
  });

  return function* run(ctx) {
    ctx.selectStamp = ctx.nextStamp();
    let rows = new Rows(startColumns);
    {
      const accept = acceptor(ctx, startConstraints);
      const src =
        plan.startSet !== undefined
          ? ctx.gidsOf(ctx.vars[plan.startSet] as Vtx[] | VertexGids)
          : ctx.gidsOf(b.source(ctx));
      const values: unknown[] = new Array(startColumns.length);
      for (let i = 0; i < src.length; i++) {
        if ((i & (CHUNK - 1)) === CHUNK - 1) yield;
        const g = src[i];
        ctx.step();
        if (accept && !accept(g)) continue;
        ctx.vars[startSlot] = undefined;
        ctx.gids[startSlot] = g;
        if (startFilter && startFilter(ctx) !== true) continue;
        for (let c = 0; c < startColumns.length; c++) values[c] = g;
        rows.add(values, 1);
      }
    }
    for (const code of steps) rows = yield* extend(ctx, b, code, rows);

    // ACCUM: once per path, or once per distinct PER binding (rows are merged on PER's aliases).
    const pending = beginClause(ctx, b.accum.deferred, true);
    const collected = new Map<number, Set<number>>(collectVertices.map((v) => [v, new Set<number>()]));
    const at = collectVertices.map((v) => finalColumns.findIndex((c) => c.vertex === v));
    const w = finalColumns.length;
    try {
      for (let r = 0; r < rows.length; r++) {
        if ((r & (CHUNK - 1)) === CHUNK - 1) yield;
        ctx.step();
        if (accum.length > 0) {
          bindRow(ctx, rows, r);
          const times = plan.counted ? rows.paths[r] : 1;
          for (let k = 0; k < times; k++) runRows(ctx, accum);
        }
        for (let i = 0; i < collectVertices.length; i++)
          collected.get(collectVertices[i])!.add(rows.vals[r * w + at[i]] as number);
      }
    } finally {
      endClause(ctx);
    }
    pending?.apply();
    const listOf = (v: number): Vtx[] =>
      Int32Array.from(collected.get(v)!)
        .sort()
        .reduce<Vtx[]>((out, g) => (out.push(ctx.vertexAt(g)), out), []);
    let n = 0;
    for (const p of b.posts) {
      const slot = b.vertices[p.vertex].slot;
      const pendingPost = beginClause(ctx, p.deferGlobals, false);
      try {
        for (const v of listOf(p.vertex)) {
          if ((++n & (CHUNK - 1)) === 0) yield;
          ctx.step();
          ctx.vars[slot] = v;
          ctx.gids[slot] = v.gid;
          runRows(ctx, p.rows);
        }
      } finally {
        endClause(ctx);
      }
      pendingPost?.apply();
    }
    return finish(
      ctx,
      listOf(b.result),
      (slot, v) => {
        ctx.vars[slot] = v;
        ctx.gids[slot] = v.gid;
      },
      true,
    );
  };
}

function runRows(ctx: RunContext, stmts: readonly RowStmt[]): void {
  for (let i = 0; i < stmts.length; i++) stmts[i](ctx);
}

/** One step: every row extended over the step's edges, tested, and kept as the step's layout. */
function* extend(
  ctx: RunContext,
  b: BoundSelect,
  code: StepCode,
  rows: Rows,
): Generator<undefined, Rows, undefined> {
  const { step, filter, columns, anchorAt, targetAt } = code;
  const hop = b.hops[step.hop];
  const target = b.vertices[step.target];
  const tSlot = target.slot;
  const eSlot = hop.slot;
  const accept = step.targetBound ? undefined : acceptor(ctx, target.constraints);
  const out = new Rows(columns);
  const w = rows.columns.length;
  const values: unknown[] = new Array(columns.length);
  // Where each output column comes from: the input row, the target, or the edge.
  const sources = columns.map((c) =>
    c.vertex === step.target && !step.targetBound
      ? -1
      : c.hop === step.hop
        ? -2
        : rows.columns.findIndex((x) => (c.vertex !== undefined ? x.vertex === c.vertex : x.hop === c.hop)),
  );
  let r = 0;
  let paths = 1;
  let edge: EdgeVal | undefined;
  const reach = (tg: number, count: number): void => {
    if (step.targetBound) {
      if (rows.vals[r * w + targetAt] !== tg) return;
    } else if (accept && !accept(tg)) return;
    ctx.vars[tSlot] = undefined;
    ctx.gids[tSlot] = tg;
    if (filter && filter(ctx) !== true) return;
    for (let c = 0; c < columns.length; c++) {
      const s = sources[c];
      values[c] = s === -1 ? tg : s === -2 ? edge : rows.vals[r * w + s];
    }
    out.add(values, paths * count);
  };
  const one = (tg: number): void => reach(tg, 1);
  const walk = new StepWalk(ctx, hop.atoms, step.reversed, undefined);
  const filters = step.edges ? edgeFilters(ctx, b, step) : [];
  for (r = 0; r < rows.length; r++) {
    if ((r & (CHUNK - 1)) === CHUNK - 1) yield;
    bindRow(ctx, rows, r);
    paths = rows.paths[r];
    const anchor = rows.vals[r * w + anchorAt] as number;
    if (hop.repeat) {
      shortestReach(ctx, walk, anchor, hop.repeat.min, hop.repeat.max, reach);
    } else if (step.edges) {
      const ti = ctx.typeIndexAt(anchor);
      const type = ctx.typeNameAt(ti);
      const row = anchor - ctx.typeStartAt(ti);
      for (const f of filters)
        for (const h of ctx.graph.edges(type, row, f) as EdgeHandle[]) {
          ctx.step();
          edge = new EdgeVal(h);
          ctx.vars[eSlot] = edge;
          reach(ctx.base(h.tgtType) + h.tgtRow, 1);
        }
    } else walk.forEach(anchor, one);
  }
  return out;
}

/** The engine's edge filters of a step whose edges are listed (its edge alias is read). */
function edgeFilters(
  ctx: RunContext,
  b: BoundSelect,
  step: RowStep,
): { edgeType?: string; direction: 'out' | 'in' }[] {
  const flip = (d: 'out' | 'in'): 'out' | 'in' => (step.reversed ? (d === 'out' ? 'in' : 'out') : d);
  return b.hops[step.hop].atoms.flatMap((a) =>
    a.dynamic
      ? a.dynamic(ctx).map((edgeType) => ({ edgeType, direction: flip(a.direction) }))
      : [
          a.edgeType === undefined
            ? { direction: flip(a.direction) }
            : { edgeType: a.edgeType, direction: flip(a.direction) },
        ],
  );
}
