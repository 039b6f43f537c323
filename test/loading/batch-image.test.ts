/**
 * A batch's image (batch-image.ts `imageOf`) when every value is a number given by shape: the
 * values are the batch's own, copied at once. The image equals the one built value by value (the
 * same batch with its values in an array), with edges of two shapes, edges that give no
 * attribute, a vertex with an attribute map in the batch or not, and a second batch in the same
 * arrays after the first.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AttrShape } from '../../src/engine/api.js';
import { takeBatch, giveBatch } from '../../src/loading/batch.js';
import type { BatchOps } from '../../src/loading/batch-ops.js';
import { imageOf } from '../../src/loading/batch-image.js';
import { LoadStatistics } from '../../src/loading/statistics.js';
import { EMPTY_ATTRS, type AttrValues } from '../../src/loading/targets.js';

const TWO: AttrShape = { names: ['n', 'at'], ops: ['set', 'set'] };
const ONE: AttrShape = { names: ['at'], ops: ['set'] };

function given(shape: AttrShape | null, values: number[]): AttrValues {
  return { shape, values, count: values.length } as unknown as AttrValues;
}

/** The same operations with the values in a plain array: imageOf then pushes them one by one. */
function valueByValue(ops: BatchOps): BatchOps {
  return {
    size: ops.size,
    kinds: ops.kinds,
    types: ops.types,
    fromTypes: ops.fromTypes,
    fromIds: ops.fromIds,
    toTypes: ops.toTypes,
    toIds: ops.toIds,
    fromCodes: ops.fromCodes,
    toCodes: ops.toCodes,
    attrs: ops.attrs,
    stats: ops.stats,
    shapeOf: ops.shapeOf,
    valueAt: ops.valueAt,
    values: Array.from(ops.values),
    shapeList: ops.shapeList,
    segments: ops.segments,
  };
}

for (const withVertex of [false, true]) {
  test(`an image of number values by shape equals the one built value by value${withVertex ? ' (a vertex in the batch)' : ''}`, () => {
    const stats = new LoadStatistics();
    const w = stats.object('edge', 'w');
    const p = stats.object('vertex', 'person');
    const batch = takeBatch();
    try {
      for (let round = 0; round < 2; round++) {
        batch.clear();
        for (let i = 0; i < 7; i++) {
          const from = `p${i}`;
          const to = `p${(i * 3) % 5}`;
          if (i === 2) batch.upsertEdgeValues('w', 'person', from, 'person', to, given(null, []), w);
          else if (i % 3 === 0)
            batch.upsertEdgeValues('w', 'person', from, 'person', to, given(ONE, [1e9 + i]), w);
          else
            batch.upsertEdgeValues('w', 'person', from, 'person', to, given(TWO, [i - 3, -0 + i * 0.5]), w);
          if (withVertex && i === 4) batch.upsertVertex('person', 'p9', { n: { value: 5, op: 'set' } }, p);
        }
        batch.upsertEdgeValues('w', 'person', 'p1', 'person', 'p2', given(null, []), w);
        assert.ok(batch.values instanceof Float64Array, 'the batch holds numbers only');
        const fast = imageOf(batch, stats, []);
        const slow = imageOf(valueByValue(batch), stats, []);
        assert.deepEqual(fast, slow, `round ${round}`);
        assert.ok(fast.values instanceof Float64Array);
        assert.equal(fast.values.length, withVertex ? 10 : 9, 'the vertex map adds its value');
        assert.equal(fast.shape[2], -1);
        assert.deepEqual([fast.valueAt[3], fast.values[fast.valueAt[3]]], [3, 1e9 + 3]);
      }
    } finally {
      giveBatch(batch);
    }
  });
}

test('an image of edges that give no attribute at all carries no values', () => {
  const stats = new LoadStatistics();
  const w = stats.object('edge', 'w');
  const batch = takeBatch();
  try {
    batch.clear();
    batch.upsertEdge('w', 'person', 'a', 'person', 'b', EMPTY_ATTRS, w);
    batch.upsertEdgeValues('w', 'person', 'b', 'person', 'c', given(null, []), w);
    const img = imageOf(batch, stats, []);
    assert.deepEqual(img, imageOf(valueByValue(batch), stats, []));
    assert.equal(img.values.length, 0);
    assert.deepEqual([...img.shape], [-1, -1]);
  } finally {
    giveBatch(batch);
  }
});
