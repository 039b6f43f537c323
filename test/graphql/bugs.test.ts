/**
 * The bugs of issue 21, each as a client met it: (B1) whereExpr on a type whose attribute repeats
 * the primary id's name, (B2) insert on such a type storing the id attribute, and the filters and
 * deletes that depend on it, (B3) two aliases of one edge field sorted differently, (B4) the list
 * form of order_by under graphql-js validation and as a variable, (B5) `_is_null`.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  buildClientSchema,
  getIntrospectionQuery,
  parse,
  validate,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';
import { GraphQLService } from '../../src/graphql/index.js';
import { runScript } from '../../src/shell/run-script.js';
import { openFixture, parsed, type Fixture } from './fixture.js';

let f: Fixture;
let service: GraphQLService;
before(async () => {
  f = await openFixture();
  let out = '';
  const code = await runScript(
    f.db,
    [
      'CREATE VERTEX item (PRIMARY_ID pid STRING, pid STRING, name STRING) WITH primary_id_as_attribute="true"',
      'CREATE DIRECTED EDGE owns (FROM item, TO item)',
      'CREATE DIRECTED EDGE rated (FROM item, TO item, stars INT, note STRING)',
      'CREATE GRAPH Shop (item, owns, rated)',
    ].join('\n'),
    { user: 'tigergraph' },
    (t) => (out += t),
  );
  assert.equal(code, 0, out);
  service = new GraphQLService(f.db);
});
after(() => f.close());

async function data(graph: string, query: string, variables?: Record<string, unknown>): Promise<unknown> {
  const a = parsed(await service.execute(graph, { query, variables }, { method: 'POST' }));
  assert.equal(a.body.errors, undefined, JSON.stringify(a.body.errors));
  return a.body.data;
}

test('B1, B2: a type whose attribute repeats the primary id: whereExpr, insert, where and delete', async () => {
  assert.deepEqual(
    await data(
      'Shop',
      'mutation { Shop { insert_item(objects: [{pid: "a", name: "A"}, {pid: "b", name: "B"}]) { _id pid name } } }',
    ),
    {
      Shop: {
        insert_item: [
          { _id: 'a', pid: 'a', name: 'A' },
          { _id: 'b', pid: 'b', name: 'B' },
        ],
      },
    },
  );
  // The attribute holds the id (REST++ reads the same stored value).
  const tx = f.db.read();
  try {
    assert.equal(tx.attr('item', tx.lookup('item', 'b') as number, 'pid'), 'b');
  } finally {
    tx.release();
  }
  assert.deepEqual(await data('Shop', '{ Shop { item(whereExpr: "pid == \\"a\\"") { pid name } } }'), {
    Shop: { item: [{ pid: 'a', name: 'A' }] },
  });
  assert.deepEqual(await data('Shop', '{ Shop { item(where: {pid: {_eq: "b"}}) { name } } }'), {
    Shop: { item: [{ name: 'B' }] },
  });
  assert.deepEqual(
    await data('Shop', 'mutation { Shop { delete_item(where: {pid: {_eq: "a"}}) { pid } } }'),
    {
      Shop: { delete_item: [{ pid: 'a' }] },
    },
  );
  assert.deepEqual(await data('Shop', '{ Shop { item { pid } } }'), { Shop: { item: [{ pid: 'b' }] } });
});

test('B3: two aliases of one edge field whose order_by keys are written in different orders', async () => {
  await data(
    'Shop',
    `mutation { Shop {
      insert_item(objects: [{pid: "r"}, {pid: "x"}, {pid: "y"}, {pid: "z"}]) { pid }
      insert_rated(objects: [
        {from: {pid: "r"}, to: {pid: "x"}, stars: 5, note: "a"},
        {from: {pid: "r"}, to: {pid: "y"}, stars: 3, note: "c"},
        {from: {pid: "r"}, to: {pid: "z"}, stars: 3, note: "b"}]) { stars }
    } }`,
  );
  // The same keys, written in two orders: stars first, or note first.
  const d = await data(
    'Shop',
    `{ Shop { item(where: {pid: {_eq: "r"}}) {
      byStars: rated(order_by: {stars: asc, note: asc}) { to { pid } }
      byNote: rated(order_by: {note: asc, stars: asc}) { to { pid } }
    } } }`,
  );
  const pids = (list: { to: { pid: string } }[]) => list.map((e) => e.to.pid);
  const item = (d as { Shop: { item: { byStars: never[]; byNote: never[] }[] } }).Shop.item[0];
  assert.deepEqual(pids(item.byStars), ['z', 'y', 'x']);
  assert.deepEqual(pids(item.byNote), ['x', 'z', 'y']);
});

/** The schema a client builds from introspection, as codegen tools and Apollo do. */
async function clientSchema(): Promise<GraphQLSchema> {
  const a = parsed(await service.execute('Social', { query: getIntrospectionQuery() }, { method: 'POST' }));
  return buildClientSchema(a.body.data as IntrospectionQuery);
}

test('B4: order_by as one object or a list validates under graphql-js, literally and as variables', async () => {
  const schema = await clientSchema();
  const ok = [
    '{ Social { person(order_by: {birthYear: desc}) { name } } }',
    '{ Social { person(order_by: [{height: asc}, {name: desc}]) { name } } }',
    'query($o: [personOrderBy!]) { Social { person(order_by: $o) { name } } }',
    '{ Social { person { is_friend_of(order_by: [{since: desc}]) { since } } } }',
  ];
  for (const q of ok) assert.deepEqual(validate(schema, parse(q)), [], q);
  // Both forms run, literally and as a list variable holding an object or a list.
  const q = 'query($o: [personOrderBy!]) { Social { person(order_by: $o) { name } } }';
  const names = async (o: unknown) =>
    ((await data('Social', q, { o })) as { Social: { person: { name: string }[] } }).Social.person.map(
      (p) => p.name,
    );
  assert.deepEqual(await names([{ height: 'asc' }, { name: 'desc' }]), ['Emily', 'Kevin', 'Jenny', 'Smith']);
  assert.deepEqual(await names({ birthYear: 'desc' }), ['Emily', 'Jenny', 'Kevin', 'Smith']);
  // A variable of TigerGraph's published single type still runs (the server accepts it).
  assert.deepEqual(
    await data('Social', 'query($o: personOrderBy) { Social { person(order_by: $o, limit: 1) { name } } }', {
      o: { name: 'desc' },
    }),
    { Social: { person: [{ name: 'Smith' }] } },
  );
});

test('B5: _is_null is offered nowhere (attributes always hold a value)', async () => {
  const schema = await clientSchema();
  const errors = validate(schema, parse('{ Social { person(where: {name: {_is_null: true}}) { name } } }'));
  assert.equal(errors.length, 1);
  assert.match(errors[0].message, /Field "_is_null" is not defined by type "String_comparison_exp"/);
  assert.ok(!(service.sdl('Social') ?? '').includes('_is_null'));
});
