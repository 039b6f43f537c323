/**
 * Listing marked run indexes (query/mark-list.ts), which a split SELECT uses to rebuild its result
 * and lists in storage order: the same indexes as a plain scan, at every density, for ranges that
 * start and end anywhere within a word, over marks that do not start on a word, and without a
 * write outside the range.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { listMarks } from '../../src/query/mark-list.js';
import { rnd } from './parallel-fixture.js';

function plain(mark: Uint8Array, lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let g = lo; g < hi; g++) if (mark[g] === 1) out.push(g);
  return out;
}

test('listMarks lists the marked indexes of a range in order, at any density and alignment', () => {
  const r = rnd(7);
  for (const shift of [0, 1, 3]) {
    const n = 5000;
    const mark = new Uint8Array(new SharedArrayBuffer(n + shift + 4), shift, n);
    for (const per of [0, 1, 50, 500, 999, 1000]) {
      for (let g = 0; g < n; g++) mark[g] = r(1000) < per ? 1 : 0;
      for (const [lo, hi] of [
        [0, n],
        [1, n - 1],
        [3, 4],
        [4, 8],
        [17, 2043],
        [n - 3, n],
        [9, 9],
      ]) {
        const list = new Int32Array(n + 8).fill(-7);
        const end = listMarks(list, mark, lo, hi);
        const want = plain(mark, lo, hi);
        assert.deepEqual(
          [...list.subarray(lo, end)],
          want,
          `marks per mille ${per}, [${lo}, ${hi}), shift ${shift}`,
        );
        // Nothing outside the range is written.
        for (let i = 0; i < list.length; i++) if (i < lo || i >= hi) assert.equal(list[i], -7, `cell ${i}`);
      }
    }
  }
});
