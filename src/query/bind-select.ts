/**
 * Binds a SELECT block: resolves the names of its FROM patterns (vertex types, vertex-set
 * variables, edge types, type-name parameters), declares its aliases, checks which aliases each
 * clause may use (edge aliases only in WHERE and ACCUM, PER's aliases, one alias per POST-ACCUM
 * statement), and compiles the clauses. The result is the immutable BoundSelect the planner reads.
 */
import type { Expr, SelectBlock, Stmt } from '../gsql/ast-query.js';
import type { BoundPost, BoundPredicate, BoundSelect, Uses } from './bound-select.js';
import { bindPatterns, type AliasMap } from './bind-pattern.js';
import { compileError } from './errors.js';
import { callsEvaluate } from './evaluate.js';
import { compileExpr, expectType } from './expr-support.js';
import { conjuncts, namesIn, readsWhatItWrites, repeatInsensitive } from './select-clauses.js';
import { compileSample } from './select-sample.js';
import type { Cx, Eval } from './scope.js';
import { isNumeric, T, typeText } from './types.js';

export function bindSelect(cx: Cx, b: SelectBlock): BoundSelect {
  const querySlots = cx.slots;
  const {
    vertices: boundVertices,
    hops: boundHops,
    patterns,
    source,
    result,
    aliasOf,
    oneHop,
  } = bindPatterns(cx, b);
  const usesOf = (node: unknown): Uses => {
    const vs = new Set<number>();
    const hs = new Set<number>();
    for (const n of namesIn(node, new Set())) {
      const a = aliasOf.get(n);
      if (a?.vertex !== undefined) vs.add(a.vertex);
      if (a?.hop !== undefined) hs.add(a.hop);
    }
    return { vertices: vs, hops: hs };
  };

  // The edge aliases name one matched edge: they mean nothing once rows are reduced to vertices.
  for (const [clauseName, part] of [
    ['POST-ACCUM', b.postAccum],
    ['HAVING', b.having],
    ['ORDER BY', b.orderBy],
  ] as const) {
    const used = usesOf(part);
    for (const h of used.hops) {
      const hop = boundHops[h];
      throw compileError(
        hop.span.pos,
        `the edge alias ${hop.alias} cannot be used in ${clauseName}; use it in WHERE or ACCUM`,
      );
    }
  }

  const sample = compileSample(cx, b.sample, oneHop && boundHops.length === 1 && !boundHops[0].repeat);
  const where: BoundPredicate[] = conjuncts(b.where).map((expr) => {
    const x = cx.inClause('WHERE', () => compileExpr(cx, expr));
    expectType(x, T.BOOL, expr.pos, 'WHERE');
    return { expr, f: x.f, ...usesOf(expr) };
  });
  const per = b.per ? bindPer(b, aliasOf) : undefined;
  const accumUses = usesOf(b.accum);
  if (per) {
    checkPer(b, per, accumUses, 'ACCUM', aliasOf);
    checkPer(b, per, { vertices: new Set([result]), hops: new Set() }, 'SELECT', aliasOf);
  }
  const accumRows = cx.inClause('ACCUM', () => cx.withClauseSlots(() => cx.compileRowStmts(cx, b.accum)));
  const posts = bindPosts(cx, b, result, usesOf, per, aliasOf);
  const having = b.having ? cx.inClause('HAVING', () => compileExpr(cx, b.having!)) : undefined;
  if (having && b.having) expectType(having, T.BOOL, b.having.pos, 'HAVING');
  const order = b.orderBy.map((o) => ({
    f: cx.inClause('ORDER BY', () => compileExpr(cx, o.expr)).f,
    desc: o.descending,
  }));
  const limitOf = (e: Expr | undefined): Eval | undefined => {
    if (!e) return undefined;
    const x = compileExpr(cx, e);
    if (!isNumeric(x.t)) throw compileError(e.pos, `LIMIT needs an integer, not ${typeText(x.t)}`);
    return x.f;
  };
  const resultVertex = boundVertices[result];
  const rt = resultVertex.type;
  return Object.freeze({
    vertices: Object.freeze(boundVertices),
    hops: Object.freeze(boundHops),
    patterns: Object.freeze(patterns),
    source: source.candidates,
    sourceIsSet: source.isSet,
    result,
    per,
    where: Object.freeze(where),
    sample,
    accum: {
      stmts: b.accum,
      rows: accumRows,
      deferred: readsWhatItWrites(b.accum, false, b.where),
      repeatable: repeatInsensitive(b.accum, (t) => accumKindOf(cx, t)),
      ...accumUses,
    },
    posts: Object.freeze(posts),
    having: having && b.having ? { expr: b.having, f: having.f } : undefined,
    order,
    limit: limitOf(b.limit),
    offset: limitOf(b.offset),
    callsEvaluate: callsEvaluate([b.where, b.accum]),
    querySlots,
    syntax: cx.syntax,
    type: { kind: 'VSET' as const, vertexType: rt.kind === 'VERTEX' ? rt.vertexType : undefined },
    span: { pos: b.pos, start: b.from[0].start, end: b.from[b.from.length - 1].end },
  });
}

/** WHERE's AND-terms (nested ANDs flattened), in order. */
/** The accumulator kind an update target names (not an array cell), if it names one. */
function accumKindOf(cx: Cx, t: Expr): string | undefined {
  if (t.kind === 'global' && !t.index) return cx.globals.get(t.name)?.t.accum;
  if (t.kind === 'vattach' && !t.prev && !t.index) return cx.vaccs.get(t.name)?.t.accum;
  return undefined;
}

function bindPer(b: SelectBlock, aliasOf: AliasMap): Uses {
  const vertices = new Set<number>();
  const hops = new Set<number>();
  for (const p of b.per!) {
    const a = aliasOf.get(p.name);
    if (!a) throw compileError(p.pos, `"${p.name}" in PER is not an alias of the FROM clause`);
    if (a.vertex !== undefined) vertices.add(a.vertex);
    if (a.hop !== undefined) hops.add(a.hop);
  }
  return { vertices, hops };
}

/** A clause of a SELECT with PER may use only PER's aliases. */
function checkPer(b: SelectBlock, per: Uses, used: Uses, clause: string, aliasOf: AliasMap): void {
  for (const [name, a] of aliasOf) {
    const outside =
      (a.vertex !== undefined && used.vertices.has(a.vertex) && !per.vertices.has(a.vertex)) ||
      (a.hop !== undefined && used.hops.has(a.hop) && !per.hops.has(a.hop));
    if (outside)
      throw compileError(
        b.per![0].pos,
        `the alias ${name} is used in ${clause} but is not in the PER clause`,
      );
  }
}

/**
 * POST-ACCUM clauses in order; within one, each statement runs once per distinct vertex of the
 * alias it uses (the clause's alias when it names one, the SELECT's result when it uses none).
 */
function bindPosts(
  cx: Cx,
  b: SelectBlock,
  result: number,
  usesOf: (node: unknown) => Uses,
  per: Uses | undefined,
  aliasOf: AliasMap,
): BoundPost[] {
  const out: BoundPost[] = [];
  for (const clause of b.postAccum) {
    let clauseVertex: number | undefined;
    if (clause.alias) {
      clauseVertex = aliasOf.get(clause.alias.name)?.vertex;
      if (clauseVertex === undefined)
        throw compileError(
          clause.alias.pos,
          `"${clause.alias.name}" is not a vertex alias of the FROM clause`,
        );
    }
    const groups = new Map<number, Stmt[]>();
    for (const s of clause.stmts) {
      const used = [...usesOf(s).vertices];
      if (used.length > 1) throw compileError(s.pos, 'a POST-ACCUM statement may use only one vertex alias');
      if (clauseVertex !== undefined && used.length === 1 && used[0] !== clauseVertex)
        throw compileError(
          s.pos,
          `this POST-ACCUM clause visits ${clause.alias!.name}; the statement uses another alias`,
        );
      const v = used[0] ?? clauseVertex ?? result;
      if (per) checkPer(b, per, { vertices: new Set([v]), hops: new Set() }, 'POST-ACCUM', aliasOf);
      const list = groups.get(v);
      if (list) list.push(s);
      else groups.set(v, [s]);
    }
    for (const v of [...groups.keys()].sort((x, y) => x - y)) {
      const stmts = groups.get(v)!;
      out.push({
        vertex: v,
        stmts,
        rows: cx.inClause('POST-ACCUM', () => cx.withClauseSlots(() => cx.compileRowStmts(cx, stmts))),
        deferGlobals: readsWhatItWrites(stmts, true),
      });
    }
  }
  return out;
}
