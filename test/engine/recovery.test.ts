import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { DataDirError } from '../../src/durability/index.js';
import { FaultyFileLayer } from '../../src/durability/faulty-file-layer.js';
import { EngineError } from '../../src/engine/api.js';
import type { Database } from '../../src/engine/database.js';
import { fullCatalog, tempDir } from './fixtures.js';
import { lineLogger } from '../../src/util/logger.js';

async function numValues(db: Database): Promise<Map<number, number>> {
  const r = db.read();
  const out = new Map<number, number>();
  for (const row of r.rows('Num'))
    out.set(r.vertexIdValue('Num', row) as number, r.attr('Num', row, 'v') as number);
  r.release();
  return out;
}

test('acknowledged writes survive a simulated power loss; unsynced bytes are dropped', async () => {
  const t = tempDir();
  try {
    const fs = new FaultyFileLayer();
    let db = await t.open({ fileLayer: fs });
    await db.changeCatalog(fullCatalog());
    for (let i = 0; i < 20; i++) {
      await db.write((tx) => {
        tx.upsertVertex('Num', i, { v: { value: i * 10, op: 'set' } });
        tx.upsertEdge('owns', 'Num', i, 'Item', i % 3, {});
      });
      if (i === 9) await db.rebuild({ path: join(t.dir, 'rb') });
    }
    await fs.crash();
    await db.close().catch(() => undefined);
    db = await t.open({ fileLayer: fs });
    const vals = await numValues(db);
    assert.equal(vals.size, 20);
    for (let i = 0; i < 20; i++) assert.equal(vals.get(i), i * 10);
    const r = db.read();
    assert.equal(r.edgeCount('owns'), 20);
    r.release();
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('a torn WAL tail is cut off and reported; every transaction is whole or absent', async () => {
  const t = tempDir();
  try {
    const fs = new FaultyFileLayer();
    let db = await t.open({ fileLayer: fs, sync: 'none' });
    await db.changeCatalog(fullCatalog());
    await db.write((tx) => tx.upsertVertex('Num', 0, { v: { value: 1, op: 'set' } }));
    await db.rebuild({ path: join(t.dir, 'rb') });
    for (let i = 1; i <= 10; i++) {
      await db.write((tx) => {
        for (let k = 0; k < 50; k++) tx.upsertVertex('Num', i * 1000 + k, { v: { value: i, op: 'set' } });
      });
    }
    // Keep half of every un-synced write: the last record is torn.
    await fs.crash({ keep: (w) => Math.floor(w.length / 2) });
    await db.close().catch(() => undefined);
    const lines: string[] = [];
    db = await t.open({ fileLayer: fs, logger: lineLogger((l) => lines.push(l)) });
    const vals = await numValues(db);
    assert.equal(vals.get(0), 1, 'the checkpoint survives');
    const perTx = new Map<number, number>();
    for (const [id, v] of vals) if (id !== 0) perTx.set(v, (perTx.get(v) ?? 0) + 1);
    for (const [tx, n] of perTx) assert.equal(n, 50, `transaction ${tx} is whole`);
    const present = [...perTx.keys()].sort((a, b) => a - b);
    assert.deepEqual(
      present,
      present.map((_, i) => i + 1),
      'a prefix of the transactions',
    );
    if (present.length < 10) {
      assert.ok(
        lines.some((l) => l.includes('torn WAL tail')),
        lines.join('\n'),
      );
      assert.ok(db.recovery.tailCut !== undefined && db.recovery.tailCut.bytes > 0);
    }
    assert.equal(db.recovery.replayedRecords, present.length);
    await db.write((tx) => tx.upsertVertex('Num', 99, {}));
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('an fsync error is fatal: the write fails, onFatal fires, later writes are refused; restart recovers', async () => {
  const t = tempDir();
  try {
    const fs = new FaultyFileLayer();
    const fatal: Error[] = [];
    let db = await t.open({ fileLayer: fs, onFatal: (e) => fatal.push(e) });
    await db.changeCatalog(fullCatalog());
    await db.write((tx) => tx.upsertVertex('Num', 1, { v: { value: 1, op: 'set' } }));
    fs.failWhen((op) => op.kind === 'sync');
    await assert.rejects(
      db.write((tx) => tx.upsertVertex('Num', 2, {})),
      (e: unknown) => e instanceof EngineError && e.code === 'SYS-FATAL',
    );
    assert.equal(fatal.length, 1);
    await assert.rejects(
      db.write((tx) => tx.upsertVertex('Num', 3, {})),
      (e: unknown) => e instanceof EngineError && e.code === 'SYS-FATAL',
    );
    const r = db.read();
    assert.equal(r.lookup('Num', 2), undefined, 'the failed write never became visible');
    r.release();
    await fs.crash();
    fs.clearFaults();
    await db.close().catch(() => undefined);
    db = await t.open({ fileLayer: fs });
    assert.deepEqual([...(await numValues(db)).keys()], [1]);
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('a crash in the middle of a checkpoint loses nothing', async () => {
  const t = tempDir();
  try {
    const fs = new FaultyFileLayer();
    let db = await t.open({ fileLayer: fs });
    await db.changeCatalog(fullCatalog());
    await db.write((tx) => tx.upsertVertex('Num', 1, { v: { value: 1, op: 'set' } }));
    await db.rebuild({ path: join(t.dir, 'rb') });
    await db.write((tx) => tx.upsertVertex('Num', 2, { v: { value: 2, op: 'set' } }));
    fs.failWhen((op) => op.kind === 'rename');
    await assert.rejects(db.rebuild({ path: join(t.dir, 'rb') }));
    await fs.crash();
    fs.clearFaults();
    await db.close().catch(() => undefined);
    db = await t.open({ fileLayer: fs });
    assert.deepEqual(
      [...(await numValues(db))],
      [
        [1, 1],
        [2, 2],
      ],
    );
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('a newer-format data directory is refused clearly', async () => {
  const t = tempDir();
  try {
    const db = await t.open();
    await db.close();
    writeFileSync(join(t.dir, 'FORMAT'), 'ocelot-data-directory\nformat-version: 99\n');
    await assert.rejects(t.open(), (e: unknown) => e instanceof DataDirError && /99|newer/.test(e.message));
  } finally {
    t.cleanup();
  }
});

test('schema change migrates stored data and is durable', async () => {
  const t = tempDir();
  try {
    let db = await t.open();
    await db.changeCatalog(fullCatalog());
    await db.write((tx) => {
      tx.upsertVertex('Num', 1, { v: { value: 5, op: 'set' } });
      tx.upsertEdge('owns', 'Num', 1, 'Item', 7, {});
      tx.upsertEdge('owns', 'Person', 'p', 'Item', 7, {});
      tx.upsertEdge('follows', 'Person', 'p', 'Person', 'q', { since: { value: 3, op: 'set' } });
    });
    const pinned = db.read();
    const next = fullCatalog();
    next.version = 2;
    const num = next.vertexTypes.find((v) => v.name === 'Num')!;
    num.attributes = [{ name: 'w', type: { kind: 'INT', bytes: 8 }, defaultLiteral: '-4' }];
    next.vertexTypes = next.vertexTypes.filter((v) => v.name !== 'Person');
    next.vertexTypes.push({
      name: 'City',
      keyKind: 'primary_id',
      primaryId: { name: 'id', type: { kind: 'STRING', compress: false } },
      keyAttributes: [],
      primaryIdAsAttribute: false,
      attributes: [],
      stats: 'OUTDEGREE_BY_EDGETYPE',
    });
    next.edgeTypes = next.edgeTypes.filter((e) => !['knows', 'follows', 'near'].includes(e.name));
    const owns = next.edgeTypes.find((e) => e.name === 'owns')!;
    owns.pairs = [{ from: 'Num', to: 'Item' }];
    owns.attributes = [{ name: 'qty', type: { kind: 'UINT', bytes: 8 }, defaultLiteral: '1' }];
    await db.changeCatalog(next);
    const check = (label: string, cities: number): void => {
      const r = db.read();
      assert.equal(r.catalog.version, 2, label);
      const n1 = r.lookup('Num', 1) as number;
      assert.deepEqual(r.vertex('Num', n1).attributes, { w: -4 }, label);
      assert.throws(
        () => r.lookup('Person', 'p'),
        (e: unknown) => e instanceof EngineError && e.code === 'REST-2004',
      );
      assert.equal(r.edgeCount(), 1, label);
      const [h] = r.edges('Num', n1);
      assert.deepEqual(r.edgeRecord(h).attributes, { qty: 1 }, label);
      assert.equal(r.vertexCount('City'), cities, label);
      r.release();
    };
    check('migrated', 0);
    assert.equal(
      pinned.attr('Num', pinned.lookup('Num', 1) as number, 'v'),
      5,
      'a pinned reader keeps the old schema',
    );
    assert.equal(pinned.edgeCount('follows'), 1);
    pinned.release();
    await db.write((tx) => tx.upsertVertex('City', 'Paris', {}));
    await db.close();
    db = await t.open();
    check('after replay', 1);
    await db.rebuild({ path: join(t.dir, 'rb') });
    await db.close();
    db = await t.open();
    check('after checkpoint', 1);
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('writes continue while a checkpoint file is written, and both survive a power loss', async () => {
  const t = tempDir();
  try {
    const fs = new FaultyFileLayer();
    let db = await t.open({ fileLayer: fs });
    await db.changeCatalog(fullCatalog());
    await db.write((tx) => {
      for (let i = 0; i < 1000; i++) tx.upsertVertex('Num', i, { v: { value: i, op: 'set' } });
    });
    const rebuild = db.rebuild({ path: join(t.dir, 'rb') });
    // These land after the merge, while the checkpoint is being written; the first one updates rows
    // whose column arrays the checkpoint is writing out.
    const writes = [
      db.write((tx) => {
        for (let i = 0; i < 1000; i += 2) tx.upsertVertex('Num', i, { v: { value: -i, op: 'set' } });
      }),
      db.write((tx) => tx.upsertVertex('Num', 5000, { v: { value: 1, op: 'set' } })),
    ];
    await Promise.all([rebuild, ...writes]);
    await fs.crash();
    await db.close().catch(() => undefined);
    db = await t.open({ fileLayer: fs });
    const vals = await numValues(db);
    assert.equal(vals.size, 1001);
    for (let i = 0; i < 1000; i++) assert.equal(vals.get(i), i % 2 === 0 ? -i : i);
    assert.equal(vals.get(5000), 1);
    await db.close();
  } finally {
    t.cleanup();
  }
});
