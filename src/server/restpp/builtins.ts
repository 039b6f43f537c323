/**
 * POST /builtins/{graph}: the built-in statistics functions stat_vertex_number, stat_edge_number,
 * stat_vertex_attr and stat_edge_attr. Result shapes follow what pyTigerGraph reads: every type is
 * listed (zero counts included) for `*`; attribute statistics are
 * `{"attributes": {attr: {"AVG","MAX","MIN"}}, "v_type"|"e_type"}`. A type with nothing to report is
 * answered the way TigerGraph does it, `error: true` with "stat_vertex_attr is skip" /
 * "No valid edge for the input edge type" and HTTP 200: pyTigerGraph reads those bodies unchecked.
 */
import type { Catalog, GraphDef, VertexType } from '../../catalog/types.js';
import type { AttrStat, ReadTx } from '../../engine/api.js';
import type { JsonValue } from '../../util/json.js';
import type { ServerContext } from '../context.js';
import { queryOf } from '../http/app.js';
import { jsonBody } from '../http/body.js';
import { okEnvelope, RestError, type Envelope } from '../http/envelope.js';
import { requestTimeoutMs } from '../http/limits.js';
import { graphOf } from './graph-request.js';
import {
  graphEdgeTypes,
  graphVertexType,
  graphVertexTypes,
  resolveEdgeType,
  type ResolvedEdgeType,
} from './graph-schema.js';
import type { RestppApp, RestppRouteModule } from './route-module.js';
import { onSnapshot } from './worker-calls.js';

const FUNCTIONS = ['stat_vertex_number', 'stat_edge_number', 'stat_vertex_attr', 'stat_edge_attr'] as const;
type BuiltinFunction = (typeof FUNCTIONS)[number];

export interface BuiltinRequest {
  fn: BuiltinFunction;
  type: string;
  fromType?: string;
  toType?: string;
}

function badRequest(message: string): RestError {
  return new RestError('REST-30000', message);
}

/** Unknown type names: pyTigerGraph's tests expect GSQL-7004 for stat_vertex_number. */
function unknownType(kind: string, name: string, graph: GraphDef): RestError {
  return new RestError('GSQL-7004', `The ${kind} type '${name}' does not exist in graph '${graph.name}'.`);
}

/** A 200 answer with `error: true`: "nothing to report" for this type, read unchecked by clients. */
function skipped(message: string): RestError {
  return new RestError('REST-30000', message, { status: 200 });
}

function optionalString(body: Record<string, JsonValue>, key: string): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw badRequest(`The field '${key}' of the builtins payload must be a string.`);
  return v;
}

export function decodeBuiltinRequest(body: JsonValue | undefined): BuiltinRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest(`The builtins payload must be a JSON object with a "function" field.`);
  }
  const fn = optionalString(body, 'function');
  if (fn === undefined) throw badRequest(`The builtins payload has no "function" field.`);
  if (!(FUNCTIONS as readonly string[]).includes(fn)) {
    throw badRequest(`Unknown builtin function '${fn}'; expected one of ${FUNCTIONS.join(', ')}.`);
  }
  const type = optionalString(body, 'type');
  if (type === undefined || type.trim() === '') {
    throw badRequest(`The builtin function '${fn}' needs a "type" field (a type name or "*").`);
  }
  const fromType = optionalString(body, 'from_type');
  const toType = optionalString(body, 'to_type');
  return { fn: fn as BuiltinFunction, type, fromType, toType };
}

function vertexTypesFor(catalog: Catalog, graph: GraphDef, type: string): VertexType[] {
  if (type === '*') return graphVertexTypes(catalog, graph);
  const vt = graphVertexType(catalog, graph, type);
  if (!vt) throw unknownType('vertex', type, graph);
  return [vt];
}

function edgeTypesFor(catalog: Catalog, graph: GraphDef, type: string): ResolvedEdgeType[] {
  if (type === '*') return graphEdgeTypes(catalog, graph);
  const et = resolveEdgeType(catalog, graph, type);
  if (!et) throw unknownType('edge', type, graph);
  return [et];
}

/** `from_type`/`to_type`: absent or `*` is any; otherwise a vertex type of the graph. */
function endpointType(catalog: Catalog, graph: GraphDef, name: string | undefined): string | undefined {
  if (name === undefined || name === '*' || name === '') return undefined;
  if (!graphVertexType(catalog, graph, name)) throw unknownType('vertex', name, graph);
  return name;
}

function statsJson(stats: readonly AttrStat[]): { [attr: string]: JsonValue } {
  const out: { [attr: string]: JsonValue } = {};
  for (const s of stats) {
    if (s.trueCount !== undefined || s.falseCount !== undefined) {
      out[s.attribute] = { FALSE: s.falseCount ?? 0, TRUE: s.trueCount ?? 0 };
    } else if (s.min !== undefined && s.max !== undefined) {
      out[s.attribute] = { AVG: s.avg ?? 0, MAX: s.max, MIN: s.min };
    }
  }
  return out;
}

const STAT_KINDS = new Set(['INT', 'UINT', 'FLOAT', 'DOUBLE', 'BOOL']);

function hasStatAttributes(attrs: readonly { type: { kind: string } }[]): boolean {
  return attrs.some((a) => STAT_KINDS.has(a.type.kind));
}

export function runBuiltin(tx: ReadTx, graph: GraphDef, req: BuiltinRequest): JsonValue[] {
  const catalog = tx.catalog;
  switch (req.fn) {
    case 'stat_vertex_number':
      return vertexTypesFor(catalog, graph, req.type).map((vt) => ({
        v_type: vt.name,
        count: tx.vertexCount(vt.name),
      }));
    case 'stat_edge_number': {
      const from = endpointType(catalog, graph, req.fromType);
      const to = endpointType(catalog, graph, req.toType);
      return edgeTypesFor(catalog, graph, req.type).map((et) => ({
        e_type: et.name,
        count: tx.edgeCount(et.name, from, to),
      }));
    }
    case 'stat_vertex_attr': {
      const types = vertexTypesFor(catalog, graph, req.type);
      const withStats = types.filter((vt) => hasStatAttributes(vt.attributes));
      if (req.type !== '*' && withStats.length === 0) {
        throw skipped(
          `stat_vertex_attr is skip for vertex type '${req.type}': it has no numeric or boolean attribute.`,
        );
      }
      return withStats.map((vt) => ({
        attributes: tx.vertexCount(vt.name) === 0 ? {} : statsJson(tx.vertexAttrStats(vt.name)),
        v_type: vt.name,
      }));
    }
    case 'stat_edge_attr': {
      const from = endpointType(catalog, graph, req.fromType);
      const to = endpointType(catalog, graph, req.toType);
      const types = edgeTypesFor(catalog, graph, req.type);
      const withStats = types.filter((et) => hasStatAttributes(et.edge.attributes));
      if (req.type !== '*' && withStats.length === 0) {
        throw skipped(
          `stat_edge_attr is skip for edge type '${req.type}': it has no numeric or boolean attribute.`,
        );
      }
      const withEdges = withStats.filter((et) => tx.edgeCount(et.name, from, to) > 0);
      if (req.type !== '*' && withEdges.length === 0) {
        throw skipped(`No valid edge for the input edge type '${req.type}'.`);
      }
      return withEdges.map((et) => ({
        attributes: statsJson(tx.edgeAttrStats(et.name, from, to)),
        e_type: et.name,
      }));
    }
  }
}

export const builtinsRoutes: RestppRouteModule = {
  name: 'builtins',
  register(app: RestppApp, ctx: ServerContext) {
    app.route({
      method: 'POST',
      path: '/builtins/{graph_name}',
      parameters: { realtime: { type: 'BOOL', default: 'false' } },
      handler: async (request): Promise<Envelope> => {
        const graph = graphOf(ctx, request);
        queryOf(request).bool('realtime', false);
        const req = decodeBuiltinRequest(jsonBody(request));
        const input = { graph: graph.name, req };
        return okEnvelope(
          await onSnapshot(ctx, 'builtins', input, requestTimeoutMs(request), (tx) =>
            runBuiltin(tx, graph, req),
          ),
        );
      },
    });
  },
};
