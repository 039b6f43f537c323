/**
 * Read pins: readers of the newest version come and go without dropping what an older reader
 * still needs, and the pin counts do not pile up across versions.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freshDb, tempDir } from './fixtures.js';

test('older readers keep their values while readers of newer versions come and go', async () => {
  const t = tempDir();
  try {
    const db = await freshDb(t);
    const age = (value: number): { age: { value: number; op: 'set' } } => ({ age: { value, op: 'set' } });
    await db.write((tx) => tx.upsertVertex('Person', 'a', age(0)));
    const held: { tx: ReturnType<typeof db.read>; want: number }[] = [];
    for (let v = 1; v <= 20; v++) {
      // Readers of the newest version, released at once (its pin count goes back to 0).
      for (let i = 0; i < 3; i++) {
        const r = db.read();
        assert.equal(r.attr('Person', r.lookup('Person', 'a') as number, 'age'), v - 1);
        r.release();
      }
      if (v % 4 === 0) {
        const r = db.read();
        held.push({ tx: r, want: v - 1 });
      }
      await db.write((tx) => tx.upsertVertex('Person', 'a', age(v)));
      // Release an older reader now and then: the others still see their versions.
      if (v % 8 === 0) held.shift()!.tx.release();
      for (const h of held) assert.equal(h.tx.attr('Person', h.tx.lookup('Person', 'a') as number, 'age'), h.want);
    }
    const pins = (db as unknown as { pins: { readers: Map<number, number> } }).pins.readers;
    const live = [...pins.values()].filter((n) => n > 0).length;
    assert.equal(live, held.length);
    // At most the held versions and the newest one read.
    assert.ok(pins.size <= held.length + 1, `${pins.size} pin entries for ${held.length} readers`);
    for (const h of held) h.tx.release();
    const r = db.read();
    assert.equal(r.attr('Person', r.lookup('Person', 'a') as number, 'age'), 20);
    r.release();
    await db.close();
  } finally {
    t.cleanup();
  }
});
