import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ReadTx } from '../../src/engine/api.js';
import { EngineError } from '../../src/engine/api.js';
import type { Database } from '../../src/engine/database.js';
import { freshDb, tempDir } from './fixtures.js';

/** Runs `check` on the live data, after a restart (WAL replay) and after rebuild + restart (checkpoint). */
async function everyWay(setup: (db: Database) => Promise<void>, check: (r: ReadTx) => void): Promise<void> {
  const t = tempDir();
  try {
    let db = await freshDb(t);
    await setup(db);
    const once = (): void => {
      const r = db.read();
      try {
        check(r);
      } finally {
        r.release();
      }
    };
    once();
    await db.close();
    db = await t.open();
    once();
    await db.rebuild({ path: `${t.dir}/summary` });
    once();
    await db.close();
    db = await t.open();
    assert.ok(db.recovery.checkpointLsn > 0, 'the checkpoint was loaded');
    assert.equal(db.recovery.replayedRecords, 0);
    assert.deepEqual(db.recovery.skippedCheckpoints, []);
    once();
    await db.close();
  } finally {
    t.cleanup();
  }
}

const ids = (r: ReadTx, type: string): string[] => [...r.rows(type)].map((row) => r.vertexId(type, row));

test('every primary id kind: STRING, INT (beyond 2^53), UINT max, DATETIME, PRIMARY KEY, composite key', () =>
  everyWay(
    async (db) => {
      await db.write((tx) => {
        tx.upsertVertex('Num', -(2n ** 63n), {});
        tx.upsertVertex('Num', '9007199254740993', {});
        tx.upsertVertex('Num', 7, { v: { value: 1, op: 'set' } });
        tx.upsertVertex('UNum', '18446744073709551615', {});
        tx.upsertVertex('Day', '2024-02-29 12:00:00', {});
        tx.upsertVertex('Item', '42', { title: { value: 'hat', op: 'set' }, sku: { value: 99, op: 'set' } });
        tx.upsertVertex('Acct', 'bob,7', { balance: { value: 5, op: 'set' } });
      });
    },
    (r) => {
      assert.deepEqual(ids(r, 'Num'), ['-9223372036854775808', '9007199254740993', '7']);
      assert.equal(r.lookup('Num', 9007199254740993n), 1);
      assert.equal(r.lookup('Num', '9007199254740992'), undefined, 'no rounding to a neighbour');
      assert.equal(r.lookup('Num', 7), 2);
      assert.equal(r.lookup('Num', '07'), 2, 'numeric ids are canonical');
      assert.equal(r.vertexIdValue('Num', 1), 9007199254740993n);
      assert.deepEqual(ids(r, 'UNum'), ['18446744073709551615']);
      assert.deepEqual(ids(r, 'Day'), ['2024-02-29 12:00:00']);
      assert.equal(r.lookup('Day', Date.UTC(2024, 1, 29, 12) / 1000), 0);
      const item = r.lookup('Item', 42) as number;
      assert.deepEqual(r.vertex('Item', item), {
        v_id: '42',
        v_type: 'Item',
        attributes: { sku: 42, title: 'hat' },
      });
      const acct = r.lookup('Acct', 'bob,7') as number;
      assert.deepEqual(r.vertex('Acct', acct), {
        v_id: 'bob,7',
        v_type: 'Acct',
        attributes: { owner: 'bob', no: 7, balance: 5 },
      });
    },
  ));

test('INT ids written as decimal text name the same vertex as the number, in every spelling', () =>
  everyWay(
    async (db) => {
      await db.write((tx) => {
        for (const id of [
          '7',
          '007',
          ' 7',
          '+7',
          7,
          '-0',
          '0',
          0,
          '-12',
          '123456789012345',
          '1234567890123456',
        ]) {
          tx.upsertVertex('Num', id, {});
        }
        tx.upsertVertex('Num', '9223372036854775807', { v: { value: 1, op: 'set' } });
      });
    },
    (r) => {
      assert.deepEqual(ids(r, 'Num').sort(), [
        '-12',
        '0',
        '123456789012345',
        '1234567890123456',
        '7',
        '9223372036854775807',
      ]);
      assert.equal(r.vertexCount('Num'), 6);
    },
  ));

test('invalid ids are rejected before anything changes', async () => {
  const t = tempDir();
  try {
    const db = await freshDb(t);
    for (const [type, id] of [
      ['Num', 'abc'],
      ['Num', 2n ** 63n],
      ['UNum', -1],
      ['Day', 'yesterday'],
      ['Acct', 'only-one-part'],
      ['Person', ''],
    ] as const) {
      await assert.rejects(
        db.write((tx) => {
          tx.upsertVertex('Person', 'first', {});
          tx.upsertVertex(type, id, {});
        }),
        (e: unknown) => e instanceof EngineError && e.code === 'REST-30200',
        `${type} ${String(id)}`,
      );
    }
    const r = db.read();
    assert.equal(r.vertexCount(), 0);
    r.release();
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('directed edge with reverse edge type; undirected edge readable from both ends', () =>
  everyWay(
    async (db) => {
      await db.write((tx) => {
        tx.upsertEdge('follows', 'Person', 'a', 'Person', 'b', { since: { value: 10, op: 'set' } });
        tx.upsertEdge('followed_by', 'Person', 'c', 'Person', 'a', {});
        tx.upsertEdge('knows', 'Person', 'b', 'Person', 'c', { weight: { value: 0.5, op: 'set' } });
      });
    },
    (r) => {
      const row = (id: string): number => r.lookup('Person', id) as number;
      assert.equal(r.vertexCount('Person'), 3, 'missing endpoints were created');
      const out = r.edges('Person', row('a'), { edgeType: 'follows' }).map((h) => r.edgeRecord(h));
      assert.deepEqual(
        out.map((e) => [e.from_id, e.to_id]),
        [
          ['a', 'b'],
          ['a', 'c'],
        ],
        'followed_by(c -> a) is stored as follows(a -> c)',
      );
      assert.deepEqual(out[0], {
        e_type: 'follows',
        directed: true,
        from_id: 'a',
        from_type: 'Person',
        to_id: 'b',
        to_type: 'Person',
        attributes: { since: 10 },
      });
      const rev = r.edges('Person', row('b'), { edgeType: 'followed_by' }).map((h) => r.edgeRecord(h));
      assert.deepEqual(
        rev.map((e) => [e.e_type, e.from_id, e.to_id]),
        [['followed_by', 'b', 'a']],
      );
      const incoming = r
        .edges('Person', row('b'), { edgeType: 'follows', direction: 'in' })
        .map((h) => r.edgeRecord(h));
      assert.deepEqual(
        incoming.map((e) => [e.from_id, e.to_id]),
        [['a', 'b']],
        'in-edges keep their direction',
      );
      assert.equal(r.edges('Person', row('b'), { edgeType: 'follows' }).length, 0);
      const kb = r.edges('Person', row('b'), { edgeType: 'knows' }).map((h) => r.edgeRecord(h));
      const kc = r.edges('Person', row('c'), { edgeType: 'knows' }).map((h) => r.edgeRecord(h));
      assert.deepEqual(
        kb.map((e) => [e.from_id, e.to_id, e.directed]),
        [['b', 'c', false]],
      );
      assert.deepEqual(
        kc.map((e) => [e.from_id, e.to_id, e.attributes.weight]),
        [['c', 'b', 0.5]],
      );
      assert.equal(r.edgeCount('knows'), 1);
      assert.equal(r.edgeCount('follows'), 2);
      assert.equal(r.edgeCount('followed_by'), 2);
      assert.equal(r.edgesBetween('knows', 'Person', row('c'), 'Person', row('b')).length, 1);
    },
  ));

test('an undirected edge upserted from the other end updates the same edge', async () => {
  const t = tempDir();
  try {
    const db = await freshDb(t);
    await db.write((tx) =>
      tx.upsertEdge('knows', 'Person', 'x', 'Person', 'y', { weight: { value: 1, op: 'set' } }),
    );
    assert.equal(
      await db.write((tx) =>
        tx.upsertEdge('knows', 'Person', 'y', 'Person', 'x', { weight: { value: 2, op: 'add' } }),
      ),
      'updated',
    );
    assert.equal(
      await db.write((tx) => tx.upsertEdge('near', 'Item', 5, 'Person', 'x', {})),
      'inserted',
      'an undirected edge may be given TO -> FROM',
    );
    const r = db.read();
    assert.equal(r.edgeCount('knows'), 1);
    const h = r.edges('Person', r.lookup('Person', 'x') as number, { edgeType: 'knows' });
    assert.equal(r.edgeAttr(h[0], 'weight'), 3);
    const near = r
      .edges('Item', r.lookup('Item', 5) as number, { edgeType: 'near' })
      .map((e) => r.edgeRecord(e));
    assert.deepEqual(
      near.map((e) => [e.from_type, e.from_id, e.to_type, e.to_id]),
      [['Item', '5', 'Person', 'x']],
    );
    r.release();
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('discriminator: several edges of one type between one pair', () =>
  everyWay(
    async (db) => {
      await db.write((tx) => {
        for (const [ts, amount] of [
          [100, 1],
          [200, 2],
          [100, 5],
        ]) {
          tx.upsertEdge('transfer', 'Acct', 'a,1', 'Acct', 'b,2', {
            ts: { value: ts, op: 'set' },
            amount: { value: amount, op: 'add' },
          });
        }
      });
    },
    (r) => {
      const a = r.lookup('Acct', 'a,1') as number;
      const es = r.edges('Acct', a).map((h) => r.edgeRecord(h));
      assert.deepEqual(
        es.map((e) => [e.attributes.ts, e.attributes.amount]),
        [
          [100, 6],
          [200, 2],
        ],
      );
      assert.equal(r.edgeCount('transfer'), 2);
    },
  ));

test('FROM * edges and multi-pair edges; invalid types and pairs are rejected', async () => {
  await everyWay(
    async (db) => {
      await db.write((tx) => {
        tx.upsertEdge('link', 'Num', 1, 'Day', 0, {});
        tx.upsertEdge('link', 'Person', 'p', 'Num', 1, {});
        tx.upsertEdge('owns', 'Person', 'p', 'Item', 9, {});
        tx.upsertEdge('owns', 'Num', 1, 'Item', 9, {});
      });
    },
    (r) => {
      const n1 = r.lookup('Num', 1) as number;
      assert.deepEqual(
        r.edges('Num', n1).map((h) => `${h.edgeType}:${h.tgtType}:${r.vertexId(h.tgtType, h.tgtRow)}`),
        ['link:Day:1970-01-01 00:00:00', 'owns:Item:9'],
      );
      assert.deepEqual(
        r.edges('Num', n1, { direction: 'in' }).map((h) => `${h.edgeType}:${h.tgtType}`),
        ['link:Person'],
      );
      assert.equal(r.edgeCount('owns'), 2);
      assert.equal(r.edgeCount('owns', 'Num'), 1);
      assert.equal(r.edgeCount('link', '*', 'Num'), 1);
      assert.equal(
        r.edges('Item', r.lookup('Item', 9) as number, { direction: 'in', targetType: 'Num' }).length,
        1,
      );
    },
  );
  const t = tempDir();
  try {
    const db = await freshDb(t);
    const code = (c: string) => (e: unknown) => e instanceof EngineError && e.code === c;
    await assert.rejects(
      db.write((tx) => tx.upsertEdge('nope', 'Person', 'a', 'Person', 'b', {})),
      code('REST-2005'),
    );
    await assert.rejects(
      db.write((tx) => tx.upsertEdge('owns', 'Nope', 'a', 'Item', 1, {})),
      code('REST-2004'),
    );
    await assert.rejects(
      db.write((tx) => tx.upsertEdge('owns', 'Item', 1, 'Person', 'a', {})),
      code('REST-30000'),
    );
    await assert.rejects(
      db.write((tx) =>
        tx.upsertEdge('follows', 'Person', 'a', 'Person', 'b', { since: { value: 'x', op: 'set' } }),
      ),
      code('REST-30200'),
    );
    assert.equal(
      await db.write((tx) =>
        tx.upsertEdge('follows', 'Person', 'a', 'Person', 'b', {}, { createMissingEndpoints: false }),
      ),
      'skipped',
    );
    const r = db.read();
    assert.equal(r.vertexCount(), 0);
    assert.equal(r.edgeCount(), 0);
    r.release();
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('adjacency views expose CSR arrays and the delta for tight loops', async () => {
  const t = tempDir();
  try {
    const db = await freshDb(t);
    await db.write((tx) => {
      for (let i = 0; i < 10; i++) tx.upsertEdge('follows', 'Person', 'hub', 'Person', `p${i}`, {});
    });
    await db.rebuild({ path: `${t.dir}/s` });
    await db.write((tx) => tx.upsertEdge('follows', 'Person', 'hub', 'Person', 'late', {}));
    const r = db.read();
    const hub = r.lookup('Person', 'hub') as number;
    const [v] = r.adjacency('follows', 'Person', 'Person');
    assert.equal(v.offsets[hub + 1] - v.offsets[hub], 10, 'base holds the rebuilt edges');
    assert.equal(v.clean, false);
    assert.equal(v.degree(hub), 11);
    const seen: string[] = [];
    v.forEach(hub, (row) => seen.push(r.vertexId('Person', row)));
    assert.equal(seen.at(-1), 'late');
    const [inView] = r.adjacency('follows', 'Person', 'Person', 'in');
    assert.equal(inView.degree(r.lookup('Person', 'p3') as number), 1);
    const [revView] = r.adjacency('followed_by', 'Person', 'Person');
    assert.equal(revView.degree(r.lookup('Person', 'late') as number), 1);
    r.release();
    await db.close();
  } finally {
    t.cleanup();
  }
});
