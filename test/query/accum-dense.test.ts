/**
 * A dense integer column's whole snapshot (DenseColumn.snapshotAll) keeps the value of every cell
 * that holds the spill mark, while it looks for them only in the chunks that may hold one: cells
 * spilled by updates, cells set back to numbers, chunks filled with a spilling initial state, and
 * cells a helper thread spilled in the shared arrays (handed over with adoptSpills).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makeAccum } from '../../src/query/accumulators.js';
import { DenseColumn, DenseKind, INT32_SPILL } from '../../src/query/accum-dense.js';
import { T, type AccumT } from '../../src/query/types.js';

const N = 5000;
const BIG = 2 ** 40;

function column(accum: 'MinAccum' | 'MaxAccum', initial?: number): DenseColumn {
  const t: AccumT = { kind: 'ACCUM', accum, elem: T.INT };
  const make = (): ReturnType<typeof makeAccum> => {
    const a = makeAccum(t);
    if (initial !== undefined) a.set(initial);
    return a;
  };
  const kind = accum === 'MinAccum' ? DenseKind.MinInt : DenseKind.MaxInt;
  return new DenseColumn(kind, make, new Int32Array(new SharedArrayBuffer(N * 4)));
}

/** Every cell's snapshot value, as a clause reads it (select-kernel's snapshot read). */
function snapshot(c: DenseColumn): unknown[] {
  const snap = c.snapVals as Int32Array;
  return Array.from({ length: N }, (_, g) => (snap[g] !== INT32_SPILL ? snap[g] : c.snapshotValue(g)));
}

function values(c: DenseColumn): unknown[] {
  return Array.from({ length: N }, (_, g) => c.get(g));
}

test('cells spilled and set back: the snapshot holds every value', () => {
  const c = column('MaxAccum', 0);
  for (let g = 0; g < N; g += 7) c.set(g, g);
  for (let g = 3; g < N; g += 997) c.add(g, BIG);
  c.snapshotAll(1);
  assert.deepEqual(snapshot(c), values(c));
  // The spilled cells get numbers again; others spill.
  for (let g = 3; g < N; g += 997) c.set(g, 5);
  for (let g = 2000; g < N; g += 1500) c.set(g, -BIG);
  c.snapshotAll(2);
  assert.deepEqual(snapshot(c), values(c));
  assert.equal(snapshot(c)[2000], -BIG);
  assert.equal(snapshot(c)[3], 5);
});

test('a spilling initial state: chunks set whole and chunks left at it', () => {
  const c = column('MinAccum');
  // The first two chunks get numbers everywhere (as WCC's getvid pass); the rest keep the initial state.
  for (let g = 0; g < 2048; g++) c.set(g, g);
  c.get(N - 1);
  c.snapshotAll(1);
  const got = snapshot(c);
  assert.deepEqual(got, values(c));
  assert.equal(got[100], 100);
  assert.equal(got[3000], 9223372036854775807n);
});

test('cells a helper spilled in the shared arrays, handed over', () => {
  const owner = column('MaxAccum', 0);
  for (let g = 0; g < N; g++) owner.set(g, 1);
  owner.snapshotAll(1);
  const helper = DenseColumn.over(owner.kind, owner.make, {
    vals: owner.vals,
    prevAt: null,
    prevVals: null,
    snapVals: null,
  });
  helper.add(4321, BIG);
  helper.add(17, BIG + 1);
  owner.adoptSpills(helper.spills());
  owner.snapshotAll(2);
  const got = snapshot(owner);
  assert.equal(got[4321], BIG);
  assert.equal(got[17], BIG + 1);
  assert.deepEqual(got, values(owner));
});

test('a spilling initial state a helper replaced: searched once, spills after it still kept', () => {
  const owner = column('MinAccum');
  owner.prepareAll();
  const helper = DenseColumn.over(owner.kind, owner.make, {
    vals: owner.vals,
    prevAt: null,
    prevVals: null,
    snapVals: null,
  });
  for (let g = 0; g < N; g++) helper.set(g, g);
  owner.snapshotAll(1);
  assert.deepEqual(snapshot(owner), values(owner));
  assert.equal(snapshot(owner)[N - 1], N - 1);
  owner.set(1500, -BIG);
  owner.add(4999, -BIG - 1);
  owner.snapshotAll(2);
  const got = snapshot(owner);
  assert.deepEqual(got, values(owner));
  assert.equal(got[1500], -BIG);
  assert.equal(got[4999], -BIG - 1);
});

/** An OrAccum column over `chunks` chunks of cells that hold an earlier run's leftovers (1). */
function leftoverOr(chunks: number): DenseColumn {
  const t: AccumT = { kind: 'ACCUM', accum: 'OrAccum', elem: T.BOOL };
  const cells = new Uint8Array(new SharedArrayBuffer(chunks * 1024)).fill(1);
  return new DenseColumn(DenseKind.Or, () => makeAccum(t), cells);
}

test('cells written chunk by chunk: past a sixteenth of the chunks the rest are filled at once', () => {
  const c = leftoverOr(64);
  const written = [5, 10_240, 20_480, 30_720, 40_960, 51_200, 65_535];
  // Chunks 0, 10, 20 and 30 are filled one by one, the fifth write fills every chunk left.
  for (const g of written) c.set(g, true);
  assert.deepEqual(c.ready, new Uint8Array(c.ready.length).fill(1));
  const raw = [...c.vals.keys()].filter((g) => c.vals[g] !== 0);
  assert.deepEqual(raw, written);
  const read = Array.from({ length: 64 * 1024 }, (_, g) => c.get(g));
  assert.deepEqual(
    read.flatMap((v, g) => (v === true ? [g] : [])),
    written,
  );
});

test('prepareAll fills runs of unwritten chunks and keeps the written ones', () => {
  const c = leftoverOr(64);
  // Three chunks written before (a sixteenth of 65 chunks is four), at the start, inside and at the end.
  c.set(3, true);
  c.set(7 * 1024 + 9, true);
  c.set(64 * 1024 - 1, true);
  assert.deepEqual(
    [...c.ready.keys()].filter((k) => c.ready[k] === 1),
    [0, 7, 63],
  );
  c.prepareAll();
  assert.deepEqual(
    [...c.vals.keys()].filter((g) => c.vals[g] !== 0),
    [3, 7 * 1024 + 9, 64 * 1024 - 1],
  );
});

test('a spilling initial state filled at once after chunk-by-chunk writes: the snapshot finds every spill', () => {
  const c = column('MinAccum');
  (c.vals as Int32Array).fill(7);
  // N = 5000 cells: five chunks, under sixteen, so the first write fills them all.
  c.set(10, 1);
  c.set(1030, 2);
  c.snapshotAll(1);
  const got = snapshot(c);
  assert.deepEqual(got, values(c));
  assert.equal(got[10], 1);
  assert.equal(got[1030], 2);
  assert.equal(got[4999], 9223372036854775807n);
});
