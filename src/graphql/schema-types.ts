/**
 * What one schema build shares between the query types (schema.ts), the aggregate, connection and
 * subscription types (schema-extras.ts) and the mutations: the model, the types made so far, and
 * the argument and attribute-field helpers. The schema carries types only: requests run through the
 * plan (compile-plan.ts), never through per-field resolvers.
 */
import {
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLString,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  type GraphQLInputObjectType,
  type GraphQLObjectType,
} from 'graphql';
import type { Attribute, Catalog } from '../catalog/types.js';
import type { GraphModel, VertexModel } from './model.js';
import { outputTypeOf } from './scalars.js';

/** The types one schema build creates, shared with the mutation builder. */
export interface SchemaTypes {
  catalog: Catalog;
  model: GraphModel;
  vertexTypes: Map<string, GraphQLObjectType>;
  vertexModels: Map<string, VertexModel>;
  filters: Map<string, GraphQLInputObjectType>;
  orders: Map<string, GraphQLInputObjectType | undefined>;
  edgeObjects: Map<string, GraphQLObjectType>;
  /** Neighbour-filter input types, by edge object type. */
  relations: Map<string, GraphQLInputObjectType>;
}

export function filterArgs(types: SchemaTypes, filter: string): GraphQLFieldConfigArgumentMap {
  return {
    where: { type: types.filters.get(filter) as GraphQLInputObjectType },
    whereExpr: { type: GraphQLString },
  };
}

/** `order_by: [<T>OrderBy!]`: one object or a list of them (see order.ts). */
export function orderArg(types: SchemaTypes, order: string): GraphQLFieldConfigArgumentMap {
  const o = types.orders.get(order);
  return o ? { order_by: { type: new GraphQLList(new GraphQLNonNull(o)) } } : {};
}

export function listArgs(types: SchemaTypes, filter: string, order: string): GraphQLFieldConfigArgumentMap {
  return {
    ...filterArgs(types, filter),
    ...orderArg(types, order),
    limit: { type: GraphQLInt },
    offset: { type: GraphQLInt },
  };
}

/** Attribute fields of a vertex or edge object type. */
export function attributeFields(attributes: readonly Attribute[]): GraphQLFieldConfigMap<unknown, unknown> {
  const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
  for (const a of attributes) fields[a.name] = { type: outputTypeOf(a.type) };
  return fields;
}
