/**
 * getvid(): a vertex's number, unique across vertex types (the row, times the number of vertex
 * types, plus the type's position in the graph), and back. UDFs see a VERTEX as this number, as
 * TigerGraph's C++ UDFs see a vertex's internal id.
 */
import type { RunContext } from './context.js';
import { QueryRuntimeError, type Vtx } from './values.js';

export function vertexVid(type: string, row: number, types: readonly string[]): number {
  return row * types.length + types.indexOf(type);
}

/** getvid() of the vertex with run index `gid` (SELECT kernels bind aliases by run index). */
export function vidOfGid(ctx: RunContext, gid: number, types: readonly string[]): number {
  const i = ctx.typeIndexAt(gid);
  return vertexVid(ctx.typeNameAt(i), gid - ctx.typeStartAt(i), types);
}

/** The live vertex whose getvid() is `vid`; a runtime error naming `what` when there is none. */
export function vertexOfVid(ctx: RunContext, vid: number, types: readonly string[], what: string): Vtx {
  const type = types[vid % types.length];
  const row = Math.floor(vid / types.length);
  if (!Number.isSafeInteger(vid) || vid < 0 || !ctx.graph.isLive(type, row))
    throw new QueryRuntimeError(`Runtime Error: ${what}: ${vid} is not the getvid() of a vertex.`);
  return ctx.vertex(type, row);
}
