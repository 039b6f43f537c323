/**
 * A SELECT run for its matches: the patterns (V3 ones desugared) and WHERE are bound and planned
 * as a V2 SELECT whose ACCUM is a row sink, so matching runs on V2's executors and kernels, once
 * per matched path, with the sink reading the pattern's aliases. SQL-like SELECT and openCypher's
 * MATCH are built on it.
 */
import type { Expr, PathPattern, Pos, SelectBlock, Stmt } from '../gsql/ast-query.js';
import { bindSelect } from './bind-select.js';
import type { BoundSelect } from './bound-select.js';
import { selectRunner } from './compile-select.js';
import type { RunContext } from './context.js';
import { desugarPatterns } from './desugar-v3.js';
import { nameAt } from './projection.js';
import type { Cx, RowStmt } from './scope.js';

/** A pattern element's place in the bound SELECT: a vertex's index or a hop's. */
export type AliasPlace = { vertex: number; hop?: undefined } | { hop: number; vertex?: undefined };

export interface MatchSink {
  sink: RowStmt;
  /** The aliases the sink reads (the rows keep them). */
  reads: Iterable<string>;
}

export interface CompiledMatch {
  readonly bound: BoundSelect;
  /** Runs the SELECT; the sink sees every matched path. */
  run(ctx: RunContext): Promise<void>;
}

/**
 * Compiles the SELECT in the current scope (call it in a nested one: the aliases are declared
 * there). `build` compiles the sink once the aliases are declared.
 */
export function compileMatch(
  cx: Cx,
  patterns: readonly PathPattern[],
  where: Expr | undefined,
  pos: Pos,
  build: (aliases: ReadonlyMap<string, AliasPlace>, b: BoundSelect) => MatchSink,
): CompiledMatch {
  const desugared = desugarPatterns(cx, patterns, where);
  const { from, result } = withResultAlias(desugared.from);
  const block: SelectBlock = {
    result,
    resultPos: pos,
    distinct: false,
    from,
    where: desugared.where,
    accum: [],
    postAccum: [],
    orderBy: [],
    pos,
  };
  const b = bindSelect(cx, block);
  const aliases = new Map<string, AliasPlace>();
  for (const v of b.vertices) if (v.alias !== undefined) aliases.set(v.alias, { vertex: v.index });
  for (const h of b.hops) if (h.alias !== undefined) aliases.set(h.alias, { hop: h.index });
  const { sink, reads } = build(aliases, b);
  const names = [...reads].filter((n) => aliases.has(n));
  // The marker names what the sink reads, for the planner and the kernels.
  const marker: Stmt = {
    kind: 'expr',
    expr: { kind: 'list', items: names.map((n) => nameAt(n, pos)), pos, start: 0, end: 0 },
    pos,
  };
  const bound: BoundSelect = {
    ...b,
    accum: {
      stmts: [marker],
      rows: [sink],
      deferred: false,
      // Every matched path is a row of the table.
      repeatable: false,
      vertices: new Set(
        names.flatMap((n) => (aliases.get(n)!.vertex !== undefined ? [aliases.get(n)!.vertex!] : [])),
      ),
      hops: new Set(names.flatMap((n) => (aliases.get(n)!.hop !== undefined ? [aliases.get(n)!.hop!] : []))),
    },
  };
  const { runAsync } = selectRunner(cx, bound);
  return {
    bound,
    run: async (ctx) => void (await runAsync(ctx)),
  };
}

/**
 * The SELECT's result: the last vertex of the first pattern (given a hidden alias when it has
 * none), so that a chain whose sink reads only its last step plans as a chain.
 */
function withResultAlias(from: PathPattern[]): { from: PathPattern[]; result: string } {
  const [first, ...rest] = from;
  const last = first.steps[first.steps.length - 1];
  if (!last) {
    const alias = first.source.alias ?? '#end';
    return { from: [{ ...first, source: { ...first.source, alias } }, ...rest], result: alias };
  }
  const alias = last.vertex.alias ?? '#end';
  const steps = [...first.steps.slice(0, -1), { ...last, vertex: { ...last.vertex, alias } }];
  return { from: [{ ...first, steps }, ...rest], result: alias };
}
