/**
 * The generated schema's names (spec §2, reference A2) for every edge shape: directed with a reverse
 * edge, undirected self-edge, undirected between two types, several FROM/TO pairs, and a vertex type
 * whose primary id is not an attribute. Read back through graphql-js introspection.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  buildClientSchema,
  getIntrospectionQuery,
  graphql,
  isObjectType,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';
import { buildGraphSchema } from '../../src/graphql/index.js';
import { GraphQLService } from '../../src/graphql/index.js';
import { openFixture, type Fixture } from './fixture.js';

let f: Fixture;
/** The schema as a client sees it: built back from an introspection result. */
let client: GraphQLSchema;
before(async () => {
  f = await openFixture();
  const schema = buildGraphSchema(f.db.catalog, 'Social');
  assert.ok(schema);
  const r = await graphql({ schema, source: getIntrospectionQuery() });
  assert.equal(r.errors, undefined);
  client = buildClientSchema(r.data as unknown as IntrospectionQuery);
});
after(() => f.close());

/** `name(arg, …): Type` of every field of an object type of the introspected schema. */
function fieldsOf(typeName: string): string[] {
  const t = client.getType(typeName);
  assert.ok(isObjectType(t), `no object type ${typeName}`);
  return Object.values(t.getFields()).map((field) => {
    const args =
      field.args.length > 0 ? `(${field.args.map((a) => `${a.name}: ${String(a.type)}`).join(', ')})` : '';
    return `${field.name}${args}: ${String(field.type)}`;
  });
}

const LIST = (f: string, o?: string) =>
  `(where: ${f}Filter, whereExpr: String${o === undefined ? '' : `, order_by: [${o}OrderBy!]`}, limit: Int, offset: Int)`;
const AGG = (f: string, e: string, t = e) =>
  `${f}_aggregate(where: ${e}Filter, whereExpr: String): ${t}_aggregate_fields`;

test('Query has exactly one field named after the graph, of the graph type', () => {
  assert.deepEqual(fieldsOf('Query'), ['Social: Social']);
});

test('the graph type lists every vertex type with where, whereExpr, order_by, limit, offset (and _aggregate, _connection)', () => {
  const types = ['person', 'city', 'company', 'school', 'badge'];
  assert.deepEqual(fieldsOf('Social'), [
    ...types.map((t) => `${t}${LIST(t, t)}: [${t}]`),
    ...types.map((t) => `${t}_aggregate(where: ${t}Filter, whereExpr: String): ${t}_aggregate_fields`),
    ...types.map(
      (t) =>
        `${t}_connection(first: Int, after: String, where: ${t}Filter, whereExpr: String, order_by: [${t}OrderBy!]): ${t}Connection`,
    ),
  ]);
  assert.deepEqual(fieldsOf('personConnection'), [
    'totalCount: Int!',
    'edges: [personConnectionEdge!]!',
    'pageInfo: PageInfo!',
  ]);
  assert.deepEqual(fieldsOf('personConnectionEdge'), ['cursor: String!', 'node: person!']);
  assert.deepEqual(fieldsOf('PageInfo'), [
    'hasNextPage: Boolean!',
    'hasPreviousPage: Boolean!',
    'startCursor: String',
    'endCursor: String',
  ]);
});

test('aggregates: count, sum/avg over numbers, min/max over ordered types, degree per edge field', () => {
  assert.deepEqual(fieldsOf('person_aggregate_fields'), [
    'count: Int!',
    'sum: person_sum_fields',
    'avg: person_avg_fields',
    'min: person_min_fields',
    'max: person_max_fields',
    'degree: person_degree_fields',
  ]);
  assert.deepEqual(fieldsOf('person_sum_fields'), ['birthYear: Int64', 'height: Float']);
  assert.deepEqual(fieldsOf('person_avg_fields'), ['birthYear: Float', 'height: Float']);
  assert.deepEqual(fieldsOf('person_min_fields'), [
    'id: String',
    'name: String',
    'birthYear: Int64',
    'height: Float',
    'birthday: Datetime',
  ]);
  assert.deepEqual(fieldsOf('person_degree_fields'), [
    'born_in: DegreeStats',
    'is_friend_of: DegreeStats',
    'works_at: DegreeStats',
    'holds: DegreeStats',
  ]);
  assert.deepEqual(fieldsOf('DegreeStats'), ['sum: Int64!', 'min: Int', 'max: Int', 'avg: Float']);
  // No numeric attribute: no sum or avg; no edges: no degree.
  assert.deepEqual(fieldsOf('school_aggregate_fields'), [
    'count: Int!',
    'min: school_min_fields',
    'max: school_max_fields',
    'degree: school_degree_fields',
  ]);
  assert.deepEqual(fieldsOf('born_in_aggregate_fields'), [
    'count: Int!',
    'min: born_in_min_fields',
    'max: born_in_max_fields',
  ]);
});

test('subscriptions: <V>_changed per vertex type with where, whereExpr and ops', () => {
  const sub = fieldsOf('Subscription');
  assert.equal(sub.length, 5);
  assert.equal(
    sub[0],
    'person_changed(where: personFilter, whereExpr: String, ops: [ChangeOp!]): person_change!',
  );
  assert.deepEqual(fieldsOf('person_change'), [
    'op: ChangeOp!',
    'id: String!',
    'version: Int64!',
    'node: person!',
  ]);
});

test('vertex types: _id, attributes (id when it is an attribute), directed, reverse and undirected edge fields', () => {
  assert.deepEqual(fieldsOf('person'), [
    '_id: String',
    'id: String',
    'name: String',
    'birthYear: Int64',
    'height: Float',
    'married: Boolean',
    'birthday: Datetime',
    'tags: [String]',
    'scores: Json',
    `born_in${LIST('born_in', 'born_in')}: [born_in]`,
    `is_friend_of${LIST('is_friend_of', 'is_friend_of')}: [is_friend_of]`,
    `works_at${LIST('works_at', 'works_at')}: [works_at]`,
    `holds${LIST('holds')}: [holds]`,
    AGG('born_in', 'born_in'),
    AGG('is_friend_of', 'is_friend_of'),
    AGG('works_at', 'works_at'),
    AGG('holds', 'holds'),
  ]);
  assert.deepEqual(fieldsOf('city'), [
    '_id: String',
    'id: String',
    'name: String',
    'population: Int64',
    'taxRate: Float',
    `reverse_born_in${LIST('reverse_born_in', 'reverse_born_in')}: [reverse_born_in]`,
    `reverse_locate_at_To_company${LIST('reverse_locate_at')}: [reverse_locate_at_To_company]`,
    `reverse_locate_at_To_school${LIST('reverse_locate_at')}: [reverse_locate_at_To_school]`,
    AGG('reverse_born_in', 'reverse_born_in'),
    AGG('reverse_locate_at_To_company', 'reverse_locate_at', 'reverse_locate_at_To_company'),
    AGG('reverse_locate_at_To_school', 'reverse_locate_at', 'reverse_locate_at_To_school'),
  ]);
  assert.deepEqual(fieldsOf('company'), [
    '_id: String',
    'id: String',
    'name: String',
    'zipcode: String',
    `partner${LIST('partner')}: [From_company_partner]`,
    `locate_at_To_city${LIST('locate_at')}: [locate_at_To_city]`,
    AGG('partner', 'partner', 'From_company_partner'),
    AGG('locate_at_To_city', 'locate_at', 'locate_at_To_city'),
  ]);
  assert.deepEqual(fieldsOf('school'), [
    '_id: String',
    'id: String',
    'name: String',
    `partner${LIST('partner')}: [From_school_partner]`,
    `locate_at_To_city${LIST('locate_at')}: [locate_at_To_city]`,
    AGG('partner', 'partner', 'From_school_partner'),
    AGG('locate_at_To_city', 'locate_at', 'locate_at_To_city'),
  ]);
  // PRIMARY_ID not declared as an attribute: no id attribute (TigerGraph's rule), but _id, typed
  // as the id (UINT is Uint64).
  assert.deepEqual(fieldsOf('badge'), ['_id: Uint64', 'label: String', 'big: Uint64']);
});

test('edge object types: attributes, from (one source type) and to(where, whereExpr)', () => {
  const to = (t: string) => `to(where: ${t}Filter, whereExpr: String): ${t}`;
  const from = (t: string) => `from(where: ${t}Filter, whereExpr: String): ${t}`;
  assert.deepEqual(fieldsOf('born_in'), ['birthday: Datetime', from('person'), to('city')]);
  assert.deepEqual(fieldsOf('reverse_born_in'), ['birthday: Datetime', from('city'), to('person')]);
  // The undirected self-edge keeps its name; between two types there is one type per direction.
  assert.deepEqual(fieldsOf('is_friend_of'), ['since: Int64', from('person'), to('person')]);
  assert.deepEqual(fieldsOf('From_company_partner'), [from('company'), to('school')]);
  assert.deepEqual(fieldsOf('From_school_partner'), [from('school'), to('company')]);
  // Several FROM/TO pairs: one field and type per target; company and school share locate_at_To_city.
  assert.deepEqual(fieldsOf('locate_at_To_city'), [to('city')]);
  assert.deepEqual(fieldsOf('reverse_locate_at_To_company'), [from('city'), to('company')]);
  assert.deepEqual(fieldsOf('reverse_locate_at_To_school'), [from('city'), to('school')]);
});

test('Filter and OrderBy inputs: _id, comparison operators per scalar, neighbours, _and/_or/_not, asc/desc', () => {
  const sdl = new GraphQLService(f.db).sdl('Social') ?? '';
  const block = (kind: string, name: string) => {
    const m = new RegExp(`\\n${kind} ${name} \\{\\n([^}]*)\\}`).exec(sdl);
    assert.ok(m, `no ${kind} ${name} in the SDL`);
    // Members only: description lines are left out.
    return m[1]
      .trim()
      .split(/\n\s*/)
      .filter((l) => !l.startsWith('"'));
  };
  assert.deepEqual(block('input', 'personFilter'), [
    '_id: String_comparison_exp',
    'id: String_comparison_exp',
    'name: String_comparison_exp',
    'birthYear: Int64_comparison_exp',
    'height: Float_comparison_exp',
    'married: Boolean_comparison_exp',
    'birthday: Datetime_comparison_exp',
    'born_in: born_in_rel_exp',
    'is_friend_of: is_friend_of_rel_exp',
    'works_at: works_at_rel_exp',
    'holds: holds_rel_exp',
    '_and: [personFilter!]',
    '_or: [personFilter!]',
    '_not: personFilter',
  ]);
  assert.deepEqual(block('input', 'Int64_comparison_exp'), [
    '_eq: Int64',
    '_neq: Int64',
    '_lt: Int64',
    '_lte: Int64',
    '_gt: Int64',
    '_gte: Int64',
    '_in: [Int64!]',
    '_nin: [Int64!]',
  ]);
  assert.deepEqual(block('input', 'Boolean_comparison_exp'), [
    '_eq: Boolean',
    '_neq: Boolean',
    '_in: [Boolean!]',
    '_nin: [Boolean!]',
  ]);
  // Attributes always hold a value: no _is_null anywhere (it could never be true).
  assert.ok(!sdl.includes('_is_null'));
  assert.deepEqual(block('input', 'born_in_rel_exp'), [
    '_some: born_in_exp',
    '_none: born_in_exp',
    '_all: born_in_exp',
  ]);
  assert.deepEqual(block('input', 'born_in_exp'), [
    'birthday: Datetime_comparison_exp',
    'to: cityFilter',
    '_and: [born_in_exp!]',
    '_or: [born_in_exp!]',
    '_not: born_in_exp',
  ]);
  assert.ok(block('input', 'String_comparison_exp').includes('_like: String'));
  // Only Int64, Uint64, Float, String and Datetime sort (no Boolean, no collections).
  assert.deepEqual(block('input', 'personOrderBy'), [
    '_id: OrderDirection',
    'id: OrderDirection',
    'name: OrderDirection',
    'birthYear: OrderDirection',
    'height: OrderDirection',
    'birthday: OrderDirection',
  ]);
  assert.deepEqual(block('enum', 'OrderDirection'), ['asc', 'desc']);
  assert.deepEqual(block('input', 'born_inFilter'), [
    'birthday: Datetime_comparison_exp',
    '_and: [born_inFilter!]',
    '_or: [born_inFilter!]',
    '_not: born_inFilter',
  ]);
});

test('mutations sit under the graph field of Mutation', () => {
  const fields = fieldsOf('Social_mutation');
  const names = fields.map((x) => x.split('(')[0]);
  for (const v of ['person', 'city', 'company', 'school', 'badge']) {
    for (const m of ['insert_', 'delete_', 'delete_by_id_'])
      assert.ok(names.includes(`${m}${v}`), `${m}${v}`);
  }
  for (const e of ['born_in', 'is_friend_of', 'partner', 'locate_at', 'works_at', 'holds']) {
    for (const m of ['insert_', 'delete_', 'delete_by_id_'])
      assert.ok(names.includes(`${m}${e}`), `${m}${e}`);
  }
  assert.ok(fields.includes('insert_person(objects: [person_insert_input!]!): [person]'));
  assert.ok(fields.includes('delete_by_id_badge(ids: [Uint64!]!): [badge]'));
  assert.ok(fields.includes('delete_born_in(where: born_inFilter, whereExpr: String): [born_in_row]'));
  assert.deepEqual(fieldsOf('Mutation'), ['Social: Social_mutation']);
});

test('a graph that does not exist has no schema', () => {
  assert.equal(buildGraphSchema(f.db.catalog, 'Nope'), undefined);
});
