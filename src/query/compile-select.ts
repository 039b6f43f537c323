/**
 * SELECT blocks, in phases: bind (bind-select.ts: names, types, clause checks, closures), plan
 * (plan-select.ts: which executor, traversal order, what is kept), and the executor the plan
 * chose (select-chain.ts with select-hop.ts's one-hop block and its kernels, or select-rows.ts).
 * The result is a vertex-set value that runs synchronously or yielding to the event loop.
 */
import type { Pos, SelectBlock } from '../gsql/ast-query.js';
import { bindSelect } from './bind-select.js';
import type { BoundSelect } from './bound-select.js';
import type { RunContext } from './context.js';
import { desugarV3 } from './desugar-v3.js';
import { planSelect } from './plan-select.js';
import { compileChain } from './select-chain.js';
import { compileHop, type SelectGen } from './select-hop.js';
import { compileRows } from './select-rows.js';
import type { Cx, Typed } from './scope.js';
import { VertexGids, type Vtx } from './values.js';
import { flushVirtualEdges } from './virtual-edge.js';

export function compileSelect(cx: Cx, block: SelectBlock, _pos: Pos): Typed {
  return cx.nested(() => {
    const b = bindSelect(cx, desugarV3(cx, block));
    const { runSync, runAsync } = selectRunner(cx, b);
    return {
      t: b.type,
      f: (ctx) => ctx.vertexList(runSync(ctx)),
      async: async (ctx) => ctx.vertexList(await runAsync(ctx)),
      raw: runSync,
      rawAsync: runAsync,
    };
  });
}

/** A bound SELECT planned and compiled to its executor, run to the end or yielding between chunks. */
export function selectRunner(
  cx: Cx,
  b: BoundSelect,
): {
  runSync: (ctx: RunContext) => Vtx[] | VertexGids;
  runAsync: (ctx: RunContext) => Promise<Vtx[] | VertexGids>;
} {
  const plan = planSelect(b);
  let run: (ctx: RunContext) => SelectGen;
  if (plan.kind === 'vertex') {
    const hop = compileHop(cx, b, { sourceVertex: 0, where: b.where, counted: false });
    run = (ctx) => hop.run(ctx, { set: b.source(ctx), counts: null });
  } else if (plan.kind === 'chain') run = compileChain(cx, b, plan);
  else run = compileRows(b, plan);
  if (cx.virtualEdges.size > 0) {
    // Edges inserted into virtual edge types before this SELECT become visible as it starts.
    const inner = run;
    run = (ctx) => {
      flushVirtualEdges(ctx);
      return inner(ctx);
    };
  }
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
  return { runSync, runAsync };
}
