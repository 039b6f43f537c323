import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { IdIndex } from '../../src/store/id-index.js';
import type { IdKey } from '../../src/store/vertex-table.js';

const keyArb: fc.Arbitrary<IdKey> = fc.oneof(
  fc.nat(5000),
  fc.integer({ min: 1_000_000, max: 2 ** 40 }),
  fc.integer({ min: -50, max: -1 }),
  fc.constant(2 ** 53 + 2).map((n) => BigInt(n)),
  fc.string({ maxLength: 3 }),
  fc.constant(0.5),
);

test('id index behaves like a Map whatever mix of dense, sparse and non-integer keys, rebuilds and sets after a read (setAfterGet) it gets', () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.tuple(
          fc.constantFrom('set', 'setAfterGet', 'delete', 'rebase'),
          keyArb,
          fc.integer({ min: -100, max: 100 }),
        ),
        { maxLength: 200 },
      ),
      (ops) => {
        const idx = new IdIndex();
        const model = new Map<IdKey, number>();
        for (const [op, key, v] of ops) {
          // A rebuild folds the keyed entries into the shared base; lookups must not change.
          if (op === 'rebase') idx.rebase();
          else if (op === 'set') {
            idx.set(key, v);
            model.set(key, v);
          } else if (op === 'setAfterGet') {
            idx.setAfterGet(key, v, idx.get(key));
            model.set(key, v);
          } else {
            idx.delete(key);
            model.delete(key);
          }
          assert.equal(idx.size, model.size);
        }
        for (const [k, v] of model) assert.equal(idx.get(k), v);
        assert.equal(idx.get('missing-key'), undefined);
        assert.deepEqual(
          new Map([...idx.entries()].map(([k, v]) => [typeof k === 'bigint' ? k : k, v])),
          model,
        );
      },
    ),
    { numRuns: 300 },
  );
});

test('dense integer ids go to the direct array, far ones to the map, and move in when it grows', () => {
  const idx = new IdIndex();
  idx.set(10_000_000, 1); // beyond the direct range for now
  for (let i = 0; i < 2_000_000; i++) idx.set(i, i);
  idx.set(10_000_000, ~5);
  assert.equal(idx.get(10_000_000), ~5);
  assert.equal(idx.get(1_999_999), 1_999_999);
  assert.equal(idx.size, 2_000_001);
});

test('ids arriving in random order end up findable after the direct array grows over them', () => {
  // A shuffled 0..2^18: early ids above 8 x (entries + 1) go to the map, and the direct array later
  // grows over them; updates, deletions and re-inserts are mixed in while it grows.
  const n = 1 << 18;
  const keys = Array.from({ length: n }, (_, i) => i);
  let seed = 12345;
  for (let i = n - 1; i > 0; i--) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const j = seed % (i + 1);
    [keys[i], keys[j]] = [keys[j], keys[i]];
  }
  const idx = new IdIndex();
  const model = new Map<IdKey, number>();
  for (let i = 0; i < n; i++) {
    const k = keys[i];
    idx.set(k, i);
    model.set(k, i);
    if (i % 7 === 3) {
      idx.set(keys[i - 2], ~(i - 2)); // deleted
      model.set(keys[i - 2], ~(i - 2));
    }
    if (i % 11 === 5) {
      idx.delete(keys[i - 4]);
      model.delete(keys[i - 4]);
    }
  }
  assert.equal(idx.size, model.size);
  for (let k = 0; k < n; k++) assert.equal(idx.get(k), model.get(k), `key ${k}`);
  const seen = [...idx.entries()];
  assert.equal(seen.length, model.size);
  assert.deepEqual(new Map(seen), model);
});
