/**
 * An openCypher query (`CREATE OPENCYPHER QUERY`) compiled into the query body it means: its
 * clauses become stages over rows (cypher-rows.ts): MATCH and OPTIONAL MATCH (cypher-match.ts,
 * V2 SELECTs), UNWIND, WITH and RETURN (projection.ts: grouping, aggregates, DISTINCT, ORDER BY,
 * SKIP, LIMIT), CREATE, SET and DELETE (cypher-dml.ts); UNION [ALL] joins the RETURNs of single
 * queries. The query's parameters are `$name`.
 *
 * The final RETURN prints as TigerGraph prints openCypher results: a table of rows named `T`,
 * `T_1`, … (the number counts the tables the query's clauses made before it: WITH makes one,
 * OPTIONAL MATCH one, UNWIND two, and a MATCH's rows become one before OPTIONAL MATCH or UNWIND
 * use them; a RETURN of a table's columns as they are prints that table); or, when a single MATCH
 * … RETURN returns one node variable besides values, as a vertex set named `VS` whose vertices
 * carry the columns as attributes.
 */
import type { Expr, PathPattern, Pos } from '../gsql/ast-query.js';
import type { CypherClause, CypherPart, CypherQuery, Projection } from '../gsql/ast-cypher.js';
import type { RunContext } from './context.js';
import { compileError } from './errors.js';
import { compileMatchStage, patternVariables } from './cypher-match.js';
import { compileDmlStage } from './cypher-dml.js';
import './cypher-functions.js';
import { declareColumns, rowExpr, type Column, type Row, type Stage } from './cypher-rows.js';
import { toJson, vertexJson } from './print.js';
import { compileMatch } from './match-select.js';
import { compileProjection, nameAt, rowKey, type ProjectionSpec, type Projector } from './projection.js';
import { namesIn } from './select-clauses.js';
import { Flow, type BodyStmt, type Cx } from './scope.js';
import type { TupleT } from './types.js';
import { TupleVal, Vtx } from './values.js';

/** How the final RETURN prints. */
interface Output {
  name: string;
  rowType: TupleT;
  /** The column of the vertex a vertex-set result shows (-1: a table). */
  vertexColumn: number;
}

interface CompiledPart {
  stages: Stage[];
  output?: Output;
}

/** The table names T, T_1, T_2, … in the order the query's clauses make tables. */
class TableNames {
  private n = 0;
  next(): string {
    return this.n++ === 0 ? 'T' : `T_${this.n - 1}`;
  }
}

export function compileCypherBody(cx: Cx, q: CypherQuery): BodyStmt {
  const names = new TableNames();
  const union = q.parts.length > 1;
  const parts = q.parts.map((p) => compilePart(cx, p, names, union));
  let output: Output | undefined = parts[parts.length - 1].output;
  if (union) output = unionOutput(parts, q, names);
  const vaccs = cx.vaccs;
  const print = (ctx: RunContext, rows: Row[]): void => {
    if (!output) return;
    const o = output;
    if (o.vertexColumn < 0) {
      const tuples = rows.map((r) => new TupleVal(o.rowType, r));
      ctx.results.push({ [o.name]: toJson(ctx, tuples, { kind: 'LIST', elem: o.rowType }, vaccs) });
      return;
    }
    const seen = new Set<Vtx>();
    const vertices = [];
    for (const r of rows) {
      const v = r[o.vertexColumn];
      if (!(v instanceof Vtx) || seen.has(v)) continue;
      seen.add(v);
      const only = Object.fromEntries(
        o.rowType.fields.map((f, i) => [f.name, toJson(ctx, r[i], f.type, vaccs)]),
      );
      vertices.push(vertexJson(ctx, v, vaccs, only));
    }
    ctx.results.push({ [o.name]: vertices });
  };
  const distinct = q.unionAll.some((all) => !all);
  return async (ctx) => {
    const all: Row[] = [];
    for (const part of parts) {
      let rows: Row[] = [[]];
      for (const s of part.stages) {
        await ctx.tick();
        rows = await s(ctx, rows);
      }
      all.push(...rows);
    }
    print(ctx, distinct ? distinctRows(all) : all);
    return Flow.Next;
  };
}

function distinctRows(rows: Row[]): Row[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const k = rowKey(r);
    return seen.has(k) ? false : (seen.add(k), true);
  });
}

/** UNION [ALL]: every single query returns the same columns; the union is a new table. */
function unionOutput(parts: CompiledPart[], q: CypherQuery, names: TableNames): Output {
  const outs = parts.map((p, i) => {
    if (!p.output) throw compileError(q.parts[i].pos, 'each query of a UNION must end with RETURN');
    return p.output;
  });
  const cols = outs[0].rowType.fields.map((f) => f.name).join(', ');
  outs.forEach((o, i) => {
    if (o.rowType.fields.map((f) => f.name).join(', ') !== cols)
      throw compileError(q.parts[i].pos, `the queries of a UNION must return the same columns (${cols})`);
  });
  return { name: names.next(), rowType: outs[0].rowType, vertexColumn: -1 };
}

/** What the rows are so far: none yet, a MATCH's matches, or a table a clause made. */
type Shape = { kind: 'start' } | { kind: 'match' } | { kind: 'table'; name: string; columns: string[] };

function compilePart(cx: Cx, part: CypherPart, names: TableNames, inUnion: boolean): CompiledPart {
  return cx.nested(() => {
    let columns: Column[] = [];
    let shape: Shape = { kind: 'start' };
    const stages: Stage[] = [];
    let output: Output | undefined;
    let joins = 0;
    let fused: Extract<CypherClause, { kind: 'match' }> | undefined;
    const projection = (p: Projection, where: Expr | undefined) => {
      const m = fused;
      fused = undefined;
      return m ? compileMatchProjection(cx, m, p, where) : compileProjectionStage(cx, p, where, columns);
    };
    part.clauses.forEach((c, i) => {
      if (output) throw compileError(c.pos, 'RETURN must be the last clause');
      const rest = part.clauses.slice(i + 1);
      switch (c.kind) {
        case 'match': {
          if (c.optional && shape.kind === 'match') names.next();
          // Patterns that share no node are matched apart and joined as a product.
          const groups = connectedGroups(c.patterns);
          const next = part.clauses[i + 1];
          if (
            !c.optional &&
            shape.kind === 'start' &&
            groups.length === 1 &&
            (next?.kind === 'with' || next?.kind === 'return')
          ) {
            // The first MATCH feeds the projection after it directly, row by row.
            fused = c;
            shape = { kind: 'match' };
            return;
          }
          if (groups.length > 1 && c.optional)
            throw compileError(c.pos, 'the patterns of an OPTIONAL MATCH must be connected');
          groups.slice(0, -1).forEach((g) => {
            const m = compileMatchStage(
              cx,
              { ...c, patterns: g, where: undefined },
              columns,
              laterNames(part.clauses.slice(i)),
              joins++,
            );
            stages.push(m.stage);
            columns = m.columns;
          });
          const m = compileMatchStage(
            cx,
            { ...c, patterns: groups[groups.length - 1] },
            columns,
            laterNames(rest),
            joins++,
          );
          stages.push(m.stage);
          // The table of an OPTIONAL MATCH has all its pattern's variables, read later or not.
          const { nodes, edges } = patternVariables(c.patterns);
          const all = [...new Set([...columns.map((x) => x.name), ...nodes, ...edges])];
          columns = m.columns;
          shape = c.optional ? { kind: 'table', name: names.next(), columns: all } : { kind: 'match' };
          return;
        }
        case 'unwind': {
          if (shape.kind === 'match') names.next();
          names.next();
          const u = compileUnwind(cx, c.list, c.alias, columns, c.pos);
          stages.push(u.stage);
          columns = u.columns;
          shape = { kind: 'table', name: names.next(), columns: columns.map((x) => x.name) };
          return;
        }
        case 'with': {
          const p = projection(c.projection, c.where);
          stages.push(p.stage);
          columns = p.columns;
          shape = { kind: 'table', name: names.next(), columns: columns.map((x) => x.name) };
          return;
        }
        case 'return': {
          const passes = shape.kind === 'table' && passesThrough(c.projection, shape.columns);
          const p = projection(c.projection, undefined);
          stages.push(p.stage);
          const vertexColumn =
            !inUnion && shape.kind === 'match' ? vertexSetColumn(c.projection, p.rowType) : -1;
          const name =
            vertexColumn >= 0 ? 'VS' : passes && shape.kind === 'table' ? shape.name : names.next();
          output = { name, rowType: p.rowType, vertexColumn };
          return;
        }
        default:
          stages.push(compileDmlStage(cx, c, columns));
      }
    });
    return { stages, output };
  });
}

/** The patterns in groups that share node variables, in order of first appearance. */
function connectedGroups(patterns: readonly PathPattern[]): PathPattern[][] {
  const groups: { nodes: Set<string>; patterns: PathPattern[] }[] = [];
  for (const p of patterns) {
    const nodes = new Set(patternVariables([p]).nodes);
    const joined = groups.filter((g) => [...nodes].some((n) => g.nodes.has(n)));
    const into = joined[0] ?? { nodes: new Set<string>(), patterns: [] };
    if (!joined[0]) groups.push(into);
    for (const other of joined.slice(1)) {
      for (const n of other.nodes) into.nodes.add(n);
      into.patterns.push(...other.patterns);
      groups.splice(groups.indexOf(other), 1);
    }
    for (const n of nodes) into.nodes.add(n);
    into.patterns.push(p);
  }
  return groups.map((g) => g.patterns);
}

/** The names the clauses read (pattern variables included); `*` when one projects everything. */
function laterNames(clauses: readonly CypherClause[]): ReadonlySet<string> | '*' {
  const out = new Set<string>();
  for (const c of clauses) {
    if ((c.kind === 'with' || c.kind === 'return') && c.projection.items === '*') return '*';
    if (c.kind === 'match')
      for (const p of c.patterns) {
        if (p.source.alias) out.add(p.source.alias);
        for (const s of p.steps) {
          if (s.vertex.alias) out.add(s.vertex.alias);
          if (s.edge.alias) out.add(s.edge.alias);
        }
      }
    if (c.kind === 'create') for (const p of c.paths) for (const n of p.nodes) if (n.alias) out.add(n.alias);
    if (c.kind === 'delete') for (const n of c.names) out.add(n.name);
    namesIn(c, out);
  }
  return out;
}

/** Whether RETURN shows the table's columns as they are (it then prints that table). */
function passesThrough(p: Projection, columns: readonly string[]): boolean {
  if (p.distinct) return false;
  if (p.items === '*') return true;
  return (
    p.items.length === columns.length &&
    p.items.every(
      (it, i) =>
        it.expr.kind === 'name' && it.expr.name === columns[i] && (it.alias ?? it.expr.name) === it.expr.name,
    )
  );
}

/** The column a MATCH … RETURN prints as a vertex set: its one node variable, returned as it is. */
function vertexSetColumn(p: Projection, rowType: TupleT): number {
  if (p.distinct || p.items === '*') return -1;
  const vertexCols = rowType.fields.map((f, i) => (f.type.kind === 'VERTEX' ? i : -1)).filter((i) => i >= 0);
  if (vertexCols.length !== 1) return -1;
  const item = p.items[vertexCols[0]];
  return item.expr.kind === 'name' && item.alias === undefined ? vertexCols[0] : -1;
}

/** The projection of a query's first MATCH, fed by the SELECT's matches without rows between. */
function compileMatchProjection(
  cx: Cx,
  m: Extract<CypherClause, { kind: 'match' }>,
  p: Projection,
  where: Expr | undefined,
): { stage: Stage; columns: Column[]; rowType: TupleT } {
  return cx.nested(() => {
    let projector: Projector | undefined;
    const match = compileMatch(cx, m.patterns, m.where, m.pos, (aliases) => {
      const named = [...aliases.keys()].filter((n) => !n.startsWith('#'));
      const items = p.items === '*' ? named.map((n) => ({ expr: nameAt(n, p.pos), pos: p.pos })) : p.items;
      projector = cx.inClause('ACCUM', () =>
        compileProjection(cx, projectionSpec(p, where, items, false), new Set(aliases.keys())),
      );
      const pr = projector;
      return { sink: (ctx) => pr.sink(ctx), reads: pr.reads };
    });
    const pr = projector!;
    const stage: Stage = async (ctx) => {
      pr.begin(ctx);
      await match.run(ctx);
      return pr.finish(ctx);
    };
    const rowType = pr.rowType;
    return { stage, columns: rowType.fields.map((f) => ({ name: f.name, t: f.type })), rowType };
  });
}

/** `nullSafe`: over rows (which OPTIONAL MATCH may fill with NULL), not over a SELECT's aliases. */
function projectionSpec(
  p: Projection,
  where: Expr | undefined,
  items: readonly { expr: Expr; alias?: string; pos: Pos }[],
  nullSafe: boolean,
): ProjectionSpec {
  return {
    columns: items,
    groupBy: [],
    having: where,
    orderBy: p.orderBy,
    limit: p.limit,
    offset: p.skip,
    distinct: p.distinct,
    rowName: 'T',
    nullSafe,
    pos: p.pos,
  };
}

function compileProjectionStage(
  cx: Cx,
  p: Projection,
  where: Expr | undefined,
  columns: readonly Column[],
): { stage: Stage; columns: Column[]; rowType: TupleT } {
  return cx.nested(() => {
    const scope = declareColumns(cx, columns, p.pos);
    const items =
      p.items === '*' ? columns.map((c) => ({ expr: nameAt(c.name, p.pos), pos: p.pos })) : p.items;
    if (items.length === 0) throw compileError(p.pos, 'there are no variables to return');
    const projector = compileProjection(
      cx,
      projectionSpec(p, where, items, true),
      new Set(columns.map((c) => c.name)),
    );
    const stage: Stage = async (ctx, rows) => {
      projector.begin(ctx);
      for (const r of rows) {
        ctx.step();
        scope.bind(ctx, r);
        projector.sink(ctx);
      }
      return projector.finish(ctx);
    };
    const rowType = projector.rowType;
    return { stage, columns: rowType.fields.map((f) => ({ name: f.name, t: f.type })), rowType };
  });
}

/** `UNWIND list AS x`: one row per element (a value that is not a list is one element). */
function compileUnwind(
  cx: Cx,
  list: Expr,
  alias: string,
  columns: readonly Column[],
  pos: Pos,
): { stage: Stage; columns: Column[] } {
  return cx.nested(() => {
    const scope = declareColumns(cx, columns, pos);
    const x = rowExpr(cx, list, new Set(columns.map((c) => c.name)));
    const t = x.t;
    const isList = t.kind === 'LIST' || t.kind === 'SET' || t.kind === 'BAG';
    const elem = t.kind === 'LIST' || t.kind === 'SET' || t.kind === 'BAG' ? t.elem : t;
    const stage: Stage = async (ctx, rows) => {
      const out: Row[] = [];
      for (const r of rows) {
        ctx.step();
        scope.bind(ctx, r);
        const v = x.f(ctx);
        if (v === null || v === undefined) continue;
        const items = isList && Array.isArray(v) ? v : isList ? [...(v as Iterable<unknown>)] : [v];
        for (const item of items) out.push([...r, item]);
      }
      return out;
    };
    const kept = columns.filter((c) => c.name !== alias);
    if (kept.length !== columns.length)
      throw compileError(pos, `${alias} is already a variable of the query`);
    return { stage, columns: [...columns, { name: alias, t: elem }] };
  });
}
