/**
 * Edges with attributes appended without their pair lookup (UpsertEdgeOptions.unchecked, as loading
 * jobs write a directed edge type without discriminator; store/edge-block.ts `appendUnchecked`): a
 * repeated pair keeps one edge whose values are the last repeat's, exactly as edge-by-edge upserts
 * leave it (same edges in the same order, same values, same counts, reverse edges included), with
 * edges that set every attribute (appended) mixed with edges that leave it unset or use another op
 * (upserted after a settle); readers, merges, rebuilds, deletes and aborts between the writes; a
 * reader pinned before a repeat still seeing the earlier values; and the same graph after a WAL
 * replay, a merge, or a crash before any reader or merge.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { AttrUpdate, WriteTx } from '../../src/engine/api.js';
import { FaultyFileLayer } from '../../src/durability/faulty-file-layer.js';
import { assertSameAfterReplay, freshDb, graphSnapshot, sortedSnapshot, tempDir } from './fixtures.js';
import { playScript, type ScriptGraph, uncheckedScripts } from './unchecked-script.js';

const EDGES = { edges: true };

/**
 * A `follows` edge (Person -> Person, reverse `followed_by`, one DATETIME `since`): `set` gives
 * `since` (appended), `unset` gives nothing and `max` gives it with op max (both upserted).
 */
interface Edge {
  from: number;
  to: number;
  since: number;
  form: 'set' | 'unset' | 'max';
}

const edgeArb: fc.Arbitrary<Edge> = fc.record({
  from: fc.integer({ min: 0, max: 3 }),
  to: fc.integer({ min: 0, max: 3 }),
  since: fc.integer({ min: 0, max: 5 }),
  form: fc.constantFrom<Edge['form']>('set', 'set', 'set', 'unset', 'max'),
});

const scriptArb = uncheckedScripts(edgeArb, {
  maxEdges: 25,
  maxVictim: 3,
  thens: [
    'nothing',
    'read',
    'pin',
    'merge',
    'rebuild',
    'delete-edge',
    'delete-vertex',
    'abort',
    'abort-after-lookup',
  ],
});

/** The script's lookups and deletes on this schema. */
const GRAPH: ScriptGraph = {
  lookup: (tx, victim) => tx.upsertEdge('follows', 'Person', `p${victim}`, 'Person', 'p0', {}),
  deleteEdge: (tx, victim) =>
    tx.deleteEdge('follows', 'Person', `p${victim}`, 'Person', `p${(victim + 1) % 4}`),
  deleteVertex: (tx, victim) => tx.deleteVertex('Person', `p${victim}`),
};

const DAY = 86_400;

function attrsOf(e: Edge): Record<string, AttrUpdate> {
  if (e.form === 'unset') return {};
  return { since: { value: 1_600_000_000 + e.since * DAY, op: e.form === 'max' ? 'max' : 'set' } };
}

/** The reference: each edge upserted on its own. */
function oneByOne(tx: WriteTx, edges: Edge[]): void {
  for (const e of edges) tx.upsertEdge('follows', 'Person', `p${e.from}`, 'Person', `p${e.to}`, attrsOf(e));
}

/** The same edges as one run, appended unchecked where they set every attribute. */
function unchecked(tx: WriteTx, edges: Edge[]): void {
  tx.upsertEdges(
    {
      edgeType: 'follows',
      fromType: 'Person',
      toType: 'Person',
      fromIds: edges.map((e) => `p${e.from}`),
      toIds: edges.map((e) => `p${e.to}`),
      attrs: edges.map(attrsOf),
      start: 0,
      end: edges.length,
    },
    { createMissingEndpoints: true, unchecked: true },
  );
}

test('edges with attributes appended unchecked keep the last repeat once, as edge-by-edge upserts do, between writes, after merges and aborts, for pinned readers and after a replay', async () => {
  await fc.assert(
    fc.asyncProperty(scriptArb, async (script) => {
      const ta = tempDir();
      const tb = tempDir();
      try {
        const a = await freshDb(ta);
        const b = await freshDb(tb);
        const pinnedA = await playScript(a, script, oneByOne, GRAPH);
        const pinnedB = await playScript(b, script, unchecked, GRAPH);
        assert.deepEqual(pinnedB, pinnedA, 'readers pinned before a batch');
        assert.deepEqual(graphSnapshot(b, EDGES), graphSnapshot(a, EDGES));
        await assertSameAfterReplay(ta, tb, a, b);
      } finally {
        ta.cleanup();
        tb.cleanup();
      }
    }),
    { numRuns: 80 },
  );
});

test('a merge of attribute edges appended unchecked keeps the last values of each pair, with writes and a reader going on meanwhile', async () => {
  for (const readDuring of [false, true]) {
    const ta = tempDir();
    const tb = tempDir();
    try {
      const a = await freshDb(ta);
      const b = await freshDb(tb);
      const batch = (k: number): Edge[] =>
        Array.from({ length: 150 }, (_, i) => ({
          from: (i * 7 + k) % 11,
          to: (i * 5) % 13,
          since: (i + k * 3) % 17,
          form: 'set',
        }));
      for (let k = 0; k < 3; k++) {
        await a.write((tx) => oneByOne(tx, batch(k)));
        await b.write((tx) => unchecked(tx, batch(k)));
      }
      // Merged while more edges are appended (and not settled): they stay appended over the new base.
      const merges = [a.mergeFresh({ minDelta: 1, share: 1e9 }), b.mergeFresh({ minDelta: 1, share: 1e9 })];
      for (let k = 3; k < 6; k++) {
        await a.write((tx) => oneByOne(tx, batch(k)));
        await b.write((tx) => unchecked(tx, batch(k)));
      }
      // The two merges end at their own times, so the edges' order may differ meanwhile.
      if (readDuring) assert.deepEqual(sortedSnapshot(b), sortedSnapshot(a), 'during the merge');
      await Promise.all(merges);
      assert.deepEqual(
        graphSnapshot(b, EDGES),
        graphSnapshot(a, EDGES),
        `after the merge (reader: ${readDuring})`,
      );
      await a.mergeFresh({ minDelta: 1, share: 1e9 });
      await b.mergeFresh({ minDelta: 1, share: 1e9 });
      assert.deepEqual(
        graphSnapshot(b, EDGES),
        graphSnapshot(a, EDGES),
        `after a second merge (reader: ${readDuring})`,
      );
      await a.close();
      await b.close();
    } finally {
      ta.cleanup();
      tb.cleanup();
    }
  }
});

test('a crash after attribute edges were appended unchecked, before any reader or merge, keeps each pair once with its last values', async () => {
  const ta = tempDir();
  const tb = tempDir();
  try {
    const a = await freshDb(ta);
    const fs = new FaultyFileLayer();
    let b = await freshDb(tb, { fileLayer: fs });
    const edges: Edge[] = Array.from({ length: 400 }, (_, i) => ({
      from: (i * 31) % 9,
      to: (i * 17) % 7,
      since: i % 23,
      form: 'set',
    }));
    for (let k = 0; k < 4; k++) {
      await a.write((tx) => oneByOne(tx, edges.slice(k * 100, k * 100 + 100)));
      await b.write((tx) => unchecked(tx, edges.slice(k * 100, k * 100 + 100)));
    }
    await fs.crash();
    await b.close().catch(() => undefined);
    b = await tb.open({ fileLayer: fs });
    assert.deepEqual(graphSnapshot(b, EDGES), graphSnapshot(a, EDGES));
    await a.close();
    await b.close();
  } finally {
    ta.cleanup();
    tb.cleanup();
  }
});
