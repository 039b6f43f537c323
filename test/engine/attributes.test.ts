import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Attribute, AttrType } from '../../src/catalog/types.js';
import { Tuple, VertexRef } from '../../src/catalog/value.js';
import type { AttrUpdate } from '../../src/engine/api.js';
import { EngineError } from '../../src/engine/api.js';
import { jsonValueReader, valueFromJson } from '../../src/engine/value-input.js';
import { fullCatalog, freshDb, tempDir } from './fixtures.js';

const set = (value: AttrUpdate['value']): AttrUpdate => ({ value, op: 'set' });

const extremes: Record<string, AttrUpdate> = {
  age: set(-(2n ** 63n)),
  big: set(2n ** 63n - 1n),
  u: set(2n ** 64n - 1n),
  score: set(-1.5e308),
  f: set(3.25),
  ok: set(true),
  born: set(Date.UTC(2024, 1, 29, 23, 59, 58) / 1000),
  tag: set('compressed ✓'),
  bin: set(Uint8Array.from([0, 255, 7, 128])),
  nums: set([1, 2n ** 62n, -3]),
  tags: set(['a', 'b', 'a']),
  m: set(
    new Map<string, number | bigint>([
      ['x', 1],
      ['y', -(2n ** 60n)],
    ]),
  ),
  pt: set(new Tuple('Point', [2n ** 55n, 0.5])),
  ref: set(new VertexRef('Person', 'bob')),
};

const expected = {
  id: 'alice',
  age: -(2n ** 63n),
  big: 2n ** 63n - 1n,
  u: 2n ** 64n - 1n,
  score: -1.5e308,
  f: 3.25,
  ok: true,
  born: Date.UTC(2024, 1, 29, 23, 59, 58) / 1000,
  tag: 'compressed ✓',
  bin: Uint8Array.from([0, 255, 7, 128]),
  nums: [1, 2n ** 62n, -3],
  tags: ['a', 'b'],
  m: new Map<string, number | bigint>([
    ['x', 1],
    ['y', -(2n ** 60n)],
  ]),
  pt: new Tuple('Point', [2n ** 55n, 0.5]),
  ref: new VertexRef('Person', 'bob'),
  name2: 'anon',
};

test('every attribute type round-trips exactly, through the delta, a rebuild and a restart', async () => {
  const t = tempDir();
  try {
    let db = await freshDb(t);
    assert.equal(await db.write((tx) => tx.upsertVertex('Person', 'alice', extremes)), 'inserted');
    const check = (label: string): void => {
      const r = db.read();
      const row = r.lookup('Person', 'alice') as number;
      assert.deepEqual(r.vertex('Person', row).attributes, expected, label);
      assert.equal(r.vertex('Person', row).v_id, 'alice');
      r.release();
    };
    check('in delta');
    await db.close();
    db = await t.open();
    check('after WAL replay');
    await db.rebuild({ path: `${t.dir}/summary` });
    check('after rebuild');
    await db.close();
    db = await t.open();
    assert.deepEqual([db.recovery.replayedRecords, db.recovery.skippedCheckpoints], [0, []]);
    check('after checkpoint load');
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('a lone surrogate is stored as U+FFFD at once, so reads agree before and after a rebuild and a restart', async () => {
  const t = tempDir();
  try {
    let db = await freshDb(t);
    const lone = { name2: set('a\ud800b'), tags: set(['\udc00', 'ok']), m: set(new Map([['k\ud83d', 1]])) };
    await db.write((tx) => tx.upsertVertex('Person', 'x\ud800', lone));
    const check = (label: string, name2: string): void => {
      const r = db.read();
      try {
        const row = r.lookup('Person', 'x\ufffd') as number;
        assert.equal(typeof row, 'number', label);
        assert.equal(r.lookup('Person', 'x\ud800'), row, label);
        assert.deepEqual([...r.rows('Person')], [row], label);
        const v = r.vertex('Person', row);
        assert.equal(v.v_id, 'x\ufffd', label);
        assert.equal(v.attributes.name2, name2, label);
        assert.deepEqual(v.attributes.tags, ['\ufffd', 'ok'], label);
        assert.deepEqual(v.attributes.m, new Map([['k\ufffd', 1]]), label);
      } finally {
        r.release();
      }
    };
    check('in delta', 'a\ufffdb');
    await db.rebuild({ path: `${t.dir}/summary` });
    check('after rebuild', 'a\ufffdb');
    await db.write((tx) => tx.upsertVertex('Person', 'x\ud800', { name2: set('\ud800') }));
    check('updated in delta', '\ufffd');
    await db.close();
    db = await t.open();
    check('after WAL replay', '\ufffd');
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('a new vertex gets DEFAULT literals and type zeros; an existing one keeps unmentioned attributes', async () => {
  const t = tempDir();
  try {
    const db = await freshDb(t);
    await db.write((tx) => tx.upsertVertex('Person', 'p', {}));
    let r = db.read();
    const a = r.vertex('Person', r.lookup('Person', 'p') as number).attributes;
    assert.equal(a.age, 18);
    assert.equal(a.name2, 'anon');
    assert.equal(a.big, 0);
    assert.equal(a.ok, false);
    assert.deepEqual(a.bin, new Uint8Array(4));
    assert.deepEqual(a.pt, new Tuple('Point', [0, 0]));
    r.release();
    assert.equal(await db.write((tx) => tx.upsertVertex('Person', 'p', { big: set(5) })), 'updated');
    r = db.read();
    const b = r.vertex('Person', r.lookup('Person', 'p') as number).attributes;
    assert.equal(b.age, 18);
    assert.equal(b.big, 5);
    r.release();
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('upsert ops: add, max, min, and, or, ignore_if_exists', async () => {
  const t = tempDir();
  try {
    const db = await freshDb(t);
    await db.write((tx) =>
      tx.upsertVertex('Person', 'p', {
        age: { value: 10, op: 'add' },
        big: { value: 2n ** 63n - 2n, op: 'set' },
        ok: { value: true, op: 'set' },
        tag: { value: 'first', op: 'ignore_if_exists' },
        nums: set([1]),
        tags: set(['a']),
      }),
    );
    await db.write((tx) =>
      tx.upsertVertex('Person', 'p', {
        age: { value: 5, op: 'add' },
        big: { value: 1, op: 'add' },
        score: { value: 7, op: 'max' },
        f: { value: -2, op: 'min' },
        ok: { value: false, op: 'and' },
        tag: { value: 'second', op: 'ignore_if_exists' },
        nums: { value: [2], op: 'add' },
        tags: { value: ['a', 'b'], op: 'add' },
      }),
    );
    await db.write((tx) =>
      tx.upsertVertex('Person', 'p', { score: { value: 3, op: 'max' }, ok: { value: true, op: 'or' } }),
    );
    const r = db.read();
    const a = r.vertex('Person', r.lookup('Person', 'p') as number).attributes;
    assert.equal(a.age, 15, 'add on a new vertex initialises, then adds');
    assert.equal(a.big, 2n ** 63n - 1n, 'add stays exact beyond 2^53');
    assert.equal(a.score, 7);
    assert.equal(a.f, -2);
    assert.equal(a.ok, true);
    assert.equal(a.tag, 'first');
    assert.deepEqual(a.nums, [1, 2]);
    assert.deepEqual(a.tags, ['a', 'b']);
    r.release();
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('wrong attribute types are rejected with REST-30200 naming type, attribute and id; unknown names are ignored', async () => {
  const t = tempDir();
  try {
    const db = await freshDb(t);
    const bad: [string, AttrUpdate['value']][] = [
      ['age', 'x'],
      ['age', 2n ** 63n],
      ['u', -1],
      ['ok', 1],
      ['born', 1.5],
      ['bin', Uint8Array.from([1])],
      ['nums', ['a']],
      ['ref', new VertexRef('Num', '1')],
    ];
    for (const [name, value] of bad) {
      await assert.rejects(
        db.write((tx) => tx.upsertVertex('Person', 'zed', { [name]: set(value) })),
        (e: unknown) =>
          e instanceof EngineError &&
          e.code === 'REST-30200' &&
          e.message.includes(`'${name}'`) &&
          e.message.includes("'Person'") &&
          e.message.includes("'zed'"),
        name,
      );
    }
    await assert.rejects(
      db.write((tx) => tx.upsertVertex('Nope', 'x', {})),
      (e: unknown) => e instanceof EngineError && e.code === 'REST-2004',
    );
    assert.equal(await db.write((tx) => tx.upsertVertex('Person', 'zed', { nosuch: set(1) })), 'inserted');
    const r = db.read();
    assert.equal(r.vertexCount('Person'), 1);
    r.release();
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('JSON input forms convert to typed values', () => {
  const c = fullCatalog();
  const person = c.vertexTypes[0];
  const type = (n: string): AttrType => (person.attributes.find((a) => a.name === n) as Attribute).type;
  assert.equal(valueFromJson(type('big'), '9223372036854775807', c), 9223372036854775807n);
  assert.equal(valueFromJson(type('big'), 9223372036854775807n, c), 9223372036854775807n);
  assert.equal(valueFromJson(type('big'), '12', c), 12);
  assert.equal(valueFromJson(type('big'), 'x', c), undefined);
  assert.equal(valueFromJson(type('u'), '18446744073709551615', c), 18446744073709551615n);
  assert.equal(valueFromJson(type('u'), '18446744073709551616', c), undefined);
  assert.equal(
    valueFromJson(type('born'), '2024-02-29 23:59:58', c),
    Date.UTC(2024, 1, 29, 23, 59, 58) / 1000,
  );
  assert.equal(valueFromJson(type('born'), 86400, c), 86400);
  assert.equal(valueFromJson(type('born'), '2023-02-30', c), undefined);
  assert.equal(valueFromJson(type('ok'), 'true', c), true);
  assert.deepEqual(valueFromJson(type('tags'), ['a', 'a', 'b'], c), ['a', 'b']);
  assert.deepEqual(
    valueFromJson(type('m'), { keylist: ['a', 'b'], valuelist: [1, '2'] }, c),
    new Map([
      ['a', 1],
      ['b', 2],
    ]),
  );
  assert.deepEqual(valueFromJson(type('m'), { keyList: ['a'], valueList: [3] }, c), new Map([['a', 3]]));
  assert.deepEqual(
    valueFromJson(type('pt'), { keylist: ['x', 'y'], valuelist: [1, 2.5] }, c),
    new Tuple('Point', [1, 2.5]),
  );
  assert.deepEqual(
    valueFromJson(type('ref'), { id: 'bob', type: 'Person' }, c),
    new VertexRef('Person', 'bob'),
  );
  assert.equal(valueFromJson(type('ref'), { id: 'bob', type: 'Num' }, c), undefined);
});

test('a compiled jsonValueReader gives what valueFromJson gives, for every type and JSON form', () => {
  const c = fullCatalog();
  const types: AttrType[] = [
    ...c.vertexTypes[0].attributes.map((a) => a.type),
    { kind: 'INT', bytes: 4 },
    { kind: 'UINT', bytes: 1 },
    { kind: 'STRING', compress: false, maxLength: 3 },
    { kind: 'STRING', compress: false },
  ];
  const inputs: unknown[] = [
    0,
    -0,
    7,
    -7,
    2.5,
    300,
    2 ** 40,
    2 ** 53,
    -(2 ** 60),
    9223372036854775807n,
    '12',
    ' 12 ',
    '-3',
    'abcd',
    'ab',
    '',
    'true',
    'FALSE',
    true,
    false,
    null,
    [1, 2],
    ['a', 'a'],
    { keylist: ['a'], valuelist: [1] },
    { x: 1, y: 2 },
    '2024-02-29 23:59:58',
  ];
  for (const type of types) {
    const read = jsonValueReader(type, c);
    for (const j of inputs) {
      assert.deepEqual(read(j), valueFromJson(type, j, c), `${JSON.stringify(type)} ← ${String(j)}`);
    }
  }
});
