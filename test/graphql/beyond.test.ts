/**
 * What Ocelot's GraphQL has beyond TigerGraph's service, each checked against an independent
 * reference computed from the engine's own reads: `<V>_connection` with stable cursors across
 * inserts and deletes, `<V>_aggregate` (count, sum, avg, min, max, degree), `<edge>_aggregate` on
 * vertices, neighbour filters (`_some`, `_none`, `_all`), and `_id` on every vertex type.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { GraphQLService } from '../../src/graphql/index.js';
import { formatDatetime } from '../../src/util/datetime.js';
import { openFixture, parsed, type Answer, type Fixture } from './fixture.js';

let f: Fixture;
let service: GraphQLService;
before(async () => {
  f = await openFixture();
  service = new GraphQLService(f.db);
});
after(() => f.close());

async function run(query: string, variables?: Record<string, unknown>): Promise<Answer> {
  return parsed(await service.execute('Social', { query, variables }, { method: 'POST' }));
}

async function data<T>(query: string, variables?: Record<string, unknown>): Promise<T> {
  const a = await run(query, variables);
  assert.equal(a.body.errors, undefined, JSON.stringify(a.body.errors));
  return a.body.data as T;
}

interface Person {
  id: string;
  birthYear: number;
  height: number;
  birthday: number;
  friends: string[];
  born: string[];
}

/** Every person as the engine stores it (the reference). */
function people(): Person[] {
  const tx = f.db.read();
  try {
    return Array.from(tx.rows('person'), (row) => ({
      id: tx.vertexId('person', row),
      birthYear: tx.attr('person', row, 'birthYear') as number,
      height: tx.attr('person', row, 'height') as number,
      birthday: tx.attr('person', row, 'birthday') as number,
      friends: tx
        .edges('person', row, { edgeType: 'is_friend_of' })
        .map((h) => tx.vertexId('person', h.tgtRow)),
      born: tx.edges('person', row, { edgeType: 'born_in' }).map((h) => tx.vertexId('city', h.tgtRow)),
    }));
  } finally {
    tx.release();
  }
}

type Page = {
  Social: {
    person_connection: {
      totalCount: number;
      edges: { cursor: string; node: { _id: string } }[];
      pageInfo: {
        hasNextPage: boolean;
        hasPreviousPage: boolean;
        startCursor: string | null;
        endCursor: string | null;
      };
    };
  };
};

const PAGE = `query($after: String, $o: [personOrderBy!]) { Social { person_connection(first: 2, after: $after, order_by: $o) {
  totalCount edges { cursor node { _id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`;

async function allPages(order: unknown): Promise<string[]> {
  const ids: string[] = [];
  let after: string | null = null;
  for (let i = 0; i < 20; i++) {
    const p: Page = await data<Page>(PAGE, { after, o: order });
    const c = p.Social.person_connection;
    ids.push(...c.edges.map((e) => e.node._id));
    assert.equal(c.pageInfo.endCursor, c.edges.at(-1)?.cursor ?? null);
    if (!c.pageInfo.hasNextPage) return ids;
    after = c.pageInfo.endCursor;
  }
  throw new Error('no last page');
}

test('connections page through every vertex in order_by then _id order', async () => {
  const ref = people();
  assert.deepEqual(await allPages(null), ref.map((p) => p.id).sort(), 'default order: _id');
  const byHeight = [...ref].sort((a, b) => b.height - a.height || (a.id < b.id ? -1 : 1)).map((p) => p.id);
  assert.deepEqual(await allPages([{ height: 'desc' }]), byHeight);
  const first = await data<Page>(PAGE, { after: null, o: null });
  assert.equal(first.Social.person_connection.totalCount, ref.length);
  assert.equal(first.Social.person_connection.pageInfo.hasPreviousPage, false);
});

test("cursors stay valid while vertices are inserted and deleted, the cursor's own included", async () => {
  const set = (value: unknown) => ({ value: value as never, op: 'set' as const });
  const order = [{ birthYear: 'asc' }];
  await f.db.write((tx) => tx.upsertVertex('person', 'Tmp', { birthYear: set(1980) }));
  const p1 = await data<Page>(PAGE, { after: null, o: order });
  assert.deepEqual(
    p1.Social.person_connection.edges.map((e) => e.node._id),
    ['Smith', 'Tmp'],
  );
  const cursor = p1.Social.person_connection.pageInfo.endCursor;
  // The cursor's vertex goes, one vertex arrives before it and one after it.
  await f.db.write((tx) => {
    tx.deleteVertex('person', 'Tmp');
    tx.upsertVertex('person', 'Ann', { birthYear: set(1950) });
    tx.upsertVertex('person', 'Zoe', { birthYear: set(1992) });
  });
  try {
    const p2 = await data<Page>(PAGE, { after: cursor, o: order });
    assert.deepEqual(
      p2.Social.person_connection.edges.map((e) => e.node._id),
      ['Kevin', 'Zoe'],
    );
    assert.equal(p2.Social.person_connection.pageInfo.hasPreviousPage, true);
    assert.equal(p2.Social.person_connection.totalCount, 6);
    const p3 = await data<Page>(PAGE, { after: p2.Social.person_connection.pageInfo.endCursor, o: order });
    assert.deepEqual(
      p3.Social.person_connection.edges.map((e) => e.node._id),
      ['Jenny', 'Emily'],
    );
    assert.equal(p3.Social.person_connection.pageInfo.hasNextPage, false);
  } finally {
    await f.db.write((tx) => {
      tx.deleteVertex('person', 'Ann');
      tx.deleteVertex('person', 'Zoe');
    });
  }
  const other = await run(PAGE, { after: cursor, o: [{ height: 'asc' }] });
  assert.deepEqual(other.body.data, { Social: { person_connection: null } });
  assert.match(
    other.body.errors?.[0].message ?? '',
    /was made for another order_by \("birthYear:asc", not "height:asc"\)/,
  );
  const junk = await run(PAGE, { after: 'not-a-cursor', o: null });
  assert.match(
    junk.body.errors?.[0].message ?? '',
    /^The cursor "not-a-cursor" is not a cursor of this service\.$/,
  );
});

test('<V>_aggregate: count, sum, avg, min, max and degree equal the engine reference', async () => {
  const ref = people();
  const d = await data<{ Social: Record<string, unknown> }>(`{ Social {
    all: person_aggregate { count sum { birthYear height } avg { birthYear } min { birthday birthYear name } max { birthYear height }
      degree { is_friend_of { sum min max avg } born_in { sum max } } }
    tall: person_aggregate(where: {height: {_gte: 1.7}}) { count max { height } }
    none: person_aggregate(where: {birthYear: {_gt: 3000}}) { count sum { birthYear } min { birthYear } degree { born_in { sum min avg } } }
  } }`);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const years = ref.map((p) => p.birthYear);
  const deg = ref.map((p) => p.friends.length);
  assert.deepEqual(d.Social.all, {
    count: ref.length,
    sum: { birthYear: sum(years), height: sum(ref.map((p) => p.height)) },
    avg: { birthYear: sum(years) / ref.length },
    min: {
      birthday: formatDatetime(Math.min(...ref.map((p) => p.birthday))),
      birthYear: Math.min(...years),
      name: [...ref.map((p) => p.id)].sort()[0],
    },
    max: { birthYear: Math.max(...years), height: Math.max(...ref.map((p) => p.height)) },
    degree: {
      is_friend_of: {
        sum: sum(deg),
        min: Math.min(...deg),
        max: Math.max(...deg),
        avg: sum(deg) / ref.length,
      },
      born_in: { sum: sum(ref.map((p) => p.born.length)), max: Math.max(...ref.map((p) => p.born.length)) },
    },
  });
  const tall = ref.filter((p) => p.height >= 1.7);
  assert.deepEqual(d.Social.tall, {
    count: tall.length,
    max: { height: Math.max(...tall.map((p) => p.height)) },
  });
  assert.deepEqual(d.Social.none, {
    count: 0,
    sum: { birthYear: null },
    min: { birthYear: null },
    degree: { born_in: { sum: 0, min: null, avg: null } },
  });
});

test('<edge>_aggregate on a vertex: its degree and edge statistics, filtered', async () => {
  const d = await data<{ Social: { person: unknown[] } }>(`{ Social { person(order_by: {_id: asc}) {
    _id is_friend_of_aggregate { count min { since } max { since } avg { since } }
    recent: is_friend_of_aggregate(where: {since: {_gte: 2015}}) { count }
    born_in_aggregate { count }
  } } }`);
  assert.deepEqual(d.Social.person, [
    {
      _id: 'Emily',
      is_friend_of_aggregate: { count: 1, min: { since: 2020 }, max: { since: 2020 }, avg: { since: 2020 } },
      recent: { count: 1 },
      born_in_aggregate: { count: 0 },
    },
    {
      _id: 'Jenny',
      is_friend_of_aggregate: { count: 3, min: { since: 2010 }, max: { since: 2020 }, avg: { since: 2015 } },
      recent: { count: 2 },
      born_in_aggregate: { count: 1 },
    },
    {
      _id: 'Kevin',
      is_friend_of_aggregate: { count: 1, min: { since: 2015 }, max: { since: 2015 }, avg: { since: 2015 } },
      recent: { count: 1 },
      born_in_aggregate: { count: 1 },
    },
    {
      _id: 'Smith',
      is_friend_of_aggregate: { count: 1, min: { since: 2010 }, max: { since: 2010 }, avg: { since: 2010 } },
      recent: { count: 0 },
      born_in_aggregate: { count: 1 },
    },
  ]);
});

test('neighbour filters: _some, _none and _all over edges and their to vertices', async () => {
  const ref = people();
  const ids = async (where: string) =>
    (
      await data<{ Social: { person: { _id: string }[] } }>(`{ Social { person(where: ${where}) { _id } } }`)
    ).Social.person
      .map((p) => p._id)
      .sort();
  const expect = (keep: (p: Person) => boolean) =>
    ref
      .filter(keep)
      .map((p) => p.id)
      .sort();
  assert.deepEqual(
    await ids('{is_friend_of: {_some: {}}}'),
    expect((p) => p.friends.length > 0),
  );
  assert.deepEqual(
    await ids('{born_in: {_none: {}}}'),
    expect((p) => p.born.length === 0),
  );
  assert.deepEqual(
    await ids('{born_in: {_some: {to: {name: {_eq: "palo alto"}}}}}'),
    expect((p) => p.born.includes('palo alto')),
  );
  // Friends' friends: persons with a friend who was born in mountain view.
  const bornIn = new Map(ref.map((p) => [p.id, p.born]));
  assert.deepEqual(
    await ids('{is_friend_of: {_some: {to: {born_in: {_some: {to: {name: {_eq: "mountain view"}}}}}}}}'),
    expect((p) => p.friends.some((fr) => (bornIn.get(fr) ?? []).includes('mountain view'))),
  );
  assert.deepEqual(await ids('{is_friend_of: {_all: {since: {_gte: 2015}}}}'), ['Emily', 'Kevin']);
  assert.deepEqual(
    await ids('{_and: [{is_friend_of: {_some: {since: {_lt: 2011}}}}, {born_in: {_some: {}}}]}'),
    ['Jenny', 'Smith'],
  );
});

test('_id: the primary id on every vertex type, typed as the id, in filters and order_by', async () => {
  const d = await data<{ Social: Record<string, unknown> }>(`{ Social {
    badge { _id label }
    city(where: {_id: {_in: ["san jose", "palo alto", "nowhere"]}}, order_by: {_id: desc}) { _id }
    company(where: {_id: {_eq: "c2"}}) { _id name }
  } }`);
  assert.deepEqual(d.Social, {
    badge: [{ _id: 7, label: 'gold' }],
    city: [{ _id: 'san jose' }, { _id: 'palo alto' }],
    company: [{ _id: 'c2', name: 'Globex' }],
  });
});
