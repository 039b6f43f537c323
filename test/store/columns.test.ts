import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Primitive, Tuple, type Value, VertexRef } from '../../src/catalog/value.js';
import { DictStringColumn, NumberColumn, makeColumn, type ValueColumn } from '../../src/store/columns.js';
import { ValueHeap } from '../../src/store/value-heap.js';

test('number column keeps values beyond 2^53 exact and serves old versions from history', () => {
  const c = makeColumn({ kind: 'INT', bytes: 8 }) as NumberColumn;
  c.ensure(3);
  c.init(0, 1);
  c.init(1, 2n ** 63n - 1n);
  assert.equal(c.get(1), 2n ** 63n - 1n);
  assert.ok(Number.isNaN(c.numbers()[1]));
  assert.equal(c.hasInexact(), true);
  c.update(0, 2n ** 60n, 5);
  c.update(0, 7, 9);
  assert.equal(c.getAt(0, 4), 1);
  assert.equal(c.getAt(0, 5), 2n ** 60n);
  assert.equal(c.getAt(0, 8), 2n ** 60n);
  assert.equal(c.getAt(0, 9), 7);
  c.trimHistory(5);
  assert.equal(c.getAt(0, 6), 2n ** 60n, 'history newer than the trim point is kept');
  c.trimHistory(9);
  assert.equal(c.history, null);
  // Reverting the entry of an aborted write restores the value it replaced.
  const e2 = c.update(1, 3, 10);
  c.revert(1, e2);
  assert.equal(c.get(1), 2n ** 63n - 1n);
  assert.equal(c.history, null);
});

test('dictionary string column shares codes and grows', () => {
  const c = makeColumn({ kind: 'STRING', compress: true }) as DictStringColumn;
  c.ensure(100);
  for (let i = 0; i < 100; i++) c.init(i, i % 2 ? 'odd' : 'even');
  assert.equal(c.dict.length, 3);
  assert.equal(c.get(41), 'odd');
  assert.equal(c.codes[40], c.codes[0]);
});

test('value column: a rebuild folds writes into the shared heap; values and history read the same', () => {
  const c = makeColumn({ kind: 'STRING', compress: false }) as ValueColumn;
  const values = ['', 'a', 'ünïcödé', 'x'.repeat(100), 'short ascii', '😀 emoji'];
  c.ensure(values.length);
  values.forEach((v, i) => c.init(i, v));
  c.rebase(values.length);
  assert.ok(c.heap !== null && c.heap.bytes.buffer instanceof SharedArrayBuffer);
  assert.deepEqual(
    values.map((_, i) => c.get(i)),
    values,
  );
  c.update(1, 'b', 7);
  c.ensure(values.length + 1);
  c.init(values.length, 'tail');
  assert.equal(c.get(1), 'b');
  assert.equal(c.getAt(1, 6), 'a');
  c.rebase(values.length + 1);
  assert.equal(c.over.size, 0);
  assert.equal(c.get(1), 'b');
  assert.equal(c.getAt(1, 6), 'a', 'history survives the rebuild');
  assert.equal(c.get(values.length), 'tail');
  assert.equal(c.get(3), 'x'.repeat(100));
});

test('value heap keeps collections, tuples, maps, vertex references and bytes exact', () => {
  const vals: Value[] = [
    [1, 2n ** 70n, -3.5],
    new Map<Primitive, Value>([['k', [true, false]]]),
    new Tuple('P', [1, 'two']),
    new VertexRef('T', 'id-1'),
    new Uint8Array([1, 2, 255]),
  ];
  const h = ValueHeap.build(vals.length, (r) => vals[r]);
  assert.deepEqual(
    vals.map((_, r) => h.get(r)),
    vals,
  );
});

test('reverts of one row come in any order and leave the value before the first of them', () => {
  for (const order of [
    [0, 1, 2],
    [2, 1, 0],
    [1, 0, 2],
    [0, 2, 1],
  ]) {
    const c = makeColumn({ kind: 'INT', bytes: 8 }) as NumberColumn;
    c.ensure(1);
    c.init(0, 1);
    const entries = [c.update(0, 2, 7), c.update(0, 3, 7), c.update(0, 4, 7)];
    for (const k of order) c.revert(0, entries[k]);
    assert.equal(c.get(0), 1, `reverted in order ${order.join(',')}`);
    assert.equal(c.history, null);
  }
  // A revert of an older write while a newer one stands keeps the newer value and its history.
  const c = makeColumn({ kind: 'INT', bytes: 8 }) as NumberColumn;
  c.ensure(1);
  c.init(0, 1);
  const first = c.update(0, 2, 7);
  c.update(0, 3, 8);
  c.revert(0, first);
  assert.equal(c.get(0), 3);
  assert.equal(c.getAt(0, 7), 1);
});
