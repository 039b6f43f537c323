/**
 * Upsert of REST++ `POST /graph/{graph}`: the decoded body is checked against the schema in full
 * first (types, endpoint pairs, attribute names, values, ids), so a bad request changes nothing; then
 * it is applied in one write transaction, and the counts are returned the way TigerGraph reports
 * them.
 */
import type { AttrType, Catalog, GraphDef, VertexType } from '../../catalog/types.js';
import type { Value } from '../../catalog/value.js';
import { EngineError, type AttrUpdate, type UpsertOp, type WriteTx } from '../../engine/api.js';
import { parseId } from '../../engine/values.js';
import type { ParsedJson } from '../../util/json-parse.js';
import { RestError } from '../http/envelope.js';
import type { AttrInput, UpsertBody } from './graph-upsert-body.js';
import { edgeAllowsPair, graphVertexType, resolveEdgeType, type ResolvedEdgeType } from './graph-schema.js';

/** Converts a JSON attribute value to the attribute's type; undefined when it does not fit. */
export type JsonValueReader = (json: ParsedJson, type: AttrType, catalog: Catalog) => Value | undefined;

export interface UpsertFlags {
  newVertexOnly: boolean;
  updateVertexOnly: boolean;
  vertexMustExist: boolean;
  sourceVertexMustExist: boolean;
  targetVertexMustExist: boolean;
}

interface PreparedVertex {
  type: string;
  id: string;
  attrs: Record<string, AttrUpdate>;
}

interface PreparedEdge {
  edgeType: ResolvedEdgeType;
  srcType: string;
  srcId: string;
  tgtType: string;
  tgtId: string;
  attrs: Record<string, AttrUpdate>;
}

export interface PreparedUpsert {
  vertices: PreparedVertex[];
  edges: PreparedEdge[];
}

export interface VertexKey {
  v_type: string;
  v_id: string;
}

/** The counts object TigerGraph returns (keys present only with the flags that produce them). */
export interface UpsertCounts {
  accepted_vertices: number;
  skipped_vertices?: number;
  vertices_already_exist?: VertexKey[];
  vertices_not_exist?: VertexKey[];
  accepted_edges: number;
  skipped_edges?: number;
  edge_vertices_not_exist?: VertexKey[];
}

function upsertError(message: string): RestError {
  return new RestError('REST-30200', message);
}

function convertAttrs(
  catalog: Catalog,
  inputs: readonly AttrInput[],
  declared: readonly { name: string; type: AttrType }[],
  skip: ReadonlySet<string>,
  where: string,
  readValue: JsonValueReader,
): Record<string, AttrUpdate> {
  const attrs: Record<string, AttrUpdate> = {};
  for (const input of inputs) {
    if (skip.has(input.name)) continue;
    const attr = declared.find((a) => a.name === input.name);
    // pyTigerGraph's tests expect REST-30200 for an unknown attribute name (TigerGraph 4.x).
    if (!attr) throw upsertError(`Attribute '${input.name}' does not exist in ${where}.`);
    const value = input.value === null ? undefined : readValue(input.value, attr.type, catalog);
    if (value === undefined) {
      throw upsertError(
        `Invalid value ${describeJson(input.value)} for attribute '${input.name}' of type ${typeLabel(attr.type)} in ${where}.`,
      );
    }
    if (!opApplies(input.op, attr.type)) {
      throw upsertError(
        `Operation '${input.op}' does not apply to attribute '${input.name}' of type ${typeLabel(attr.type)} in ${where}.`,
      );
    }
    attrs[input.name] = { value, op: input.op };
  }
  return attrs;
}

const NUMERIC = new Set(['INT', 'UINT', 'FLOAT', 'DOUBLE', 'DATETIME']);

/** Which ops a type takes, checked up front so a request fails the same way for new and old vertices. */
function opApplies(op: UpsertOp, type: AttrType): boolean {
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

/** The key attributes of a PRIMARY KEY vertex type: they come from the id, not from the attributes. */
function keyAttributeNames(vt: VertexType): Set<string> {
  return new Set(vt.keyKind === 'primary_id' ? [] : vt.keyAttributes);
}

function checkId(vt: VertexType, id: string): void {
  try {
    parseId(vt, id);
  } catch (e) {
    if (e instanceof EngineError) throw upsertError(e.message);
    throw e;
  }
}

/** Checks the whole request against the schema; throws REST-30200 naming the first problem. */
export function prepareUpsert(
  catalog: Catalog,
  graph: GraphDef,
  body: UpsertBody,
  readValue: JsonValueReader,
): PreparedUpsert {
  const vertexType = (name: string, role: string): VertexType => {
    const vt = graphVertexType(catalog, graph, name);
    if (!vt)
      throw upsertError(`Invalid ${role} '${name}': it is not a vertex type of graph '${graph.name}'.`);
    return vt;
  };
  const vertices: PreparedVertex[] = body.vertices.map((v) => {
    const vt = vertexType(v.type, 'vertex type');
    checkId(vt, v.id);
    const where = `vertex type '${v.type}'`;
    const attrs = convertAttrs(catalog, v.attrs, vt.attributes, keyAttributeNames(vt), where, readValue);
    return { type: v.type, id: v.id, attrs };
  });
  const edges: PreparedEdge[] = body.edges.map((e) => {
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
    checkId(src, e.srcId);
    checkId(tgt, e.tgtId);
    const where = `edge type '${e.edgeType}'`;
    const attrs = convertAttrs(catalog, e.attrs, et.edge.attributes, new Set(), where, readValue);
    return { edgeType: et, srcType: e.srcType, srcId: e.srcId, tgtType: e.tgtType, tgtId: e.tgtId, attrs };
  });
  return { vertices, edges };
}

/** Applies a prepared upsert inside a write transaction and counts what happened. */
export function applyUpsert(tx: WriteTx, plan: PreparedUpsert, flags: UpsertFlags): UpsertCounts {
  let acceptedVertices = 0;
  const skippedVertices: VertexKey[] = [];
  for (const v of plan.vertices) {
    const r = tx.upsertVertex(v.type, v.id, v.attrs, {
      newOnly: flags.newVertexOnly,
      updateOnly: flags.updateVertexOnly,
    });
    if (r === 'skipped') skippedVertices.push({ v_type: v.type, v_id: v.id });
    else acceptedVertices++;
  }

  let acceptedEdges = 0;
  let skippedEdges = 0;
  const missing: VertexKey[] = [];
  const missingSeen = new Set<string>();
  const noteMissing = (type: string, id: string): void => {
    const key = `${type}\u0000${id}`;
    if (missingSeen.has(key)) return;
    missingSeen.add(key);
    missing.push({ v_type: type, v_id: id });
  };
  for (const e of plan.edges) {
    // For an undirected edge either endpoint flag means both (TigerGraph's rule).
    const either = !e.edgeType.edge.directed && (flags.sourceVertexMustExist || flags.targetVertexMustExist);
    const srcMust = flags.vertexMustExist || flags.sourceVertexMustExist || either;
    const tgtMust = flags.vertexMustExist || flags.targetVertexMustExist || either;
    const srcMissing = srcMust && !tx.vertexExists(e.srcType, e.srcId);
    const tgtMissing = tgtMust && !tx.vertexExists(e.tgtType, e.tgtId);
    if (srcMissing || tgtMissing) {
      skippedEdges++;
      if (srcMissing) noteMissing(e.srcType, e.srcId);
      if (tgtMissing) noteMissing(e.tgtType, e.tgtId);
      continue;
    }
    const r = tx.upsertEdge(e.edgeType.name, e.srcType, e.srcId, e.tgtType, e.tgtId, e.attrs, {
      createMissingEndpoints: true,
    });
    if (r === 'skipped') skippedEdges++;
    else acceptedEdges++;
  }

  const vertexFlag = flags.newVertexOnly || flags.updateVertexOnly;
  const edgeFlag = flags.vertexMustExist || flags.sourceVertexMustExist || flags.targetVertexMustExist;
  return {
    accepted_vertices: acceptedVertices,
    ...(vertexFlag ? { skipped_vertices: skippedVertices.length } : {}),
    ...(flags.newVertexOnly ? { vertices_already_exist: skippedVertices } : {}),
    ...(vertexFlag && !flags.newVertexOnly ? { vertices_not_exist: skippedVertices } : {}),
    accepted_edges: acceptedEdges,
    ...(edgeFlag ? { skipped_edges: skippedEdges, edge_vertices_not_exist: missing } : {}),
  };
}
