/**
 * openCypher's MATCH and OPTIONAL MATCH as stages over rows. A MATCH is a V2 SELECT run for its
 * matches (match-select.ts), its WHERE inside the SELECT when it reads only the pattern's
 * variables; the matches are joined to the rows so far on the node variables they share. When
 * they share one, the SELECT starts from that variable's vertices in the rows (a vertex-set
 * pattern `(x:#joinN)` put first). OPTIONAL MATCH keeps a row that matches nothing, with NULL for
 * the new variables. A relationship variable named again in a later MATCH is a new relationship
 * there (TigerGraph reads `MATCH (a)-[e]->(b) MATCH (b)-[e]->(c)` so).
 */
import type { Expr, PathPattern, Pos } from '../gsql/ast-query.js';
import type { RunContext } from './context.js';
import { compileError } from './errors.js';
import { compileExpr } from './expr-support.js';
import { compileMatch } from './match-select.js';
import { nameAt, rowKey } from './projection.js';
import { namesIn } from './select-clauses.js';
import { declareColumns, rowExpr, type Column, type Row, type Stage } from './cypher-rows.js';
import { Flow, type Cx } from './scope.js';
import { T } from './types.js';
import type { Vtx } from './values.js';

export interface MatchClause {
  patterns: PathPattern[];
  where?: Expr;
  optional: boolean;
  pos: Pos;
}

/** The named variables of patterns: nodes and relationships, in order. */
export function patternVariables(patterns: readonly PathPattern[]): { nodes: string[]; edges: string[] } {
  const nodes: string[] = [];
  const edges: string[] = [];
  const node = (a: string | undefined): void => {
    if (a !== undefined && !a.startsWith('#') && !nodes.includes(a)) nodes.push(a);
  };
  for (const p of patterns) {
    node(p.source.alias);
    for (const s of p.steps) {
      if (s.edge.alias !== undefined && !s.edge.alias.startsWith('#') && !edges.includes(s.edge.alias))
        edges.push(s.edge.alias);
      node(s.vertex.alias);
    }
  }
  return { nodes, edges };
}

/**
 * A MATCH stage after the rows so far (`columns`); `later`: the names the rest of the query reads
 * (`*`: all). Returns the stage and the columns of its rows.
 */
export function compileMatchStage(
  cx: Cx,
  m: MatchClause,
  columns: readonly Column[],
  later: ReadonlySet<string> | '*',
  joinNo: number,
): { stage: Stage; columns: Column[] } {
  const vars = patternVariables(m.patterns);
  const known = new Set(columns.map((c) => c.name));
  const shared = vars.nodes.filter((n) => known.has(n));
  for (const n of shared) {
    const c = columns.find((x) => x.name === n)!;
    if (c.t.kind !== 'VERTEX')
      throw compileError(m.pos, `${n} is not a node here; a MATCH pattern needs a node variable`);
  }
  const fresh = [...vars.nodes, ...vars.edges].filter((n) => !known.has(n) || vars.edges.includes(n));
  const wanted = fresh.filter((n) => later === '*' || later.has(n));
  // WHERE runs inside the SELECT unless it reads columns of the rows so far.
  const whereReadsRows =
    m.where !== undefined &&
    [...namesIn(m.where, new Set())].some(
      (n) => known.has(n) && !vars.nodes.includes(n) && !vars.edges.includes(n),
    );
  const captured = [
    ...new Set([...shared, ...wanted, ...(whereReadsRows ? [...vars.nodes, ...vars.edges] : [])]),
  ];

  return cx.nested(() => {
    // The rows' vertices of the first shared variable start the SELECT.
    let joinSlot = -1;
    let patterns = m.patterns;
    if (shared.length > 0) {
      const setName = `#join${joinNo}`;
      joinSlot = cx.declare(setName, { kind: 'VSET' }, m.pos, true).slot;
      const p = m.pos;
      const start: PathPattern = {
        source: { names: [{ name: setName, pos: p }], alias: shared[0], pos: p, start: 0, end: 0 },
        steps: [],
        pos: p,
        start: 0,
        end: 0,
      };
      patterns = [start, ...patterns];
    }
    const slot = cx.newSlot();
    const types: Column[] = [];
    const match = compileMatch(cx, patterns, whereReadsRows ? undefined : m.where, m.pos, () => {
      const getters = cx.inClause('ACCUM', () =>
        captured.map((n) => {
          const x = compileExpr(cx, nameAt(n, m.pos));
          types.push({ name: n, t: x.t });
          return x.f;
        }),
      );
      return {
        sink: (ctx) => {
          (ctx.vars[slot] as Row[]).push(getters.map((g) => g(ctx)));
          return Flow.Next;
        },
        reads: captured,
      };
    });
    const out: Column[] = [...columns, ...types.filter((c) => !shared.includes(c.name))];
    // Columns named again (a relationship of an earlier MATCH) take the new value.
    const outNames = out.map((c) => c.name);
    const visible = outNames.map((n, i) => outNames.lastIndexOf(n) === i);
    const filter = whereReadsRows ? postFilter(cx, out, m.where!, m.pos) : undefined;
    const sharedAt = shared.map((n) => columns.findIndex((c) => c.name === n));
    const sharedInMatch = shared.map((n) => captured.indexOf(n));
    const newAt = types.map((c, i) => (shared.includes(c.name) ? -1 : i)).filter((i) => i >= 0);

    const stage: Stage = async (ctx, rows) => {
      if (joinSlot >= 0) {
        const seen = new Set<Vtx>();
        for (const r of rows)
          if (r[sharedAt[0]] !== null && r[sharedAt[0]] !== undefined) seen.add(r[sharedAt[0]] as Vtx);
        ctx.vars[joinSlot] = [...seen];
      }
      ctx.vars[slot] = [];
      await match.run(ctx);
      const matches = ctx.vars[slot] as Row[];
      ctx.vars[slot] = undefined;
      // Matches by the values of the shared variables.
      const byKey = new Map<string, Row[]>();
      for (const mr of matches) {
        const k = rowKey(sharedInMatch.map((i) => mr[i]));
        const list = byKey.get(k);
        if (list) list.push(mr);
        else byKey.set(k, [mr]);
      }
      const next: Row[] = [];
      for (const r of rows) {
        ctx.step();
        const found = byKey.get(rowKey(sharedAt.map((i) => r[i]))) ?? [];
        let kept = 0;
        for (const mr of found) {
          const joined = [...r, ...newAt.map((i) => mr[i])];
          if (filter && !filter(ctx, joined)) continue;
          next.push(joined);
          kept++;
        }
        if (kept === 0 && m.optional) next.push([...r, ...newAt.map(() => null)]);
      }
      return next;
    };
    return {
      stage: visible.every(Boolean) ? stage : hideShadowed(stage, visible),
      columns: out.filter((_, i) => visible[i]),
    };
  });
}

/** Drops the columns a later column of the same name shadows. */
function hideShadowed(stage: Stage, visible: boolean[]): Stage {
  return async (ctx, rows) => (await stage(ctx, rows)).map((r) => r.filter((_, i) => visible[i]));
}

/** A MATCH's WHERE that reads the rows so far: tested on each joined row. */
function postFilter(
  cx: Cx,
  columns: Column[],
  where: Expr,
  pos: Pos,
): (ctx: RunContext, row: Row) => boolean {
  return cx.nested(() => {
    const visibleCols = columns.filter((c, i) => columns.findLastIndex((x) => x.name === c.name) === i);
    const scope = declareColumns(cx, visibleCols, pos);
    const x = rowExpr(cx, where, new Set(visibleCols.map((c) => c.name)));
    if (x.t.kind !== T.BOOL.kind) throw compileError(where.pos, 'WHERE needs a condition');
    const at = visibleCols.map((c) => columns.findLastIndex((x2) => x2.name === c.name));
    return (ctx, row) => {
      scope.bind(
        ctx,
        at.map((i) => row[i]),
      );
      return x.f(ctx) === true;
    };
  });
}
