/**
 * POST /shortestpath/{graph_name} and POST /allpaths/{graph_name} (spec §4.38, §4.39).
 *
 * The answer is TigerGraph's: `results` holds one subgraph `{vertices, edges}` with every vertex and
 * edge on the paths found (each once), not a list of separate paths — pyTigerGraph documents exactly
 * this and reads `results[0]["vertices"]` / `["edges"]`. The work runs on one snapshot, yields to the
 * event loop, stops with REST-3000 when GSQL-TIMEOUT expires and with REST-4000 as soon as the
 * subgraph outgrows RESPONSE-LIMIT (the server's response hook still checks the final size exactly).
 */
import type { FastifyRequest } from 'fastify';
import type { Catalog, GraphDef } from '../../catalog/types.js';
import type { ReadTx } from '../../engine/api.js';
import { allPaths } from '../../paths/all-paths.js';
import { Budget } from '../../paths/budget.js';
import { PathError } from '../../paths/errors.js';
import { PathGraph, type PathEdge } from '../../paths/graph.js';
import { releaseScratch, shortestPaths, type PathSink } from '../../paths/shortest.js';
import { type JsonValue, stringifyJson } from '../../util/json.js';
import type { ServerContext } from '../context.js';
import { jsonBody } from '../http/body.js';
import { okEnvelope, RestError, type Envelope } from '../http/envelope.js';
import { requestTimeoutMs, responseLimit } from '../http/limits.js';
import { graphOf } from './graph-request.js';
import { edgeJson, vertexJson, type EdgeJson, type VertexJson } from './graph-records.js';
import { edgeAttrTypes, resolveEdgeType, vertexAttrTypes } from './graph-schema.js';
import { decodePathRequest, type PathKind, type PathRequest } from './paths-body.js';
import { onSnapshot } from './worker-calls.js';
import type { RestppApp, RestppRouteModule } from './route-module.js';

/** Collects the union of the paths as JSON records, counting their bytes against RESPONSE-LIMIT. */
class SubgraphSink implements PathSink {
  readonly vertices = new Map<number, VertexJson>();
  readonly edges = new Map<string, EdgeJson>();
  private bytes = 0;

  constructor(
    private readonly pg: PathGraph,
    private readonly catalog: Catalog,
    private readonly graph: GraphDef,
    private readonly limit: number | undefined,
  ) {}

  vertex(g: number): void {
    if (this.vertices.has(g)) return;
    const rec = this.pg.vertexRecord(g);
    const vt = this.catalog.vertexTypes.find((v) => v.name === rec.v_type);
    const json = vertexJson(rec, vt ? vertexAttrTypes(vt) : new Map(), this.catalog);
    this.vertices.set(g, json);
    this.count(json);
  }

  edge(e: PathEdge): void {
    const key = this.pg.edgeKey(e);
    if (this.edges.has(key)) return;
    const rec = this.pg.edgeRecord(e);
    const et = resolveEdgeType(this.catalog, this.graph, rec.e_type);
    const json = edgeJson(rec, et ? edgeAttrTypes(et.edge) : new Map(), this.catalog);
    this.edges.set(key, json);
    this.count(json);
  }

  private count(json: VertexJson | EdgeJson): void {
    if (this.limit === undefined) return;
    this.bytes += Buffer.byteLength(stringifyJson(json)) + 1;
    if (this.bytes > this.limit) {
      throw new RestError(
        'REST-4000',
        `The query response size is over ${this.bytes} bytes (path finding stopped there), which exceeds limit ${this.limit} bytes.`,
      );
    }
  }
}

/** One path-finding request as the main thread decoded it (structured-cloneable, for a worker). */
export interface PathSearch {
  graph: string;
  kind: PathKind;
  req: PathRequest;
  timeoutMs: number;
  limit: number | undefined;
}

/** Runs a path search on a snapshot: the envelope's results and message. */
export async function pathSubgraph(
  tx: ReadTx,
  search: PathSearch,
): Promise<{ results: JsonValue[]; message: string }> {
  const graph = tx.catalog.graphs.find((g) => g.name === search.graph);
  if (!graph) throw new RestError('REST-1004', `Graph '${search.graph}' does not exist.`);
  const req = search.req;
  const budget = new Budget(search.timeoutMs);
  let built: PathGraph | undefined;
  try {
    const pg = (built = new PathGraph(tx, graph, req.vertexFilters, req.edgeFilters));
    const sources = req.sources.map((v, i) =>
      pg.resolve(v, req.sources.length > 1 ? `sources[${i}]` : 'source'),
    );
    const targets = req.targets.map((v, i) =>
      pg.resolve(v, req.targets.length > 1 ? `targets[${i}]` : 'target'),
    );
    const sink = new SubgraphSink(pg, tx.catalog, graph, search.limit);
    if (search.kind === 'shortest') {
      await shortestPaths(
        pg,
        sources,
        targets,
        { maxLength: req.maxLength, all: req.allShortestPaths, budget },
        sink,
      );
    } else {
      await allPaths(pg, sources, targets, { maxLength: req.maxLength, budget }, sink);
    }
    const message = req.missingFilters.map((f) => `Cannot get '${f}' filters, use empty filter.`).join(' ');
    const results = [
      { vertices: [...sink.vertices.values()], edges: [...sink.edges.values()] },
    ] as unknown as JsonValue[];
    return { results, message };
  } catch (e) {
    if (e instanceof PathError) throw new RestError(e.code, e.message);
    throw e;
  } finally {
    if (built) releaseScratch(built);
  }
}

async function findPaths(ctx: ServerContext, request: FastifyRequest, kind: PathKind): Promise<Envelope> {
  const search: PathSearch = {
    graph: graphOf(ctx, request).name,
    kind,
    req: decodePathRequest(jsonBody(request), kind),
    timeoutMs: requestTimeoutMs(request),
    limit: responseLimit(request),
  };
  const { results, message } = await onSnapshot(ctx, 'paths', search, search.timeoutMs, (tx) =>
    pathSubgraph(tx, search),
  );
  return okEnvelope(results, message);
}

export const pathRoutes: RestppRouteModule = {
  name: 'paths',
  register(app: RestppApp, ctx: ServerContext) {
    app.route({
      method: 'POST',
      path: '/shortestpath/{graph_name}',
      handler: (r) => findPaths(ctx, r, 'shortest'),
    });
    app.route({
      method: 'POST',
      path: '/allpaths/{graph_name}',
      handler: (r) => findPaths(ctx, r, 'all'),
    });
  },
};
