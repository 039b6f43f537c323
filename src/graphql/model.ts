/**
 * The naming model of a graph's GraphQL schema (spec §2, reference A2), computed from the catalog
 * alone so the names can be tested without graphql-js: which vertex types the graph type lists,
 * and for each vertex type the edge fields it gets, with the object type each field returns.
 *
 * Edge shapes:
 * - a directed edge (and a reverse edge, under its declared name) is the object type `<e>`;
 * - an undirected edge between different types A and B is `From_A_<e>` (on A) and `From_B_<e>`
 *   (on B); an undirected self-edge stays `<e>`;
 * - an edge type with several FROM/TO pairs gets one field per target type, `<e>_To_<target>`, whose
 *   object type has the same name (prefixed `From_<source>_` for an undirected edge).
 */
import { graphTypes } from '../catalog/lookup.js';
import type { Attribute, Catalog, EdgePair, EdgeType, VertexType } from '../catalog/types.js';

/** One edge field of a vertex object type. */
export interface EdgeFieldModel {
  /** Field name on the vertex type. */
  field: string;
  /** The object type the list field returns. */
  objectType: string;
  /** The readable edge type name (a reverse edge's own name when reached through it). */
  edgeType: string;
  /** The stored edge type. */
  stored: EdgeType;
  /** True for a reverse edge type. */
  reverse: boolean;
  sourceType: string;
  targetType: string;
  /** The edge's attributes (the stored edge's). */
  attributes: Attribute[];
  /** Name of the edge filter input type (`<edge name>Filter`). */
  filterType: string;
  /** Name of the edge order input type. */
  orderType: string;
}

export interface VertexModel {
  type: VertexType;
  /** Attribute fields in schema order: the primary id first when it is an attribute. */
  attributes: Attribute[];
  edges: EdgeFieldModel[];
}

export interface GraphModel {
  graph: string;
  vertices: VertexModel[];
  /** Edge object types by name (several fields may share one). */
  edgeObjects: Map<string, EdgeFieldModel>;
  /** Readable edge types of the graph (forward and reverse) with their stored type. */
  edgeTypes: { name: string; stored: EdgeType; reverse: boolean }[];
}

/**
 * The attributes GraphQL shows for a vertex type: the primary id when it is an attribute, then the
 * rest. A type may also declare an attribute named like its primary id (`PRIMARY_ID pid STRING,
 * pid STRING`): that attribute is the one field, read from its own column.
 */
export function vertexAttributes(vt: VertexType): Attribute[] {
  if (
    vt.keyKind === 'primary_id' &&
    vt.primaryIdAsAttribute &&
    !vt.attributes.some((a) => a.name === vt.primaryId.name)
  ) {
    return [{ name: vt.primaryId.name, type: vt.primaryId.type }, ...vt.attributes];
  }
  return vt.attributes;
}

/**
 * The attribute field that reads the primary id itself (the `id` of `PRIMARY_ID id … WITH
 * primary_id_as_attribute`), or undefined when no attribute field is the id: a filter on it can
 * then look vertices up by id instead of scanning.
 */
export function idAttribute(vt: VertexType): string | undefined {
  if (vt.keyKind === 'composite') return undefined;
  if (vt.keyKind === 'primary_key') return vt.keyAttributes[0];
  return vt.primaryIdAsAttribute && !vt.attributes.some((a) => a.name === vt.primaryId.name)
    ? vt.primaryId.name
    : undefined;
}

/** The graph's naming model, or undefined when the graph does not exist. */
export function graphModel(catalog: Catalog, graph: string): GraphModel | undefined {
  const types = graphTypes(catalog, graph);
  if (!types) return undefined;
  const vertexNames = types.vertexTypes.map((v) => v.name);
  const expand = (pairs: EdgePair[]): EdgePair[] =>
    pairs.flatMap((p) => {
      const froms = p.from === '*' ? vertexNames : [p.from];
      const tos = p.to === '*' ? vertexNames : [p.to];
      return froms.flatMap((from) => tos.map((to) => ({ from, to })));
    });
  const edgeObjects = new Map<string, EdgeFieldModel>();
  const edgeTypes: GraphModel['edgeTypes'] = [];
  const fieldsOf = new Map<string, EdgeFieldModel[]>(vertexNames.map((n) => [n, []]));
  const add = (m: EdgeFieldModel): void => {
    const list = fieldsOf.get(m.sourceType);
    if (!list || !fieldsOf.has(m.targetType) || list.some((f) => f.field === m.field)) return;
    list.push(m);
    if (!edgeObjects.has(m.objectType)) edgeObjects.set(m.objectType, m);
  };
  for (const e of types.edgeTypes) {
    const pairs = expand(e.pairs);
    const several = e.pairs.length > 1 || pairs.length > 1;
    const make = (
      name: string,
      reverse: boolean,
      source: string,
      target: string,
      objectType: string,
    ): EdgeFieldModel => ({
      field: several ? `${name}_To_${target}` : name,
      objectType,
      edgeType: name,
      stored: e,
      reverse,
      sourceType: source,
      targetType: target,
      attributes: e.attributes,
      filterType: `${name}Filter`,
      orderType: `${name}OrderBy`,
    });
    edgeTypes.push({ name: e.name, stored: e, reverse: false });
    if (e.directed) {
      for (const p of pairs) {
        add(make(e.name, false, p.from, p.to, several ? `${e.name}_To_${p.to}` : e.name));
      }
      if (e.reverseEdge !== undefined) {
        const rev = e.reverseEdge;
        edgeTypes.push({ name: rev, stored: e, reverse: true });
        for (const p of pairs) add(make(rev, true, p.to, p.from, several ? `${rev}_To_${p.from}` : rev));
      }
      continue;
    }
    for (const p of pairs) {
      for (const [source, target] of p.from === p.to
        ? [[p.from, p.to]]
        : [
            [p.from, p.to],
            [p.to, p.from],
          ]) {
        const base = source === target ? e.name : `From_${source}_${e.name}`;
        add(make(e.name, false, source, target, several ? `${base}_To_${target}` : base));
      }
    }
  }
  return {
    graph,
    vertices: types.vertexTypes.map((type) => ({
      type,
      attributes: vertexAttributes(type),
      edges: fieldsOf.get(type.name) ?? [],
    })),
    edgeObjects,
    edgeTypes,
  };
}
