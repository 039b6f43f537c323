/**
 * The scripts the unchecked-append property tests play (edge-unchecked*.test.ts): batches of edges,
 * each followed by a reader, a pinned reader, a merge, a rebuild, a delete, or an abort of the
 * batch itself, applied once with edge-by-edge upserts and once appended unchecked.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ReadTx, WriteTx } from '../../src/engine/api.js';
import type { Database } from '../../src/engine/database.js';
import { graphSnapshot, readerSnapshot } from './fixtures.js';

const EDGES = { edges: true };

/** What happens after a batch of edges. */
export type Between =
  | 'nothing'
  | 'read'
  | 'pin'
  | 'merge'
  | 'rebuild'
  | 'delete-edge'
  | 'delete-vertex'
  | 'abort'
  | 'abort-after-lookup';

export type Script<E> = { batches: { edges: E[]; then: Between; victim: number }[] };

/** Scripts of 1 to 6 batches of 1 to `maxEdges` edges, each followed by one of `thens` on a victim vertex 0..`maxVictim`. */
export function uncheckedScripts<E>(
  edge: fc.Arbitrary<E>,
  o: { maxEdges: number; maxVictim: number; thens: Between[] },
): fc.Arbitrary<Script<E>> {
  return fc.record({
    batches: fc.array(
      fc.record({
        edges: fc.array(edge, { minLength: 1, maxLength: o.maxEdges }),
        then: fc.constantFrom<Between>(...o.thens),
        victim: fc.integer({ min: 0, max: o.maxVictim }),
      }),
      { minLength: 1, maxLength: 6 },
    ),
  });
}

/** The writes a script makes beside its batches, on the test's own schema. */
export interface ScriptGraph {
  /** A lookup of the transaction's own (it settles what the transaction appended). */
  lookup(tx: WriteTx, victim: number): void;
  deleteEdge(tx: WriteTx, victim: number): void;
  deleteVertex(tx: WriteTx, victim: number): void;
}

class Aborted extends Error {}

/**
 * Applies a script's batches to `db`, writing edges with `write`; returns the snapshots that
 * readers pinned before a batch ('pin') took once the batch was written.
 */
export async function playScript<E>(
  db: Database,
  script: Script<E>,
  write: (tx: WriteTx, edges: E[]) => void,
  graph: ScriptGraph,
): Promise<unknown[]> {
  const pinned: unknown[] = [];
  let pin: ReadTx | undefined;
  for (const b of script.batches) {
    if (b.then === 'abort' || b.then === 'abort-after-lookup') {
      await assert.rejects(
        db.write((tx) => {
          write(tx, b.edges);
          if (b.then === 'abort-after-lookup') graph.lookup(tx, b.victim);
          throw new Aborted();
        }),
        Aborted,
      );
      continue;
    }
    await db.write((tx) => write(tx, b.edges));
    if (pin !== undefined) {
      pinned.push(readerSnapshot(pin, EDGES));
      pin.release();
      pin = undefined;
    }
    if (b.then === 'read') graphSnapshot(db, EDGES);
    else if (b.then === 'pin') pin = db.read();
    else if (b.then === 'merge') await db.mergeFresh({ minDelta: 1, share: 1e9 });
    else if (b.then === 'rebuild') await db.rebuild();
    else if (b.then === 'delete-edge') await db.write((tx) => graph.deleteEdge(tx, b.victim));
    else if (b.then === 'delete-vertex') await db.write((tx) => graph.deleteVertex(tx, b.victim));
  }
  pin?.release();
  return pinned;
}
