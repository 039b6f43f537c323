/**
 * Which inputs a load reads on parse workers (load-options.ts `parallelLoad`): from 2 threads and
 * PARALLEL_MIN_BYTES; with one parse thread (2 threads) an input that upserts vertices stays on
 * the event loop unless the caller sets parallelMinBytes; from 3 threads it goes to the workers.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PARALLEL_MIN_BYTES, parallelLoad } from '../../src/loading/load-options.js';
import type { ObjectKind } from '../../src/loading/statistics.js';

const source = { text: 'CREATE LOADING JOB j FOR GRAPH g {}', graph: 'g' };
const big = 8 * PARALLEL_MIN_BYTES;
const kinds = (...k: ObjectKind[]): { kind: ObjectKind }[] => k.map((kind) => ({ kind }));

test('edge inputs go to parse workers from 2 threads and PARALLEL_MIN_BYTES', () => {
  const edges = kinds('edge', 'deleteEdge');
  assert.equal(parallelLoad(edges, { source, threads: 2, sizeHint: big }), true);
  assert.equal(parallelLoad(edges, { source, threads: 2, sizeHint: PARALLEL_MIN_BYTES - 1 }), false);
  assert.equal(parallelLoad(edges, { source, threads: 1, sizeHint: big }), false);
  assert.equal(parallelLoad(edges, { threads: 2, sizeHint: big }), false, 'no job text to compile there');
});

test('an input that upserts vertices stays on the event loop with one parse thread, unless told otherwise', () => {
  for (const targets of [kinds('vertex'), kinds('vertex', 'edge'), kinds('edge', 'vertex')]) {
    assert.equal(parallelLoad(targets, { source, threads: 2, sizeHint: big }), false);
    assert.equal(parallelLoad(targets, { source, threads: 3, sizeHint: big }), true);
    assert.equal(parallelLoad(targets, { source, threads: 2, sizeHint: big, parallelMinBytes: 0 }), true);
  }
  assert.equal(parallelLoad(kinds('deleteVertex'), { source, threads: 2, sizeHint: big }), true);
});
