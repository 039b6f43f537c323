/**
 * Builds the GraphQL schema of one graph (spec §2): `Query { <graph>: <graph> }`, the graph type
 * with one list field per vertex type (where, whereExpr, order_by, limit, offset) and a
 * `<V>_aggregate { count }` field, vertex object types with their attributes and edge fields, edge
 * object types with their attributes, `from` (when the edge has one source type) and `to`, the
 * Filter/OrderBy inputs, and the mutations of mutations.ts.
 */
import {
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  type GraphQLFieldConfigMap,
} from 'graphql';
import type { Catalog } from '../catalog/types.js';
import { filterType } from './filter.js';
import { graphModel, type EdgeFieldModel, type VertexModel } from './model.js';
import { buildMutationType } from './mutations.js';
import { orderType } from './order.js';
import {
  countVertices,
  resolveEdgeField,
  resolveEndpoint,
  resolveVertexList,
  WhereExprCache,
  type FilterArgs,
  type ListArgs,
} from './resolve-query.js';
import type { EdgeObj, RequestContext, VertexObj } from './runtime.js';
import { attributeFields, filterArgs, listArgs, type SchemaTypes } from './schema-types.js';

function vertexFields(types: SchemaTypes, vm: VertexModel): GraphQLFieldConfigMap<VertexObj, RequestContext> {
  const fields = attributeFields<VertexObj>(types.catalog, vm.attributes, (v, a) =>
    v.batch.tx.attr(v.type, v.row, a),
  );
  for (const em of vm.edges) {
    fields[em.field] = {
      type: new GraphQLList(edgeObjectType(types, em)),
      args: listArgs(types, em.filterType, em.orderType),
      resolve: (parent, args: ListArgs, ctx, info) =>
        resolveEdgeField(ctx, types.cache, em, parent, args, info),
    };
  }
  // GraphQL forbids an object type without fields: a type without attributes and edges shows its id.
  if (Object.keys(fields).length === 0) {
    fields._id = {
      type: GraphQLString,
      description: 'The primary id (the type has no attributes and no edges).',
      resolve: (v) => v.batch.tx.vertexId(v.type, v.row),
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
  const target = types.vertexModels.get(em.targetType) as VertexModel;
  const t = new GraphQLObjectType<EdgeObj, RequestContext>({
    name: em.objectType,
    fields: () => {
      const fields = attributeFields<EdgeObj>(types.catalog, em.attributes, (e, a) =>
        e.tx.edgeAttr(e.handle, a),
      );
      if (sources.size === 1) {
        const source = types.vertexModels.get([...sources][0]) as VertexModel;
        fields.from = {
          type: types.vertexTypes.get(source.type.name) as GraphQLObjectType,
          args: filterArgs(types, `${source.type.name}Filter`),
          resolve: (e, args: FilterArgs, ctx) => resolveEndpoint(ctx, types.cache, source, e.source, args),
        };
      }
      fields.to = {
        type: types.vertexTypes.get(em.targetType) as GraphQLObjectType,
        args: filterArgs(types, `${em.targetType}Filter`),
        resolve: (e, args: FilterArgs, ctx) => resolveEndpoint(ctx, types.cache, target, e.target, args),
      };
      return fields;
    },
  });
  made.set(em.objectType, t);
  return t;
}

function graphType(types: SchemaTypes): GraphQLObjectType {
  const fields: GraphQLFieldConfigMap<unknown, RequestContext> = {};
  for (const vm of types.model.vertices) {
    const name = vm.type.name;
    fields[name] = {
      type: new GraphQLList(types.vertexTypes.get(name) as GraphQLObjectType),
      args: listArgs(types, `${name}Filter`, `${name}OrderBy`),
      resolve: (_root, args: ListArgs, ctx, info) => resolveVertexList(ctx, types.cache, vm, args, info),
    };
  }
  for (const vm of types.model.vertices) {
    const name = vm.type.name;
    fields[`${name}_aggregate`] = {
      type: new GraphQLObjectType<number, RequestContext>({
        name: `${name}_aggregate_fields`,
        fields: { count: { type: new GraphQLNonNull(GraphQLInt), resolve: (n) => n } },
      }),
      args: filterArgs(types, `${name}Filter`),
      resolve: (_root, args: FilterArgs, ctx) => countVertices(ctx, types.cache, vm, args),
    };
  }
  return new GraphQLObjectType({ name: types.model.graph, fields });
}

/** The schema of `graph`, or undefined when the catalog has no such graph. */
export function buildGraphSchema(catalog: Catalog, graph: string): GraphQLSchema | undefined {
  const model = graphModel(catalog, graph);
  if (!model) return undefined;
  const types: SchemaTypes = {
    catalog,
    model,
    cache: new WhereExprCache(catalog, graph),
    vertexTypes: new Map(),
    vertexModels: new Map(model.vertices.map((v) => [v.type.name, v])),
    filters: new Map(),
    orders: new Map(),
    edgeObjects: new Map(),
  };
  for (const vm of model.vertices) {
    const n = vm.type.name;
    types.filters.set(`${n}Filter`, filterType(`${n}Filter`, vm.attributes));
    types.orders.set(`${n}OrderBy`, orderType(`${n}OrderBy`, vm.attributes));
  }
  for (const e of model.edgeTypes) {
    types.filters.set(`${e.name}Filter`, filterType(`${e.name}Filter`, e.stored.attributes));
    types.orders.set(`${e.name}OrderBy`, orderType(`${e.name}OrderBy`, e.stored.attributes));
  }
  for (const vm of model.vertices) {
    types.vertexTypes.set(
      vm.type.name,
      new GraphQLObjectType<VertexObj, RequestContext>({
        name: vm.type.name,
        fields: () => vertexFields(types, vm),
      }),
    );
  }
  const graphObject = graphType(types);
  const query = new GraphQLObjectType({
    name: 'Query',
    fields: { [graph]: { type: graphObject, resolve: () => ({}) } },
  });
  const mutation = buildMutationType(types);
  return new GraphQLSchema({ query, ...(mutation ? { mutation } : {}) });
}
