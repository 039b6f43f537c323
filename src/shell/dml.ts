/**
 * The gsql shell's UPSERT and DELETE statements (kinds of the script's statements, parsed by
 * gsql/parser-dml.ts), written through the same engine calls as REST++'s upsert and deletes, in
 * one transaction per statement.
 */
import type { AttrType, Catalog, EdgeType, GraphDef, VertexType } from '../catalog/types.js';
import type { Value } from '../catalog/value.js';
import { EngineError, type AttrUpdate, type EdgeHandle, type ReadTx, type WriteTx } from '../engine/api.js';
import type { Pos } from '../gsql/ast.js';
import type { DmlCondition, DmlLiteral, DmlStatement, EdgePattern } from '../gsql/parser-dml.js';
import { converterFor, idConverter, INVALID, WRONG_LENGTH, type Produced } from '../loading/convert.js';
import { requireGraph, ShellError, type HandlerTable, type ShellContext } from './context.js';

/** What a data statement needs of the store: the Database's transactions. */
interface DataStore {
  read(): ReadTx;
  write<T>(fn: (tx: WriteTx) => T): Promise<T>;
}

function dataStore(ctx: ShellContext, pos: Pos): DataStore {
  const store = ctx.store as Partial<DataStore> & ShellContext['store'];
  if (typeof store.write !== 'function' || typeof store.read !== 'function') {
    throw new ShellError('This shell cannot write data: UPSERT and DELETE are unavailable.', pos);
  }
  return store as DataStore;
}

function graphOf(ctx: ShellContext, pos: Pos, what: string): GraphDef {
  const name = requireGraph(ctx, pos, what);
  const g = ctx.store.catalog.graphs.find((x) => x.name === name);
  if (!g) throw new ShellError(`Graph '${name}' does not exist.`, pos);
  return g;
}

function vertexType(catalog: Catalog, graph: GraphDef, name: string, pos: Pos): VertexType {
  const vt = graph.vertexTypes.includes(name) ? catalog.vertexTypes.find((v) => v.name === name) : undefined;
  if (!vt) throw new ShellError(`The vertex type '${name}' does not exist in graph '${graph.name}'.`, pos);
  return vt;
}

interface ResolvedEdge {
  name: string;
  edge: EdgeType;
  reverse: boolean;
}

function edgeType(catalog: Catalog, graph: GraphDef, pattern: EdgePattern): ResolvedEdge {
  const name = pattern.edgeType;
  const forward = catalog.edgeTypes.find((e) => e.directed && e.reverseEdge === name);
  if (forward && graph.edgeTypes.includes(forward.name)) return { name, edge: forward, reverse: true };
  const et = catalog.edgeTypes.find((e) => e.name === name);
  if (!et || !graph.edgeTypes.includes(name)) {
    throw new ShellError(`The edge type '${name}' does not exist in graph '${graph.name}'.`, pattern.edgePos);
  }
  return { name, edge: et, reverse: false };
}

function checkPair(r: ResolvedEdge, from: string, to: string, pos: Pos): void {
  const [a, b] = r.reverse ? [to, from] : [from, to];
  const m = (pattern: string, t: string) => pattern === '*' || pattern === t;
  const ok = r.edge.pairs.some(
    (p) => (m(p.from, a) && m(p.to, b)) || (!r.edge.directed && m(p.from, b) && m(p.to, a)),
  );
  if (!ok) {
    throw new ShellError(`The edge type '${r.name}' does not connect vertex type '${from}' to '${to}'.`, pos);
  }
}

function produced(lit: DmlLiteral): Produced {
  return lit.kind === 'list' ? (lit.items ?? []).map((i) => i.text) : lit.text;
}

function convert(lit: DmlLiteral, type: AttrType, catalog: Catalog, what: string): Value {
  const v = converterFor(type, catalog)(produced(lit));
  if (v === INVALID || v === WRONG_LENGTH) {
    throw new ShellError(`Invalid value '${lit.kind === 'list' ? '[...]' : lit.text}' for ${what}.`, lit);
  }
  return v;
}

function checkId(lit: DmlLiteral, type: AttrType, what: string): string {
  if (lit.kind === 'list' || idConverter(type)(lit.text) === INVALID) {
    throw new ShellError(`Invalid id '${lit.text}' for ${what}.`, lit);
  }
  return lit.text;
}

/** Runs an engine call, reporting a schema violation at the statement. */
function engineCall<T>(pos: Pos, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof EngineError) throw new ShellError(e.message, pos);
    throw e;
  }
}

function attrUpdates(
  catalog: Catalog,
  attrs: readonly { name: string; type: AttrType }[],
  values: readonly DmlLiteral[],
  owner: string,
): Record<string, AttrUpdate> {
  const out: Record<string, AttrUpdate> = {};
  attrs.forEach((a, i) => {
    out[a.name] = {
      value: convert(values[i], a.type, catalog, `attribute '${a.name}' of ${owner}`),
      op: 'set',
    };
  });
  return out;
}

function countError(s: Pos, owner: string, names: string[], got: number): ShellError {
  return new ShellError(
    `UPSERT ${owner} expects ${names.length} value(s) (${names.join(', ')}) but got ${got}.`,
    s,
  );
}

async function upsertVertex(
  s: Extract<DmlStatement, { kind: 'upsert_vertex' }>,
  ctx: ShellContext,
): Promise<void> {
  const db = dataStore(ctx, s);
  const catalog = ctx.store.catalog;
  const vt = vertexType(catalog, graphOf(ctx, s, 'UPSERT'), s.vertexType, s);
  const owner = `vertex type '${vt.name}'`;
  let id: string;
  let attrs: Record<string, AttrUpdate>;
  if (vt.keyKind === 'primary_id') {
    const names = [vt.primaryId.name, ...vt.attributes.map((a) => a.name)];
    if (s.values.length !== names.length) throw countError(s, vt.name, names, s.values.length);
    id = checkId(s.values[0], vt.primaryId.type, owner);
    attrs = attrUpdates(catalog, vt.attributes, s.values.slice(1), owner);
  } else {
    // PRIMARY KEY types list every attribute, key attributes included; the id is made of the keys.
    const names = vt.attributes.map((a) => a.name);
    if (s.values.length !== names.length) throw countError(s, vt.name, names, s.values.length);
    const all = attrUpdates(catalog, vt.attributes, s.values, owner);
    id = vt.keyAttributes.map((k) => s.values[names.indexOf(k)].text.replace(/,/g, '\\,')).join(',');
    attrs = {};
    for (const [k, v] of Object.entries(all)) if (!vt.keyAttributes.includes(k)) attrs[k] = v;
  }
  await db.write((tx) => engineCall(s, () => tx.upsertVertex(vt.name, id, attrs)));
}

async function upsertEdge(
  s: Extract<DmlStatement, { kind: 'upsert_edge' }>,
  ctx: ShellContext,
): Promise<void> {
  const db = dataStore(ctx, s);
  const catalog = ctx.store.catalog;
  const graph = graphOf(ctx, s, 'UPSERT');
  const src = vertexType(catalog, graph, s.edge.sourceType, s);
  const et = edgeType(catalog, graph, s.edge);
  const tgt = vertexType(catalog, graph, s.edge.targetType, s.edge.targetPos);
  checkPair(et, src.name, tgt.name, s.edge.edgePos);
  const names = ['FROM', 'TO', ...et.edge.attributes.map((a) => a.name)];
  if (s.values.length !== names.length) throw countError(s, et.name, names, s.values.length);
  const fromId = checkId(s.values[0], src.primaryId.type, `vertex type '${src.name}'`);
  const toId = checkId(s.values[1], tgt.primaryId.type, `vertex type '${tgt.name}'`);
  const attrs = attrUpdates(catalog, et.edge.attributes, s.values.slice(2), `edge type '${et.name}'`);
  await db.write((tx) =>
    engineCall(s, () =>
      tx.upsertEdge(et.name, src.name, fromId, tgt.name, toId, attrs, { createMissingEndpoints: true }),
    ),
  );
}

type Reader = (name: string) => Value;

function compare(a: Value, b: Value): number {
  if ((typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint')) {
    if (typeof a === typeof b) return a < b ? -1 : a > b ? 1 : 0;
    const x = typeof a === 'number' && Number.isInteger(a) ? BigInt(a) : a;
    const y = typeof b === 'number' && Number.isInteger(b) ? BigInt(b) : b;
    if (typeof x === 'bigint' && typeof y === 'bigint') return x < y ? -1 : x > y ? 1 : 0;
    return Number(x) < Number(y) ? -1 : Number(x) > Number(y) ? 1 : 0;
  }
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return Number.NaN;
}

type Predicate = (read: Reader) => boolean;

/** Binds a condition to the names a record has (name → type); literals are converted here. */
function bind(
  cond: DmlCondition | undefined,
  types: ReadonlyMap<string, AttrType>,
  catalog: Catalog,
  owner: string,
): Predicate {
  if (!cond) return () => true;
  if (cond.kind !== 'compare') {
    const l = bind(cond.left, types, catalog, owner);
    const r = bind(cond.right, types, catalog, owner);
    return cond.kind === 'and' ? (read) => l(read) && r(read) : (read) => l(read) || r(read);
  }
  const type = types.get(cond.name);
  if (!type) throw new ShellError(`'${cond.name}' is not an attribute of ${owner}.`, cond);
  const lit = convert(cond.value, type, catalog, `'${cond.name}'`);
  const name = cond.name;
  switch (cond.op) {
    case '==':
      return (read) => compare(read(name), lit) === 0;
    case '!=':
      return (read) => compare(read(name), lit) !== 0;
    case '<':
      return (read) => compare(read(name), lit) < 0;
    case '<=':
      return (read) => compare(read(name), lit) <= 0;
    case '>':
      return (read) => compare(read(name), lit) > 0;
    case '>=':
      return (read) => compare(read(name), lit) >= 0;
  }
}

/** The type an id compares as: composite keys compare as their text. */
function idType(vt: VertexType): AttrType {
  return vt.keyKind === 'composite' ? { kind: 'STRING', compress: false } : vt.primaryId.type;
}

function idValue(tx: ReadTx, vt: VertexType, row: number): Value {
  return vt.keyKind === 'composite' ? tx.vertexId(vt.name, row) : tx.vertexIdValue(vt.name, row);
}

async function deleteVertices(
  s: Extract<DmlStatement, { kind: 'delete_vertex' }>,
  ctx: ShellContext,
): Promise<void> {
  const db = dataStore(ctx, s);
  const catalog = ctx.store.catalog;
  const vt = vertexType(catalog, graphOf(ctx, s, 'DELETE'), s.vertexType, s);
  const types = new Map<string, AttrType>([['primary_id', idType(vt)]]);
  for (const a of vt.attributes) types.set(a.name, a.type);
  const pred = bind(s.where, types, catalog, `vertex type '${vt.name}'`);
  await db.write((tx) => {
    const ids: string[] = [];
    for (const row of tx.rows(vt.name)) {
      const read: Reader = (n) => (n === 'primary_id' ? idValue(tx, vt, row) : tx.attr(vt.name, row, n));
      if (pred(read)) ids.push(tx.vertexId(vt.name, row));
    }
    for (const id of ids) tx.deleteVertex(vt.name, id);
  });
}

async function deleteEdges(
  s: Extract<DmlStatement, { kind: 'delete_edge' }>,
  ctx: ShellContext,
): Promise<void> {
  const db = dataStore(ctx, s);
  const catalog = ctx.store.catalog;
  const graph = graphOf(ctx, s, 'DELETE');
  const src = vertexType(catalog, graph, s.edge.sourceType, s);
  const et = edgeType(catalog, graph, s.edge);
  const tgt = vertexType(catalog, graph, s.edge.targetType, s.edge.targetPos);
  checkPair(et, src.name, tgt.name, s.edge.edgePos);
  const types = new Map<string, AttrType>([
    ['from_id', idType(src)],
    ['to_id', idType(tgt)],
  ]);
  for (const a of et.edge.attributes) types.set(a.name, a.type);
  const pred = bind(s.where, types, catalog, `edge type '${et.name}'`);
  await db.write((tx) => {
    const selected: EdgeHandle[] = [];
    for (const row of tx.rows(src.name)) {
      for (const h of tx.edges(src.name, row, { edgeType: et.name, targetType: tgt.name })) {
        const read: Reader = (n) =>
          n === 'from_id'
            ? idValue(tx, src, row)
            : n === 'to_id'
              ? idValue(tx, tgt, h.tgtRow)
              : tx.edgeAttr(h, n);
        if (pred(read)) selected.push(h);
      }
    }
    for (const h of selected) tx.deleteEdgeHandle(h);
  });
}

export const dmlHandlers: Pick<
  HandlerTable,
  'upsert_vertex' | 'upsert_edge' | 'delete_vertex' | 'delete_edge'
> = {
  upsert_vertex: upsertVertex,
  upsert_edge: upsertEdge,
  delete_vertex: deleteVertices,
  delete_edge: deleteEdges,
};
