/**
 * Edges appended without their pair lookup (UpsertEdgeOptions.unchecked, store/edge-block.ts
 * `appendUnchecked`, as loading jobs write edge types without attributes and discriminator): the
 * graph, its counts and every answer equal those of the same writes upserted edge by edge, with
 * repeated pairs inside one run, across transactions and against edges already merged into the
 * base; whether readers come between the writes (which settles the block) or not, a merge comes
 * between them or not (which drops the repeats while it sorts), a transaction aborts after
 * appending (with or without a lookup of its own in between), and across a WAL replay after a
 * clean close or a crash.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { FaultyFileLayer } from '../../src/durability/faulty-file-layer.js';
import type { Database } from '../../src/engine/database.js';
import type { WriteTx } from '../../src/engine/api.js';
import { assertSameAfterReplay, freshDb, graphSnapshot, sortedSnapshot, tempDir } from './fixtures.js';
import { playScript, type ScriptGraph, uncheckedScripts } from './unchecked-script.js';

const EDGES = { edges: true };

/** An edge of `owns` (Num -> Item) or `link` (Num -> Num): directed, no attributes, no discriminator. */
interface Edge {
  type: 'owns' | 'link';
  from: number;
  to: number;
}

const edgeArb: fc.Arbitrary<Edge> = fc.record({
  type: fc.constantFrom<Edge['type']>('owns', 'link'),
  from: fc.integer({ min: 0, max: 4 }),
  to: fc.integer({ min: 0, max: 4 }),
});

const scriptArb = uncheckedScripts(edgeArb, {
  maxEdges: 30,
  maxVictim: 4,
  thens: [
    'nothing',
    'read',
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
  lookup: (tx, victim) => tx.upsertEdge('owns', 'Num', victim, 'Item', 0, {}),
  deleteEdge: (tx, victim) => tx.deleteEdge('owns', 'Num', victim, 'Item', (victim + 1) % 5),
  deleteVertex: (tx, victim) => tx.deleteVertex('Num', victim),
};

function toType(e: Edge): string {
  return e.type === 'owns' ? 'Item' : 'Num';
}

/** `b` (appended unchecked) reads `a`'s (upserted) link count and graph. */
function assertSameLinks(a: Database, b: Database): void {
  const ra = a.read();
  const rb = b.read();
  assert.equal(rb.edgeCount('link'), ra.edgeCount('link'));
  ra.release();
  rb.release();
  assert.deepEqual(graphSnapshot(b, EDGES), graphSnapshot(a, EDGES));
}

/** The reference: each edge upserted on its own (the pair lookup of every upsert). */
function oneByOne(tx: WriteTx, edges: Edge[]): void {
  for (const e of edges) tx.upsertEdge(e.type, 'Num', e.from, toType(e), e.to, {});
}

/** The same edges in runs of one type, appended unchecked. */
function unchecked(tx: WriteTx, edges: Edge[]): void {
  for (let i = 0; i < edges.length;) {
    let end = i + 1;
    while (end < edges.length && edges[end].type === edges[i].type) end++;
    tx.upsertEdges(
      {
        edgeType: edges[i].type,
        fromType: 'Num',
        toType: toType(edges[i]),
        fromIds: edges.map((e) => e.from),
        toIds: edges.map((e) => e.to),
        attrs: null,
        start: i,
        end,
      },
      { createMissingEndpoints: true, unchecked: true },
    );
    i = end;
  }
}

test('edges appended unchecked give the graph edge-by-edge upserts give, between writes, after merges and aborts, and after a replay', async () => {
  await fc.assert(
    fc.asyncProperty(scriptArb, async (script) => {
      const ta = tempDir();
      const tb = tempDir();
      try {
        const a = await freshDb(ta);
        const b = await freshDb(tb);
        await playScript(a, script, oneByOne, GRAPH);
        await playScript(b, script, unchecked, GRAPH);
        assert.deepEqual(graphSnapshot(b, EDGES), graphSnapshot(a, EDGES));
        // Both replayed from their logs (b's edges appended unchecked again): a merge before the
        // close is not kept, so both read deltas in the order they were written.
        await assertSameAfterReplay(ta, tb, a, b);
      } finally {
        ta.cleanup();
        tb.cleanup();
      }
    }),
    { numRuns: 80 },
  );
});

for (const readDuring of [false, true])
  test(`a merge of edges appended unchecked drops repeats the counts already had, with writes${readDuring ? ' and a reader (which settles)' : ''} going on meanwhile`, async () => {
    const ta = tempDir();
    const tb = tempDir();
    try {
      const a = await freshDb(ta);
      const b = await freshDb(tb);
      const batch = (k: number): Edge[] =>
        Array.from({ length: 200 }, (_, i) => ({ type: 'link', from: (i * 7 + k) % 13, to: (i * 11) % 17 }));
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
      // A reader while the merge runs settles the repeats the merge drops too: counted off once.
      // The two merges end at their own times, so the edges' order may differ meanwhile.
      if (readDuring) assert.deepEqual(sortedSnapshot(b), sortedSnapshot(a));
      await Promise.all(merges);
      assertSameLinks(a, b);
      await a.close();
      await b.close();
    } finally {
      ta.cleanup();
      tb.cleanup();
    }
  });

test('a crash after edges were appended unchecked, before any reader or merge, keeps every acknowledged edge once', async () => {
  const ta = tempDir();
  const tb = tempDir();
  try {
    const a = await freshDb(ta);
    const fs = new FaultyFileLayer();
    let b = await freshDb(tb, { fileLayer: fs });
    const edges: Edge[] = Array.from({ length: 500 }, (_, i) => ({
      type: i % 3 === 0 ? 'owns' : 'link',
      from: (i * 31) % 9,
      to: (i * 17) % 7,
    }));
    for (let k = 0; k < 5; k++) {
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

test('edge counts are right when appended edges commit while the next transactions are already applied', async () => {
  const ta = tempDir();
  const tb = tempDir();
  try {
    // sync always: each commit waits for its fsync while the next transactions are applied.
    const a = await freshDb(ta, { sync: 'always' });
    const b = await freshDb(tb, { sync: 'always' });
    const batch = (k: number): Edge[] =>
      Array.from({ length: 300 }, (_, i) => ({ type: 'link', from: (i * 5 + k) % 11, to: (i * 3 + k) % 19 }));
    await Promise.all(Array.from({ length: 8 }, (_, k) => a.write((tx) => oneByOne(tx, batch(k)))));
    await Promise.all(Array.from({ length: 8 }, (_, k) => b.write((tx) => unchecked(tx, batch(k)))));
    assertSameLinks(a, b);
    await a.close();
    await b.close();
  } finally {
    ta.cleanup();
    tb.cleanup();
  }
});

test('an abort after its own lookup settled repeats it appended leaves a new block counting no edges', async () => {
  const ta = tempDir();
  const tb = tempDir();
  try {
    const a = await freshDb(ta);
    const b = await freshDb(tb);
    // The first `owns` edges: the transaction makes the block, its lookup settles the repeat (taken
    // off the block's count at this transaction's version), then it aborts.
    const repeated: Edge[] = [
      { type: 'owns', from: 3, to: 0 },
      { type: 'owns', from: 3, to: 0 },
    ];
    for (const [db, write] of [
      [a, oneByOne],
      [b, unchecked],
    ] as const) {
      await playScript(
        db,
        {
          batches: [
            { edges: repeated, then: 'abort-after-lookup', victim: 0 },
            { edges: [{ type: 'link', from: 0, to: 0 }], then: 'nothing', victim: 0 },
          ],
        },
        write,
        GRAPH,
      );
    }
    assertSameLinks(a, b);
    const r = b.read();
    assert.equal(r.edgeCount('owns'), 0);
    r.release();
    await a.close();
    await b.close();
  } finally {
    ta.cleanup();
    tb.cleanup();
  }
});
