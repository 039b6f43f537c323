/**
 * Creating and dropping schema objects: pure functions from a Catalog to the next Catalog (version
 * bumped) that throw a CatalogError, naming what is wrong, when a TigerGraph rule is broken.
 *
 * Scope: a type with `graph` set is local to that graph; otherwise it is global. `mode: 'statement'`
 * is a top-level DROP (refuses to drop what is still in use); `mode: 'job'` is a schema change job,
 * which takes dependent edges (or edge pairs) along, as TigerGraph does.
 */
import { checkAttributeType, checkPrimaryIdType, checkTupleFieldType, typeText } from './attr-types.js';
import { parseDefaultLiteral } from './defaults.js';
import { CatalogError } from './errors.js';
import { findGraph, findVertexType, nameUse } from './lookup.js';
import {
  EMPTY_CATALOG,
  type Attribute,
  type Catalog,
  type EdgePair,
  type EdgeType,
  type GraphDef,
  type TupleType,
  type VertexType,
} from './types.js';

export interface DropScope {
  /** The graph of a local schema change job; undefined for global statements and global jobs. */
  graph?: string;
  mode: 'statement' | 'job';
}

const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const STATS_VALUES = new Set(['OUTDEGREE_BY_EDGETYPE', 'NONE']);
const DISCRIMINATOR_KINDS = new Set(['INT', 'UINT', 'STRING', 'DATETIME']);

export function bump(catalog: Catalog, changes: Partial<Catalog>): Catalog {
  return { ...catalog, ...changes, version: catalog.version + 1 };
}

export function checkNewName(catalog: Catalog, name: string, what: string): void {
  if (!NAME_RE.test(name)) throw new CatalogError(`'${name}' is not a valid ${what} name.`);
  const use = nameUse(catalog, name);
  // "already exists" is what clients (pyTigerGraph) look for in a failed statement's output.
  if (use === what) throw new CatalogError(`The ${what} '${name}' already exists.`);
  if (use) {
    const article = /^[aeiou]/.test(use) ? 'an' : 'a';
    throw new CatalogError(
      `The name '${name}' already exists as ${article} ${use}; it cannot name a ${what}.`,
    );
  }
}

function requireGraph(catalog: Catalog, graph: string): GraphDef {
  const g = findGraph(catalog, graph);
  if (!g) throw new CatalogError(`Graph '${graph}' does not exist.`);
  return g;
}

/** Checks attribute names (unique, not in `taken`), types and DEFAULT values. */
export function checkAttributes(
  catalog: Catalog,
  attrs: Attribute[],
  owner: string,
  taken: string[] = [],
): void {
  const seen = new Set(taken);
  for (const a of attrs) {
    const where = `Attribute '${a.name}' of ${owner}`;
    if (!NAME_RE.test(a.name)) throw new CatalogError(`${where}: not a valid attribute name.`);
    if (seen.has(a.name))
      throw new CatalogError(`${owner} declares the attribute '${a.name}' more than once.`);
    seen.add(a.name);
    checkAttributeType(catalog, a.type, where);
    if (a.defaultLiteral !== undefined) {
      try {
        parseDefaultLiteral(a.type, a.defaultLiteral);
      } catch (e) {
        if (e instanceof CatalogError) throw new CatalogError(`${where}: ${e.message}`);
        throw e;
      }
    }
  }
}

function withMember(
  catalog: Catalog,
  graph: string | undefined,
  kind: 'vertex' | 'edge',
  name: string,
): GraphDef[] {
  if (graph === undefined) return catalog.graphs;
  return catalog.graphs.map((g) =>
    g.name !== graph
      ? g
      : kind === 'vertex'
        ? { ...g, vertexTypes: [...g.vertexTypes, name] }
        : { ...g, edgeTypes: [...g.edgeTypes, name] },
  );
}

export function createTupleType(catalog: Catalog, t: TupleType): Catalog {
  checkNewName(catalog, t.name, 'tuple type');
  if (t.fields.length === 0) throw new CatalogError(`Tuple type '${t.name}' has no fields.`);
  const seen = new Set<string>();
  for (const f of t.fields) {
    if (seen.has(f.name))
      throw new CatalogError(`Tuple type '${t.name}' declares the field '${f.name}' twice.`);
    seen.add(f.name);
    checkTupleFieldType(f.type, `Field '${f.name}' of tuple type '${t.name}'`);
  }
  return bump(catalog, { tuples: [...catalog.tuples, t] });
}

export function createVertexType(catalog: Catalog, v: VertexType): Catalog {
  checkNewName(catalog, v.name, 'vertex type');
  if (v.graph !== undefined) requireGraph(catalog, v.graph);
  const owner = `vertex type '${v.name}'`;
  checkAttributes(catalog, v.attributes, owner);
  if (v.keyKind === 'primary_id') {
    if (!NAME_RE.test(v.primaryId.name))
      throw new CatalogError(`${owner}: '${v.primaryId.name}' is not a valid name.`);
    checkPrimaryIdType(v.primaryId.type, `The primary id '${v.primaryId.name}' of ${owner}`);
  } else {
    if (v.keyAttributes.length === 0) throw new CatalogError(`${owner} has no primary key.`);
    if (v.keyKind === 'primary_key' && v.keyAttributes.length !== 1) {
      throw new CatalogError(`${owner}: a PRIMARY KEY attribute must be a single attribute.`);
    }
    const seen = new Set<string>();
    for (const k of v.keyAttributes) {
      const a = v.attributes.find((x) => x.name === k);
      if (!a) throw new CatalogError(`${owner}: the primary key attribute '${k}' is not declared.`);
      if (seen.has(k)) throw new CatalogError(`${owner}: the primary key lists '${k}' twice.`);
      seen.add(k);
      checkPrimaryIdType(a.type, `The primary key attribute '${k}' of ${owner}`);
    }
  }
  if (!STATS_VALUES.has(v.stats)) {
    throw new CatalogError(`${owner}: STATS must be "OUTDEGREE_BY_EDGETYPE" or "NONE", not "${v.stats}".`);
  }
  return bump(catalog, {
    vertexTypes: [...catalog.vertexTypes, v],
    graphs: withMember(catalog, v.graph, 'vertex', v.name),
  });
}

/** Vertex type names an edge declared in this scope may connect. */
function vertexScope(catalog: Catalog, graph: string | undefined): string[] {
  if (graph === undefined) return catalog.vertexTypes.filter((v) => v.graph === undefined).map((v) => v.name);
  return requireGraph(catalog, graph).vertexTypes;
}

/** Expands `*` endpoints to every vertex type in scope and removes repeated pairs. */
function expandPairs(catalog: Catalog, e: EdgeType): EdgePair[] {
  const scope = vertexScope(catalog, e.graph);
  const out: EdgePair[] = [];
  const owner = `edge type '${e.name}'`;
  for (const p of e.pairs) {
    for (const [end, name] of [
      ['FROM', p.from],
      ['TO', p.to],
    ] as const) {
      if (name === '*') continue;
      if (!findVertexType(catalog, name))
        throw new CatalogError(`${owner}: the ${end} vertex type '${name}' does not exist.`);
      if (!scope.includes(name)) {
        throw new CatalogError(
          e.graph === undefined
            ? `${owner}: the ${end} vertex type '${name}' is local to a graph; a global edge type can only use global vertex types.`
            : `${owner}: the ${end} vertex type '${name}' is not in graph '${e.graph}'.`,
        );
      }
    }
    const froms = p.from === '*' ? scope : [p.from];
    const tos = p.to === '*' ? scope : [p.to];
    for (const from of froms) {
      for (const to of tos) {
        if (!out.some((x) => x.from === from && x.to === to)) out.push({ from, to });
      }
    }
  }
  if (out.length === 0) throw new CatalogError(`${owner}: there is no vertex type for its FROM * / TO *.`);
  return out;
}

export function createEdgeType(catalog: Catalog, e: EdgeType): Catalog {
  checkNewName(catalog, e.name, 'edge type');
  if (e.graph !== undefined) requireGraph(catalog, e.graph);
  const owner = `edge type '${e.name}'`;
  if (e.reverseEdge !== undefined) {
    if (!e.directed) throw new CatalogError(`${owner}: an UNDIRECTED edge type cannot have a REVERSE_EDGE.`);
    if (e.reverseEdge === e.name)
      throw new CatalogError(`${owner}: the reverse edge needs a name of its own.`);
    checkNewName(catalog, e.reverseEdge, 'reverse edge type');
  }
  const pairs = expandPairs(catalog, e);
  checkAttributes(catalog, e.attributes, owner);
  const seen = new Set<string>();
  for (const d of e.discriminator) {
    const a = e.attributes.find((x) => x.name === d);
    if (!a) throw new CatalogError(`${owner}: the discriminator attribute '${d}' is not declared.`);
    if (seen.has(d)) throw new CatalogError(`${owner}: the discriminator lists '${d}' twice.`);
    seen.add(d);
    if (!DISCRIMINATOR_KINDS.has(a.type.kind)) {
      throw new CatalogError(
        `${owner}: the discriminator attribute '${d}' is ${typeText(a.type)}; it must be INT, UINT, STRING or DATETIME.`,
      );
    }
  }
  const edge: EdgeType = { ...e, pairs };
  return bump(catalog, {
    edgeTypes: [...catalog.edgeTypes, edge],
    graphs: withMember(catalog, e.graph, 'edge', e.name),
  });
}

/** CREATE GRAPH g(*) takes every global type; a list names global vertex and edge types. */
export function createGraph(catalog: Catalog, name: string, members: '*' | string[]): Catalog {
  checkNewName(catalog, name, 'graph');
  let vertexTypes: string[];
  let edgeTypes: string[];
  if (members === '*') {
    vertexTypes = catalog.vertexTypes.filter((v) => v.graph === undefined).map((v) => v.name);
    edgeTypes = catalog.edgeTypes.filter((e) => e.graph === undefined).map((e) => e.name);
  } else {
    vertexTypes = [];
    edgeTypes = [];
    for (const m of members) {
      const v = catalog.vertexTypes.find((x) => x.name === m);
      const e = catalog.edgeTypes.find((x) => x.name === m || x.reverseEdge === m);
      const found = v ?? e;
      if (!found) throw new CatalogError(`Graph '${name}': the vertex or edge type '${m}' does not exist.`);
      if (found.graph !== undefined) {
        throw new CatalogError(`Graph '${name}': '${m}' is a local type of graph '${found.graph}'.`);
      }
      if (v && !vertexTypes.includes(v.name)) vertexTypes.push(v.name);
      if (e && !edgeTypes.includes(e.name)) edgeTypes.push(e.name);
    }
    for (const en of edgeTypes) {
      const e = catalog.edgeTypes.find((x) => x.name === en) as EdgeType;
      for (const p of e.pairs) {
        for (const vt of [p.from, p.to]) {
          if (!vertexTypes.includes(vt)) {
            throw new CatalogError(
              `Graph '${name}': the edge type '${en}' connects vertex type '${vt}', which is not in the graph.`,
            );
          }
        }
      }
    }
  }
  return bump(catalog, { graphs: [...catalog.graphs, { name, vertexTypes, edgeTypes }] });
}

/** Drops a graph with its local types and its jobs; global types stay. */
export function dropGraph(catalog: Catalog, name: string): Catalog {
  requireGraph(catalog, name);
  return bump(catalog, {
    graphs: catalog.graphs.filter((g) => g.name !== name),
    vertexTypes: catalog.vertexTypes.filter((v) => v.graph !== name),
    edgeTypes: catalog.edgeTypes.filter((e) => e.graph !== name),
    jobs: catalog.jobs.filter((j) => j.graph !== name),
    ...(catalog.queries ? { queries: catalog.queries.filter((q) => q.graph !== name) } : {}),
  });
}

/** DROP ALL: every graph, type, tuple, job and query; users, roles and secrets are not schema and stay (as in TigerGraph). */
export function dropAll(catalog: Catalog): Catalog {
  const next: Catalog = { ...EMPTY_CATALOG, version: catalog.version + 1 };
  if (catalog.security) next.security = catalog.security;
  return next;
}

function checkScope(t: { name: string; graph?: string }, what: string, scope: DropScope): void {
  if (scope.graph !== undefined && t.graph !== scope.graph) {
    throw new CatalogError(
      t.graph === undefined
        ? `The ${what} '${t.name}' is global; change it with a global schema change job.`
        : `The ${what} '${t.name}' belongs to graph '${t.graph}', not '${scope.graph}'.`,
    );
  }
  if (scope.graph === undefined && t.graph !== undefined) {
    throw new CatalogError(
      `The ${what} '${t.name}' is local to graph '${t.graph}'; change it with a schema change job of that graph.`,
    );
  }
}

/** Removes vertex types; in a job, edge pairs using them go too (an edge left without pairs is dropped). */
export function dropVertexTypes(catalog: Catalog, names: string[], scope: DropScope): Catalog {
  for (const n of names) {
    const v = findVertexType(catalog, n);
    if (!v) throw new CatalogError(`The vertex type '${n}' does not exist.`);
    checkScope(v, 'vertex type', scope);
    if (scope.mode === 'statement') {
      const g = catalog.graphs.find((x) => x.vertexTypes.includes(n));
      if (g)
        throw new CatalogError(`The vertex type '${n}' is used by graph '${g.name}'; it cannot be dropped.`);
      const e = catalog.edgeTypes.find((x) => x.pairs.some((p) => p.from === n || p.to === n));
      if (e)
        throw new CatalogError(`The vertex type '${n}' is used by edge type '${e.name}'; drop that first.`);
    }
  }
  const gone = new Set(names);
  const edgeTypes: EdgeType[] = [];
  const droppedEdges = new Set<string>();
  for (const e of catalog.edgeTypes) {
    const pairs = e.pairs.filter((p) => !gone.has(p.from) && !gone.has(p.to));
    if (pairs.length === 0) droppedEdges.add(e.name);
    else edgeTypes.push(pairs.length === e.pairs.length ? e : { ...e, pairs });
  }
  return bump(catalog, {
    vertexTypes: catalog.vertexTypes.filter((v) => !gone.has(v.name)),
    edgeTypes,
    graphs: catalog.graphs.map((g) => ({
      ...g,
      vertexTypes: g.vertexTypes.filter((n) => !gone.has(n)),
      edgeTypes: g.edgeTypes.filter((n) => !droppedEdges.has(n)),
    })),
  });
}

export function dropEdgeTypes(catalog: Catalog, names: string[], scope: DropScope): Catalog {
  for (const n of names) {
    const e = catalog.edgeTypes.find((x) => x.name === n);
    if (!e) {
      const rev = catalog.edgeTypes.find((x) => x.reverseEdge === n);
      throw new CatalogError(
        rev
          ? `'${n}' is the reverse edge of '${rev.name}'; drop the edge type '${rev.name}' instead.`
          : `The edge type '${n}' does not exist.`,
      );
    }
    checkScope(e, 'edge type', scope);
    if (scope.mode === 'statement') {
      const g = catalog.graphs.find((x) => x.edgeTypes.includes(n));
      if (g)
        throw new CatalogError(`The edge type '${n}' is used by graph '${g.name}'; it cannot be dropped.`);
    }
  }
  const gone = new Set(names);
  return bump(catalog, {
    edgeTypes: catalog.edgeTypes.filter((e) => !gone.has(e.name)),
    graphs: catalog.graphs.map((g) => ({ ...g, edgeTypes: g.edgeTypes.filter((n) => !gone.has(n)) })),
  });
}

function usesTuple(t: Attribute['type'], name: string): boolean {
  switch (t.kind) {
    case 'UDT':
      return t.name === name;
    case 'LIST':
    case 'SET':
      return usesTuple(t.element, name);
    case 'MAP':
      return usesTuple(t.key, name) || usesTuple(t.value, name);
    default:
      return false;
  }
}

export function dropTupleTypes(catalog: Catalog, names: string[]): Catalog {
  for (const n of names) {
    if (!catalog.tuples.some((t) => t.name === n))
      throw new CatalogError(`The tuple type '${n}' does not exist.`);
    for (const owner of [...catalog.vertexTypes, ...catalog.edgeTypes]) {
      const a = owner.attributes.find((x) => usesTuple(x.type, n));
      if (a) {
        throw new CatalogError(`The tuple type '${n}' is used by attribute '${a.name}' of '${owner.name}'.`);
      }
    }
  }
  return bump(catalog, { tuples: catalog.tuples.filter((t) => !names.includes(t.name)) });
}
