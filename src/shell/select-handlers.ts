/**
 * The shell's SELECT statements. GSQL 101's built-in queries (`SELECT * | count() | attr, … FROM
 * type [-(edge)-> type] WHERE … LIMIT …`) read the graph directly and print a JSON array: the
 * vertices (`v_id`, `attributes`, `v_type`), the edges (as REST++ shows them), or the counts per
 * type. Conditions may name attributes and `primary_id` (vertices), `from_id`, `to_id`,
 * `from_type`, `to_type` (edges). The one-block SELECT over V3 patterns runs as an interpreted
 * SYNTAX v3 query printing `Result_Vertex_Set` or `Result_Table` (and the global accumulators its
 * LET declares).
 */
import type { Attribute, AttrType, Catalog, VertexType } from '../catalog/types.js';
import { toJsonValue } from '../catalog/json-value.js';
import type { Value } from '../catalog/value.js';
import type { EdgeHandle } from '../engine/api.js';
import type { Expr, Pos, QueryDef, QueryStatement, Stmt } from '../gsql/ast-query.js';
import type { BuiltinSelect, OneBlockSelect, ShellSelectStatement } from '../gsql/ast-v3.js';
import {
  compileAttributePredicate,
  compileQuery,
  hasAggregate,
  queryWrites,
  registryFor,
  storedQueriesOf,
  type AttrReader,
  type CompiledQuery,
  type QueryDatabase,
  type QueryGraph,
  type QueryResult,
} from '../query/index.js';
import type { JsonValue } from '../util/json.js';
import { authorizeQueryWrites } from './auth-check.js';
import { requireGraph, ShellError, type ShellContext } from './context.js';
import { jsonText } from './query-output.js';

type JsonObject = { [key: string]: JsonValue };

/** What the query statement handlers lend the SELECT handlers. */
export interface QueryRunner {
  databaseOf(ctx: ShellContext, pos: Pos): QueryDatabase;
  reported<T>(pos: Pos, fn: () => Promise<T>): Promise<T>;
  runAndPrint(
    ctx: ShellContext,
    query: CompiledQuery,
    args: readonly Expr[],
    pos: Pos,
    shape?: (results: QueryResult['results']) => QueryResult['results'],
  ): Promise<void>;
}

export function isShellSelect(s: QueryStatement): s is ShellSelectStatement {
  return s.kind === 'builtinSelect' || s.kind === 'oneBlockSelect';
}

export async function handleShellSelect(
  s: ShellSelectStatement,
  ctx: ShellContext,
  run: QueryRunner,
): Promise<void> {
  const graph = requireGraph(ctx, s.pos, 'SELECT');
  if (s.kind === 'oneBlockSelect') return oneBlock(s, ctx, run, graph);
  const db = run.databaseOf(ctx, s.pos);
  const out = await run.reported(s.pos, async () => {
    const snapshot = db.read();
    try {
      return s.edge ? selectEdges(s, snapshot, graph) : selectVertices(s, snapshot, graph);
    } finally {
      snapshot.release();
    }
  });
  ctx.print(jsonText(out));
}

// ---------------------------------------------------------------------------------------------
// The one-block SELECT
// ---------------------------------------------------------------------------------------------

function nameExpr(name: string, pos: Pos): Expr {
  return { kind: 'name', name, pos, start: 0, end: 0 };
}

function printOf(expr: Expr, pos: Pos): Stmt {
  return { kind: 'print', items: [{ expr, pos }], pos };
}

async function oneBlock(
  s: OneBlockSelect,
  ctx: ShellContext,
  run: QueryRunner,
  graph: string,
): Promise<void> {
  const pos = s.pos;
  const body: Stmt[] = [...s.declarations];
  let single = false;
  if (s.select.kind === 'vertices') {
    const block = s.select.block;
    body.push({
      kind: 'vsetAssign',
      name: 'Result_Vertex_Set',
      value: { kind: 'select', select: block, pos, start: 0, end: 0 },
      pos,
    });
    body.push(printOf(nameExpr('Result_Vertex_Set', pos), pos));
  } else {
    const table = s.select.table;
    // Aggregates without grouping make one row, printed as that row.
    single =
      table.groupBy.length === 0 && table.columns !== '*' && table.columns.every((c) => hasAggregate(c.expr));
    body.push({ kind: 'tableSelect', select: { ...table, into: { name: 'Result_Table', pos } }, pos });
    body.push(printOf(nameExpr('Result_Table', pos), pos));
  }
  for (const d of s.declarations)
    if (d.kind === 'accumDecl')
      for (const n of d.names)
        if (n.global)
          body.push(printOf({ kind: 'global', name: n.name, pos: n.pos, start: 0, end: 0 }, n.pos));
  const def: QueryDef = {
    name: '',
    params: [],
    graph,
    syntax: 'v3',
    distributed: false,
    body,
    pos,
    text: s.text,
    textStart: s.textStart,
  };
  const catalog = ctx.store.catalog;
  const registry = registryFor(ctx.store);
  const query = await run.reported(pos, async () =>
    compileQuery(def, catalog, graph, registry.options(graph, catalog)),
  );
  await authorizeQueryWrites(ctx, pos, graph, def.name, queryWrites(def, storedQueriesOf(registry, graph)));
  const shape = (results: QueryResult['results']): QueryResult['results'] =>
    single
      ? results.map((r) =>
          Array.isArray(r.Result_Table) ? { ...r, Result_Table: r.Result_Table[0] ?? {} } : r,
        )
      : results;
  await run.runAndPrint(ctx, query, [], pos, shape);
}

// ---------------------------------------------------------------------------------------------
// GSQL 101's built-in SELECT
// ---------------------------------------------------------------------------------------------

const STRING: AttrType = { kind: 'STRING', compress: false };
const isAny = (name: string): boolean => name === '_' || name.toUpperCase() === 'ANY';

function graphDef(catalog: Catalog, graph: string): Catalog['graphs'][number] {
  return catalog.graphs.find((g) => g.name === graph)!;
}

function vertexTypes(catalog: Catalog, graph: string, name: { name: string; pos: Pos }): VertexType[] {
  const g = graphDef(catalog, graph);
  if (isAny(name.name)) return catalog.vertexTypes.filter((v) => g.vertexTypes.includes(v.name));
  const vt = catalog.vertexTypes.find((v) => v.name === name.name);
  if (!vt || !g.vertexTypes.includes(vt.name))
    throw new ShellError(`"${name.name}" is not a vertex type of graph ${graph}.`, name.pos);
  return [vt];
}

/** The type of a vertex type's primary id (`primary_id` in conditions). */
function idType(vt: VertexType): AttrType {
  if (vt.keyKind === 'primary_id') return vt.primaryId.type.kind === 'DATETIME' ? STRING : vt.primaryId.type;
  const key = vt.attributes.find((a) => a.name === vt.keyAttributes[0]);
  return vt.keyAttributes.length === 1 && key && key.type.kind !== 'DATETIME' ? key.type : STRING;
}

/** An id as its type reads it: INT/UINT ids are numbers. */
function idValue(text: string, type: AttrType): Value {
  if (type.kind !== 'INT' && type.kind !== 'UINT') return text;
  const n = BigInt(text);
  return n <= BigInt(Number.MAX_SAFE_INTEGER) && n >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(n) : n;
}

/** The condition compiled over some attributes, or a test that keeps everything. */
function conditionOver(
  where: Expr | undefined,
  attributes: readonly Attribute[],
  catalog: Catalog,
  graph: string,
  snapshot: QueryGraph,
): (read: AttrReader) => boolean {
  if (!where) return () => true;
  return compileAttributePredicate(where, '', attributes, catalog, graph).bind(snapshot);
}

function limitOf(s: BuiltinSelect): number {
  if (!s.limit) return Infinity;
  if (s.limit.kind !== 'int' || typeof s.limit.value !== 'number' || s.limit.value < 0)
    throw new ShellError('LIMIT needs a non-negative integer.', s.limit.pos);
  return s.limit.value;
}

/** The attributes a `SELECT a, b` shows (all for `*`), checked against the type. */
function shownAttributes(s: BuiltinSelect, attrs: readonly Attribute[], what: string): Attribute[] {
  if (s.what.kind !== 'attrs') return [...attrs];
  return s.what.names.map((n) => {
    const a = attrs.find((x) => x.name === n.name);
    if (!a) throw new ShellError(`"${n.name}" is not an attribute of ${what}.`, n.pos);
    return a;
  });
}

function selectVertices(s: BuiltinSelect, snapshot: QueryGraph, graph: string): JsonValue[] {
  const catalog = snapshot.catalog;
  const limit = limitOf(s);
  const out: JsonValue[] = [];
  for (const vt of vertexTypes(catalog, graph, s.source)) {
    const attrs: Attribute[] = [...vt.attributes];
    if (
      vt.keyKind === 'primary_id' &&
      vt.primaryIdAsAttribute &&
      !attrs.some((a) => a.name === vt.primaryId.name)
    )
      attrs.unshift({ name: vt.primaryId.name, type: vt.primaryId.type });
    const shown = shownAttributes(s, attrs, `vertex type ${vt.name}`);
    const type = idType(vt);
    const test = conditionOver(s.where, [...attrs, { name: 'primary_id', type }], catalog, graph, snapshot);
    let count = 0;
    for (const row of snapshot.rows(vt.name)) {
      if (count >= limit) break;
      const id = snapshot.vertexId(vt.name, row);
      const read: AttrReader = (a) =>
        a === 'primary_id' ? idValue(id, type) : snapshot.attr(vt.name, row, a);
      if (!test(read)) continue;
      count++;
      if (s.what.kind === 'count') continue;
      const attributes: JsonObject = {};
      for (const a of shown) attributes[a.name] = toJsonValue(read(a.name), a.type, catalog);
      out.push({ v_id: id, attributes, v_type: vt.name });
    }
    if (s.what.kind === 'count') out.push({ count, v_type: vt.name });
  }
  return out;
}

function selectEdges(s: BuiltinSelect, snapshot: QueryGraph, graph: string): JsonValue[] {
  const catalog = snapshot.catalog;
  const g = graphDef(catalog, graph);
  const step = s.edge!;
  const sources = vertexTypes(catalog, graph, s.source);
  const targets = new Set(vertexTypes(catalog, graph, step.target).map((v) => v.name));
  const edgeTypes = isAny(step.edge.name)
    ? catalog.edgeTypes.filter((e) => g.edgeTypes.includes(e.name))
    : catalog.edgeTypes.filter((e) => e.name === step.edge.name && g.edgeTypes.includes(e.name));
  if (edgeTypes.length === 0)
    throw new ShellError(`"${step.edge.name}" is not an edge type of graph ${graph}.`, step.edge.pos);
  const limit = limitOf(s);
  const out: JsonValue[] = [];
  const endpoint: Attribute[] = ['from_id', 'to_id', 'from_type', 'to_type'].map((name) => ({
    name,
    type: STRING,
  }));
  for (const et of edgeTypes) {
    const shown = shownAttributes(s, et.attributes, `edge type ${et.name}`);
    const test = conditionOver(s.where, [...et.attributes, ...endpoint], catalog, graph, snapshot);
    // An undirected edge is listed from both of its ends but counted once.
    const counted = new Set<string>();
    for (const src of sources) {
      for (const row of snapshot.rows(src.name)) {
        if (out.length >= limit && s.what.kind !== 'count') break;
        for (const h of snapshot.edges(src.name, row, { edgeType: et.name, direction: 'out' })) {
          if (!targets.has(h.tgtType)) continue;
          const read = edgeReader(snapshot, h);
          if (!test(read)) continue;
          if (s.what.kind === 'count') {
            counted.add(`${h.block}:${h.eid}`);
            continue;
          }
          if (out.length >= limit) break;
          const r = snapshot.edgeRecord(h);
          const attributes: JsonObject = {};
          for (const a of shown) attributes[a.name] = toJsonValue(r.attributes[a.name], a.type, catalog);
          out.push({ ...r, attributes } as unknown as JsonObject);
        }
      }
    }
    if (s.what.kind === 'count') out.push({ count: Math.min(counted.size, limit), e_type: et.name });
  }
  return out;
}

function edgeReader(snapshot: QueryGraph, h: EdgeHandle): AttrReader {
  return (a) => {
    switch (a) {
      case 'from_id':
        return snapshot.vertexId(h.srcType, h.srcRow);
      case 'to_id':
        return snapshot.vertexId(h.tgtType, h.tgtRow);
      case 'from_type':
        return h.srcType;
      case 'to_type':
        return h.tgtType;
      default:
        return snapshot.edgeAttr(h, a);
    }
  };
}
