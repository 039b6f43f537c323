/**
 * Subscriptions through the service, fed by the engine's commit stream: which committed changes a
 * `<V>_changed` subscriber gets (insert, update, delete; its filter and ops; several writes of one
 * vertex in a commit; vertices an edge load creates), the bounded buffer, a schema change ending
 * the stream, and the engine's commit listener on its own.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { CommittedChange } from '../../src/engine/commit-feed.js';
import { vertexTouches } from '../../src/engine/wal-record.js';
import { ChangeStream, EventBudget, GraphQLService, MAX_COMMIT_CHANGES } from '../../src/graphql/index.js';
import { runScript } from '../../src/shell/run-script.js';
import { parseJsonStrict } from '../../src/util/json-parse.js';
import { openFixture, type Fixture } from './fixture.js';

let f: Fixture;
let service: GraphQLService;
before(async () => {
  f = await openFixture();
  service = new GraphQLService(f.db);
});
after(() => f.close());

const set = (value: unknown) => ({ value: value as never, op: 'set' as const });

function subscribe(query: string, budget = new EventBudget(100)): ChangeStream {
  const s = service.subscribe('Social', { query }, { budget });
  assert.ok(s instanceof ChangeStream, 'text' in s ? s.text : '');
  return s;
}

/** The next `n` events of a stream, parsed. */
async function take(s: ChangeStream, n: number): Promise<unknown[]> {
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) {
    const r = await s.next();
    assert.equal(r.done, false);
    out.push(parseJsonStrict(r.value as string));
  }
  return out;
}

test('inserts, updates and deletes that match the filter, each with its node as the commit left it', async () => {
  const s = subscribe(
    'subscription { person_changed(where: {birthYear: {_gte: 2000}}) { op id node { name birthYear } } }',
  );
  try {
    await f.db.write((tx) => tx.upsertVertex('person', 'Zed', { name: set('Zed'), birthYear: set(2003) }));
    await f.db.write((tx) => tx.upsertVertex('person', 'Old', { name: set('Old'), birthYear: set(1900) }));
    // Leaving the filter is an update too (the old vertex matched).
    await f.db.write((tx) => tx.upsertVertex('person', 'Zed', { birthYear: set(1999) }));
    await f.db.write((tx) => tx.upsertVertex('person', 'Zed', { birthYear: set(2004) }));
    await f.db.write((tx) => tx.deleteVertex('person', 'Zed'));
    await f.db.write((tx) => tx.deleteVertex('person', 'Old'));
    const ev = (op: string, birthYear: number) => ({
      data: { person_changed: { op, id: 'Zed', node: { name: 'Zed', birthYear } } },
    });
    assert.deepEqual(await take(s, 4), [
      ev('insert', 2003),
      ev('update', 1999),
      ev('update', 2004),
      ev('delete', 2004),
    ]);
  } finally {
    await s.return();
  }
});

test('ops, several writes of a vertex in one commit, vertices an edge creates, the commit version', async () => {
  const inserts = subscribe('subscription { city_changed(ops: [insert]) { op id version } }');
  const all = subscribe('subscription { city_changed { op id } }');
  try {
    const v1 = await f.db
      .write((tx) => {
        tx.upsertVertex('city', 'x1', { population: set(1) });
        tx.upsertVertex('city', 'x1', { population: set(2) });
        tx.upsertVertex('city', 'palo alto', { population: set(68001) });
      })
      .then(() => f.db.version);
    await f.db.write((tx) =>
      tx.upsertEdges(
        {
          edgeType: 'born_in',
          fromType: 'person',
          toType: 'city',
          fromIds: ['Jenny'],
          toIds: ['x2'],
          attrs: null,
          start: 0,
          end: 1,
        },
        { createMissingEndpoints: true },
      ),
    );
    await f.db.write((tx) => {
      tx.deleteVertex('city', 'x1');
      tx.deleteVertex('city', 'x2');
    });
    assert.deepEqual(await take(inserts, 2), [
      { data: { city_changed: { op: 'insert', id: 'x1', version: v1 } } },
      { data: { city_changed: { op: 'insert', id: 'x2', version: v1 + 1 } } },
    ]);
    assert.deepEqual(
      (await take(all, 5)).map((e) => (e as { data: { city_changed: unknown } }).data.city_changed),
      [
        { op: 'insert', id: 'x1' },
        { op: 'update', id: 'palo alto' },
        { op: 'insert', id: 'x2' },
        { op: 'delete', id: 'x1' },
        { op: 'delete', id: 'x2' },
      ],
    );
  } finally {
    await inserts.return();
    await all.return();
  }
});

test('a connection that lets events pile up past its budget gets an error, not unbounded memory', async () => {
  const budget = new EventBudget(3);
  const s = subscribe('subscription { school_changed { id } }', budget);
  for (let i = 0; i < 6; i++) await f.db.write((tx) => tx.upsertVertex('school', `s${i + 10}`, {}));
  // Delivery is asynchronous: nothing is read until the fourth event has overflowed the budget.
  for (let waited = 0; !s.ended; waited++) {
    assert.ok(waited < 10_000, 'the events never arrived');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  assert.equal(budget.pending, 3);
  const first = await take(s, 3);
  assert.equal(first.length, 3);
  await assert.rejects(s.next(), {
    message:
      'The subscription fell behind: more than 3 events were waiting on this connection; subscribe again.',
  });
  assert.deepEqual(await s.next(), { value: undefined, done: true });
  assert.equal(budget.pending, 0);
});

test('a commit writing more vertices of a type than are told one by one ends its subscriptions', async () => {
  const big = subscribe('subscription { company_changed { id } }');
  const other = subscribe('subscription { city_changed { id } }');
  try {
    const n = MAX_COMMIT_CHANGES + 1;
    const ids = Array.from({ length: n }, (_, i) => `bulk${i}`);
    await f.db.write((tx) => {
      tx.upsertVertices({ vertexType: 'company', ids, attrs: null, start: 0, end: n });
      tx.upsertVertex('city', 'bulkville', {});
    });
    await assert.rejects(big.next(), {
      message: `A commit changed more than ${MAX_COMMIT_CHANGES} company vertices; the subscription ended (subscribe again).`,
    });
    // Other types' subscribers still get the commit's changes.
    assert.deepEqual(await take(other, 1), [{ data: { city_changed: { id: 'bulkville' } } }]);
  } finally {
    await other.return();
    await f.db.write((tx) => {
      tx.deleteVertex('city', 'bulkville');
      for (let i = 0; i <= MAX_COMMIT_CHANGES; i++) tx.deleteVertex('company', `bulk${i}`);
    });
  }
});

test('a schema change ends every subscription with an error; a refused subscription explains why', async () => {
  const s = subscribe('subscription { company_changed { id } }');
  let out = '';
  const code = await runScript(
    f.db,
    'USE GRAPH Social\nCREATE SCHEMA_CHANGE JOB add_tag FOR GRAPH Social { ADD VERTEX tag (PRIMARY_ID id STRING); }\nRUN SCHEMA_CHANGE JOB add_tag',
    { user: 'tigergraph' },
    (t) => (out += t),
  );
  assert.equal(code, 0, out);
  await assert.rejects(s.next(), {
    message: 'The schema changed; the subscription ended (subscribe again).',
  });
  const bad = service.subscribe(
    'Social',
    { query: '{ Social { __typename } }' },
    { budget: new EventBudget(1) },
  );
  assert.ok(!(bad instanceof ChangeStream));
  assert.equal(bad.text, '{"errors":[{"message":"Not a subscription."}]}');
});

test('the engine tells commit listeners of every commit, in order, with the vertices it wrote', async () => {
  const seen: CommittedChange[] = [];
  const stop = f.db.onCommit((c) => seen.push(c));
  try {
    await f.db.write((tx) => {
      tx.upsertVertex('badge', 41, { label: set('x') });
      tx.deleteVertex('badge', 41);
    });
    await f.db.write((tx) => tx.upsertEdge('holds', 'person', 'Kevin', 'badge', 7, {}));
  } finally {
    stop();
  }
  await f.db.write((tx) => tx.upsertVertex('badge', 42, {}));
  assert.deepEqual(
    seen.map((c) => c.kind),
    ['data', 'data'],
  );
  assert.equal(seen[1].version, seen[0].version + 1);
  const first = seen[0];
  assert.ok(first.kind === 'data');
  assert.deepEqual(
    [...vertexTouches(first.record)],
    [
      { type: 'badge', id: 41, how: 'upsert' },
      { type: 'badge', id: 41, how: 'delete' },
    ],
  );
});
