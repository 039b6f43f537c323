import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { freshDb, tempDir } from './fixtures.js';

test('deleting a vertex deletes its edges; tombstones until rebuild; re-insert gets a fresh vertex', async () => {
  const t = tempDir();
  try {
    let db = await freshDb(t);
    await db.write((tx) => {
      tx.upsertVertex('Person', 'a', { age: { value: 40, op: 'set' } });
      tx.upsertEdge('follows', 'Person', 'a', 'Person', 'b', {});
      tx.upsertEdge('follows', 'Person', 'c', 'Person', 'a', {});
      tx.upsertEdge('knows', 'Person', 'a', 'Person', 'a', {});
      tx.upsertEdge('owns', 'Person', 'a', 'Item', 1, {});
      tx.upsertEdge('follows', 'Person', 'b', 'Person', 'c', {});
    });
    assert.equal(await db.write((tx) => tx.deleteVertex('Person', 'a')), true);
    assert.equal(await db.write((tx) => tx.deleteVertex('Person', 'a')), false);
    const check = (label: string): void => {
      const r = db.read();
      assert.equal(r.lookup('Person', 'a'), undefined, label);
      assert.equal(r.vertexCount('Person'), 2, label);
      assert.equal(r.edgeCount(), 1, label);
      assert.equal(
        r.edges('Person', r.lookup('Person', 'c') as number, { direction: 'both' }).length,
        1,
        label,
      );
      r.release();
    };
    check('tombstoned');
    assert.equal(db.deletedVertexCheck().PassCheck, true);
    await db.rebuild({ path: `${t.dir}/s` });
    check('after rebuild');
    await db.close();
    db = await t.open();
    check('after restart');
    assert.equal(db.deletedVertexCheck().PassCheck, true);
    assert.equal(await db.write((tx) => tx.upsertVertex('Person', 'a', {})), 'inserted');
    const r = db.read();
    const a = r.lookup('Person', 'a') as number;
    assert.equal(r.attr('Person', a, 'age'), 18, 'a re-inserted vertex starts from defaults');
    assert.equal(r.edges('Person', a, { direction: 'both' }).length, 0);
    r.release();
    assert.equal(db.deletedVertexCheck().PassCheck, true);
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('permanent deletion: the id can never be inserted again until the graph store is cleared', async () => {
  const t = tempDir();
  try {
    let db = await freshDb(t);
    await db.write((tx) => tx.upsertVertex('Num', 5, {}));
    await db.write((tx) => tx.deleteVertex('Num', 5, { permanent: true }));
    const tryInsert = () =>
      db.write((tx) => [tx.upsertVertex('Num', 5, {}), tx.upsertEdge('owns', 'Num', 5, 'Item', 1, {})]);
    assert.deepEqual(await tryInsert(), ['skipped', 'skipped']);
    await db.rebuild({ path: `${t.dir}/s` });
    await db.close();
    db = await t.open();
    assert.deepEqual(await tryInsert(), ['skipped', 'skipped'], 'remembered across checkpoint + restart');
    await db.clearGraphStore();
    let r = db.read();
    assert.equal(r.vertexCount(), 0);
    assert.equal(r.edgeCount(), 0);
    r.release();
    assert.deepEqual(await tryInsert(), ['inserted', 'inserted']);
    await db.close();
    db = await t.open();
    r = db.read();
    assert.equal(r.vertexCount(), 2);
    assert.equal(r.catalog.vertexTypes.length, 6, 'clearing keeps the catalog');
    r.release();
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('deleteEdge by endpoints and discriminator, and through a read handle', async () => {
  const t = tempDir();
  try {
    const db = await freshDb(t);
    await db.write((tx) => {
      for (const ts of [1, 2, 3])
        tx.upsertEdge('transfer', 'Acct', 'a,1', 'Acct', 'b,1', { ts: { value: ts, op: 'set' } });
      tx.upsertEdge('knows', 'Person', 'x', 'Person', 'y', {});
      tx.upsertEdge('follows', 'Person', 'x', 'Person', 'y', {});
    });
    assert.equal(
      await db.write((tx) => tx.deleteEdge('transfer', 'Acct', 'a,1', 'Acct', 'b,1', { ts: 2 })),
      1,
    );
    assert.equal(
      await db.write((tx) => tx.deleteEdge('knows', 'Person', 'y', 'Person', 'x')),
      1,
      'either end',
    );
    assert.equal(
      await db.write((tx) => tx.deleteEdge('followed_by', 'Person', 'y', 'Person', 'x')),
      1,
      'reverse name',
    );
    const r = db.read();
    const [h] = r.edges('Acct', r.lookup('Acct', 'a,1') as number);
    assert.equal(r.edgeAttr(h, 'ts'), 1);
    assert.equal(await db.write((tx) => tx.deleteEdgeHandle(h)), true);
    r.release();
    const r2 = db.read();
    assert.deepEqual(
      r2.edges('Acct', r2.lookup('Acct', 'a,1') as number).map((e) => r2.edgeAttr(e, 'ts')),
      [3],
    );
    assert.equal(r2.edgeCount(), 1);
    r2.release();
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('deletedVertexCheck reports a segment whose table and id index disagree', async () => {
  const t = tempDir();
  try {
    const db = await freshDb(t);
    await db.write((tx) => {
      for (let i = 0; i < 5; i++) tx.upsertVertex('Num', i, {});
      tx.deleteVertex('Num', 2);
    });
    assert.deepEqual(db.deletedVertexCheck(), { PassCheck: true, UnSyncList: [] });
    // Corrupt the table side behind the engine's back: row 3 looks deleted, the index says live.
    const tables = (db as unknown as { readStore: { tables: Map<string, { deleted: Uint32Array }> } })
      .readStore.tables;
    tables.get('Num')!.deleted[3] = 1;
    const res = db.deletedVertexCheck({ vertextype: 'Num' });
    assert.equal(res.PassCheck, false);
    assert.equal(res.UnSyncList.length, 1);
    const e = res.UnSyncList[0];
    assert.equal(e.Segid, 0);
    assert.equal(e.VertexType, 'Num');
    assert.equal(e.IsRemote, false);
    assert.notEqual(e.GPEDelHash, e.IDSDelHash);
    assert.equal(db.deletedVertexCheck({ vertextype: 'Person' }).PassCheck, true);
    tables.get('Num')!.deleted[3] = 0;
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('rebuilds in the same millisecond write summaries under new names, never over a file', async () => {
  const t = tempDir();
  try {
    // Both rebuilds run in the same millisecond, whose plain name is already taken.
    const db = await freshDb(t, { clock: () => 1_700_000_000_000 });
    await db.write((tx) => tx.upsertVertex('Person', 'p', {}));
    const folder = `${t.dir}/rb`;
    mkdirSync(folder);
    writeFileSync(`${folder}/rebuild_summary_1700000000000.txt`, 'taken');
    const first = await db.rebuild({ path: folder });
    const second = await db.rebuild({ path: folder });
    assert.equal(first.summaryFile, `${folder}/rebuild_summary_1700000000000_1.txt`);
    assert.equal(second.summaryFile, `${folder}/rebuild_summary_1700000000000_2.txt`);
    assert.ok(readFileSync(first.summaryFile, 'utf8').includes('vertextype: Person'));
    assert.ok(readFileSync(second.summaryFile, 'utf8').includes('vertextype: Person'));
    assert.equal(readFileSync(`${folder}/rebuild_summary_1700000000000.txt`, 'utf8'), 'taken');
    assert.equal(readdirSync(folder).length, 3);
  } finally {
    t.cleanup();
  }
});

test('rebuild writes the per-segment summary file', async () => {
  const t = tempDir();
  try {
    const db = await freshDb(t);
    await db.write((tx) => {
      for (let i = 0; i < 70_000; i++) tx.upsertVertex('Num', i, {});
      for (let i = 0; i < 10; i++) tx.upsertEdge('owns', 'Num', 65_536 + i, 'Item', i, {});
      tx.deleteVertex('Num', 65_540);
      tx.upsertVertex('Person', 'p', {});
    });
    const res = await db.rebuild({ path: `${t.dir}/rb`, vertextype: ['Num', 'Item'] });
    assert.ok(res.summaryFile.startsWith(`${t.dir}/rb/`));
    const lines = readFileSync(res.summaryFile, 'utf8').trim().split('\n');
    const num = lines.filter((l) => l.includes('vertextype: Num,'));
    assert.equal(num.length, 2);
    assert.match(
      num[0],
      /^\[SELECTED\] Segment id: 0, vertextype: Num, vertexsubtypeid: 1, vertexcount: 65536, edgecount: 0, deletevertexcount: 0, postqueue_pos: \d+, transaction id: \d+, rebuild ts: \d+$/,
    );
    assert.match(
      num[1],
      /^\[SELECTED\] Segment id: 1, vertextype: Num, .*vertexcount: 4463, edgecount: 9, deletevertexcount: 1, /,
    );
    assert.match(lines.find((l) => l.includes('vertextype: Person,')) as string, /^\[SKIPPED\]/);
    assert.equal(res.selected, 3);
    // Nothing new: every segment is skipped unless forced.
    const again = await db.rebuild({ path: `${t.dir}/rb2` });
    assert.equal(again.selected, 1, 'only Person was left dirty');
    const third = await db.rebuild({ path: `${t.dir}/rb3` });
    assert.equal(third.selected, 0);
    const forced = await db.rebuild({ path: `${t.dir}/rb4`, force: true, segid: 1 });
    assert.equal(forced.selected, 1);
    await db.close();
  } finally {
    t.cleanup();
  }
});
