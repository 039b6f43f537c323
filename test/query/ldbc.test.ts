/**
 * LDBC SNB Interactive on the real engine: a generated LDBC-shaped network loaded through a
 * loading job, Ocelot's own GSQL for the 21 read queries (and two inserts) created, installed and
 * run with several parameter sets each, every answer compared with the plain TypeScript
 * reference implementation of the benchmark's query definitions (test/fixtures/ldbc/reference.ts).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Database } from '../../src/engine/database.js';
import { allowUdfPut, decodeJsonParams, executeQuery, registryFor } from '../../src/query/index.js';
import { runScript } from '../../src/shell/run-script.js';
import { stringifyJson, type JsonValue } from '../../src/util/json.js';
import { generateNetwork } from '../fixtures/ldbc/generate.js';
import { Indexed, type SocialNetwork } from '../fixtures/ldbc/model.js';
import * as ref from '../fixtures/ldbc/reference.js';
import { QUERIES, UDF_MODULE } from '../fixtures/ldbc/queries.js';
import { SCHEMA, writeNetwork } from '../fixtures/ldbc/schema.js';

const net: SocialNetwork = generateNetwork();
const g = new Indexed(net);
let dir = '';
let db: Database;

async function gsql(text: string): Promise<string> {
  let out = '';
  const code = await runScript(db, text, { user: 'tigergraph', graph: 'snb' }, (t) => (out += t), {
    importDirs: [dir],
  });
  assert.equal(code, 0, out);
  return out;
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ocelot-ldbc-'));
  db = await Database.open({ dataDir: join(dir, 'data'), sync: 'none', rebuildIntervalMs: 0 });
  allowUdfPut(db, true);
  await gsql(SCHEMA);
  await gsql(writeNetwork(net, dir));
  writeFileSync(join(dir, 'udf.mjs'), UDF_MODULE);
  await gsql(`PUT ExprFunctions FROM "${join(dir, 'udf.mjs')}"`);
  await gsql(QUERIES);
  await gsql('INSTALL QUERY *');
});

after(async () => {
  await db?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs an installed query with JSON parameters (as REST++ decodes them); its PRINT results. */
async function run(name: string, params: Record<string, JsonValue>): Promise<Record<string, JsonValue>[]> {
  const q = registryFor(db).installed('snb', name, db.catalog);
  const { results } = await executeQuery(db, q, decodeJsonParams(q.params, params));
  return JSON.parse(stringifyJson(results)) as Record<string, JsonValue>[];
}

const result = async (name: string, params: Record<string, JsonValue>): Promise<JsonValue> =>
  (await run(name, params))[0].result;

/** The attributes of a printed vertex set. */
const attributes = (v: JsonValue): Record<string, JsonValue>[] =>
  (v as { attributes: Record<string, JsonValue> }[]).map((x) => x.attributes);

const plain = (x: unknown): JsonValue => JSON.parse(JSON.stringify(x)) as JsonValue;

const persons = [0, 5, 11, 17, 23, 30].map((i) => net.persons[i].id);
/** A VERTEX<Person> parameter in REST++'s JSON form. */
const person = (id: number): JsonValue => ({ id: String(id) });
const posts = net.messages.filter((m) => m.kind === 'Post');
const comments = net.messages.filter((m) => m.kind === 'Comment');
// Messages with replies, a post without text, a reply to a reply.
const messages = [
  posts[0],
  posts.find((m) => m.content === '')!,
  posts.find((m) => (g.replies.get(m.id)?.length ?? 0) > 1)!,
  comments.find((m) => g.message.get(m.replyOf!)!.kind === 'Comment')!,
  comments.find((m) => (g.replies.get(m.id)?.length ?? 0) > 0)!,
];
const vertex = (m: { id: number; kind: string }): JsonValue => ({ id: String(m.id), type: m.kind });
const DAY = 86_400_000;
const dates = [...net.messages.map((m) => m.creationDate)].sort((a, b) => a - b);
const at = (q: number): number => dates[Math.floor(q * (dates.length - 1))];

/** Checks that the reference found something for most inputs, so the comparison means something. */
function someNonEmpty(answers: unknown[]): void {
  const filled = answers.filter((a) => (Array.isArray(a) ? a.length > 0 : a !== undefined));
  assert.ok(
    filled.length * 2 >= answers.length,
    `only ${filled.length} of ${answers.length} inputs have answers`,
  );
}

test('IS1–IS3: profile, recent messages, friends', async () => {
  for (const p of persons) {
    assert.deepEqual(await result('is1', { personId: person(p) }), [plain(ref.is1(g, p))]);
    assert.deepEqual(await result('is2', { personId: person(p) }), plain(ref.is2(g, p)));
    assert.deepEqual(await result('is3', { personId: person(p) }), plain(ref.is3(g, p)));
  }
});

test('IS4–IS7: content, creator, forum and replies of a message', async () => {
  for (const m of messages) {
    const messageId = vertex(m);
    assert.deepEqual(await result('is4', { messageId }), [plain(ref.is4(g, m.id))]);
    assert.deepEqual(attributes(await result('is5', { messageId })), [plain(ref.is5(g, m.id))]);
    assert.deepEqual(await result('is6', { messageId }), [plain(ref.is6(g, m.id))]);
    assert.deepEqual(await result('is7', { messageId }), plain(ref.is7(g, m.id)));
  }
});

test('IC1: transitive friends with a first name, at their shortest distance', async () => {
  const answers = [];
  for (const p of persons)
    for (const firstName of ['Ana', 'Eli', 'Hana']) {
      const want = ref.ic1(g, p, firstName);
      answers.push(want);
      const got = attributes(await result('ic1', { personId: person(p), firstName })).map((r) => ({
        ...r,
        friendEmails: [...(r.friendEmails as string[])].sort(),
        friendSpeaks: [...(r.friendSpeaks as string[])].sort(),
        friendUniversities: (r.friendUniversities as string[]).map((u) => u.split(',')).sort(),
        friendCompanies: (r.friendCompanies as string[]).map((c) => c.split(',')).sort(),
      }));
      const order = (a: Record<string, JsonValue>, b: Record<string, JsonValue>) =>
        (a.distanceFromPerson as number) - (b.distanceFromPerson as number) ||
        String(a.friendLastName).localeCompare(String(b.friendLastName)) ||
        (a.friendId as number) - (b.friendId as number);
      assert.deepEqual(got.sort(order), plain(want));
    }
  someNonEmpty(answers);
});

test('IC2 and IC9: recent messages of friends, and of friends of friends', async () => {
  const answers = [];
  for (const p of persons)
    for (const q of [0.3, 0.7, 1]) {
      const maxDate = at(q);
      answers.push(ref.ic2(g, p, maxDate));
      assert.deepEqual(await result('ic2', { personId: person(p), maxDate }), plain(ref.ic2(g, p, maxDate)));
      assert.deepEqual(await result('ic9', { personId: person(p), maxDate }), plain(ref.ic9(g, p, maxDate)));
    }
  someNonEmpty(answers);
});

test('IC3: friends within two steps who posted in two countries', async () => {
  const answers = [];
  for (const p of persons)
    for (const [x, y, q, days] of [
      ['Arland', 'Borovia', 0.2, 300],
      ['Cyrene', 'Elbonia', 0.4, 200],
      ['Dunmore', 'Freedonia', 0.1, 500],
    ] as const) {
      const params = {
        personId: person(p),
        countryXName: x,
        countryYName: y,
        startDate: at(q),
        durationDays: days,
      };
      const want = ref.ic3(g, p, x, y, at(q), days);
      answers.push(want);
      assert.deepEqual(await result('ic3', params), plain(want));
    }
  someNonEmpty(answers);
});

test('IC4 and IC6: new topics, tag co-occurrence', async () => {
  const answers = [];
  for (const p of persons) {
    for (const [q, days] of [
      [0.4, 60],
      [0.6, 120],
    ] as const) {
      const want = ref.ic4(g, p, at(q), days);
      answers.push(want);
      assert.deepEqual(
        await result('ic4', { personId: person(p), startDate: at(q), durationDays: days }),
        plain(want),
      );
    }
    for (const tagName of ['Tag03', 'Tag10', 'Tag17']) {
      const want = ref.ic6(g, p, tagName);
      answers.push(want);
      assert.deepEqual(await result('ic6', { personId: person(p), tagName }), plain(want));
    }
  }
  someNonEmpty(answers);
});

test('IC5: new groups of friends and friends of friends', async () => {
  const answers = [];
  for (const p of persons)
    for (const q of [0.2, 0.5]) {
      const want = ref.ic5(g, p, at(q));
      answers.push(want);
      assert.deepEqual(await result('ic5', { personId: person(p), minDate: at(q) }), plain(want));
    }
  someNonEmpty(answers);
});

test('IC7 and IC8: recent likers, recent replies', async () => {
  const answers = [];
  for (const p of persons) {
    answers.push(ref.ic7(g, p));
    assert.deepEqual(await result('ic7', { personId: person(p) }), plain(ref.ic7(g, p)));
    assert.deepEqual(await result('ic8', { personId: person(p) }), plain(ref.ic8(g, p)));
  }
  someNonEmpty(answers);
});

test('IC10: friend recommendation by birthday and common interests', async () => {
  const answers = [];
  for (const p of persons)
    for (const month of [1, 4, 7, 12]) {
      const want = ref.ic10(g, p, month);
      answers.push(want);
      assert.deepEqual(await result('ic10', { personId: person(p), month }), plain(want));
    }
  someNonEmpty(answers);
});

test('IC11: job referral', async () => {
  const answers = [];
  for (const p of persons)
    for (const [country, year] of [
      ['Arland', 2010],
      ['Cyrene', 2005],
      ['Elbonia', 2012],
    ] as const) {
      const want = ref.ic11(g, p, country, year);
      answers.push(want);
      assert.deepEqual(
        await result('ic11', { personId: person(p), countryName: country, workFromYear: year }),
        plain(want),
      );
    }
  someNonEmpty(answers);
});

test('IC12: expert search over a tag class and its subclasses', async () => {
  const answers = [];
  for (const p of persons)
    for (const tagClassName of ['Class0', 'Class1', 'Class3', 'Class6']) {
      const want = ref.ic12(g, p, tagClassName);
      answers.push(want);
      const got: Record<string, JsonValue>[] = attributes(
        await result('ic12', { personId: person(p), tagClassName }),
      ).map((r) => ({ ...r, tagNames: [...(r.tagNames as string[])].sort() }));
      got.sort(
        (a, b) =>
          (b.replyCount as number) - (a.replyCount as number) ||
          (a.personId as number) - (b.personId as number),
      );
      assert.deepEqual(got, plain(want));
    }
  someNonEmpty(answers);
});

test('IC13 and IC14: shortest path length, trusted connection paths', async () => {
  const pairs = [
    [persons[0], persons[3]],
    [persons[1], persons[4]],
    [persons[2], persons[5]],
    [persons[5], persons[0]],
    [persons[4], persons[4]],
  ];
  for (const [a, b] of pairs) {
    const params = { person1Id: person(a), person2Id: person(b) };
    assert.deepEqual((await run('ic13', params))[0].shortestPathLength, ref.ic13(g, a, b));
    const got = (await result('ic14', params)) as { personIdsInPath: string; pathWeight: number }[];
    const want = ref
      .ic14(g, a, b)
      .map((r) => ({ personIdsInPath: r.personIdsInPath.join(','), pathWeight: r.pathWeight }));
    got.sort((x, y) => y.pathWeight - x.pathWeight || x.personIdsInPath.localeCompare(y.personIdsInPath));
    want.sort((x, y) => y.pathWeight - x.pathWeight || x.personIdsInPath.localeCompare(y.personIdsInPath));
    assert.deepEqual(got, want);
  }
});

test('inserts: a new person with friends, a new reply; reads then see them', async () => {
  const city = net.places.find((p) => p.type === 'City')!.id;
  const friends = [persons[1], persons[2]];
  await run('insert_person', {
    personId: 9999,
    firstName: 'Zed',
    lastName: 'Quill',
    creationDate: at(0.9),
    cityId: city,
    friends: friends.map(person),
  });
  const m = messages[0];
  await run('insert_comment', {
    commentId: 4_000_001,
    creationDate: m.creationDate + DAY,
    content: 'late reply',
    authorId: 9999,
    replyTo: vertex(m),
  });
  // The same changes in the reference network.
  net.persons.push({
    id: 9999,
    firstName: 'Zed',
    lastName: 'Quill',
    gender: 'female',
    birthday: 0,
    creationDate: at(0.9),
    locationIP: '10.9.9.9',
    browserUsed: 'Firefox',
    speaks: [],
    emails: [],
    cityId: city,
  });
  for (const f of friends) net.knows.push({ a: 9999, b: f, creationDate: at(0.9) });
  net.messages.push({
    id: 4_000_001,
    kind: 'Comment',
    creationDate: m.creationDate + DAY,
    locationIP: '10.8.8.8',
    browserUsed: 'Chrome',
    content: 'late reply',
    imageFile: '',
    language: '',
    length: 5,
    countryId: 10,
    creatorId: 9999,
    replyOf: m.id,
    tags: [],
  });
  const g2 = new Indexed(net);
  assert.deepEqual(await result('is1', { personId: person(9999) }), [plain(ref.is1(g2, 9999))]);
  assert.deepEqual(await result('is3', { personId: person(9999) }), plain(ref.is3(g2, 9999)));
  assert.deepEqual(await result('is7', { messageId: vertex(m) }), plain(ref.is7(g2, m.id)));
  assert.deepEqual(await result('ic8', { personId: person(m.creatorId) }), plain(ref.ic8(g2, m.creatorId)));
});
