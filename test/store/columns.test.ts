import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DictStringColumn, NumberColumn, makeColumn } from '../../src/store/columns.js';

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
