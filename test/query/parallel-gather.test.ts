/**
 * A split's result put together while it runs (parallel-list.ts's gathering): whatever order the
 * partitions end in, the list holds every partition's listed targets in partition order, and the
 * result count is their sum. The threads' answers against one thread are in parallel-*.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gather, newGathering, pieceListed } from '../../src/query/parallel-list.js';
import type { SelectRun } from '../../src/query/select-kernel-types.js';

function sharedList(n: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(Math.max(1, n) * 4)).subarray(0, n);
}

test('pieces listed in any order come out in partition order, copied as soon as their place is known', () => {
  let x = 4242;
  const next = (m: number): number => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x % m;
  };
  for (let round = 0; round < 30; round++) {
    const limit = 1000 + next(3000);
    const bounds = [0];
    while (bounds[bounds.length - 1] < limit)
      bounds.push(Math.min(limit, bounds[bounds.length - 1] + 1 + next(400)));
    const parts = bounds.length - 1;
    // Each partition lists some of its run indexes (ascending) where its range starts.
    const result = sharedList(limit);
    const listed = new Int32Array(new SharedArrayBuffer(4 * (parts + 1)));
    const expected: number[] = [];
    for (let p = 0; p < parts; p++) {
      let n = 0;
      for (let g = bounds[p]; g < bounds[p + 1]; g++)
        if (next(3) === 0) {
          result[bounds[p] + n++] = g;
          expected.push(g);
        }
      listed[p] = n;
    }
    const st = { result, resultCount: 0, newList: sharedList } as unknown as SelectRun;
    const gathering = newGathering(st, limit, parts);
    assert.ok(gathering);
    // Partitions end in a shuffled order; some are left for the owner's gather after the split.
    const order = [...Array(parts).keys()].sort(() => next(3) - 1);
    const ended = order.slice(0, parts - next(Math.min(parts, 3)));
    for (const p of ended) pieceListed(gathering, p, bounds, listed, result);
    for (const p of order.slice(ended.length)) Atomics.store(gathering.state, 1 + p, 1);
    gather(st, bounds, { result, listed, gathering });
    assert.equal(st.resultCount, expected.length);
    assert.deepEqual([...st.result.subarray(0, st.resultCount)], expected);
  }
});

test('without a gathering the pieces are copied into a new list after the split', () => {
  const result = sharedList(10);
  result.set([0, 1, 9, 9, 4, 9, 9, 9, 8, 9]);
  const listed = new Int32Array([2, 1, 0, 1]);
  const st = { result, resultCount: 0, newList: sharedList } as unknown as SelectRun;
  gather(st, [0, 4, 6, 8, 10], { result, listed });
  assert.deepEqual([...st.result.subarray(0, st.resultCount)], [0, 1, 4, 8]);
});
