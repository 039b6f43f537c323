/**
 * Request pieces the graph data endpoints share: resolving the graph and vertex type of the url
 * (semantic errors are never 404: pyTigerGraph reads 404 as "no such endpoint"), and the
 * `timeout` parameter as a deadline checked while scanning.
 */
import type { Catalog, GraphDef, VertexType } from '../../catalog/types.js';
import type { ServerContext } from '../context.js';
import { RestError } from '../http/envelope.js';
import type { RouteRequest } from '../http/fast-path.js';
import type { QueryParams } from '../http/querystring.js';
import { findGraph, graphVertexType } from './graph-schema.js';
import { pathParam, requireGraph } from './route-module.js';

/** TigerGraph's system-wide endpoint timeout when `timeout` is 0 or absent. */
export const DEFAULT_TIMEOUT_S = 16;

/** The graph of the url; a path without a graph name means the only graph there is. */
export function graphOf(ctx: ServerContext, request: RouteRequest): GraphDef {
  const given = pathParam(request, 'graph_name');
  if (given === undefined) {
    const graphs = ctx.db.catalog.graphs;
    if (graphs.length === 1) return graphs[0];
    throw new RestError(
      'REST-30000',
      `The url names no graph, and there are ${graphs.length} graphs: use a path with the graph name, e.g. /graph/{graph_name}/….`,
    );
  }
  const name = requireGraph(ctx, request, given);
  return findGraph(ctx.db.catalog, name) as GraphDef;
}

/** The vertex type named by a path segment; REST-30000 (status 400) when the graph lacks it. */
export function vertexTypeOf(
  catalog: Catalog,
  graph: GraphDef,
  name: string | undefined,
  role = 'vertex type',
): VertexType {
  const vt = name === undefined ? undefined : graphVertexType(catalog, graph, name);
  if (!vt)
    throw new RestError(
      'REST-30000',
      `Invalid ${role} '${name ?? ''}': it is not a vertex type of graph '${graph.name}'.`,
    );
  return vt;
}

/** A deadline from the `timeout` parameter (seconds); `check()` throws REST-3001 once it has passed. */
export class Deadline {
  private readonly until: number;
  private ticks = 0;
  constructor(readonly seconds: number) {
    this.until = Date.now() + seconds * 1000;
  }
  static of(q: QueryParams): Deadline {
    const raw = q.get('timeout');
    let s = DEFAULT_TIMEOUT_S;
    if (raw !== undefined && raw.trim() !== '') {
      const n = Number(raw);
      if (!/^\s*\d+(\.\d+)?\s*$/.test(raw) || !Number.isFinite(n)) {
        throw new RestError(
          'REST-30001',
          `The value '${raw}' of parameter 'timeout' is not a valid number of seconds.`,
        );
      }
      if (n > 0) s = n;
    }
    return new Deadline(s);
  }
  /** Cheap enough for inner loops: reads the clock every 1024 calls. */
  check(): void {
    if ((++this.ticks & 1023) !== 0) return;
    if (Date.now() > this.until) {
      throw new RestError(
        'REST-3001',
        `The request timed out after ${this.seconds} seconds (parameter 'timeout').`,
      );
    }
  }
}
