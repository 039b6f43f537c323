/**
 * The `where` input types. `<V>Filter` has one member per filterable attribute with the comparison
 * operators of its scalar, `_id` (the primary id), one neighbour member per edge field
 * (`knows: {_some: …, _none: …, _all: …}` over `<edge object>_exp`, which filters the edge's
 * attributes and its `to` vertex), and `_and`, `_or`, `_not`. `<e>Filter`, the `where` of edge
 * fields, has the edge's attributes and the logical members (TigerGraph's shape).
 */
import {
  GraphQLBoolean,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLString,
  type GraphQLInputFieldConfigMap,
  type GraphQLScalarType,
} from 'graphql';
import type { Attribute, VertexType } from '../catalog/types.js';
import type { EdgeFieldModel } from './model.js';
import { isFilterable, scalarOf } from './scalars.js';

const comparisonTypes = new Map<string, GraphQLInputObjectType>();

/**
 * `<Scalar>_comparison_exp`: the operators of one scalar (shared by every filter using it). There
 * is no `_is_null`: attributes always hold a value (TigerGraph has no NULL attributes).
 */
export function comparisonType(s: GraphQLScalarType): GraphQLInputObjectType {
  let t = comparisonTypes.get(s.name);
  if (t) return t;
  const fields: GraphQLInputFieldConfigMap = {};
  // Booleans have no order: only equality for them.
  const ops = s === GraphQLBoolean ? ['_eq', '_neq'] : ['_eq', '_neq', '_lt', '_lte', '_gt', '_gte'];
  for (const op of ops) fields[op] = { type: s };
  fields._in = { type: new GraphQLList(new GraphQLNonNull(s)) };
  fields._nin = { type: new GraphQLList(new GraphQLNonNull(s)) };
  if (s === GraphQLString)
    fields._like = { type: GraphQLString, description: 'GSQL LIKE: % any run, _ one character.' };
  t = new GraphQLInputObjectType({ name: `${s.name}_comparison_exp`, fields });
  comparisonTypes.set(s.name, t);
  return t;
}

/** The scalar of a vertex type's primary id (`_id`): composite keys are their comma-joined text. */
export function idScalar(vt: VertexType): GraphQLScalarType {
  return vt.keyKind === 'composite' ? GraphQLString : (scalarOf(vt.primaryId.type) ?? GraphQLString);
}

function attributeMembers(attributes: readonly Attribute[]): GraphQLInputFieldConfigMap {
  const fields: GraphQLInputFieldConfigMap = {};
  for (const a of attributes) {
    const s = scalarOf(a.type);
    if (s && isFilterable(a.type)) fields[a.name] = { type: comparisonType(s) };
  }
  return fields;
}

/** An input object with `members()` and the logical members over itself. */
function logicalType(
  name: string,
  members: () => GraphQLInputFieldConfigMap,
  description?: string,
): GraphQLInputObjectType {
  const self: GraphQLInputObjectType = new GraphQLInputObjectType({
    name,
    ...(description ? { description } : {}),
    fields: () => ({
      ...members(),
      _and: { type: new GraphQLList(new GraphQLNonNull(self)) },
      _or: { type: new GraphQLList(new GraphQLNonNull(self)) },
      _not: { type: self },
    }),
  });
  return self;
}

/** `<e>Filter`: the where of an edge field, over the edge's attributes. */
export function edgeFilterType(name: string, attributes: readonly Attribute[]): GraphQLInputObjectType {
  return logicalType(name, () => attributeMembers(attributes));
}

/** What the vertex filter builder needs from the schema build. */
export interface FilterTypeSource {
  vertexFilter(vertexType: string): GraphQLInputObjectType;
  /** The neighbour members' types are shared per edge object type. */
  readonly relations: Map<string, GraphQLInputObjectType>;
}

/** `<object>_exp`: one edge of a neighbour filter (its attributes and its `to` vertex). */
function edgeExpType(src: FilterTypeSource, em: EdgeFieldModel): GraphQLInputObjectType {
  return logicalType(
    `${em.objectType}_exp`,
    () => ({
      ...attributeMembers(em.attributes),
      to: { type: src.vertexFilter(em.targetType) },
    }),
    `An edge of ${em.objectType} and its to vertex, for neighbour filters.`,
  );
}

/** `<object>_rel_exp`: whether some, none or all of a vertex's edges of a field match. */
function relationType(src: FilterTypeSource, em: EdgeFieldModel): GraphQLInputObjectType {
  let t = src.relations.get(em.objectType);
  if (t) return t;
  const exp = edgeExpType(src, em);
  t = new GraphQLInputObjectType({
    name: `${em.objectType}_rel_exp`,
    fields: {
      _some: { type: exp, description: 'At least one edge matches.' },
      _none: { type: exp, description: 'No edge matches.' },
      _all: { type: exp, description: 'Every edge matches (true without edges).' },
    },
  });
  src.relations.set(em.objectType, t);
  return t;
}

/** `<V>Filter`: `_id`, the attributes, the neighbour members, `_and`, `_or`, `_not`. */
export function vertexFilterType(
  src: FilterTypeSource,
  vt: VertexType,
  attributes: readonly Attribute[],
  edges: readonly EdgeFieldModel[],
): GraphQLInputObjectType {
  return logicalType(`${vt.name}Filter`, () => {
    const fields: GraphQLInputFieldConfigMap = { _id: { type: comparisonType(idScalar(vt)) } };
    Object.assign(fields, attributeMembers(attributes));
    for (const em of edges) if (!(em.field in fields)) fields[em.field] = { type: relationType(src, em) };
    return fields;
  });
}
