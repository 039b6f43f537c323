/** Catalog look-ups the engine needs, with TigerGraph's error codes for unknown names. */
import type { Catalog, EdgeType, VertexType } from '../catalog/types.js';
import { EngineError } from './api.js';

export function vertexTypeOf(catalog: Catalog, name: string): VertexType {
  const vt = catalog.vertexTypes.find((v) => v.name === name);
  if (!vt) throw new EngineError('REST-2004', `The vertex type '${name}' is not a valid vertex type.`);
  return vt;
}

/** A readable edge type: a stored type, or the reverse edge of a directed stored type. */
export interface ResolvedEdgeType {
  stored: EdgeType;
  reverse: boolean;
}

export function findEdgeType(catalog: Catalog, name: string): ResolvedEdgeType | undefined {
  const rev = catalog.edgeTypes.find((e) => e.directed && e.reverseEdge === name);
  if (rev) return { stored: rev, reverse: true };
  const et = catalog.edgeTypes.find((e) => e.name === name);
  return et ? { stored: et, reverse: false } : undefined;
}

export function edgeTypeOf(catalog: Catalog, name: string): ResolvedEdgeType {
  const r = findEdgeType(catalog, name);
  if (!r) throw new EngineError('REST-2005', `The edge type '${name}' is not a valid edge type.`);
  return r;
}

/** Whether an edge type declares the FROM/TO vertex type pair (`*` matches any type). */
export function pairAllowed(et: EdgeType, from: string, to: string): boolean {
  return et.pairs.some((p) => (p.from === '*' || p.from === from) && (p.to === '*' || p.to === to));
}
