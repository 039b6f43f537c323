/**
 * fillCells (shared-fill.ts): a range of a typed array in shared memory is filled as 64-bit words
 * of the value's bytes; every kind of cell, value, offset and range end must come out as the
 * element-wise fill leaves it, and nothing outside the range may change.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type FilledArray, fillCells } from '../../src/query/shared-fill.js';

type Ctor = new (buffer: ArrayBufferLike, byteOffset: number, length: number) => FilledArray;

const kinds: [string, Ctor, number[]][] = [
  ['Uint8Array', Uint8Array, [0, 1, 255]],
  ['Int32Array', Int32Array, [0, -1, 7, -2147483648]],
  ['Float32Array', Float32Array, [0, 1.5, -0, Infinity]],
  ['Float64Array', Float64Array, [0, 0.1, -3e300, NaN]],
];

/** Every cell equal, NaN included, and -0 told apart from 0. */
function same(a: FilledArray, b: FilledArray): boolean {
  return a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
}

test('a shared range filled as words equals the element-wise fill, at any offset and range', () => {
  let x = 987654321;
  const next = (m: number): number => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x % m;
  };
  for (const [name, Kind, values] of kinds) {
    const size = (Kind as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
    for (let round = 0; round < 40; round++) {
      const cells = 3000;
      // A view that starts at any element of the buffer (not only at a 64-bit word).
      const offset = next(8) * size;
      const shared = new Kind(new SharedArrayBuffer(offset + cells * size + 5 * 8), offset, cells);
      const plain = new Kind(new ArrayBuffer(cells * size), 0, cells);
      for (let i = 0; i < cells; i++) shared[i] = plain[i] = (i % 7) - 3;
      const from = next(cells);
      const to = round % 4 === 0 ? cells : from + next(cells - from + 1);
      const value = values[round % values.length];
      assert.equal(fillCells(shared, value, from, to), shared);
      plain.fill(value, from, to);
      assert.ok(same(shared, plain), `${name} [${from}, ${to}) offset ${offset} with ${value}`);
    }
  }
});

test('the whole array by default, shared or not', () => {
  const shared = new Uint8Array(new SharedArrayBuffer(4096));
  shared[17] = 9;
  fillCells(shared, 1);
  assert.ok(shared.every((b) => b === 1));
  const plain = new Int32Array(100).fill(5);
  fillCells(plain, 0, 10);
  assert.deepEqual([...plain.subarray(8, 12)], [5, 5, 0, 0]);
  assert.ok(plain.subarray(10).every((v) => v === 0));
});
