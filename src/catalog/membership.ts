/**
 * Which vertex types an edge type connects (ALTER EDGE … ADD|DROP PAIR) and which global types a
 * graph uses (a global job's ADD … TO GRAPH / DROP … FROM GRAPH). Pure Catalog -> Catalog functions
 * that throw a CatalogError naming what is wrong.
 */
import { bump } from './ddl.js';
import { CatalogError } from './errors.js';
import { findGraph, findVertexType } from './lookup.js';
import type { Catalog, EdgePair, EdgeType, GraphDef } from './types.js';

function findEdge(catalog: Catalog, name: string, graph: string | undefined): EdgeType {
  const e = catalog.edgeTypes.find((x) => x.name === name);
  if (!e) throw new CatalogError(`The edge type '${name}' does not exist.`);
  if (e.graph !== graph) {
    throw new CatalogError(
      e.graph === undefined
        ? `The edge type '${name}' is global; change it with a global schema change job.`
        : `The edge type '${name}' is local to graph '${e.graph}'; change it in a job of that graph.`,
    );
  }
  return e;
}

function replaceEdge(catalog: Catalog, next: EdgeType): Catalog {
  return bump(catalog, { edgeTypes: catalog.edgeTypes.map((e) => (e.name === next.name ? next : e)) });
}

const samePair = (a: EdgePair, b: EdgePair): boolean => a.from === b.from && a.to === b.to;

/** ALTER EDGE e ADD PAIR (FROM a, TO b | …): the endpoints must be in the edge's scope. */
export function addEdgePairs(
  catalog: Catalog,
  edgeName: string,
  pairs: EdgePair[],
  graph: string | undefined,
): Catalog {
  const e = findEdge(catalog, edgeName, graph);
  const scope =
    graph === undefined
      ? catalog.vertexTypes.filter((v) => v.graph === undefined).map((v) => v.name)
      : (findGraph(catalog, graph)?.vertexTypes ?? []);
  const next = [...e.pairs];
  for (const p of pairs) {
    for (const name of [p.from, p.to]) {
      if (!findVertexType(catalog, name)) throw new CatalogError(`The vertex type '${name}' does not exist.`);
      if (!scope.includes(name)) {
        throw new CatalogError(
          `The vertex type '${name}' cannot be an endpoint of edge type '${edgeName}' here.`,
        );
      }
    }
    if (next.some((x) => samePair(x, p))) {
      throw new CatalogError(
        `The edge type '${edgeName}' already has the pair (FROM ${p.from}, TO ${p.to}).`,
      );
    }
    next.push(p);
  }
  return replaceEdge(catalog, { ...e, pairs: next });
}

/** ALTER EDGE e DROP PAIR (…): an edge type keeps at least one pair (drop the type instead). */
export function dropEdgePairs(
  catalog: Catalog,
  edgeName: string,
  pairs: EdgePair[],
  graph: string | undefined,
): Catalog {
  const e = findEdge(catalog, edgeName, graph);
  for (const p of pairs) {
    if (!e.pairs.some((x) => samePair(x, p))) {
      throw new CatalogError(`The edge type '${edgeName}' has no pair (FROM ${p.from}, TO ${p.to}).`);
    }
  }
  const kept = e.pairs.filter((x) => !pairs.some((p) => samePair(x, p)));
  if (kept.length === 0) {
    throw new CatalogError(
      `Dropping every pair of edge type '${edgeName}' would leave it empty; drop the edge type instead.`,
    );
  }
  return replaceEdge(catalog, { ...e, pairs: kept });
}

function requireGraph(catalog: Catalog, graph: string): GraphDef {
  const g = findGraph(catalog, graph);
  if (!g) throw new CatalogError(`Graph '${graph}' does not exist.`);
  return g;
}

/** ADD VERTEX|EDGE a, b TO GRAPH g: existing global types join a graph (an edge needs its endpoints there). */
export function addTypesToGraph(
  catalog: Catalog,
  graph: string,
  target: 'vertex' | 'edge',
  names: string[],
): Catalog {
  const g = requireGraph(catalog, graph);
  const members = target === 'vertex' ? [...g.vertexTypes] : [...g.edgeTypes];
  for (const n of names) {
    const t = target === 'vertex' ? findVertexType(catalog, n) : catalog.edgeTypes.find((e) => e.name === n);
    if (!t) throw new CatalogError(`The ${target} type '${n}' does not exist.`);
    if (t.graph !== undefined)
      throw new CatalogError(`The ${target} type '${n}' is local to graph '${t.graph}'.`);
    if (members.includes(n))
      throw new CatalogError(`Graph '${graph}' already has the ${target} type '${n}'.`);
    if (target === 'edge') {
      for (const p of (t as EdgeType).pairs) {
        for (const v of [p.from, p.to]) {
          if (!g.vertexTypes.includes(v)) {
            throw new CatalogError(
              `The edge type '${n}' connects vertex type '${v}', which is not in graph '${graph}'.`,
            );
          }
        }
      }
    }
    members.push(n);
  }
  const next: GraphDef = target === 'vertex' ? { ...g, vertexTypes: members } : { ...g, edgeTypes: members };
  return bump(catalog, { graphs: catalog.graphs.map((x) => (x.name === graph ? next : x)) });
}

/**
 * DROP VERTEX|EDGE a FROM GRAPH g: global types leave a graph but stay in the catalog. Edge types of
 * the graph that connect a vertex type leaving it leave with it.
 */
export function dropTypesFromGraph(
  catalog: Catalog,
  graph: string,
  target: 'vertex' | 'edge',
  names: string[],
): Catalog {
  const g = requireGraph(catalog, graph);
  const members = target === 'vertex' ? g.vertexTypes : g.edgeTypes;
  for (const n of names) {
    if (!members.includes(n)) throw new CatalogError(`Graph '${graph}' has no ${target} type '${n}'.`);
    const t = target === 'vertex' ? findVertexType(catalog, n) : catalog.edgeTypes.find((e) => e.name === n);
    if (t?.graph !== undefined) {
      throw new CatalogError(
        `The ${target} type '${n}' is local to graph '${graph}'; drop it with a schema change job of that graph.`,
      );
    }
  }
  const gone = new Set(names);
  const local = catalog.edgeTypes.find(
    (e) => e.graph === graph && e.pairs.some((p) => gone.has(p.from) || gone.has(p.to)),
  );
  if (target === 'vertex' && local) {
    throw new CatalogError(
      `The local edge type '${local.name}' of graph '${graph}' still uses a vertex type being removed.`,
    );
  }
  const next: GraphDef =
    target === 'edge'
      ? { ...g, edgeTypes: g.edgeTypes.filter((n) => !gone.has(n)) }
      : {
          ...g,
          vertexTypes: g.vertexTypes.filter((n) => !gone.has(n)),
          edgeTypes: g.edgeTypes.filter((n) => {
            const e = catalog.edgeTypes.find((x) => x.name === n);
            return !e || !e.pairs.some((p) => gone.has(p.from) || gone.has(p.to));
          }),
        };
  return bump(catalog, { graphs: catalog.graphs.map((x) => (x.name === graph ? next : x)) });
}
