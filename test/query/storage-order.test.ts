/**
 * Storage order of collected vertices (storage-order.ts): dense lists are rebuilt from their marks,
 * sparse ones sorted; either way the list ends ascending with the same members.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inStorageOrder, sortCollected, sortedList } from '../../src/query/storage-order.js';

function collected(gids: number[], size: number): { list: Int32Array; mark: Uint8Array } {
  const list = new Int32Array(size);
  const mark = new Uint8Array(size);
  gids.forEach((g, i) => {
    list[i] = g;
    mark[g] = 1;
  });
  return { list, mark };
}

test('a dense list is rebuilt from its marks; a sparse one is sorted', () => {
  const dense = [7, 3, 5, 4, 6, 2];
  const a = collected(dense, 100);
  sortCollected(a.list, dense.length, a.mark);
  assert.deepEqual([...a.list.subarray(0, dense.length)], [2, 3, 4, 5, 6, 7]);

  const sparse = [900, 1, 500];
  const b = collected(sparse, 1000);
  b.list[3] = 42; // past count: a sort leaves it alone
  sortCollected(b.list, sparse.length, b.mark);
  assert.deepEqual([...b.list.subarray(0, 4)], [1, 500, 900, 42]);
});

test('a list of 1/64 of its range or more comes back ascending from its marks, any alignment', () => {
  let x = 12345;
  const next = (m: number): number => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x % m;
  };
  for (const [size, count] of [
    [10_000, 300],
    [10_000, 2_000],
    [4_099, 4_000],
    [70, 5],
  ]) {
    const seen = new Set<number>();
    // Ranges starting and ending off a 4-byte word.
    while (seen.size < count) seen.add(3 + next(size - 6));
    const gids = [...seen];
    const c = collected(gids, size);
    sortCollected(c.list, count, c.mark);
    assert.deepEqual(
      [...c.list.subarray(0, count)],
      [...gids].sort((p, q) => p - q),
      `${count} of ${size}`,
    );
  }
});

test('a large sparse list is radix sorted: two and three digits, off zero, into a list of its own', () => {
  let x = 777;
  const next = (m: number): number => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x % m;
  };
  // (lowest, range, count): ranges of 15 to 24 bits, lists of 1/9 to 1/3000 of them.
  for (const [lo, range, count] of [
    [0, 2048 * 9, 2048],
    [5, 20_000, 2048],
    [1000, 1 << 20, 36_000],
    [3, 1 << 23, 2800],
    [123_457, (1 << 23) + 17, 40_000],
  ]) {
    const seen = new Set<number>();
    while (seen.size < count) seen.add(lo + next(range));
    const gids = [...seen];
    const want = [...gids].sort((p, q) => p - q);
    // No marks: a list rebuilt from its marks instead of sorted would come back empty.
    const mark = new Uint8Array(lo + range + 1);
    const list = new Int32Array(count + 1);
    gids.forEach((g, i) => (list[i] = g));
    list[count] = -7;
    const made = sortedList(list, count, mark);
    assert.deepEqual([...made], want, `sortedList of ${count} in ${range} from ${lo}`);
    assert.deepEqual([...list.subarray(0, count)], gids, 'sortedList leaves its input alone');
    sortCollected(list, count, mark);
    assert.deepEqual([...list.subarray(0, count)], want, `sortCollected of ${count} in ${range} from ${lo}`);
    assert.equal(list[count], -7);
  }
});

test('lists already in order, and vertex objects, are put in run-index order', () => {
  const c = collected([1, 2, 9], 10);
  c.mark[5] = 1; // a mark outside the list would show if a sorted list were rebuilt
  sortCollected(c.list, 3, c.mark);
  assert.deepEqual([...c.list.subarray(0, 3)], [1, 2, 9]);

  const vs = [{ gid: 4 }, { gid: 1 }, { gid: 3 }];
  inStorageOrder(vs);
  assert.deepEqual(
    vs.map((x) => x.gid),
    [1, 3, 4],
  );
});
