/**
 * Keeps the hidden classes of `process.nextTick`'s task objects alive for the life of the process.
 *
 * Node builds each task as an object literal with computed keys, and V8 records the hidden class
 * (map) each of those keys is added to. A map nothing refers to strongly is freed by a full GC; the
 * next task then gets a new map, and V8 marks those three property definitions megamorphic for good,
 * so every later `nextTick` (an HTTP response makes about eight) defines its properties through the
 * runtime. That happens whenever a few full GCs pass with no task object alive, which is what a
 * long synchronous run does (a loading job, a big query): a server that had run one answered each
 * REST++ read about 0.7 µs slower than a fresh one. One task object kept here holds its map chain.
 */
import { executionAsyncResource } from 'node:async_hooks';

let kept: object | undefined;
let asked = false;

/** Keeps one task object (idempotent; the object is taken inside the next tick). */
export function keepTickShape(): void {
  if (asked) return;
  asked = true;
  // Inside a tick callback the executing resource is the task object itself.
  process.nextTick(() => {
    kept = executionAsyncResource();
  });
}

/** The task object kept, once the tick ran (tests check it is one of nextTick's own). */
export function keptTickObject(): object | undefined {
  return kept;
}
