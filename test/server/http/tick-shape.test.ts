/**
 * keepTickShape keeps a real nextTick task object, and after full GCs a new task object still has
 * its map (without a live task object V8 frees that map and builds a new one, which turns
 * nextTick's property definitions megamorphic for the rest of the process).
 */
import assert from 'node:assert/strict';
import { executionAsyncResource } from 'node:async_hooks';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { keepTickShape, keptTickObject } from '../../../src/server/http/tick-shape.js';

setFlagsFromString('--allow-natives-syntax');
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

const nextTask = (): Promise<object> =>
  new Promise((resolve) => process.nextTick(() => resolve(executionAsyncResource())));

test('a kept task object keeps the map of later tasks across full GCs', async () => {
  keepTickShape();
  keepTickShape();
  await nextTask();
  const kept = keptTickObject();
  assert.ok(kept);
  assert.deepEqual(Object.keys(kept), ['callback', 'args']);
  assert.equal(Object.getOwnPropertySymbols(kept).length, 2);
  for (let i = 0; i < 4; i++) gc();
  assert.equal(sameMap(kept, await nextTask()), true);
});
