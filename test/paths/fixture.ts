/**
 * Generated graphs for the path-finding tests and a deliberately naive reference: exhaustive DFS
 * over a plain list of traversable arcs. It shares nothing with src/paths: filters are plain
 * JavaScript predicates written by hand from the same conditions.
 */
import { spawnSync } from 'node:child_process';
import type { Attribute, AttrType, Catalog, EdgeType, VertexType } from '../../src/catalog/types.js';
import { EMPTY_CATALOG } from '../../src/catalog/types.js';
import type { AttrUpdate, WriteTx } from '../../src/engine/api.js';

const INT: AttrType = { kind: 'INT', bytes: 8 };
const STRING: AttrType = { kind: 'STRING', compress: false };

function vtype(name: string, idType: AttrType, attributes: Attribute[]): VertexType {
  return {
    name,
    keyKind: 'primary_id',
    primaryId: { name: 'id', type: idType },
    keyAttributes: [],
    primaryIdAsAttribute: false,
    attributes,
    stats: 'OUTDEGREE_BY_EDGETYPE',
  };
}

function etype(
  name: string,
  directed: boolean,
  from: string,
  to: string,
  attributes: Attribute[],
  reverseEdge?: string,
): EdgeType {
  return {
    name,
    directed,
    pairs: [{ from, to }],
    attributes,
    discriminator: [],
    ...(reverseEdge ? { reverseEdge } : {}),
  };
}

/**
 * Graph 'g': person P (INT id; w, name, born) and topic Q (STRING id; score).
 * follows: P→P directed with reverse followed_by; knows: P–Q undirected; likes: Q→P directed, no
 * reverse; mutual: P–P undirected.
 */
export function pathCatalog(): Catalog {
  const vertexTypes = [
    vtype('P', INT, [
      { name: 'w', type: INT },
      { name: 'name', type: STRING },
      { name: 'born', type: { kind: 'DATETIME' } },
    ]),
    vtype('Q', STRING, [{ name: 'score', type: { kind: 'DOUBLE' } }]),
  ];
  const edgeTypes = [
    etype('follows', true, 'P', 'P', [{ name: 'weight', type: INT }], 'followed_by'),
    etype('knows', false, 'P', 'Q', [
      { name: 'since', type: INT },
      { name: 'kind', type: STRING },
    ]),
    etype('likes', true, 'Q', 'P', [{ name: 'stars', type: INT }]),
    etype('mutual', false, 'P', 'P', [{ name: 'level', type: INT }]),
  ];
  return {
    ...EMPTY_CATALOG,
    version: 1,
    vertexTypes,
    edgeTypes,
    graphs: [{ name: 'g', vertexTypes: ['P', 'Q'], edgeTypes: edgeTypes.map((e) => e.name) }],
  };
}

/** Deterministic small PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface GVertex {
  type: 'P' | 'Q';
  id: string;
  attrs: Record<string, number | string>;
}

export interface GEdge {
  type: string;
  fromType: 'P' | 'Q';
  from: string;
  toType: 'P' | 'Q';
  to: string;
  attrs: Record<string, number | string>;
}

export interface GenGraph {
  vertices: GVertex[];
  edges: GEdge[];
}

export const KINDS = ['work', 'school', 'club'];
export const JUNE_2020 = Date.UTC(2020, 5, 1) / 1000;

export function generate(seed: number, nP: number, nQ: number, nEdges: number): GenGraph {
  const r = rng(seed);
  const pick = (n: number): number => Math.floor(r() * n);
  const vertices: GVertex[] = [];
  for (let i = 0; i < nP; i++) {
    vertices.push({
      type: 'P',
      id: String(i),
      attrs: { w: pick(6), name: `p${i}`, born: JUNE_2020 + (pick(21) - 10) * 86400 * 10 },
    });
  }
  for (let i = 0; i < nQ; i++) vertices.push({ type: 'Q', id: `q${i}`, attrs: { score: pick(100) / 10 } });
  const seen = new Set<string>();
  const edges: GEdge[] = [];
  const p = (): string => String(pick(nP));
  const q = (): string => `q${pick(nQ)}`;
  while (edges.length < nEdges) {
    const k = pick(4);
    let e: GEdge;
    if (k === 0)
      e = { type: 'follows', fromType: 'P', from: p(), toType: 'P', to: p(), attrs: { weight: pick(100) } };
    else if (k === 1)
      e = {
        type: 'knows',
        fromType: 'P',
        from: p(),
        toType: 'Q',
        to: q(),
        attrs: { since: pick(10), kind: KINDS[pick(3)] },
      };
    else if (k === 2)
      e = { type: 'likes', fromType: 'Q', from: q(), toType: 'P', to: p(), attrs: { stars: pick(5) } };
    else e = { type: 'mutual', fromType: 'P', from: p(), toType: 'P', to: p(), attrs: { level: pick(3) } };
    // Without a discriminator a second edge of a type between the same pair updates the first.
    const ends = [`${e.fromType}:${e.from}`, `${e.toType}:${e.to}`];
    if (e.type === 'mutual') ends.sort();
    const key = `${e.type}|${ends.join('|')}`;
    if (seen.has(key)) continue;
    seen.add(key);
    edges.push(e);
  }
  return { vertices, edges };
}

function set(attrs: Record<string, number | string>): Record<string, AttrUpdate> {
  const out: Record<string, AttrUpdate> = {};
  for (const [k, v] of Object.entries(attrs)) out[k] = { value: v, op: 'set' };
  return out;
}

export function load(tx: WriteTx, g: GenGraph): void {
  for (const v of g.vertices) tx.upsertVertex(v.type, v.type === 'P' ? Number(v.id) : v.id, set(v.attrs));
  for (const e of g.edges) {
    const id = (t: string, x: string): string | number => (t === 'P' ? Number(x) : x);
    tx.upsertEdge(e.type, e.fromType, id(e.fromType, e.from), e.toType, id(e.toType, e.to), set(e.attrs), {
      createMissingEndpoints: false,
    });
  }
}

/** An arc the reference may walk: one stored edge read in one traversable direction. */
export interface Arc {
  name: string;
  from: string;
  to: string;
  edge: GEdge;
}

export function arcs(g: GenGraph): Arc[] {
  const out: Arc[] = [];
  for (const e of g.edges) {
    const a = `${e.fromType}:${e.from}`;
    const b = `${e.toType}:${e.to}`;
    out.push({ name: e.type, from: a, to: b, edge: e });
    if (e.type === 'follows') out.push({ name: 'followed_by', from: b, to: a, edge: e });
    if (e.type === 'knows' || e.type === 'mutual') out.push({ name: e.type, from: b, to: a, edge: e });
  }
  return out;
}

export interface Filters {
  vertex: (v: GVertex) => boolean;
  arc: (a: Arc) => boolean;
}

export const NO_FILTERS: Filters = { vertex: () => true, arc: () => true };

/** Signature of a path: its vertices and the names of its edges. */
export function signature(vertices: readonly string[], edgeNames: readonly string[]): string {
  return `${vertices.join(' ')} / ${edgeNames.join(' ')}`;
}

/** Every simple path of at most maxLength arcs from s to t (exhaustive DFS). */
export function referencePaths(g: GenGraph, f: Filters, s: string, t: string, maxLength: number): string[] {
  const byKey = new Map(g.vertices.map((v) => [`${v.type}:${v.id}`, v]));
  const ok = (k: string): boolean => f.vertex(byKey.get(k) as GVertex);
  const usable = arcs(g).filter((a) => f.arc(a) && ok(a.from) && ok(a.to));
  const out: string[] = [];
  if (!ok(s) || !ok(t)) return out;
  const vs = [s];
  const names: string[] = [];
  const dfs = (x: string): void => {
    if (x === t) out.push(signature(vs, names));
    if (names.length === maxLength) return;
    for (const a of usable) {
      if (a.from !== x || vs.includes(a.to)) continue;
      vs.push(a.to);
      names.push(a.name);
      dfs(a.to);
      vs.pop();
      names.pop();
    }
  };
  dfs(s);
  return out;
}

/** The shortest of the reference paths (every shortest walk is simple, so these are all of them). */
export function referenceShortest(paths: readonly string[]): string[] {
  const len = (p: string): number => p.split(' / ')[0].split(' ').length;
  const min = Math.min(...paths.map(len));
  return paths.filter((p) => len(p) === min);
}

export interface NxJob {
  g: GenGraph;
  f: Filters;
  pairs: [string, string][];
  maxLength: number;
}

export interface NxAnswer {
  /** Per pair: all simple paths as signatures. */
  all: string[][];
  /** Per pair: the vertex sequences of all shortest paths. */
  shortest: string[][];
}

const NX_SCRIPT = `
import json, sys
import networkx as nx
out = []
for d in json.load(sys.stdin):
    G = nx.MultiDiGraph()
    G.add_nodes_from(d["nodes"])
    for u, v, k in d["edges"]:
        G.add_edge(u, v, key=k)
    L = d["maxLength"]
    ans = {"all": [], "shortest": []}
    for s, t in d["pairs"]:
        ps = []
        if s in G and t in G:
            if s == t:
                ps.append(s + " / ")
            else:
                for p in nx.all_simple_edge_paths(G, s, t, cutoff=L):
                    ps.append(" ".join([p[0][0]] + [e[1] for e in p]) + " / " + " ".join(e[2] for e in p))
        ans["all"].append(sorted(ps))
        sp = []
        if s in G and t in G and nx.has_path(G, s, t) and nx.shortest_path_length(G, s, t) <= L:
            sp = sorted(" ".join(p) for p in nx.all_shortest_paths(G, s, t))
        ans["shortest"].append(sp)
    out.append(ans)
print(json.dumps(out))
`;
import { scaled } from '../timing.js';

/**
 * networkx's answers for the same arcs (one python process for all jobs), or undefined when python3
 * with networkx is missing.
 */
export function networkxPaths(jobs: readonly NxJob[]): NxAnswer[] | undefined {
  const probe = spawnSync('python3', ['-c', 'import networkx'], { encoding: 'utf8' });
  if (probe.status !== 0) return undefined;
  const input = jobs.map(({ g, f, pairs, maxLength }) => {
    const byKey = new Map(g.vertices.map((v) => [`${v.type}:${v.id}`, v]));
    const nodes = [...byKey.keys()].filter((k) => f.vertex(byKey.get(k) as GVertex));
    const live = new Set(nodes);
    const edges = arcs(g)
      .filter((a) => f.arc(a) && live.has(a.from) && live.has(a.to))
      .map((a) => [a.from, a.to, a.name]);
    return { nodes, edges, pairs, maxLength };
  });
  const res = spawnSync('python3', ['-c', NX_SCRIPT], {
    input: JSON.stringify(input),
    encoding: 'utf8',
    timeout: scaled(60_000),
  });
  if (res.status !== 0) throw new Error(`networkx failed: ${res.stderr}`);
  return JSON.parse(res.stdout) as NxAnswer[];
}
