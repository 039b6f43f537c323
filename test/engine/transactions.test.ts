import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EngineError } from '../../src/engine/api.js';
import { freshDb, tempDir } from './fixtures.js';

test('snapshot isolation: a reader keeps its version while writes land', async () => {
  const t = tempDir();
  try {
    const db = await freshDb(t);
    await db.write((tx) => {
      tx.upsertVertex('Person', 'a', { age: { value: 1, op: 'set' } });
      tx.upsertEdge('follows', 'Person', 'a', 'Person', 'b', {});
    });
    const old = db.read();
    const a = old.lookup('Person', 'a') as number;
    // Update in place, insert, delete and re-insert while `old` is open.
    await db.write((tx) => {
      tx.upsertVertex('Person', 'a', { age: { value: 2, op: 'set' } });
      tx.upsertVertex('Person', 'c', {});
      tx.upsertEdge('follows', 'Person', 'a', 'Person', 'c', {});
      tx.deleteVertex('Person', 'b');
    });
    const mid = db.read();
    await db.write((tx) => {
      tx.upsertVertex('Person', 'b', { age: { value: 9, op: 'set' } });
      tx.upsertVertex('Person', 'a', { age: { value: 3, op: 'add' } });
    });
    await db.rebuild({ path: `${t.dir}/s` });
    await db.write((tx) => tx.upsertVertex('Person', 'a', { age: { value: 100, op: 'set' } }));

    assert.equal(old.attr('Person', a, 'age'), 1);
    assert.equal(old.vertexCount('Person'), 2);
    assert.equal(old.lookup('Person', 'c'), undefined);
    assert.deepEqual(
      old.edges('Person', a).map((h) => old.vertexId('Person', h.tgtRow)),
      ['b'],
    );
    assert.equal(old.attr('Person', old.lookup('Person', 'b') as number, 'age'), 18);
    assert.equal(old.edgeCount('follows'), 1);

    assert.equal(mid.attr('Person', a, 'age'), 2);
    assert.equal(mid.lookup('Person', 'b'), undefined);
    assert.deepEqual(
      mid.edges('Person', a).map((h) => mid.vertexId('Person', h.tgtRow)),
      ['c'],
    );
    assert.deepEqual(
      mid.vertexAttrStats('Person').find((s) => s.attribute === 'age'),
      {
        attribute: 'age',
        min: 2,
        max: 18,
        avg: 10,
      },
    );

    const now = db.read();
    assert.equal(now.attr('Person', a, 'age'), 100);
    assert.equal(now.attr('Person', now.lookup('Person', 'b') as number, 'age'), 9);
    assert.equal(now.edges('Person', now.lookup('Person', 'b') as number, { direction: 'in' }).length, 0);
    assert.equal(now.version > mid.version && mid.version > old.version, true);
    old.release();
    mid.release();
    now.release();
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('a write is invisible to readers until it is durable, and then visible as a whole', async () => {
  const t = tempDir();
  try {
    const db = await freshDb(t);
    const p = db.write((tx) => {
      for (let i = 0; i < 100; i++) tx.upsertEdge('follows', 'Person', `s${i}`, 'Person', `t${i}`, {});
    });
    // The write function has run (writes start synchronously after the queue), the fsync has not finished.
    await Promise.resolve();
    const during = db.read();
    const countDuring = during.vertexCount('Person');
    await p;
    const after = db.read();
    assert.ok(countDuring === 0 || countDuring === 200, `all or nothing, saw ${countDuring}`);
    assert.equal(during.vertexCount('Person'), countDuring, 'a pinned reader does not move');
    assert.equal(after.vertexCount('Person'), 200);
    assert.equal(after.edgeCount('follows'), 100);
    during.release();
    after.release();
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('atomicity: a failing write changes nothing, in memory or after restart', async () => {
  const t = tempDir();
  try {
    let db = await freshDb(t);
    await db.write((tx) => {
      tx.upsertVertex('Person', 'keep', { age: { value: 5, op: 'set' } });
      tx.upsertEdge('knows', 'Person', 'keep', 'Person', 'other', { weight: { value: 1, op: 'set' } });
      tx.upsertEdge('transfer', 'Acct', 'x,1', 'Acct', 'y,2', { ts: { value: 1, op: 'set' } });
    });
    const before = db.read();
    await assert.rejects(
      db.write((tx) => {
        tx.upsertVertex('Person', 'keep', { age: { value: 6, op: 'set' } });
        tx.upsertVertex('Person', 'new1', {});
        tx.upsertEdge('knows', 'Person', 'keep', 'Person', 'new2', {});
        tx.upsertEdge('knows', 'Person', 'keep', 'Person', 'other', { weight: { value: 2, op: 'add' } });
        tx.upsertEdge('transfer', 'Acct', 'x,1', 'Acct', 'y,2', { ts: { value: 2, op: 'set' } });
        tx.deleteVertex('Person', 'other', { permanent: true });
        tx.deleteEdge('transfer', 'Acct', 'x,1', 'Acct', 'y,2');
        tx.upsertVertex('Person', 'other', {});
        tx.upsertVertex('Num', 'not-a-number', {});
      }),
      (e: unknown) => e instanceof EngineError && e.code === 'REST-30200',
    );
    await assert.rejects(
      db.write(() => {
        throw new Error('caller bug');
      }),
      /caller bug/,
    );
    const check = (label: string): void => {
      const r = db.read();
      assert.equal(r.vertexCount('Person'), 2, label);
      assert.equal(r.lookup('Person', 'new1'), undefined, label);
      const keep = r.lookup('Person', 'keep') as number;
      assert.equal(r.attr('Person', keep, 'age'), 5, label);
      const k = r.edges('Person', keep, { edgeType: 'knows' });
      assert.deepEqual(
        k.map((h) => [r.vertexId('Person', h.tgtRow), r.edgeAttr(h, 'weight')]),
        [['other', 1]],
        label,
      );
      assert.equal(r.edgeCount('transfer'), 1, label);
      assert.equal(r.edgeCount(), 2, label);
      r.release();
    };
    check('in memory');
    assert.equal(db.deletedVertexCheck().PassCheck, true);
    // The aborted permanent delete must not block the id.
    assert.equal(await db.write((tx) => tx.upsertVertex('Person', 'late', {})), 'inserted');
    before.release();
    await db.close();
    db = await t.open();
    const r = db.read();
    assert.equal(r.vertexCount('Person'), 3);
    r.release();
    await db.write((tx) => tx.deleteVertex('Person', 'late'));
    check('after restart');
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('the write transaction reads its own staged writes', async () => {
  const t = tempDir();
  try {
    const db = await freshDb(t);
    const seen = await db.write((tx) => {
      const before = tx.vertexExists('Person', 'a');
      tx.upsertVertex('Person', 'a', { age: { value: 1, op: 'set' } });
      tx.upsertVertex('Person', 'a', { age: { value: 1, op: 'add' } });
      const row = tx.lookup('Person', 'a') as number;
      return [
        before,
        tx.vertexExists('Person', 'a'),
        tx.attr('Person', row, 'age'),
        tx.vertexCount('Person'),
      ];
    });
    assert.deepEqual(seen, [false, true, 2, 1]);
    assert.deepEqual(
      await db.write((tx) => [
        tx.upsertVertex('Person', 'a', {}, { newOnly: true }),
        tx.upsertVertex('Person', 'b', {}, { updateOnly: true }),
      ]),
      ['skipped', 'skipped'],
    );
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('concurrent writes are all applied in order and share fsyncs', async () => {
  const t = tempDir();
  try {
    const db = await freshDb(t);
    const n = 200;
    const syncsBefore = db.walStats.syncs;
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        db.write((tx) =>
          tx.upsertVertex('Num', 1, { v: { value: i === 0 ? 1 : i, op: i === 0 ? 'set' : 'add' } }),
        ),
      ),
    );
    assert.equal(results.filter((r) => r === 'inserted').length, 1);
    const r = db.read();
    assert.equal(r.attr('Num', 0, 'v'), 1 + ((n - 1) * n) / 2);
    const syncs = db.walStats.syncs - syncsBefore;
    assert.ok(syncs < n / 2, `group commit: ${syncs} fsyncs for ${n} writes`);
    r.release();
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('column views: typed numbers for tight loops, exact flag, snapshot values through get', async () => {
  const t = tempDir();
  try {
    const db = await freshDb(t, { sync: 'batch' });
    await db.write((tx) => {
      tx.upsertVertex('Person', 'a', { age: { value: 1, op: 'set' }, ok: { value: true, op: 'set' } });
      tx.upsertVertex('Person', 'b', { age: { value: 2, op: 'set' } });
    });
    const r = db.read();
    const age = r.column('Person', 'age');
    assert.ok(age.numbers instanceof Float64Array);
    assert.equal(age.exact, true);
    assert.deepEqual(
      [...r.rows('Person')].map((row) => age.numbers![row]),
      [1, 2],
    );
    assert.deepEqual([...(r.column('Person', 'ok').numbers as Uint8Array).subarray(0, 2)], [1, 0]);
    await db.write((tx) => tx.upsertVertex('Person', 'a', { age: { value: 2n ** 60n, op: 'set' } }));
    assert.equal(age.exact, false, 'a later in-place update makes the raw array unsafe for this snapshot');
    assert.equal(age.get(0), 1);
    r.release();
    const r2 = db.read();
    assert.equal(r2.column('Person', 'age').get(0), 2n ** 60n);
    r2.release();
    await db.close();
    const again = await t.open({ sync: 'none' });
    const r3 = again.read();
    assert.equal(r3.attr('Person', r3.lookup('Person', 'a') as number, 'age'), 2n ** 60n);
    r3.release();
    await again.close();
  } finally {
    t.cleanup();
  }
});
