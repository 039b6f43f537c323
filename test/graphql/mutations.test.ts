/**
 * Mutations through the GraphQL service: insert, delete by filter and delete by id, for vertices
 * and for directed, undirected and multi-pair edges, the write-permission hook, and bad input.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { GraphQLService } from '../../src/graphql/index.js';
import { openFixture, parsed, type Answer, type Fixture } from './fixture.js';

let f: Fixture;
let service: GraphQLService;
before(async () => {
  f = await openFixture();
  service = new GraphQLService(f.db);
});
after(() => f.close());

async function run(query: string, authorizeWrite?: () => Promise<void>): Promise<Answer> {
  return parsed(await service.execute('Social', { query }, { method: 'POST', authorizeWrite }));
}

async function data(query: string): Promise<unknown> {
  const a = await run(query);
  assert.equal(a.body.errors, undefined, JSON.stringify(a.body.errors));
  return a.body.data;
}

test('insert_<V> upserts the objects and returns them; a single object is accepted', async () => {
  const d = await data(`mutation { Social {
    insert_person(objects: [{id: "Ann", name: "Ann", birthYear: 1999, birthday: "1999-09-09 09:09:09", tags: ["a"], scores: {q: 1}},
                            {id: "Bob", name: "Bob", married: true}]) { id name birthYear birthday tags scores married }
  } }`);
  assert.deepEqual(d, {
    Social: {
      insert_person: [
        {
          id: 'Ann',
          name: 'Ann',
          birthYear: 1999,
          birthday: '1999-09-09 09:09:09',
          tags: ['a'],
          scores: { q: 1 },
          married: false,
        },
        {
          id: 'Bob',
          name: 'Bob',
          birthYear: 0,
          birthday: '1970-01-01 00:00:00',
          tags: [],
          scores: {},
          married: true,
        },
      ],
    },
  });
  assert.deepEqual(
    await data('mutation { Social { insert_badge(objects: {code: 9, label: "tin"}) { label } } }'),
    {
      Social: { insert_badge: [{ label: 'tin' }] },
    },
  );
  // An insert of an existing vertex updates it.
  await data('mutation { Social { insert_person(objects: {id: "Bob", birthYear: 1980}) { id } } }');
  assert.deepEqual(
    await data('{ Social { person(where: {id: {_in: ["Ann", "Bob"]}}) { id birthYear married } } }'),
    {
      Social: {
        person: [
          { id: 'Ann', birthYear: 1999, married: false },
          { id: 'Bob', birthYear: 1980, married: true },
        ],
      },
    },
  );
});

test('insert_<E>: directed, undirected in either orientation, several FROM/TO pairs', async () => {
  const d = await data(`mutation { Social {
    insert_born_in(objects: [{from: {id: "Ann"}, to: {id: "san jose"}, birthday: "1999-09-09"}]) { birthday from { id } to { id } }
    insert_partner(objects: [{from: {id: "s1"}, to: {id: "c2"}}]) { from_type from_id to_type to_id }
    insert_locate_at(objects: [{from: {id: "s1", type: "school"}, to: {id: "san jose"}}]) { from_type from_id to { id } }
  } }`);
  assert.deepEqual(d, {
    Social: {
      insert_born_in: [{ birthday: '1999-09-09 00:00:00', from: { id: 'Ann' }, to: { id: 'san jose' } }],
      insert_partner: [{ from_type: 'school', from_id: 's1', to_type: 'company', to_id: 'c2' }],
      insert_locate_at: [{ from_type: 'school', from_id: 's1', to: { id: 'san jose' } }],
    },
  });
  assert.deepEqual(
    await data(
      '{ Social { city(where: {id: {_eq: "san jose"}}) { reverse_born_in { to { id } } reverse_locate_at_To_school { to { id } } } } }',
    ),
    {
      Social: {
        city: [
          { reverse_born_in: [{ to: { id: 'Ann' } }], reverse_locate_at_To_school: [{ to: { id: 's1' } }] },
        ],
      },
    },
  );
  const bad = await run(
    'mutation { Social { insert_born_in(objects: [{from: {id: "Ann"}, to: {id: "x", type: "school"}}]) { birthday } } }',
  );
  assert.deepEqual(bad.body.data, { Social: { insert_born_in: null } });
  assert.deepEqual(
    bad.body.errors?.map((e) => [e.message, e.path]),
    [
      [
        `The from/to keys {"id":"Ann"} and {"type":"school","id":"x"} do not name vertices edge type 'born_in' connects.`,
        ['Social', 'insert_born_in'],
      ],
    ],
  );
});

test('delete_<V>(where) and delete_by_id_<V> return what they deleted, as it was', async () => {
  const d = await data(`mutation { Social {
    delete_person(where: {_or: [{name: {_eq: "Ann"}}, {id: {_eq: "Bob"}}]}) { id born_in { to { id } } }
    delete_by_id_badge(ids: [9, 12345]) { label }
  } }`);
  assert.deepEqual(d, {
    Social: {
      delete_person: [
        { id: 'Ann', born_in: [{ to: { id: 'san jose' } }] },
        { id: 'Bob', born_in: [] },
      ],
      delete_by_id_badge: [{ label: 'tin' }],
    },
  });
  assert.deepEqual(
    await data(
      '{ Social { person_aggregate { count } badge_aggregate { count } city(where: {id: {_eq: "san jose"}}) { reverse_born_in { birthday } } } }',
    ),
    {
      Social: {
        person_aggregate: { count: 4 },
        badge_aggregate: { count: 1 },
        city: [{ reverse_born_in: [] }],
      },
    },
  );
  const noFilter = await run('mutation { Social { delete_person { id } } }');
  assert.deepEqual(
    noFilter.body.errors?.[0].message,
    'delete_person needs where or whereExpr (use delete_by_id to name vertices).',
  );
});

test('delete_<E>(where | whereExpr) and delete_by_id_<E>', async () => {
  const d = await data(`mutation { Social {
    delete_born_in(where: {birthday: {_gt: "1990-01-01"}}) {
      birthday from { id born_in { to { id } } } to { id reverse_born_in { to { id } } }
    }
    delete_is_friend_of(whereExpr: "since >= 2020") { since from_id to_id }
    delete_by_id_partner(ids: [{from: {id: "c2"}, to: {id: "s1"}}]) { from_id to_id }
  } }`);
  assert.deepEqual(d, {
    Social: {
      delete_born_in: [
        // Both ends are read as before the deletion (person and city rows 0 are both here).
        {
          birthday: '1995-01-01 00:00:00',
          from: { id: 'Jenny', born_in: [{ to: { id: 'palo alto' } }] },
          to: { id: 'palo alto', reverse_born_in: [{ to: { id: 'Jenny' } }, { to: { id: 'Kevin' } }] },
        },
        {
          birthday: '1990-06-15 12:30:00',
          from: { id: 'Kevin', born_in: [{ to: { id: 'palo alto' } }] },
          to: { id: 'palo alto', reverse_born_in: [{ to: { id: 'Jenny' } }, { to: { id: 'Kevin' } }] },
        },
      ],
      delete_is_friend_of: [{ since: 2020, from_id: 'Jenny', to_id: 'Emily' }],
      delete_by_id_partner: [{ from_id: 'c2', to_id: 's1' }],
    },
  });
  assert.deepEqual(
    await data(
      '{ Social { person(where: {id: {_eq: "Jenny"}}) { born_in { birthday } is_friend_of { since } } school { partner { to { id } } } } }',
    ),
    {
      Social: {
        person: [{ born_in: [], is_friend_of: [{ since: 2010 }, { since: 2015 }] }],
        school: [{ partner: [{ to: { id: 'c1' } }] }],
      },
    },
  );
});

test('a caller without the write privilege gets an error and nothing changes', async () => {
  const kinds: string[] = [];
  const refused = await run(
    'mutation { Social { delete_by_id_person(ids: ["Jenny"]) { id } } }',
    async (kind?: unknown) => {
      kinds.push(String(kind));
      throw new Error(
        "Access denied: user 'reader' does not have the privilege DELETE_DATA on graph 'Social'.",
      );
    },
  );
  assert.equal(refused.status, 200);
  assert.deepEqual(refused.body, {
    data: { Social: { delete_by_id_person: null } },
    errors: [
      {
        message: "Access denied: user 'reader' does not have the privilege DELETE_DATA on graph 'Social'.",
        locations: [{ line: 1, column: 21 }],
        path: ['Social', 'delete_by_id_person'],
      },
    ],
  });
  assert.deepEqual(kinds, ['delete']);
  assert.deepEqual(await data('{ Social { person(where: {id: {_eq: "Jenny"}}) { id } } }'), {
    Social: { person: [{ id: 'Jenny' }] },
  });
});

test('bad values are GraphQL errors carrying the engine code; the batch is not applied', async () => {
  const a = await run(
    'mutation { Social { insert_person(objects: [{id: "Zed"}, {id: "Zoe", scores: {q: "not a number"}}]) { id } } }',
  );
  assert.equal(
    a.body.errors?.[0].message,
    "Invalid value for attribute 'scores' of vertex 'person' id 'Zoe': expected MAP<STRING,INT>.",
  );
  assert.deepEqual(a.body.errors?.[0].extensions, { code: 'REST-30200' });
  assert.deepEqual(await data('{ Social { person_aggregate(where: {id: {_like: "Z%"}}) { count } } }'), {
    Social: { person_aggregate: { count: 0 } },
  });
  const missingKey = await run('mutation { Social { insert_person(objects: [{name: "x"}]) { id } } }');
  assert.equal(missingKey.status, 400);
  assert.match(
    missingKey.body.errors?.[0].message ?? '',
    /Field "person_insert_input.id" of required type "String!" was not provided/,
  );
});
