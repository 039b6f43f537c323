import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DETACHED_TTL_MS,
  formatTime,
  MAX_DETACHED,
  MAX_DETACHED_BYTES,
  RunningQueries,
} from '../../../src/server/http/running-queries.js';

function clocked(): { now: number; registry: RunningQueries } {
  const state = { now: Date.UTC(2024, 0, 2, 3, 4, 5, 678), registry: undefined as unknown as RunningQueries };
  state.registry = new RunningQueries(() => state.now);
  return state;
}

test('records carry TigerGraph times and elapsed milliseconds; waiting runs are forgotten at the end', () => {
  const c = clocked();
  const run = c.registry.start('1.RESTPP_1_1.1.N', 'g', '/query/g/q?x=1', 16000, false);
  c.now += 250;
  assert.deepEqual(c.registry.record(run), {
    requestid: '1.RESTPP_1_1.1.N',
    startTime: '2024-01-02 03:04:05.678',
    expirationTime: '2024-01-02 03:04:21.678',
    url: '/query/g/q?x=1',
    elapsedTime: 250,
  });
  assert.equal(formatTime(0), '1970-01-01 00:00:00.000');
  assert.deepEqual(c.registry.running('g'), [run]);
  assert.deepEqual(c.registry.running('other'), []);
  c.registry.finish(run, 'success', { ok: true, resultsJson: '[]' });
  assert.equal(c.registry.get(run.requestid), undefined);
});

test('abort by id, all or url pattern stops only running queries of the graph', () => {
  const c = clocked();
  const a = c.registry.start('a', 'g', '/query/g/a', 1000, false);
  const b = c.registry.start('b', 'g', '/query/g/b?x=1', 1000, true);
  const other = c.registry.start('o', 'h', '/query/h/a', 1000, false);
  assert.deepEqual(c.registry.abort('g', ['b'], undefined), [b]);
  assert.equal(b.controller.signal.aborted, true);
  assert.equal(a.controller.signal.aborted, false);
  assert.deepEqual(c.registry.abort('g', [], /^\/query\/g\/a$/), [a]);
  assert.deepEqual(c.registry.abort('h', 'all', undefined), [other]);
});

test('finished detached results expire after the TTL', () => {
  const c = clocked();
  const run = c.registry.start('d', 'g', '/query/g/q', 1000, true);
  c.registry.finish(run, 'success', { ok: true, resultsJson: '[{"a":1}]' });
  c.now += DETACHED_TTL_MS;
  assert.equal(c.registry.get('d'), run);
  c.now += 1;
  assert.equal(c.registry.get('d'), undefined);
});

test('at most MAX_DETACHED finished detached results, oldest forgotten first', () => {
  const c = clocked();
  for (let i = 0; i <= MAX_DETACHED; i++) {
    const run = c.registry.start(`r${i}`, 'g', '/query/g/q', 1000, true);
    c.registry.finish(run, 'success', { ok: true, resultsJson: '[]' });
  }
  assert.equal(c.registry.get('r0'), undefined);
  assert.ok(c.registry.get('r1'));
  assert.equal(c.registry.detached('g').length, MAX_DETACHED);
});

test('results beyond MAX_DETACHED_BYTES push out the oldest', () => {
  const c = clocked();
  const big = 'x'.repeat(MAX_DETACHED_BYTES / 2);
  for (const id of ['b1', 'b2', 'b3']) {
    const run = c.registry.start(id, 'g', '/query/g/q', 1000, true);
    c.registry.finish(run, 'success', { ok: true, resultsJson: big });
  }
  assert.equal(c.registry.get('b1'), undefined);
  assert.ok(c.registry.get('b2'));
  assert.ok(c.registry.get('b3'));
  // A running detached query is never dropped.
  const running = c.registry.start('live', 'g', '/query/g/q', 1000, true);
  c.now += DETACHED_TTL_MS * 2;
  assert.equal(c.registry.get('live'), running);
});
