/**
 * Queries through the GraphQL service (no HTTP): where filters, whereExpr, sorting, pagination,
 * multi-hop selections with filters at every level, aggregates, exact 64-bit values, and the
 * errors of invalid input.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ReadTx } from '../../src/engine/api.js';
import { GraphQLService } from '../../src/graphql/index.js';
import { runScript } from '../../src/shell/run-script.js';
import { openFixture, type Answer, type Fixture, parsed } from './fixture.js';

let f: Fixture;
let service: GraphQLService;
before(async () => {
  f = await openFixture();
  service = new GraphQLService(f.db);
});
after(() => f.close());

async function run(
  query: string,
  variables?: Record<string, unknown>,
  method: 'GET' | 'POST' = 'POST',
): Promise<Answer> {
  return parsed(await service.execute('Social', { query, variables }, { method }));
}

/** The data of a successful answer. */
async function data(query: string, variables?: Record<string, unknown>): Promise<unknown> {
  const a = await run(query, variables);
  assert.equal(a.body.errors, undefined, JSON.stringify(a.body.errors));
  assert.equal(a.status, 200);
  return a.body.data;
}

/** Names of the persons a `person(...)` argument list selects. */
async function persons(args: string, variables?: Record<string, unknown>): Promise<string[]> {
  const declared = [args.includes('$y') ? '$y: Int64' : '', args.includes('$o') ? '$o: personOrderBy' : '']
    .filter((x) => x !== '')
    .join(', ');
  const header = declared === '' ? '' : `query(${declared}) `;
  const d = (await data(`${header}{ Social { person${args} { name } } }`, variables)) as {
    Social: { person: { name: string }[] };
  };
  return d.Social.person.map((p) => p.name);
}

function messages(a: Answer): string[] {
  return (a.body.errors ?? []).map((e) => e.message);
}

test('where: comparison operators, _and/_or/_not, _in/_nin/_like, datetime and id', async () => {
  assert.deepEqual(await persons('(where: {birthYear: {_gt: 1990}})'), ['Jenny', 'Emily']);
  assert.deepEqual(await persons('(where: {birthYear: {_gte: 1990, _lt: 2000}})'), ['Jenny', 'Kevin']);
  assert.deepEqual(await persons('(where: {birthYear: {_lte: 1973}})'), ['Smith']);
  assert.deepEqual(await persons('(where: {name: {_neq: "Jenny"}, married: {_eq: false}})'), ['Emily']);
  assert.deepEqual(await persons('(where: {_and: [{birthYear: {_gt: 1980}}, {married: {_eq: true}}]})'), [
    'Kevin',
  ]);
  assert.deepEqual(await persons('(where: {_or: [{height: {_gte: 1.8}}, {name: {_eq: "Emily"}}]})'), [
    'Smith',
    'Emily',
  ]);
  assert.deepEqual(await persons('(where: {_not: {married: {_eq: true}}})'), ['Jenny', 'Emily']);
  assert.deepEqual(await persons('(where: {name: {_in: ["Kevin", "Smith", "Nobody"]}})'), ['Smith', 'Kevin']);
  assert.deepEqual(await persons('(where: {name: {_nin: ["Kevin", "Smith"]}})'), ['Jenny', 'Emily']);
  assert.deepEqual(await persons('(where: {name: {_like: "%y"}})'), ['Jenny', 'Emily']);
  assert.deepEqual(await persons('(where: {name: {_like: "_evin"}})'), ['Kevin']);
  assert.deepEqual(await persons('(where: {birthday: {_gt: "1995-01-01"}})'), ['Emily']);
  assert.deepEqual(await persons('(where: {birthday: {_gte: "1995-01-01 00:00:00"}})'), ['Jenny', 'Emily']);
  assert.deepEqual(await persons('(where: {id: {_eq: "Smith"}})'), ['Smith']);
  assert.deepEqual(await persons('(where: {birthYear: {_gt: $y}})', { y: 1994 }), ['Jenny', 'Emily']);
  // Empty conditions impose nothing.
  assert.deepEqual(await persons('(where: {})'), ['Jenny', 'Smith', 'Kevin', 'Emily']);
});

test('whereExpr: GSQL expressions with LIKE, functions and = as equality', async () => {
  assert.deepEqual(await persons('(whereExpr: "name LIKE \\"%y\\"")'), ['Jenny', 'Emily']);
  assert.deepEqual(await persons('(whereExpr: "lower(name) == \\"kevin\\" OR birthYear < 1980")'), [
    'Smith',
    'Kevin',
  ]);
  assert.deepEqual(await persons('(whereExpr: "birthYear = 2001 and married == false")'), ['Emily']);
  assert.deepEqual(await persons('(whereExpr: "height * 100 >= 175")'), ['Smith']);
  const d = (await data(
    '{ Social { city(whereExpr: "name like \\"San%\\" or name like \\"%alto\\"") { name } } }',
  )) as {
    Social: { city: { name: string }[] };
  };
  // LIKE is case-sensitive, as in GSQL.
  assert.deepEqual(d.Social.city, [{ name: 'palo alto' }]);
});

test('whereExpr errors name the problem; where and whereExpr together are refused', async () => {
  const syntax = await run('{ Social { person(whereExpr: "name ==") { name } } }');
  assert.equal(syntax.status, 200);
  assert.deepEqual(syntax.body.data, { Social: { person: null } });
  assert.deepEqual(syntax.body.errors, [
    {
      message: `Invalid whereExpr "name ==" on vertex type 'person': line 1, column 8: expected an expression but found end of input`,
      locations: [{ line: 1, column: 12 }],
      path: ['Social', 'person'],
    },
  ]);
  assert.deepEqual(messages(await run('{ Social { person(whereExpr: "nme == \\"x\\"") { name } } }')), [
    `Invalid whereExpr "nme == "x"" on vertex type 'person': line 1, column 1: "nme" is not defined`,
  ]);
  const notBool = messages(await run('{ Social { person(whereExpr: "birthYear + 1") { name } } }'));
  assert.match(
    notBool[0],
    /^Invalid whereExpr "birthYear \+ 1" on vertex type 'person': line 1, column 1: the expression must be BOOL/,
  );
  const typeErr = messages(await run('{ Social { person(whereExpr: "name > 3") { name } } }'));
  assert.match(typeErr[0], /^Invalid whereExpr "name > 3" on vertex type 'person': /);
  assert.deepEqual(
    messages(await run('{ Social { person(where: {name: {_eq: "x"}}, whereExpr: "true") { name } } }')),
    ['where and whereExpr cannot be used at the same time (on person).'],
  );
});

test('order_by: one object or a list, keys in written order; limit and offset', async () => {
  assert.deepEqual(await persons('(order_by: {birthYear: desc})'), ['Emily', 'Jenny', 'Kevin', 'Smith']);
  // Jenny and Kevin are both 1.7 tall: the second key decides.
  assert.deepEqual(await persons('(order_by: [{height: asc}, {name: desc}])'), [
    'Emily',
    'Kevin',
    'Jenny',
    'Smith',
  ]);
  assert.deepEqual(await persons('(order_by: [{height: asc}, {name: asc}])'), [
    'Emily',
    'Jenny',
    'Kevin',
    'Smith',
  ]);
  // One object with two keys sorts by the first key written, not the type's field order.
  assert.deepEqual(await persons('(order_by: {name: desc, height: asc})'), [
    'Smith',
    'Kevin',
    'Jenny',
    'Emily',
  ]);
  assert.deepEqual(await persons('(order_by: $o)', { o: { name: 'desc', height: 'asc' } }), [
    'Smith',
    'Kevin',
    'Jenny',
    'Emily',
  ]);
  assert.deepEqual(await persons('(order_by: {birthday: asc}, limit: 2)'), ['Smith', 'Kevin']);
  assert.deepEqual(await persons('(order_by: {birthday: asc}, limit: 2, offset: 1)'), ['Kevin', 'Jenny']);
  assert.deepEqual(await persons('(order_by: {birthday: asc}, offset: 3)'), ['Emily']);
  assert.deepEqual(await persons('(limit: 1)'), ['Jenny']);
  assert.deepEqual(messages(await run('{ Social { person(limit: 1, offset: 1) { name } } }')), [
    "offset with limit on 'person' needs order_by.",
  ]);
  assert.deepEqual(messages(await run('{ Social { person(limit: -1) { name } } }')), [
    "limit on 'person' must not be negative.",
  ]);
});

test('multi-hop: edge fields, to, reverse edges, filters at every level, edge order_by and limit', async () => {
  const d = await data(`{ Social { person(where: {name: {_in: ["Jenny", "Smith"]}}) {
    name
    born_in { birthday to { name reverse_born_in(order_by: {birthday: desc}) { birthday to { name } } } }
    is_friend_of(where: {since: {_gte: 2015}}, order_by: {since: desc}) { since to { name } }
    works_at { since to(where: {name: {_eq: "Nope"}}) { name } }
    holds { to { label big } }
  } } }`);
  assert.deepEqual(d, {
    Social: {
      person: [
        {
          name: 'Jenny',
          born_in: [
            {
              birthday: '1995-01-01 00:00:00',
              to: {
                name: 'palo alto',
                reverse_born_in: [
                  { birthday: '1995-01-01 00:00:00', to: { name: 'Jenny' } },
                  { birthday: '1990-06-15 12:30:00', to: { name: 'Kevin' } },
                ],
              },
            },
          ],
          is_friend_of: [
            { since: 2020, to: { name: 'Emily' } },
            { since: 2015, to: { name: 'Kevin' } },
          ],
          works_at: [],
          // UINT beyond 2^53 stays exact.
          holds: [{ to: { label: 'gold', big: 18446744073709551615n } }],
        },
        {
          name: 'Smith',
          born_in: [
            {
              birthday: '1973-10-05 00:00:00',
              to: {
                name: 'mountain view',
                reverse_born_in: [{ birthday: '1973-10-05 00:00:00', to: { name: 'Smith' } }],
              },
            },
          ],
          is_friend_of: [],
          // A `to` that fails its filter is null; the edge stays.
          works_at: [{ since: 2001, to: null }],
          holds: [],
        },
      ],
    },
  });
  const shapes = await data(`{ Social {
    company(order_by: {id: asc}) { id partner { to { name partner { to { id } } } } locate_at_To_city { to { name } } }
    city(where: {id: {_eq: "palo alto"}}) { reverse_locate_at_To_company { to { id } } reverse_locate_at_To_school { to { id } } }
  } }`);
  assert.deepEqual(shapes, {
    Social: {
      company: [
        {
          id: 'c1',
          partner: [{ to: { name: 'Stanford', partner: [{ to: { id: 'c1' } }] } }],
          locate_at_To_city: [{ to: { name: 'palo alto' } }],
        },
        { id: 'c2', partner: [], locate_at_To_city: [{ to: { name: 'san jose' } }] },
      ],
      city: [
        {
          reverse_locate_at_To_company: [{ to: { id: 'c1' } }],
          reverse_locate_at_To_school: [{ to: { id: 's1' } }],
        },
      ],
    },
  });
  const paged = await data(
    '{ Social { person(where: {id: {_eq: "Jenny"}}) { is_friend_of(order_by: {since: asc}, limit: 1, offset: 1) { since } } } }',
  );
  assert.deepEqual(paged, { Social: { person: [{ is_friend_of: [{ since: 2015 }] }] } });
});

test('attribute values: Datetime text, LIST as a list, MAP as Json, aliases and fragments', async () => {
  const d = await data(`{ Social { p: person(where: {id: {_eq: "Smith"}}) { ...P born: birthday } } }
    fragment P on person { id tags scores height married }`);
  assert.deepEqual(d, {
    Social: {
      p: [
        {
          id: 'Smith',
          tags: ['y', 'z'],
          scores: { a: 3 },
          height: 1.8,
          married: true,
          born: '1973-10-05 00:00:00',
        },
      ],
    },
  });
});

test('<V>_aggregate counts with the same filters', async () => {
  const d = await data(`{ Social {
    all: person_aggregate { count }
    married: person_aggregate(where: {married: {_eq: true}}) { count }
    y: person_aggregate(whereExpr: "name like \\"%y\\"") { count }
    badge_aggregate { count }
  } }`);
  assert.deepEqual(d, {
    Social: { all: { count: 4 }, married: { count: 2 }, y: { count: 2 }, badge_aggregate: { count: 1 } },
  });
});

test('invalid requests get GraphQL errors with locations, never a crash', async () => {
  const unknown = await run('{ Social { person { nme } } }');
  assert.equal(unknown.status, 400);
  assert.deepEqual(unknown.body, {
    errors: [
      {
        message: 'Cannot query field "nme" on type "person". Did you mean "name"?',
        locations: [{ line: 1, column: 21 }],
      },
    ],
  });
  const syntax = await run('{ Social { person { name }');
  assert.equal(syntax.status, 400);
  assert.deepEqual(syntax.body, {
    errors: [{ message: 'Syntax Error: Expected Name, found <EOF>.', locations: [{ line: 1, column: 27 }] }],
  });
  const badArg = await run('{ Social { person(where: {birthYear: {_gt: "x"}}) { name } } }');
  assert.equal(badArg.status, 400);
  assert.match(messages(badArg)[0], /Int64 cannot represent "x": expected an integer in range$/);
  const badVar = await run('query($y: Int64) { Social { person(where: {birthYear: {_gt: $y}}) { name } } }', {
    y: 'abc',
  });
  assert.equal(badVar.status, 400);
  assert.match(messages(badVar)[0], /^Variable "\$y" got invalid value "abc"/);
  const noQuery = parsed(await service.execute('Social', {}, { method: 'POST' }));
  assert.deepEqual(noQuery, {
    status: 400,
    body: { errors: [{ message: 'The request has no GraphQL query (a "query" string).' }] },
  });
  assert.deepEqual(
    parsed(
      await service.execute(
        'Social',
        { query: '{ Social { __typename } }', variables: [1] },
        { method: 'POST' },
      ),
    ),
    {
      status: 400,
      body: { errors: [{ message: '"variables" must be a JSON object.' }] },
    },
  );
  assert.deepEqual(parsed(await service.execute('Nope', { query: '{ Nope }' }, { method: 'POST' })), {
    status: 404,
    body: { errors: [{ message: "Graph 'Nope' does not exist." }] },
  });
  const getMutation = await run(
    'mutation { Social { delete_by_id_person(ids: ["Jenny"]) { id } } }',
    undefined,
    'GET',
  );
  assert.deepEqual(getMutation, {
    status: 405,
    body: { errors: [{ message: 'Mutations need POST; GET runs queries only.' }] },
  });
  assert.deepEqual(await data('{ Social { person(where: {id: {_eq: "Jenny"}}) { id } } }'), {
    Social: { person: [{ id: 'Jenny' }] },
  });
});

test('one snapshot per request, released at the end', async () => {
  let reads = 0;
  let released = 0;
  const counting = new GraphQLService({
    get catalog() {
      return f.db.catalog;
    },
    read(): ReadTx {
      reads++;
      const tx = f.db.read();
      return new Proxy(tx, {
        get(target, key, receiver) {
          if (key === 'release') return () => (released++, target.release());
          const v: unknown = Reflect.get(target, key, receiver);
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      });
    },
    write: (fn) => f.db.write(fn),
  });
  const answer = await counting.execute(
    'Social',
    { query: '{ Social { person { born_in { to { reverse_born_in { to { name } } } } } city { name } } }' },
    { method: 'POST' },
  );
  assert.equal(answer.status, 200);
  assert.equal(reads, 1);
  assert.equal(released, 1);
});

test('the schema follows schema changes without a restart', async () => {
  assert.match(
    messages(await run('{ Social { pet { name } } }'))[0],
    /Cannot query field "pet" on type "Social"/,
  );
  let out = '';
  const code = await runScript(
    f.db,
    [
      'USE GRAPH Social',
      'CREATE SCHEMA_CHANGE JOB add_pet FOR GRAPH Social {',
      '  ADD VERTEX pet (PRIMARY_ID id STRING, name STRING) WITH primary_id_as_attribute="true";',
      '}',
      'RUN SCHEMA_CHANGE JOB add_pet',
    ].join('\n'),
    { user: 'tigergraph' },
    (t) => (out += t),
  );
  assert.equal(code, 0, out);
  await f.db.write((tx) => tx.upsertVertex('pet', 'rex', { name: { value: 'Rex', op: 'set' } }));
  assert.deepEqual(await data('{ Social { pet { id name } } }'), {
    Social: { pet: [{ id: 'rex', name: 'Rex' }] },
  });
});

test('a cached document, its plan and its inline decision follow a schema change', async () => {
  const point = '{ Social { toy(where: {_id: {_eq: "ball"}}) { name } } }';
  // Twice: the second answer comes from the document cache.
  for (let i = 0; i < 2; i++)
    assert.match(messages(await run(point))[0], /Cannot query field "toy" on type "Social"/);
  let out = '';
  const code = await runScript(
    f.db,
    [
      'USE GRAPH Social',
      'CREATE SCHEMA_CHANGE JOB add_toy FOR GRAPH Social {',
      '  ADD VERTEX toy (PRIMARY_ID id STRING, name STRING) WITH primary_id_as_attribute="true";',
      '}',
      'RUN SCHEMA_CHANGE JOB add_toy',
    ].join('\n'),
    { user: 'tigergraph' },
    (t) => (out += t),
  );
  assert.equal(code, 0, out);
  await f.db.write((tx) => tx.upsertVertex('toy', 'ball', { name: { value: 'Ball', op: 'set' } }));
  assert.deepEqual(await data(point), { Social: { toy: [{ name: 'Ball' }] } });
  const here = await service.executeHere('Social', { query: point }, { method: 'POST' });
  assert.ok(here, 'the point lookup on the new type runs here');
  assert.deepEqual(parsed(here).body, { data: { Social: { toy: [{ name: 'Ball' }] } } });
});
