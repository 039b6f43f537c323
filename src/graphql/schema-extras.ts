/**
 * The types beyond TigerGraph's service: `<V>_aggregate_fields` (count, sum, avg, min, max over
 * attributes, degree statistics per edge field), `<object>_aggregate_fields` (the same over a
 * vertex's edges of one field), the Relay-style `<V>Connection`, and the subscription payload
 * `<V>_change`.
 */
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLFieldConfigMap,
  type GraphQLOutputType,
} from 'graphql';
import type { Attribute } from '../catalog/types.js';
import type { VertexModel } from './model.js';
import { Int64, scalarOf } from './scalars.js';
import type { SchemaTypes } from './schema-types.js';

/** Attribute types sum and avg read. */
export function isSummable(a: Attribute): boolean {
  return ['INT', 'UINT', 'FLOAT', 'DOUBLE'].includes(a.type.kind);
}

/** Attribute types min and max read. */
export function isOrdered(a: Attribute): boolean {
  return isSummable(a) || a.type.kind === 'DATETIME' || a.type.kind === 'STRING';
}

/** The scalar a sum of this attribute has (Float for floats, the integer's own type otherwise). */
function sumType(a: Attribute): GraphQLOutputType {
  return a.type.kind === 'FLOAT' || a.type.kind === 'DOUBLE' ? GraphQLFloat : (scalarOf(a.type) ?? Int64);
}

function statsObject(
  name: string,
  attributes: readonly Attribute[],
  keep: (a: Attribute) => boolean,
  type: (a: Attribute) => GraphQLOutputType,
): GraphQLObjectType | undefined {
  const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
  for (const a of attributes) if (keep(a)) fields[a.name] = { type: type(a) };
  return Object.keys(fields).length === 0 ? undefined : new GraphQLObjectType({ name, fields });
}

export const DegreeStats = new GraphQLObjectType({
  name: 'DegreeStats',
  description: 'Degree of the vertices counted, by one edge field: sum (the edges), min, max, avg.',
  fields: {
    sum: { type: new GraphQLNonNull(Int64) },
    min: { type: GraphQLInt },
    max: { type: GraphQLInt },
    avg: { type: GraphQLFloat },
  },
});

/** `<name>_aggregate_fields`: count, and sum/avg/min/max over the attributes that have them. */
function aggregateType(
  name: string,
  attributes: readonly Attribute[],
  extra: GraphQLFieldConfigMap<unknown, unknown>,
): GraphQLObjectType {
  const fields: GraphQLFieldConfigMap<unknown, unknown> = { count: { type: new GraphQLNonNull(GraphQLInt) } };
  const parts: [string, GraphQLObjectType | undefined][] = [
    ['sum', statsObject(`${name}_sum_fields`, attributes, isSummable, sumType)],
    ['avg', statsObject(`${name}_avg_fields`, attributes, isSummable, () => GraphQLFloat)],
    [
      'min',
      statsObject(`${name}_min_fields`, attributes, isOrdered, (a) => scalarOf(a.type) ?? GraphQLString),
    ],
    [
      'max',
      statsObject(`${name}_max_fields`, attributes, isOrdered, (a) => scalarOf(a.type) ?? GraphQLString),
    ],
  ];
  for (const [field, t] of parts) if (t) fields[field] = { type: t };
  return new GraphQLObjectType({ name: `${name}_aggregate_fields`, fields: { ...fields, ...extra } });
}

export function vertexAggregateType(vm: VertexModel): GraphQLObjectType {
  const extra: GraphQLFieldConfigMap<unknown, unknown> = {};
  if (vm.edges.length > 0) {
    const degree: GraphQLFieldConfigMap<unknown, unknown> = {};
    for (const e of vm.edges) degree[e.field] = { type: DegreeStats };
    extra.degree = { type: new GraphQLObjectType({ name: `${vm.type.name}_degree_fields`, fields: degree }) };
  }
  return aggregateType(vm.type.name, vm.attributes, extra);
}

/** `<object>_aggregate_fields` for a vertex's edges of one field (one per edge object type). */
export function edgeAggregateType(types: SchemaTypes, objectType: string, attributes: readonly Attribute[]) {
  const key = `${objectType}_aggregate_fields`;
  let t = types.edgeObjects.get(key);
  if (!t) types.edgeObjects.set(key, (t = aggregateType(objectType, attributes, {})));
  return t;
}

export const PageInfo = new GraphQLObjectType({
  name: 'PageInfo',
  fields: {
    hasNextPage: { type: new GraphQLNonNull(GraphQLBoolean) },
    hasPreviousPage: { type: new GraphQLNonNull(GraphQLBoolean) },
    startCursor: { type: GraphQLString },
    endCursor: { type: GraphQLString },
  },
});

export function connectionType(vm: VertexModel, node: GraphQLObjectType): GraphQLObjectType {
  const edge = new GraphQLObjectType({
    name: `${vm.type.name}ConnectionEdge`,
    fields: {
      cursor: { type: new GraphQLNonNull(GraphQLString) },
      node: { type: new GraphQLNonNull(node) },
    },
  });
  return new GraphQLObjectType({
    name: `${vm.type.name}Connection`,
    fields: {
      totalCount: { type: new GraphQLNonNull(GraphQLInt) },
      edges: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(edge))) },
      pageInfo: { type: new GraphQLNonNull(PageInfo) },
    },
  });
}

export const ChangeOp = new GraphQLEnumType({
  name: 'ChangeOp',
  values: { insert: { value: 'insert' }, update: { value: 'update' }, delete: { value: 'delete' } },
});

/** `<V>_change`: one committed change of a vertex (a deleted vertex shows as it was). */
export function changeType(vm: VertexModel, node: GraphQLObjectType): GraphQLObjectType {
  return new GraphQLObjectType({
    name: `${vm.type.name}_change`,
    fields: {
      op: { type: new GraphQLNonNull(ChangeOp) },
      id: { type: new GraphQLNonNull(GraphQLString), description: 'The primary id (REST form).' },
      version: { type: new GraphQLNonNull(Int64), description: 'The commit version.' },
      node: { type: new GraphQLNonNull(node) },
    },
  });
}
