/**
 * The graph inside a result: every vertex object (`v_id` and `v_type`) and edge object
 * (`e_type`, `from_type`/`from_id`, `to_type`/`to_id`) found anywhere in the JSON — vertex sets,
 * edge sets, paths, accumulators holding either — merged by identity. An edge whose ends were not
 * printed brings its ends as vertices without attributes. A reverse edge is drawn as the edge it
 * mirrors, and the two directions of an undirected edge are one edge.
 */

export interface GraphVertex {
  /** `type:id`, unique in a graph. */
  key: string;
  type: string;
  id: string;
  /** Undefined until known (an edge's end, a neighbour added by expanding). */
  attributes?: Record<string, unknown>;
}

export interface GraphEdge {
  key: string;
  type: string;
  source: string;
  target: string;
  directed: boolean;
  attributes: Record<string, unknown>;
}

export interface GraphData {
  vertices: Map<string, GraphVertex>;
  edges: Map<string, GraphEdge>;
}

export function emptyGraph(): GraphData {
  return { vertices: new Map(), edges: new Map() };
}

export function vertexKey(type: string, id: string): string {
  return `${type}:${id}`;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const idText = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'bigint' ? String(v) : undefined;

function asVertex(o: Json): { type: string; id: string; attributes?: Json } | undefined {
  const id = idText(o.v_id);
  if (id === undefined || typeof o.v_type !== 'string') return undefined;
  return { type: o.v_type, id, ...(isObject(o.attributes) ? { attributes: o.attributes } : {}) };
}

/** The stable JSON of a value, object keys sorted, for telling edges apart. */
function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (isObject(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

export interface RawEdge {
  e_type: string;
  from_type: string;
  from_id: string;
  to_type: string;
  to_id: string;
  directed?: boolean;
  attributes?: Json;
}

function asEdge(o: Json): RawEdge | undefined {
  const from = idText(o.from_id);
  const to = idText(o.to_id);
  if (typeof o.e_type !== 'string' || typeof o.from_type !== 'string' || typeof o.to_type !== 'string')
    return undefined;
  if (from === undefined || to === undefined) return undefined;
  return {
    e_type: o.e_type,
    from_type: o.from_type,
    from_id: from,
    to_type: o.to_type,
    to_id: to,
    ...(typeof o.directed === 'boolean' ? { directed: o.directed } : {}),
    ...(isObject(o.attributes) ? { attributes: o.attributes } : {}),
  };
}

/** Adds a vertex, merging attributes into one already there. Returns its key. */
export function addVertex(g: GraphData, type: string, id: string, attributes?: Json): string {
  const key = vertexKey(type, id);
  const known = g.vertices.get(key);
  if (!known)
    g.vertices.set(key, { key, type, id, ...(attributes ? { attributes: { ...attributes } } : {}) });
  else if (attributes) known.attributes = { ...(known.attributes ?? {}), ...attributes };
  return key;
}

/** Adds an edge (and its ends); `reverseOf` maps a reverse edge type to its forward type. */
export function addEdge(g: GraphData, raw: RawEdge, reverseOf: ReadonlyMap<string, string>): string {
  const forward = reverseOf.get(raw.e_type);
  const [type, s, t] =
    forward === undefined
      ? [raw.e_type, [raw.from_type, raw.from_id], [raw.to_type, raw.to_id]]
      : [forward, [raw.to_type, raw.to_id], [raw.from_type, raw.from_id]];
  const source = addVertex(g, s[0], s[1]);
  const target = addVertex(g, t[0], t[1]);
  const directed = forward !== undefined || raw.directed !== false;
  const ends = directed || source <= target ? `${source}->${target}` : `${target}->${source}`;
  const attributes = raw.attributes ?? {};
  const key = `${type}|${ends}|${stableJson(attributes)}`;
  if (!g.edges.has(key))
    g.edges.set(key, { key, type, source, target, directed, attributes: { ...attributes } });
  return key;
}

/** Adds everything a result holds; returns the keys of the vertices and edges it named. */
export function addResult(
  g: GraphData,
  result: unknown,
  reverseOf: ReadonlyMap<string, string> = new Map(),
): { vertices: string[]; edges: string[] } {
  const named = { vertices: new Set<string>(), edges: new Set<string>() };
  const visit = (v: unknown, depth: number): void => {
    if (depth > 64) return;
    if (Array.isArray(v)) {
      for (const item of v) visit(item, depth + 1);
      return;
    }
    if (!isObject(v)) return;
    const vertex = asVertex(v);
    if (vertex) {
      named.vertices.add(addVertex(g, vertex.type, vertex.id, vertex.attributes));
      return;
    }
    const edge = asEdge(v);
    if (edge) {
      named.edges.add(addEdge(g, edge, reverseOf));
      return;
    }
    for (const value of Object.values(v)) visit(value, depth + 1);
  };
  visit(result, 0);
  return { vertices: [...named.vertices], edges: [...named.edges] };
}

/** The graph of a whole result. */
export function resultGraph(result: unknown, reverseOf: ReadonlyMap<string, string> = new Map()): GraphData {
  const g = emptyGraph();
  addResult(g, result, reverseOf);
  return g;
}
