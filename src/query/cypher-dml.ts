/**
 * openCypher's CREATE, SET and DELETE as stages: for each row, the GSQL statement each one means
 * (INSERT INTO a vertex or edge type, an attribute assignment, DELETE of a vertex or edge) records
 * its change; the changes are committed with the query's, in one transaction when it ends. CREATE
 * of a node that exists replaces its attributes (an upsert, as in TigerGraph); deleting a node
 * deletes its edges.
 */
import type { Expr, InsertValue, Stmt } from '../gsql/ast-query.js';
import type { CreateNode, CreatePath, CypherClause } from '../gsql/ast-cypher.js';
import { CYPHER_FN } from '../gsql/parser-cypher-expr.js';
import { compileError } from './errors.js';
import { declareColumns, type Column, type Row, type Stage } from './cypher-rows.js';
import { nameAt } from './projection.js';
import { Flow, type Cx, type RowStmt } from './scope.js';

type DmlClause = Extract<CypherClause, { kind: 'create' | 'set' | 'delete' }>;

/** A CREATE, SET or DELETE over the rows (which it passes on unchanged). */
export function compileDmlStage(cx: Cx, clause: DmlClause, columns: readonly Column[]): Stage {
  return cx.nested(() => {
    const scope = declareColumns(cx, columns, clause.pos);
    const known = new Set(columns.map((c) => c.name));
    const stmts = statementsOf(cx, clause, known);
    const rows: RowStmt[] = cx.inClause('POST-ACCUM', () => cx.compileRowStmts(cx, stmts));
    return async (ctx, input: Row[]) => {
      for (const r of input) {
        ctx.step();
        scope.bind(ctx, r);
        for (const s of rows) if (s(ctx) !== Flow.Next) break;
      }
      return input;
    };
  });
}

function statementsOf(cx: Cx, c: DmlClause, known: ReadonlySet<string>): Stmt[] {
  switch (c.kind) {
    case 'set':
      return c.items;
    case 'delete':
      return c.names.map((n) => {
        if (!known.has(n.name) && !cx.lookup(n.name)) throw compileError(n.pos, `"${n.name}" is not defined`);
        return { kind: 'delete', alias: n.name, pos: n.pos };
      });
    case 'create':
      return c.paths.flatMap((p) => createStatements(cx, p, known));
  }
}

/** The INSERTs of one CREATE path: its new nodes, then its relationships. */
function createStatements(cx: Cx, p: CreatePath, known: ReadonlySet<string>): Stmt[] {
  const out: Stmt[] = [];
  const ends: InsertValue[] = p.nodes.map((n) => {
    const bound =
      n.alias !== undefined && (known.has(n.alias) || cx.lookup(n.alias) !== undefined) && !n.label;
    if (bound) return { expr: nameAt(n.alias!, n.pos) };
    if (!n.label)
      throw compileError(n.pos, `CREATE needs a label for a new node${n.alias ? ` (${n.alias})` : ''}`);
    const insert = vertexInsert(cx, n);
    out.push(insert.stmt);
    return { expr: insert.id, vertexType: n.label.name };
  });
  p.edges.forEach((e, i) => {
    const [from, to] = e.leftward ? [ends[i + 1], ends[i]] : [ends[i], ends[i + 1]];
    const attrs = cx.edgeType(e.type.name)?.attributes ?? [];
    out.push({
      kind: 'insert',
      typeName: e.type.name,
      typePos: e.type.pos,
      columns: ['FROM', 'TO', ...e.props.map((x) => x.key)],
      values: [from, to, ...e.props.map((x) => ({ expr: asAttribute(attrs, x.key, x.value) }))],
      pos: e.pos,
    });
  });
  return out;
}

/** `(p:L {k: v, …})`: INSERT INTO L with the properties; the primary key among them is the id. */
function vertexInsert(cx: Cx, n: CreateNode): { stmt: Stmt; id: Expr } {
  const label = n.label!;
  const vt = cx.vertexType(label.name);
  if (!vt) throw compileError(label.pos, `"${label.name}" is not a vertex type of graph ${cx.graphName}`);
  const idName = vt.keyKind === 'primary_id' ? vt.primaryId.name : vt.keyAttributes[0];
  const idProp = n.props.find((x) => x.key === idName);
  if (!idProp) throw compileError(n.pos, `CREATE (:${vt.name}) needs its key ${idName} among the properties`);
  const columns = n.props.map((x) =>
    x.key === idName && vt.keyKind === 'primary_id' ? 'PRIMARY_ID' : x.key,
  );
  // A primary id that is also an attribute is given once, as both.
  const extra = vt.keyKind === 'primary_id' && vt.attributes.some((a) => a.name === idName) ? [idName] : [];
  const values: InsertValue[] = [
    ...n.props.map((x) => ({ expr: asAttribute(vt.attributes, x.key, x.value) })),
    ...extra.map(() => ({ expr: idProp.value })),
  ];
  return {
    stmt: {
      kind: 'insert',
      typeName: vt.name,
      typePos: label.pos,
      columns: [...columns, ...extra],
      values,
      pos: n.pos,
    },
    id: idProp.value,
  };
}

/** A property value for an attribute: a DATETIME attribute also takes its text ("2025-01-31"). */
function asAttribute(
  attrs: readonly { name: string; type: { kind: string } }[],
  key: string,
  value: Expr,
): Expr {
  if (attrs.find((a) => a.name === key)?.type.kind !== 'DATETIME') return value;
  return {
    kind: 'call',
    name: CYPHER_FN + 'datetime',
    args: [value],
    pos: value.pos,
    start: value.start,
    end: value.end,
  };
}
