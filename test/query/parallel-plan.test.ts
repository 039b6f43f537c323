/**
 * A split by sources' weights (query/parallel-plan.ts's sourceWeights) over a large list, taken
 * from every k-th source: the same as one loop over the samples reading each sample's rows in
 * every adjacency (the reference below), over two vertex types, compacted and not yet compacted
 * adjacencies, and rows past an adjacency's offsets; and sourceBounds cuts those weights into
 * ranges of whole samples covering the list.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parallelSelect, sourceBounds, sourceWeights } from '../../src/query/parallel-plan.js';
import type { SelectRun } from '../../src/query/select-kernel-types.js';

interface View {
  clean: boolean;
  offsets: Uint32Array;
  degree(row: number): number;
}

/** Offsets of `rows` rows with skewed degrees (low rows heavy, as RMAT's hubs). */
function offsetsOf(rows: number, seed: number): Uint32Array {
  const off = new Uint32Array(rows + 1);
  let x = seed;
  for (let r = 0; r < rows; r++) {
    x = (x * 1103515245 + 12345) >>> 0;
    off[r + 1] = off[r] + ((x >>> 16) % (r < 50 ? 3000 : 20));
  }
  return off;
}

const A = { start: 0, end: 6000 };
const B = { start: 6000, end: 10_000 };
const aClean: View = { clean: true, offsets: offsetsOf(6000, 1), degree: () => 0 };
const aOff = offsetsOf(6000, 2);
const aDelta: View = { clean: false, offsets: new Uint32Array(1), degree: (r) => aOff[r + 1] - aOff[r] + 1 };
// Offsets for the type's first 3,000 rows only: the rows after have no edges here.
const bShort: View = { clean: true, offsets: offsetsOf(3000, 3), degree: () => 0 };

function run(): SelectRun {
  const st = {
    start: 0,
    end: 0,
    locate(g: number) {
      const t = g < A.end ? A : B;
      st.start = t.start;
      st.end = t.end;
      return t === A
        ? [[{ view: aClean, base: 0 }], [{ view: aDelta, base: 0 }]]
        : [[{ view: bShort, base: 0 }]];
    },
  };
  return st as unknown as SelectRun;
}

/** The reference: every k-th source's rows, summed one sample at a time. */
function reference(gids: Int32Array): { weight: number[]; stride: number; samples: number; total: number } {
  const n = gids.length;
  const stride = Math.max(1, Math.floor(n / 4096));
  const samples = Math.ceil(n / stride);
  const weight = [0];
  let w = 0;
  for (let s = 0; s < samples; s++) {
    const g = gids[s * stride];
    const views = g < A.end ? [aClean, aDelta] : [bShort];
    const row = g - (g < A.end ? A.start : B.start);
    let rows = 1;
    for (const v of views)
      if (!v.clean) rows += v.degree(row);
      else if (row + 1 < v.offsets.length) rows += v.offsets[row + 1] - v.offsets[row];
    w += rows * Math.min(stride, n - s * stride);
    weight.push(w);
  }
  return { weight, stride, samples, total: w };
}

test('sampled source weights over two types are those of a sample-by-sample loop, cut into whole samples', () => {
  const all = Int32Array.from({ length: 10_000 }, (_, i) => i);
  // Every vertex; every third (sampled: more than 4,096 sources only with all of them); a few.
  const lists = [
    all,
    all.filter((g) => g % 3 !== 1),
    all.filter((g) => g % 97 === 0),
    all.subarray(5990, 6100),
  ];
  for (const gids of lists) {
    const want = reference(gids);
    const got = sourceWeights(run(), gids);
    assert.deepEqual({ ...got, weight: Array.from(got.weight) }, want, `${gids.length} sources`);
    for (const threads of [2, 4]) {
      const bounds = sourceBounds(run(), gids, threads);
      if (want.total < parallelSelect.minSources * 16) {
        assert.equal(bounds, undefined, `${gids.length} sources weigh too little to split`);
        continue;
      }
      assert.ok(bounds, `${gids.length} sources, ${threads} threads: split`);
      assert.equal(bounds[0], 0);
      assert.equal(bounds[bounds.length - 1], gids.length);
      for (let i = 1; i < bounds.length; i++) {
        assert.ok(bounds[i] > bounds[i - 1], `ranges in order: ${bounds.join()}`);
        if (i < bounds.length - 1)
          assert.equal(bounds[i] % want.stride, 0, `cut at a whole sample: ${bounds[i]}`);
      }
    }
  }
  assert.ok(sourceBounds(run(), all, 2)!.length > 3, 'the whole list is cut into several partitions');
});
