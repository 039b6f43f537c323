import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { freshDb, tempDir } from './fixtures.js';
import { waitFor } from '../timing.js';

test('statistics: vertex and edge counts per type and pair, attribute min/max/avg, bool counts', async () => {
  const t = tempDir();
  try {
    const db = await freshDb(t);
    await db.write((tx) => {
      tx.upsertVertex('Person', 'a', { age: { value: 10, op: 'set' }, ok: { value: true, op: 'set' } });
      tx.upsertVertex('Person', 'b', {
        age: { value: 2n ** 62n, op: 'set' },
        score: { value: 1.5, op: 'set' },
      });
      tx.upsertVertex('Person', 'c', { age: { value: -4, op: 'set' } });
      tx.upsertEdge('transfer', 'Acct', 'x,1', 'Acct', 'y,1', {
        ts: { value: 5, op: 'set' },
        amount: { value: 10, op: 'set' },
      });
      tx.upsertEdge('transfer', 'Acct', 'x,1', 'Acct', 'y,1', {
        ts: { value: 6, op: 'set' },
        amount: { value: 30, op: 'set' },
      });
      tx.upsertEdge('owns', 'Person', 'a', 'Item', 1, {});
      tx.upsertEdge('owns', 'Num', 1, 'Item', 1, {});
      tx.upsertEdge('owns', 'Num', 2, 'Item', 1, {});
    });
    const r = db.read();
    assert.equal(r.vertexCount('Person'), 3);
    assert.equal(r.vertexCount(), 3 + 2 + 2 + 1);
    assert.equal(r.edgeCount('owns'), 3);
    assert.equal(r.edgeCount('owns', 'Num', 'Item'), 2);
    assert.equal(r.edgeCount('owns', 'Person'), 1);
    assert.equal(r.edgeCount('owns', undefined, 'Person'), 0);
    const vs = r.vertexAttrStats('Person');
    assert.deepEqual(
      vs.find((s) => s.attribute === 'age'),
      { attribute: 'age', min: -4, max: 2n ** 62n, avg: (10 + 2 ** 62 - 4) / 3 },
    );
    assert.deepEqual(
      vs.find((s) => s.attribute === 'ok'),
      { attribute: 'ok', trueCount: 1, falseCount: 2 },
    );
    assert.equal(
      vs.find((s) => s.attribute === 'tag'),
      undefined,
      'strings have no statistics',
    );
    assert.deepEqual(r.edgeAttrStats('transfer'), [{ attribute: 'amount', min: 10, max: 30, avg: 20 }]);
    r.release();
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('automatic rebuild writes a checkpoint when there is new data, and only then', async () => {
  const t = tempDir();
  try {
    const db = await freshDb(t, { rebuildIntervalMs: 40 });
    const checkpoints = (): string[] =>
      existsSync(join(t.dir, 'checkpoints'))
        ? readdirSync(join(t.dir, 'checkpoints')).filter((f) => f.endsWith('.ckpt'))
        : [];
    await db.write((tx) => tx.upsertVertex('Num', 1, {}));
    const first = await waitFor('the automatic checkpoint', () => checkpoints().length > 0 && checkpoints());
    assert.equal(first.length, 1);
    // Several more intervals pass (more on a loaded machine, which only makes this stricter).
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(checkpoints(), first, 'no new data, no new checkpoint');
    await db.close();
    const again = await t.open();
    const r = again.read();
    assert.equal(r.vertexCount('Num'), 1);
    r.release();
    await again.close();
  } finally {
    t.cleanup();
  }
});
