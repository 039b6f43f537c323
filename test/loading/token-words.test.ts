/**
 * The dictionary of id words coded from token bytes (token-words.ts): the same bytes give the same
 * code and the one string, codes are dense, a string codes as its UTF-8 bytes do, a full
 * dictionary codes only the words it holds, and clearing forgets words and remembered rows. A
 * load on the event loop that codes its edge ends gives the graph that the ids as strings give,
 * with quoted ids (coded or not), empty ids and ids met before the dictionary filled.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { prepareJob, runJobOnFiles } from '../../src/loading/job.js';
import { TokenWords } from '../../src/loading/token-words.js';
import { openTestDb } from './helpers.js';

const bytes = (s: string): Buffer => Buffer.from(s, 'utf8');

test('the same bytes give the same code and string; codes are dense; strings code as their bytes', () => {
  const w = new TokenWords();
  const line = bytes('p1,p22,p1,Zoë,p22,');
  const at = (from: number, to: number): number => w.code(line, from, to);
  assert.equal(at(0, 2), 0);
  assert.equal(at(3, 6), 1);
  assert.equal(at(7, 9), 0, 'p1 again');
  const zoe = at(10, 14);
  assert.equal(zoe, 2);
  assert.equal(w.word(zoe), 'Zoë');
  assert.equal(at(15, 18), 1);
  assert.equal(at(19, 19), 3, 'the empty word');
  assert.equal(w.word(3), '');
  assert.equal(w.codeString('Zoë'), zoe);
  assert.equal(w.codeString('p22'), 1);
  assert.equal(w.word(0), w.word(at(7, 9)), 'one string per word');
  assert.deepEqual(w.takeFresh(), ['p1', 'p22', 'Zoë', '']);
  assert.deepEqual(w.takeFresh(), []);
});

test('many words: codes survive the table growing, and prefixes and hash neighbours stay apart', () => {
  const w = new TokenWords();
  const words = Array.from({ length: 20000 }, (_, i) => (i % 3 === 0 ? `v${i}` : `v${i}x`));
  words.push('v', 'vv', 'v1x0');
  const codes = words.map((s) => w.codeString(s));
  assert.deepEqual(
    codes,
    words.map((_s, i) => i),
  );
  words.forEach((s, i) => assert.equal(w.codeString(s), i));
  words.forEach((s, i) => assert.equal(w.word(i), s));
  assert.equal(w.size, words.length);
});

test('words kept packed in their slot (up to 8 bytes) and longer ones stay apart at every length', () => {
  const w = new TokenWords();
  // Every length 0..12, words that differ only in their last byte, in a trailing zero byte, or in
  // bytes with the high bit set (negative packed halves), and multi-byte UTF-8 across the halves.
  const words: string[] = [];
  for (let n = 0; n <= 12; n++) {
    const base = 'abcdefghijkl'.slice(0, n);
    words.push(base, `${base}\u0000`, `${base}\u00ff`, `${base}é`, `ÿ${base}`);
  }
  // Many words whose packed bytes are equal and whose lengths differ (slot neighbours meet).
  for (let i = 0; i < 5000; i++) words.push(`${i}`, `${i}\u0000`, `${i}\u0000\u0000`);
  const unique = [...new Set(words)];
  const codes = unique.map((s) => w.codeString(s));
  assert.deepEqual(
    codes,
    unique.map((_s, i) => i),
  );
  unique.forEach((s, i) => assert.equal(w.codeString(s), i, s));
  unique.forEach((s, i) => assert.equal(w.word(i), s));
  // From the bytes of a line too, where a token sits at any offset.
  const line = bytes(unique.join(','));
  let at = 0;
  unique.forEach((s, i) => {
    const n = Buffer.byteLength(s);
    assert.equal(w.code(line, at, at + n), i, s);
    at += n + 1;
  });
  // A cleared dictionary codes long words from the start of its byte store again.
  w.clear();
  assert.equal(w.codeString('a-long-word-1'), 0);
  assert.equal(w.codeString('a-long-word-2'), 1);
  assert.equal(w.codeString('a-long-word-1'), 0);
  assert.equal(w.word(1), 'a-long-word-2');
});

test('a full dictionary codes the words it holds only; clearing forgets words and rows', () => {
  const w = new TokenWords(2);
  assert.equal(w.codeString('a'), 0);
  assert.equal(w.codeString('b'), 1);
  assert.equal(w.open, false);
  assert.equal(w.codeString('c'), -1);
  assert.equal(w.codeString('a'), 0);
  const table = {};
  const rows = w.rows.rows(table, 0);
  rows[1] = 7;
  w.clear();
  assert.equal(w.size, 0);
  assert.equal(w.codeString('c'), 0);
  assert.equal(w.rows.rows(table, 0)[1], -1, 'rows forgotten');
});

const SCHEMA = `CREATE VERTEX person (PRIMARY_ID name STRING, age INT) WITH primary_id_as_attribute="true"
CREATE DIRECTED EDGE knows (FROM person, TO person, since DATETIME)
CREATE GRAPH g (*)`;

const JOB = `CREATE LOADING JOB j FOR GRAPH g {
  DEFINE FILENAME people, friends;
  LOAD people TO VERTEX person VALUES ($0, $1);
  LOAD friends TO EDGE knows VALUES ($0, $1, $2) WHERE $2 != "gone" USING QUOTE="double";
  DELETE VERTEX person (PRIMARY_ID $0) FROM friends WHERE $2 == "gone" USING QUOTE="double";
}`;

test('a load on the event loop with coded edge ends, batch by batch', async () => {
  const t = await openTestDb(SCHEMA);
  try {
    const job = prepareJob(JOB, 'g', t.db);
    const friends = [
      'a,b,2024-01-01 00:00:00',
      // Quoted: "a" is the word a; "q""1" is unescaped (not coded) to q"1.
      '"a",c,2024-01-02 00:00:00',
      '"q""1",a,2024-01-03 00:00:00',
      'c,"q""1",2024-01-04 00:00:00',
      // An empty id: no id found.
      ',a,2024-01-05 00:00:00',
      // b deleted (with its edges), then an edge to b creates it again at a new row.
      'b,x,gone',
      'c,b,2024-01-06 00:00:00',
      'Zoë,b,2024-01-07 00:00:00',
    ];
    const [people, edges] = await runJobOnFiles(t.db, job, {
      roots: t.roots,
      paths: new Map([
        ['people', await t.file('people.csv', 'a,30\nb,40\nc,50\n')],
        ['friends', await t.file('friends.csv', friends.join('\n'))],
      ]),
      threads: 1,
      // A commit per operation: rows remembered in one batch are used in the next.
      batchSize: 1,
    });
    assert.equal(people.stats.validLine, 3);
    const s = edges.stats.toJSON();
    assert.equal(s.validLine, 8);
    const knows = s.edge.find((e) => e.typeName === 'knows');
    assert.equal(knows?.validObject, 6);
    assert.equal(knows?.noIdFound, 1);
    const r = t.db.read();
    try {
      const row = (id: string): number => r.lookup('person', id) as number;
      const out = (id: string): string[] =>
        r
          .edges('person', row(id))
          .map((e) => r.edgeRecord(e).to_id)
          .sort();
      assert.equal(r.vertexCount('person'), 5, 'a c q"1 Zoë and b again');
      assert.equal(r.attr('person', row('b'), 'age'), 0, 'b created again');
      assert.deepEqual(out('a'), ['c']);
      assert.deepEqual(out('q"1'), ['a']);
      assert.deepEqual(out('c'), ['b', 'q"1']);
      assert.deepEqual(out('Zoë'), ['b']);
      assert.equal(r.edgeCount('knows'), 5);
    } finally {
      r.release();
    }
  } finally {
    await t.close();
  }
});
