/**
 * What one schema build shares between the query types (schema.ts) and the mutations: the model,
 * the types made so far, and the argument and attribute-field helpers.
 */
import {
  GraphQLInt,
  GraphQLString,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  type GraphQLInputObjectType,
  type GraphQLObjectType,
} from 'graphql';
import type { Attribute, Catalog } from '../catalog/types.js';
import type { Value } from '../catalog/value.js';
import type { GraphModel, VertexModel } from './model.js';
import type { WhereExprCache } from './resolve-query.js';
import type { RequestContext } from './runtime.js';
import { fieldValue, outputTypeOf } from './scalars.js';

/** The types one schema build creates, shared with the mutation builder. */
export interface SchemaTypes {
  catalog: Catalog;
  model: GraphModel;
  cache: WhereExprCache;
  vertexTypes: Map<string, GraphQLObjectType>;
  vertexModels: Map<string, VertexModel>;
  filters: Map<string, GraphQLInputObjectType>;
  orders: Map<string, GraphQLInputObjectType | undefined>;
  edgeObjects: Map<string, GraphQLObjectType>;
}

export function filterArgs(types: SchemaTypes, filter: string): GraphQLFieldConfigArgumentMap {
  return {
    where: { type: types.filters.get(filter) as GraphQLInputObjectType },
    whereExpr: { type: GraphQLString },
  };
}

export function listArgs(types: SchemaTypes, filter: string, order: string): GraphQLFieldConfigArgumentMap {
  const o = types.orders.get(order);
  return {
    ...filterArgs(types, filter),
    ...(o ? { order_by: { type: o } } : {}),
    limit: { type: GraphQLInt },
    offset: { type: GraphQLInt },
  };
}

/** Attribute fields of a vertex or edge object type, read through `read`. */
export function attributeFields<T>(
  catalog: Catalog,
  attributes: readonly Attribute[],
  read: (source: T, attribute: string) => Value,
): GraphQLFieldConfigMap<T, RequestContext> {
  const fields: GraphQLFieldConfigMap<T, RequestContext> = {};
  for (const a of attributes) {
    fields[a.name] = {
      type: outputTypeOf(a.type),
      resolve: (source) => fieldValue(read(source, a.name), a.type, catalog),
    };
  }
  return fields;
}
