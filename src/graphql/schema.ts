/**
 * Builds the GraphQL schema of one graph (spec §2): `Query { <graph>: <graph> }`, the graph type
 * with one list field per vertex type (where, whereExpr, order_by, limit, offset), `<V>_aggregate`
 * and `<V>_connection`; vertex object types with `_id`, their attributes, edge fields and
 * `<edge field>_aggregate`; edge object types with their attributes, `from` (when the edge has one
 * source type) and `to`; the Filter/OrderBy inputs; the mutations of mutations.ts; and
 * `Subscription { <V>_changed }`.
 */
import {
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  type GraphQLFieldConfigMap,
  type GraphQLInputObjectType,
} from 'graphql';
import type { Catalog } from '../catalog/types.js';
import { edgeFilterType, idScalar, vertexFilterType } from './filter-types.js';
import { graphModel, type EdgeFieldModel, type VertexModel } from './model.js';
import { buildMutationType, type MutationSpec } from './mutations.js';
import { orderType } from './order.js';
import {
  ChangeOp,
  changeType,
  connectionType,
  edgeAggregateType,
  vertexAggregateType,
} from './schema-extras.js';
import { attributeFields, filterArgs, listArgs, orderArg, type SchemaTypes } from './schema-types.js';

function vertexFields(types: SchemaTypes, vm: VertexModel): GraphQLFieldConfigMap<unknown, unknown> {
  const fields: GraphQLFieldConfigMap<unknown, unknown> = {
    _id: { type: idScalar(vm.type), description: 'The primary id.' },
    ...attributeFields(vm.attributes),
  };
  for (const em of vm.edges) {
    fields[em.field] = {
      type: new GraphQLList(edgeObjectType(types, em)),
      args: listArgs(types, em.filterType, em.orderType),
    };
  }
  for (const em of vm.edges) {
    const name = `${em.field}_aggregate`;
    if (name in fields) continue;
    fields[name] = {
      type: edgeAggregateType(types, em.objectType, em.attributes),
      args: filterArgs(types, em.filterType),
      description: `Count (the degree) and statistics of the ${em.field} edges.`,
    };
  }
  return fields;
}

/** The object type of an edge field (one per object type name, shared by fields that name it). */
function edgeObjectType(types: SchemaTypes, em: EdgeFieldModel): GraphQLObjectType {
  const made = types.edgeObjects;
  const existing = made.get(em.objectType);
  if (existing) return existing;
  const sources = new Set(
    types.model.vertices.flatMap((v) =>
      v.edges.filter((e) => e.objectType === em.objectType).map(() => v.type.name),
    ),
  );
  const t = new GraphQLObjectType({
    name: em.objectType,
    fields: () => {
      const fields = attributeFields(em.attributes);
      if (sources.size === 1) {
        const source = [...sources][0];
        fields.from = {
          type: types.vertexTypes.get(source) as GraphQLObjectType,
          args: filterArgs(types, `${source}Filter`),
        };
      }
      fields.to = {
        type: types.vertexTypes.get(em.targetType) as GraphQLObjectType,
        args: filterArgs(types, `${em.targetType}Filter`),
      };
      return fields;
    },
  });
  made.set(em.objectType, t);
  return t;
}

function graphType(types: SchemaTypes): GraphQLObjectType {
  const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
  const vertexType = (name: string) => types.vertexTypes.get(name) as GraphQLObjectType;
  for (const vm of types.model.vertices) {
    const name = vm.type.name;
    fields[name] = {
      type: new GraphQLList(vertexType(name)),
      args: listArgs(types, `${name}Filter`, `${name}OrderBy`),
    };
  }
  for (const vm of types.model.vertices) {
    const name = vm.type.name;
    fields[`${name}_aggregate`] = {
      type: vertexAggregateType(vm),
      args: filterArgs(types, `${name}Filter`),
    };
  }
  for (const vm of types.model.vertices) {
    const name = vm.type.name;
    fields[`${name}_connection`] = {
      type: connectionType(vm, vertexType(name)),
      args: {
        first: { type: GraphQLInt },
        after: { type: GraphQLString },
        ...filterArgs(types, `${name}Filter`),
        ...orderArg(types, `${name}OrderBy`),
      },
      description: 'A page of vertices with stable cursors (ordered by order_by, then _id).',
    };
  }
  return new GraphQLObjectType({ name: types.model.graph, fields });
}

function subscriptionType(types: SchemaTypes): GraphQLObjectType | undefined {
  if (types.model.vertices.length === 0) return undefined;
  const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
  for (const vm of types.model.vertices) {
    const name = vm.type.name;
    fields[`${name}_changed`] = {
      type: new GraphQLNonNull(changeType(vm, types.vertexTypes.get(name) as GraphQLObjectType)),
      args: {
        ...filterArgs(types, `${name}Filter`),
        ops: { type: new GraphQLList(new GraphQLNonNull(ChangeOp)), description: 'Default: all.' },
      },
      description: `Committed inserts, updates and deletes of ${name} vertices that match the filter.`,
    };
  }
  return new GraphQLObjectType({ name: 'Subscription', fields });
}

/** The schema types of `graph`, or undefined when the catalog has no such graph. */
function buildSchemaTypes(catalog: Catalog, graph: string): SchemaTypes | undefined {
  const model = graphModel(catalog, graph);
  if (!model) return undefined;
  const types: SchemaTypes = {
    catalog,
    model,
    vertexTypes: new Map(),
    vertexModels: new Map(model.vertices.map((v) => [v.type.name, v])),
    filters: new Map(),
    orders: new Map(),
    edgeObjects: new Map(),
    relations: new Map(),
  };
  const source = {
    vertexFilter: (name: string) => types.filters.get(`${name}Filter`) as GraphQLInputObjectType,
    relations: types.relations,
  };
  for (const vm of model.vertices) {
    const n = vm.type.name;
    types.filters.set(`${n}Filter`, vertexFilterType(source, vm.type, vm.attributes, vm.edges));
    types.orders.set(`${n}OrderBy`, orderType(`${n}OrderBy`, vm.attributes, true));
  }
  for (const e of model.edgeTypes) {
    types.filters.set(`${e.name}Filter`, edgeFilterType(`${e.name}Filter`, e.stored.attributes));
    types.orders.set(`${e.name}OrderBy`, orderType(`${e.name}OrderBy`, e.stored.attributes, false));
  }
  for (const vm of model.vertices) {
    types.vertexTypes.set(
      vm.type.name,
      new GraphQLObjectType({ name: vm.type.name, fields: () => vertexFields(types, vm) }),
    );
  }
  return types;
}

/** A graph's schema with what planning needs beside it. */
export interface BuiltSchema {
  types: SchemaTypes;
  schema: GraphQLSchema;
  /** How each mutation field makes its action. */
  mutations: Map<string, MutationSpec>;
}

/** The schema of `graph` (Query, Mutation, Subscription), or undefined when the catalog has no such graph. */
export function buildSchema(catalog: Catalog, graph: string): BuiltSchema | undefined {
  const types = buildSchemaTypes(catalog, graph);
  if (!types) return undefined;
  const query = new GraphQLObjectType({
    name: 'Query',
    fields: { [graph]: { type: graphType(types) } },
  });
  const mutations = new Map<string, MutationSpec>();
  const mutation = buildMutationType(types, mutations);
  const subscription = subscriptionType(types);
  const schema = new GraphQLSchema({
    query,
    ...(mutation ? { mutation } : {}),
    ...(subscription ? { subscription } : {}),
  });
  return { types, schema, mutations };
}

/** The schema of `graph`, or undefined when the catalog has no such graph. */
export function buildGraphSchema(catalog: Catalog, graph: string): GraphQLSchema | undefined {
  return buildSchema(catalog, graph)?.schema;
}
