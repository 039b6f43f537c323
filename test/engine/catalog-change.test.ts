/** Catalog changes: conflicts between concurrent changes, and changes that leave stored data alone. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EngineError } from '../../src/engine/api.js';
import { freshDb, tempDir } from './fixtures.js';

test('a catalog change computed from a catalog that changed meanwhile is refused, not applied over it', async () => {
  const t = tempDir();
  try {
    const db = await freshDb(t);
    const base = db.catalog;
    const first = db.changeCatalog({ ...base, jobs: [{ name: 'j1', kind: 'loading', text: 'x' }] });
    // Computed from the same base while the first change is still queued: it would undo j1.
    const second = db.changeCatalog({ ...base, jobs: [{ name: 'j2', kind: 'loading', text: 'y' }] });
    await first;
    await assert.rejects(second, (e: unknown) => e instanceof EngineError && e.code === 'CATALOG-CONFLICT');
    assert.deepEqual(
      db.catalog.jobs.map((j) => j.name),
      ['j1'],
    );
    assert.ok(db.catalog.version > base.version);
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('a change of jobs or security keeps the stored data as it is, and across a restart', async () => {
  const t = tempDir();
  try {
    let db = await freshDb(t);
    await db.write((tx) => {
      tx.upsertVertex('Person', 'a', { age: { value: 7, op: 'set' } });
      tx.upsertEdge('knows', 'Person', 'a', 'Person', 'b', { weight: { value: 2.5, op: 'set' } });
    });
    const reader = db.read();
    await db.changeCatalog({ ...db.catalog, jobs: [{ name: 'j', kind: 'loading', text: 'z' }] });
    await db.write((tx) => tx.upsertVertex('Person', 'c', {}));
    // The reader pinned before keeps its view; new readers see both old data and the new write.
    assert.equal(reader.vertexCount('Person'), 2);
    reader.release();
    const r = db.read();
    assert.equal(r.vertexCount('Person'), 3);
    assert.equal(r.attr('Person', r.lookup('Person', 'a') as number, 'age'), 7);
    assert.equal(r.edges('Person', r.lookup('Person', 'a') as number, { edgeType: 'knows' }).length, 1);
    r.release();
    await db.close();
    db = await t.open();
    const again = db.read();
    assert.equal(again.vertexCount('Person'), 3);
    assert.deepEqual(
      db.catalog.jobs.map((j) => j.name),
      ['j'],
    );
    again.release();
    await db.close();
  } finally {
    t.cleanup();
  }
});
