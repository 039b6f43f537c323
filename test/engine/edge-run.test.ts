import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Value } from '../../src/catalog/value.js';
import {
  type AttrShape,
  type AttrUpdate,
  type EdgeRunCounts,
  type EdgeRunShapes,
  EngineError,
  type ExternalId,
  RowCache,
  type WriteTx,
} from '../../src/engine/api.js';
import { freshDb, graphSnapshot, tempDir } from './fixtures.js';

const EDGES = { edges: true };

/** One edge upsert as a loading batch would send it. */
interface Op {
  edgeType: string;
  fromType: string;
  fromId: ExternalId;
  toType: string;
  toId: ExternalId;
  attrs: Record<string, AttrUpdate> | null;
}

/** Edge shapes of the fixture catalog: plain, undirected, reverse, `*` pairs, discriminated, INT/UINT/STRING/composite ids. */
const shapes: [string, string, string, (n: number) => ExternalId, (n: number) => ExternalId][] = [
  ['knows', 'Person', 'Person', (n) => `p${n}`, (n) => `p${n}`],
  ['follows', 'Person', 'Person', (n) => `p${n}`, (n) => `p${n}`],
  ['followed_by', 'Person', 'Person', (n) => `p${n}`, (n) => `p${n}`],
  ['owns', 'Num', 'Item', (n) => n, (n) => n % 4],
  ['owns', 'Person', 'Item', (n) => `p${n}`, (n) => String(n % 4)],
  ['near', 'Item', 'Person', (n) => n % 4, (n) => `p${n}`],
  ['near', 'Person', 'Item', (n) => `p${n}`, (n) => n % 4],
  ['link', 'UNum', 'Num', (n) => n, (n) => n],
  ['link', 'Num', 'Num', (n) => n, (n) => (n === 3 ? 'x3' : n)],
  ['transfer', 'Acct', 'Acct', (n) => `a,${n}`, (n) => `b,${n % 3}`],
];

const attrsFor = (edgeType: string, v: number, op: AttrUpdate['op']): Record<string, AttrUpdate> | null => {
  switch (edgeType) {
    case 'knows':
      // A string is not a DOUBLE: the edge is refused.
      return { weight: { value: v === 7 ? 'heavy' : v / 2, op } };
    case 'follows':
    case 'followed_by':
      return { since: { value: 1_600_000_000 + v, op: op === 'add' ? 'max' : op } };
    case 'transfer':
      return { ts: { value: 1_700_000_000 + (v % 2), op: 'set' }, amount: { value: v, op } };
    default:
      return null;
  }
};

const opArb = (shape: number): fc.Arbitrary<Op> =>
  fc
    .record({
      from: fc.integer({ min: 0, max: 3 }),
      to: fc.integer({ min: 0, max: 3 }),
      v: fc.integer({ min: 0, max: 9 }),
      op: fc.constantFrom<AttrUpdate['op']>('set', 'add', 'max', 'ignore_if_exists'),
      bare: fc.boolean(),
    })
    .map(({ from, to, v, op, bare }) => {
      const [edgeType, fromType, toType, fid, tid] = shapes[shape];
      return {
        edgeType,
        fromType,
        fromId: fid(from),
        toType,
        toId: tid(to),
        attrs: bare ? null : attrsFor(edgeType, v, op),
      };
    });

/** Ops of one shape in a row (one run when the batch is applied in runs). */
const groupArb = fc
  .integer({ min: 0, max: shapes.length - 1 })
  .chain((shape) => fc.array(opArb(shape), { minLength: 1, maxLength: 8 }));

const scriptArb = fc.record({
  batches: fc.array(
    fc.array(groupArb, { maxLength: 5 }).map((groups) => groups.flat()),
    { minLength: 1, maxLength: 5 },
  ),
  createMissing: fc.boolean(),
  seedVertices: fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 3 }),
  permanentlyDeleted: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
  // How the runs give their attributes (records, or by shape as a loading batch from parse
  // threads does), and a capacity hint (which must change nothing).
  byShape: fc.boolean(),
  expectEdges: fc.option(fc.integer({ min: 0, max: 5000 }), { nil: undefined }),
  // Ids also given as codes whose rows a RowCache remembers across batches (as a load from parse
  // threads gives them), with vertices deleted between batches so that remembered rows go stale.
  coded: fc.boolean(),
  deleteBetween: fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 2 }),
});

/** Codes for ids, one dictionary for the whole script (as a parse thread's for a load). */
class Codes {
  private readonly codes = new Map<string, number>();
  readonly cache = new RowCache();

  of(ids: ExternalId[]): number[] {
    const out = ids.map((id) => {
      const w = `${typeof id}:${String(id)}`;
      let c = this.codes.get(w);
      if (c === undefined) this.codes.set(w, (c = this.codes.size));
      return c;
    });
    this.cache.reserve(this.codes.size);
    return out;
  }
}

/** The attributes of ops by shape (EdgeRun.shapes), the way a loading batch image carries them. */
function byShape(ops: Op[]): EdgeRunShapes {
  const list: AttrShape[] = [];
  const of: number[] = [];
  const at: number[] = [];
  const values: Value[] = [];
  for (const o of ops) {
    at.push(values.length);
    if (o.attrs === null) {
      of.push(-1);
      continue;
    }
    const names = Object.keys(o.attrs);
    const ops = names.map((n) => (o.attrs as Record<string, AttrUpdate>)[n].op);
    let k = list.findIndex((sh) => sh.names.join() === names.join() && sh.ops.join() === ops.join());
    if (k < 0) k = list.push({ names, ops }) - 1;
    of.push(k);
    for (const n of names) values.push(o.attrs[n].value);
  }
  return { list, of, at, values };
}

function zero(): EdgeRunCounts {
  return { inserted: 0, updated: 0, skipped: 0, invalid: 0 };
}

function oneByOne(tx: WriteTx, ops: Op[], createMissingEndpoints: boolean, c: EdgeRunCounts): void {
  for (const o of ops) {
    try {
      const r = tx.upsertEdge(o.edgeType, o.fromType, o.fromId, o.toType, o.toId, o.attrs ?? {}, {
        createMissingEndpoints,
      });
      c[r]++;
    } catch (e) {
      if (!(e instanceof EngineError)) throw e;
      c.invalid++;
    }
  }
}

function inRuns(
  tx: WriteTx,
  ops: Op[],
  createMissingEndpoints: boolean,
  c: EdgeRunCounts,
  form: { byShape: boolean; expectEdges?: number; codes?: Codes } = { byShape: false },
): void {
  const fromIds = ops.map((o) => o.fromId);
  const toIds = ops.map((o) => o.toId);
  const codes = form.codes && {
    from: form.codes.of(fromIds),
    to: form.codes.of(toIds),
    cache: form.codes.cache,
  };
  const attrs = form.byShape ? null : ops.map((o) => o.attrs);
  const shapes = form.byShape ? byShape(ops) : undefined;
  for (let i = 0; i < ops.length;) {
    let end = i + 1;
    const o = ops[i];
    while (
      end < ops.length &&
      ops[end].edgeType === o.edgeType &&
      ops[end].fromType === o.fromType &&
      ops[end].toType === o.toType
    )
      end++;
    const r = tx.upsertEdges(
      {
        edgeType: o.edgeType,
        fromType: o.fromType,
        toType: o.toType,
        fromIds,
        toIds,
        attrs,
        shapes,
        codes,
        start: i,
        end,
      },
      { createMissingEndpoints, expectEdges: form.expectEdges },
    );
    c.inserted += r.inserted;
    c.updated += r.updated;
    c.skipped += r.skipped;
    c.invalid += r.invalid;
    i = end;
  }
}

test('upsertEdges gives what upsertEdge gives edge by edge (attributes by record or by shape, with or without a capacity hint, ids with or without remembered rows), counts included, and replays to the same graph', async () => {
  await fc.assert(
    fc.asyncProperty(scriptArb, async (script) => {
      const ta = tempDir();
      const tb = tempDir();
      try {
        const a = await freshDb(ta);
        let b = await freshDb(tb);
        const setup = (tx: WriteTx): void => {
          for (const n of script.seedVertices) {
            tx.upsertVertex('Person', `p${n}`, {});
            tx.upsertVertex('Num', n, { v: { value: n, op: 'set' } });
          }
          if (script.permanentlyDeleted !== undefined) {
            tx.upsertVertex('Person', `p${script.permanentlyDeleted}`, {});
            tx.deleteVertex('Person', `p${script.permanentlyDeleted}`, { permanent: true });
          }
        };
        await a.write(setup);
        await b.write(setup);
        const ca = zero();
        const cb = zero();
        const form = { ...script, codes: script.coded ? new Codes() : undefined };
        const deleteSome = (tx: WriteTx): void => {
          for (const n of script.deleteBetween) {
            tx.deleteVertex('Person', `p${n}`);
            tx.deleteVertex('Num', n);
          }
        };
        for (const ops of script.batches) {
          await a.write((tx) => oneByOne(tx, ops, script.createMissing, ca));
          await b.write((tx) => inRuns(tx, ops, script.createMissing, cb, form));
          await a.write(deleteSome);
          await b.write(deleteSome);
        }
        assert.deepEqual(cb, ca);
        const expected = graphSnapshot(a, EDGES);
        assert.deepEqual(graphSnapshot(b, EDGES), expected);
        await b.close();
        b = await tb.open();
        assert.deepEqual(graphSnapshot(b, EDGES), expected, 'after WAL replay');
        await a.close();
        await b.close();
      } finally {
        ta.cleanup();
        tb.cleanup();
      }
    }),
    { numRuns: 60 },
  );
});

test('an edge run whose types do not fit throws for the whole run and changes nothing', async () => {
  const t = tempDir();
  try {
    const db = await freshDb(t);
    const before = graphSnapshot(db, EDGES);
    await assert.rejects(
      db.write((tx) =>
        tx.upsertEdges({
          edgeType: 'owns',
          fromType: 'Item',
          toType: 'Num',
          fromIds: [1],
          toIds: [2],
          attrs: null,
          start: 0,
          end: 1,
        }),
      ),
      (e: unknown) => e instanceof EngineError && /does not connect/.test(e.message),
    );
    assert.deepEqual(graphSnapshot(db, EDGES), before);
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('a refused edge inside a run changes nothing; the edges around it apply and survive a restart', async () => {
  const t = tempDir();
  try {
    let db = await freshDb(t);
    const counts = await db.write((tx) =>
      tx.upsertEdges({
        edgeType: 'knows',
        fromType: 'Person',
        toType: 'Person',
        fromIds: ['a', 'b', 'c'],
        toIds: ['b', 'x', 'a'],
        attrs: [{ weight: { value: 1.5, op: 'set' } }, { weight: { value: 'no', op: 'set' } }, null],
        start: 0,
        end: 3,
      }),
    );
    // c -> a is undirected a - c: a new edge; b - x is refused and creates neither vertex.
    assert.deepEqual(counts, { inserted: 2, updated: 0, skipped: 0, invalid: 1 });
    const check = (): void => {
      const r = db.read();
      assert.deepEqual(
        [...r.rows('Person')].map((row) => r.vertexId('Person', row)),
        ['a', 'b', 'c'],
      );
      assert.equal(r.edgeCount('knows'), 2);
      const ab = r.edgesBetween('knows', 'Person', r.lookup('Person', 'a') as number, 'Person', 1);
      assert.deepEqual(
        ab.map((e) => r.edgeAttr(e, 'weight')),
        [1.5],
      );
      r.release();
    };
    check();
    await db.close();
    db = await t.open();
    check();
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('an edge route looked up before its storage block existed finds the block a reverse edge type created', async () => {
  // follows p0->p1 is skipped (p1 is missing) while no follows block exists; followed_by p0->p0
  // then creates the block, and follows p0->p0 must update that edge, not add a second one.
  for (const runs of [false, true]) {
    const t = tempDir();
    try {
      const db = await freshDb(t);
      await db.write((tx) => tx.upsertVertex('Person', 'p0', {}));
      const since = (value: number): Record<string, AttrUpdate> => ({ since: { value, op: 'set' } });
      const ops: Op[] = [
        ['follows', 'p1', 1],
        ['followed_by', 'p0', 2],
        ['follows', 'p0', 3],
      ].map(([edgeType, toId, v]) => ({
        edgeType: edgeType as string,
        fromType: 'Person',
        fromId: 'p0',
        toType: 'Person',
        toId: toId as string,
        attrs: since(1_600_000_000 + (v as number)),
      }));
      const c = zero();
      await db.write((tx) => (runs ? inRuns : oneByOne)(tx, ops, false, c));
      assert.deepEqual(c, { inserted: 1, updated: 1, skipped: 1, invalid: 0 });
      const r = db.read();
      try {
        assert.equal(r.edgeCount('follows'), 1);
        const [edge] = r.edges('Person', r.lookup('Person', 'p0')!, { edgeType: 'follows' });
        assert.equal(r.edgeAttr(edge, 'since'), 1_600_000_003);
      } finally {
        r.release();
      }
      await db.close();
    } finally {
      t.cleanup();
    }
  }
});

/** Thrown inside a write to abandon it. */
class Abandon extends Error {}

/** Runs `fn` in a write that is then abandoned (aborted). */
async function abandoned(
  db: { write(fn: (tx: WriteTx) => void): Promise<void> },
  fn: (tx: WriteTx) => void,
): Promise<void> {
  await assert.rejects(
    db.write((tx) => {
      fn(tx);
      throw new Abandon();
    }),
    Abandon,
  );
}

test('rows remembered for codes in an aborted transaction are not used after it: its row numbers go to other ids', async () => {
  const t = tempDir();
  try {
    const db = await freshDb(t);
    const cache = new RowCache();
    cache.reserve(3);
    // Codes: 0 = p_a, 1 = p_b, 2 = p_c.
    const run = (from: [string, number][], to: [string, number][]) => ({
      edgeType: 'knows',
      fromType: 'Person',
      toType: 'Person',
      fromIds: from.map(([id]) => id),
      toIds: to.map(([id]) => id),
      attrs: null,
      codes: { from: from.map(([, c]) => c), to: to.map(([, c]) => c), cache },
      start: 0,
      end: from.length,
    });
    const opts = { createMissingEndpoints: true };
    // p_a and p_b get the first two rows, remembered, and are taken back by the abort.
    await abandoned(db, (tx) => tx.upsertEdges(run([['p_a', 0]], [['p_b', 1]]), opts));
    await db.write((tx) => {
      // p_b and p_c now get those rows; then p_a must be created, not read from its old row.
      tx.upsertEdges(run([['p_b', 1]], [['p_c', 2]]), opts);
      tx.upsertEdges(run([['p_a', 0]], [['p_c', 2]]), opts);
    });
    const r = db.read();
    try {
      assert.equal(r.vertexCount('Person'), 3);
      const row = (id: string): number => r.lookup('Person', id) as number;
      const targets = (id: string): string[] =>
        r.edges('Person', row(id), { edgeType: 'knows' }).map((e) => r.vertexId('Person', e.tgtRow));
      assert.deepEqual(targets('p_a'), ['p_c']);
      assert.deepEqual(targets('p_b'), ['p_c']);
    } finally {
      r.release();
    }
    await db.close();
  } finally {
    t.cleanup();
  }
});
