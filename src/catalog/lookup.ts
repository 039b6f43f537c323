/**
 * Finding things in a Catalog. Type names are case-sensitive and unique across vertex types, edge
 * types, reverse edges, tuples and graphs (local types included), so a name alone finds a type;
 * the graph-scoped helpers add the membership check.
 */
import { CatalogError } from './errors.js';
import type { Catalog, EdgeType, GraphDef, StoredJob, TupleType, VertexType } from './types.js';

export function findVertexType(catalog: Catalog, name: string): VertexType | undefined {
  return catalog.vertexTypes.find((v) => v.name === name);
}

/** An edge type by its name, or by the name of its reverse edge (`reverse` tells which). */
export function findEdgeType(
  catalog: Catalog,
  name: string,
): { edge: EdgeType; reverse: boolean } | undefined {
  for (const e of catalog.edgeTypes) {
    if (e.name === name) return { edge: e, reverse: false };
    if (e.reverseEdge === name) return { edge: e, reverse: true };
  }
  return undefined;
}

export function findGraph(catalog: Catalog, name: string): GraphDef | undefined {
  return catalog.graphs.find((g) => g.name === name);
}

export function findTuple(catalog: Pick<Catalog, 'tuples'>, name: string): TupleType | undefined {
  return catalog.tuples.find((t) => t.name === name);
}

/** The tuple a UDT name refers to; throws a clear error naming the missing type. */
export function resolveTuple(catalog: Pick<Catalog, 'tuples'>, name: string): TupleType {
  const t = findTuple(catalog, name);
  if (!t) throw new CatalogError(`Unknown tuple type '${name}'.`);
  return t;
}

/** A vertex type that belongs to the graph (global member or local type), or undefined. */
export function findGraphVertexType(catalog: Catalog, graph: string, name: string): VertexType | undefined {
  const g = findGraph(catalog, graph);
  return g && g.vertexTypes.includes(name) ? findVertexType(catalog, name) : undefined;
}

/** An edge type that belongs to the graph, found by its name or its reverse edge's name. */
export function findGraphEdgeType(
  catalog: Catalog,
  graph: string,
  name: string,
): { edge: EdgeType; reverse: boolean } | undefined {
  const g = findGraph(catalog, graph);
  const found = findEdgeType(catalog, name);
  return g && found && g.edgeTypes.includes(found.edge.name) ? found : undefined;
}

/** The vertex and edge types of a graph in the order they were added; undefined for no such graph. */
export function graphTypes(
  catalog: Catalog,
  graph: string,
): { vertexTypes: VertexType[]; edgeTypes: EdgeType[] } | undefined {
  const g = findGraph(catalog, graph);
  if (!g) return undefined;
  const vertexTypes = g.vertexTypes.map((n) => findVertexType(catalog, n)).filter((v) => v !== undefined);
  const edgeTypes = g.edgeTypes
    .map((n) => catalog.edgeTypes.find((e) => e.name === n))
    .filter((e) => e !== undefined);
  return { vertexTypes, edgeTypes };
}

/** Global (not graph-local) vertex and edge types. */
export function globalTypes(catalog: Catalog): { vertexTypes: VertexType[]; edgeTypes: EdgeType[] } {
  return {
    vertexTypes: catalog.vertexTypes.filter((v) => v.graph === undefined),
    edgeTypes: catalog.edgeTypes.filter((e) => e.graph === undefined),
  };
}

/** Stored jobs of a graph (graph undefined: global jobs). */
export function graphJobs(catalog: Catalog, graph: string | undefined): StoredJob[] {
  return catalog.jobs.filter((j) => j.graph === graph);
}

/** What a name is already used for, if anything (for "name already used" errors). */
export function nameUse(catalog: Catalog, name: string): string | undefined {
  if (findVertexType(catalog, name)) return 'vertex type';
  const e = findEdgeType(catalog, name);
  if (e) return e.reverse ? 'reverse edge type' : 'edge type';
  if (findTuple(catalog, name)) return 'tuple type';
  if (findGraph(catalog, name)) return 'graph';
  return undefined;
}
