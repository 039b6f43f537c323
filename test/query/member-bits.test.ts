/**
 * A bottom-up step's member bits (member-bits.ts): set by ranges of the ascending sources in any
 * order, some ranges set twice (a thread redoing what another took), the bits are exactly the
 * sources'; cleared, every word is zero again, for sparse and dense frontiers alike.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clearMemberBits, setMemberBits } from '../../src/query/member-bits.js';

test('ranges set in any order, some twice, give exactly the sources bits; clearing zeroes them', () => {
  let x = 77;
  const next = (m: number): number => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x % m;
  };
  const limit = 5000;
  const words = (limit >>> 5) + 1;
  const bits = new Int32Array(new SharedArrayBuffer(4 * (words + 3)));
  for (let round = 0; round < 40; round++) {
    // Sparse frontiers (a few sources) and dense ones (most run indexes).
    const density = round % 2 === 0 ? 50 : 2;
    const sources: number[] = [];
    for (let g = 0; g < limit; g++) if (next(density) === 0) sources.push(g);
    const gids = Int32Array.from(sources);
    const cuts = [0];
    while (cuts[cuts.length - 1] < gids.length)
      cuts.push(Math.min(gids.length, cuts[cuts.length - 1] + 1 + next(40)));
    const ranges = [...Array(cuts.length - 1).keys()].sort(() => next(3) - 1);
    for (const r of ranges) {
      setMemberBits(bits, gids, cuts[r], cuts[r + 1]);
      if (next(4) === 0) setMemberBits(bits, gids, cuts[r], cuts[r + 1]);
    }
    for (let g = 0; g < limit; g++)
      assert.equal((bits[g >>> 5] >>> (g & 31)) & 1, sources.includes(g) ? 1 : 0, `run index ${g}`);
    clearMemberBits(bits, gids, limit);
    assert.ok(bits.every((w) => w === 0));
  }
});
