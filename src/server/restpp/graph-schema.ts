/**
 * Schema look-ups the graph data endpoints share: which vertex and edge types a graph has (reverse
 * edge types included), an edge type's endpoint pairs, and attribute-type maps for filters.
 */
import type { AttrType, Catalog, EdgeType, GraphDef, VertexType } from '../../catalog/types.js';
import type { AttrTypes } from './graph-filter.js';

/** An edge type as a name resolves: the stored type, read backwards when the name is its reverse edge. */
export interface ResolvedEdgeType {
  /** The name the client used. */
  name: string;
  edge: EdgeType;
  /** True when `name` is the reverse edge type of `edge`: FROM and TO are swapped. */
  reverse: boolean;
}

export function findGraph(catalog: Catalog, graph: string): GraphDef | undefined {
  return catalog.graphs.find((g) => g.name === graph);
}

/** The vertex type `name` if the graph has it. */
export function graphVertexType(catalog: Catalog, graph: GraphDef, name: string): VertexType | undefined {
  if (!graph.vertexTypes.includes(name)) return undefined;
  return catalog.vertexTypes.find((v) => v.name === name);
}

/** The graph's vertex types in the order they were added. */
export function graphVertexTypes(catalog: Catalog, graph: GraphDef): VertexType[] {
  return graph.vertexTypes
    .map((n) => catalog.vertexTypes.find((v) => v.name === n))
    .filter((v): v is VertexType => v !== undefined);
}

/** The graph's edge types, each directed one followed by its reverse edge type when it has one. */
export function graphEdgeTypes(catalog: Catalog, graph: GraphDef): ResolvedEdgeType[] {
  const out: ResolvedEdgeType[] = [];
  const seen = new Set<string>();
  for (const name of graph.edgeTypes) {
    const r = resolveEdgeType(catalog, graph, name);
    if (!r || seen.has(name)) continue;
    seen.add(name);
    out.push(r);
    if (!r.reverse && r.edge.reverseEdge && !seen.has(r.edge.reverseEdge)) {
      seen.add(r.edge.reverseEdge);
      out.push({ name: r.edge.reverseEdge, edge: r.edge, reverse: true });
    }
  }
  return out;
}

/** Resolves an edge type name of the graph; a reverse edge name resolves to its forward type. */
export function resolveEdgeType(
  catalog: Catalog,
  graph: GraphDef,
  name: string,
): ResolvedEdgeType | undefined {
  // A reverse edge name resolves to its forward type first, as the engine reads it.
  const forward = catalog.edgeTypes.find((e) => e.directed && e.reverseEdge === name);
  if (forward)
    return graph.edgeTypes.includes(forward.name) ? { name, edge: forward, reverse: true } : undefined;
  const direct = catalog.edgeTypes.find((e) => e.name === name);
  return direct && graph.edgeTypes.includes(name) ? { name, edge: direct, reverse: false } : undefined;
}

function pairMatches(pattern: string, type: string): boolean {
  return pattern === '*' || pattern === type;
}

/**
 * Whether an edge read as `et` may go from `src` to `tgt`: a declared pair (swapped for a reverse
 * edge type); an undirected edge may be given in either orientation.
 */
export function edgeAllowsPair(et: ResolvedEdgeType, src: string, tgt: string): boolean {
  const [a, b] = et.reverse ? [tgt, src] : [src, tgt];
  return et.edge.pairs.some(
    (p) =>
      (pairMatches(p.from, a) && pairMatches(p.to, b)) ||
      (!et.edge.directed && pairMatches(p.from, b) && pairMatches(p.to, a)),
  );
}

/** Whether an edge read as `et` can start at a vertex of type `src`. */
export function edgeLeaves(et: ResolvedEdgeType, src: string): boolean {
  return et.edge.pairs.some((p) => {
    const from = et.reverse ? p.to : p.from;
    const to = et.reverse ? p.from : p.to;
    return pairMatches(from, src) || (!et.edge.directed && pairMatches(to, src));
  });
}

/** Attribute name → type of a vertex type (the primary id too when it is an attribute). */
/** Per vertex type object (catalogs are replaced, never changed in place): built once, read per request. */
const vertexAttrTypesOf = new WeakMap<VertexType, AttrTypes>();

export function vertexAttrTypes(vt: VertexType): AttrTypes {
  let m = vertexAttrTypesOf.get(vt);
  if (m) return m;
  const built = new Map<string, AttrType>();
  if (vt.keyKind === 'primary_id' && vt.primaryIdAsAttribute) built.set(vt.primaryId.name, vt.primaryId.type);
  for (const a of vt.attributes) built.set(a.name, a.type);
  vertexAttrTypesOf.set(vt, (m = built));
  return m;
}

export function edgeAttrTypes(et: EdgeType): AttrTypes {
  return new Map(et.attributes.map((a) => [a.name, a.type]));
}
