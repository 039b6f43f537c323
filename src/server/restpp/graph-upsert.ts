/**
 * Upsert of REST++ `POST /graph/{graph}`, first half: the decoded body is checked against the schema
 * in full (types, endpoint pairs, values, ids) before anything is written, so a bad request changes
 * nothing. An attribute name the type does not have is ignored (spec §4.17 rule 3), the rest of its
 * vertex or edge is upserted. graph-upsert-apply.ts then applies it in one write transaction. How each
 * attribute of a type is read from JSON is compiled once per catalog version.
 */
import type { Attribute, AttrType, Catalog, GraphDef, VertexType } from '../../catalog/types.js';
import type { Value } from '../../catalog/value.js';
import { EngineError, type AttrUpdate, type UpsertOp } from '../../engine/api.js';
import { jsonValueReader } from '../../engine/value-input.js';
import { parseId } from '../../engine/values.js';
import type { ParsedJson } from '../../util/json-parse.js';
import { RestError } from '../http/envelope.js';
import type { AttrInput, EdgeInput, UpsertBody, VertexRunInput } from './graph-upsert-body.js';
import { edgeAllowsPair, graphVertexType, resolveEdgeType, type ResolvedEdgeType } from './graph-schema.js';

/** A run of vertices of one type, as the engine's upsertVertices takes it (ids[i] gets attrs[i]). */
export interface PreparedVertexRun {
  type: string;
  ids: string[];
  attrs: Record<string, AttrUpdate>[];
}

export interface PreparedEdge {
  edgeType: ResolvedEdgeType;
  srcType: string;
  srcId: string;
  tgtType: string;
  tgtId: string;
  attrs: Record<string, AttrUpdate>;
}

export interface PreparedUpsert {
  vertexRuns: PreparedVertexRun[];
  edges: PreparedEdge[];
}

/** REST-30200, TigerGraph's code for an upsert the schema refuses. */
export function upsertError(message: string): RestError {
  return new RestError('REST-30200', message);
}

/** One attribute of a type, ready to read from JSON. */
interface AttrPlan {
  attr: Attribute;
  read: (json: ParsedJson) => Value | undefined;
}

/** The attributes of one vertex or edge type by name; key attributes of a PRIMARY KEY type are left out. */
interface TypePlan {
  attrs: Map<string, AttrPlan>;
  skip: ReadonlySet<string>;
}

/** Per catalog version (a schema change makes a new Catalog object), the plan of each type. */
const plans = new WeakMap<Catalog, Map<string, TypePlan>>();

function typePlan(
  catalog: Catalog,
  key: string,
  declared: readonly Attribute[],
  skip: readonly string[],
): TypePlan {
  let byType = plans.get(catalog);
  if (!byType) {
    byType = new Map();
    plans.set(catalog, byType);
  }
  let plan = byType.get(key);
  if (!plan) {
    const attrs = new Map<string, AttrPlan>();
    for (const attr of declared) attrs.set(attr.name, { attr, read: jsonValueReader(attr.type, catalog) });
    plan = { attrs, skip: new Set(skip) };
    byType.set(key, plan);
  }
  return plan;
}

function vertexPlan(catalog: Catalog, vt: VertexType): TypePlan {
  return typePlan(
    catalog,
    `v\u0000${vt.name}`,
    vt.attributes,
    vt.keyKind === 'primary_id' ? [] : vt.keyAttributes,
  );
}

const NO_ATTRS: Record<string, AttrUpdate> = Object.freeze({});

function convertAttrs(
  plan: TypePlan,
  inputs: readonly AttrInput[],
  where: string,
): Record<string, AttrUpdate> {
  if (inputs.length === 0) return NO_ATTRS;
  const attrs: Record<string, AttrUpdate> = {};
  for (const input of inputs) convertAttr(plan, input.name, input.value, input.op, where, attrs);
  return attrs;
}

/** Checks one attribute against its type's plan and adds it to `attrs` (key attributes are left out). */
function convertAttr(
  plan: TypePlan,
  name: string,
  json: ParsedJson,
  op: UpsertOp,
  where: string,
  attrs: Record<string, AttrUpdate>,
): void {
  const p = plan.attrs.get(name);
  if (plan.skip.has(name) || !p) return;
  const type = p.attr.type;
  const value = json === null ? undefined : p.read(json);
  if (value === undefined) {
    throw upsertError(
      `Invalid value ${describeJson(json)} for attribute '${name}' of type ${typeLabel(type)} in ${where}.`,
    );
  }
  if (op !== 'set' && !opApplies(op, type)) {
    throw upsertError(
      `Operation '${op}' does not apply to attribute '${name}' of type ${typeLabel(type)} in ${where}.`,
    );
  }
  // The catalog's name, not the one read from the body: a property key V8 has already interned.
  attrs[p.attr.name] = { value, op };
}

/** Checks a decoded vertex run's ids and attributes; the run's id array is passed on as it is. */
function prepareVertexRun(vt: VertexType, plan: TypePlan, run: VertexRunInput): PreparedVertexRun {
  const where = `vertex type '${run.type}'`;
  const { ids, attrStart, attrNames, attrValues, attrOps } = run;
  const attrs = new Array<Record<string, AttrUpdate>>(ids.length);
  for (let i = 0; i < ids.length; i++) {
    checkId(vt, ids[i]);
    const from = attrStart[i];
    const to = attrStart[i + 1];
    if (from === to) {
      attrs[i] = NO_ATTRS;
      continue;
    }
    const a: Record<string, AttrUpdate> = {};
    for (let j = from; j < to; j++) convertAttr(plan, attrNames[j], attrValues[j], attrOps[j], where, a);
    attrs[i] = a;
  }
  return { type: run.type, ids, attrs };
}

const NUMERIC = new Set(['INT', 'UINT', 'FLOAT', 'DOUBLE', 'DATETIME']);

/** Which ops a type takes, checked up front so a request fails the same way for new and old vertices. */
export function opApplies(op: UpsertOp, type: AttrType): boolean {
  switch (op) {
    case 'set':
    case 'ignore_if_exists':
      return true;
    case 'and':
    case 'or':
      return type.kind === 'BOOL' || type.kind === 'INT' || type.kind === 'UINT';
    case 'max':
    case 'min':
      return NUMERIC.has(type.kind) || type.kind === 'STRING' || type.kind === 'BOOL';
    case 'add':
      return NUMERIC.has(type.kind) || ['STRING', 'BOOL', 'LIST', 'SET', 'MAP'].includes(type.kind);
  }
}

function describeJson(v: ParsedJson): string {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'object' && v !== null) return Array.isArray(v) ? 'array' : 'object';
  return JSON.stringify(v);
}

function typeLabel(t: AttrType): string {
  switch (t.kind) {
    case 'LIST':
    case 'SET':
      return `${t.kind}<${typeLabel(t.element)}>`;
    case 'MAP':
      return `MAP<${typeLabel(t.key)},${typeLabel(t.value)}>`;
    case 'UDT':
      return t.name;
    default:
      return t.kind;
  }
}

function checkId(vt: VertexType, id: string): void {
  try {
    parseId(vt, id);
  } catch (e) {
    if (e instanceof EngineError) throw upsertError(e.message);
    throw e;
  }
}

/** An edge's types as resolved and checked, shared by the edges of one request that use them. */
interface EdgeRoute {
  edgeType: ResolvedEdgeType;
  src: VertexType;
  tgt: VertexType;
  plan: TypePlan;
}

/** Checks the whole request against the schema; throws REST-30200 naming the first problem. */
export function prepareUpsert(catalog: Catalog, graph: GraphDef, body: UpsertBody): PreparedUpsert {
  const vertexTypes = new Map<string, VertexType>();
  const vertexType = (name: string, role: string): VertexType => {
    let vt = vertexTypes.get(name);
    if (vt) return vt;
    vt = graphVertexType(catalog, graph, name);
    if (!vt)
      throw upsertError(`Invalid ${role} '${name}': it is not a vertex type of graph '${graph.name}'.`);
    vertexTypes.set(name, vt);
    return vt;
  };
  const vertexRuns: PreparedVertexRun[] = [];
  for (const run of body.vertices) {
    const vt = vertexType(run.type, 'vertex type');
    vertexRuns.push(prepareVertexRun(vt, vertexPlan(catalog, vt), run));
  }
  const routes = new Map<string, EdgeRoute>();
  const edgeRoute = (e: EdgeInput): EdgeRoute => {
    const key = `${e.edgeType}\u0000${e.srcType}\u0000${e.tgtType}`;
    let r = routes.get(key);
    if (r) return r;
    const src = vertexType(e.srcType, 'source vertex type');
    const et = resolveEdgeType(catalog, graph, e.edgeType);
    if (!et)
      throw upsertError(
        `Invalid edge type '${e.edgeType}': it is not an edge type of graph '${graph.name}'.`,
      );
    const tgt = vertexType(e.tgtType, 'target vertex type');
    if (!edgeAllowsPair(et, e.srcType, e.tgtType)) {
      throw upsertError(
        `Invalid edge '${e.edgeType}' from vertex type '${e.srcType}' to vertex type '${e.tgtType}': ` +
          `the edge type does not connect these vertex types.`,
      );
    }
    r = { edgeType: et, src, tgt, plan: typePlan(catalog, `e\u0000${et.edge.name}`, et.edge.attributes, []) };
    routes.set(key, r);
    return r;
  };
  const edges: PreparedEdge[] = [];
  let prev: EdgeInput | undefined;
  let r: EdgeRoute | undefined;
  for (const e of body.edges) {
    // A body lists the edges of one source vertex and edge type together: reuse the last route.
    if (
      r === undefined ||
      prev?.edgeType !== e.edgeType ||
      prev.srcType !== e.srcType ||
      prev.tgtType !== e.tgtType
    ) {
      r = edgeRoute(e);
    }
    prev = e;
    checkId(r.src, e.srcId);
    checkId(r.tgt, e.tgtId);
    const attrs =
      e.attrs.length === 0 ? NO_ATTRS : convertAttrs(r.plan, e.attrs, `edge type '${e.edgeType}'`);
    edges.push({
      edgeType: r.edgeType,
      srcType: e.srcType,
      srcId: e.srcId,
      tgtType: e.tgtType,
      tgtId: e.tgtId,
      attrs,
    });
  }
  return { vertexRuns, edges };
}
