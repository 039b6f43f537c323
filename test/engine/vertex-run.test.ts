import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { FaultyFileLayer } from '../../src/durability/faulty-file-layer.js';
import type { Value } from '../../src/catalog/value.js';
import {
  type AttrShape,
  type AttrUpdate,
  EngineError,
  type ExternalId,
  type VertexRunColumn,
  type VertexRunCounts,
  type WriteTx,
} from '../../src/engine/api.js';
import type { WriteTxImpl } from '../../src/engine/write-tx.js';
import { ValueColumn } from '../../src/store/columns.js';
import { fullCatalog, freshDb, graphSnapshot, tempDir } from './fixtures.js';
import { lineLogger } from '../../src/util/logger.js';

/** One vertex upsert as a REST++ body would send it. */
interface Op {
  type: string;
  id: ExternalId;
  attrs: Record<string, AttrUpdate> | null;
}

/** Vertex shapes of the fixture catalog: STRING, INT (as number and as JSON-key text), UINT, DATETIME, composite and PRIMARY KEY ids. */
const shapes: [string, (n: number) => ExternalId][] = [
  ['Person', (n) => `p${n}`],
  ['Num', (n) => n],
  // A JSON key: text, "-0" is the id 0, "x3" is refused.
  ['Num', (n) => (n === 3 ? 'x3' : n === 0 ? '-0' : String(n))],
  ['UNum', (n) => n],
  ['Day', (n) => `2024-01-0${n + 1} 00:00:00`],
  ['Acct', (n) => `a,${n}`],
  ['Item', (n) => String(n)],
];

const attrsFor = (type: string, v: number, op: AttrUpdate['op']): Record<string, AttrUpdate> | null => {
  switch (type) {
    case 'Person':
      return {
        // A string is not an INT: the vertex is refused.
        age: { value: v === 7 ? 'old' : v, op },
        tag: { value: `t${v % 3}`, op: op === 'add' ? 'set' : op },
        nums: { value: [v, v + 1], op: op === 'max' ? 'set' : op },
        // The key attribute and an unknown name are ignored.
        id: { value: 'other', op: 'set' },
        nosuch: { value: 1, op: 'set' },
      };
    case 'Num':
      return { v: { value: v, op } };
    case 'Acct':
      // Key attributes take the id's values whatever is given.
      return { balance: { value: v, op }, no: { value: 99, op: 'set' } };
    case 'Item':
      return { title: { value: `item${v}`, op: op === 'add' ? 'set' : op } };
    default:
      return null;
  }
};

const opArb = (shape: number): fc.Arbitrary<Op> =>
  fc
    .record({
      id: fc.integer({ min: 0, max: 3 }),
      v: fc.integer({ min: 0, max: 9 }),
      op: fc.constantFrom<AttrUpdate['op']>('set', 'add', 'max', 'ignore_if_exists'),
      bare: fc.boolean(),
    })
    .map(({ id, v, op, bare }) => {
      const [type, idOf] = shapes[shape];
      return { type, id: idOf(id), attrs: bare ? null : attrsFor(type, v, op) };
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
  permanentlyDeleted: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
});

function zero(): VertexRunCounts {
  return { inserted: 0, updated: 0, skipped: 0, invalid: 0 };
}

function oneByOne(tx: WriteTx, ops: Op[], c: VertexRunCounts): void {
  for (const o of ops) {
    try {
      c[tx.upsertVertex(o.type, o.id, o.attrs ?? {})]++;
    } catch (e) {
      if (!(e instanceof EngineError)) throw e;
      c.invalid++;
    }
  }
}

function inRuns(tx: WriteTx, ops: Op[], c: VertexRunCounts): void {
  const ids = ops.map((o) => o.id);
  const attrs = ops.map((o) => o.attrs);
  for (let i = 0; i < ops.length;) {
    let end = i + 1;
    while (end < ops.length && ops[end].type === ops[i].type) end++;
    const r = tx.upsertVertices({ vertexType: ops[i].type, ids, attrs, start: i, end });
    c.inserted += r.inserted;
    c.updated += r.updated;
    c.skipped += r.skipped;
    c.invalid += r.invalid;
    i = end;
  }
}

/** inRuns with each run's attributes as columns, one per name any of its vertices gives. */
function inColumns(tx: WriteTx, ops: Op[], c: VertexRunCounts): void {
  const ids = ops.map((o) => o.id);
  for (let i = 0; i < ops.length;) {
    let end = i + 1;
    while (end < ops.length && ops[end].type === ops[i].type) end++;
    const names = [...new Set(ops.slice(i, end).flatMap((o) => Object.keys(o.attrs ?? {})))];
    const columns: VertexRunColumn[] = names.map((name) => ({
      name,
      values: ops.map((o) => o.attrs?.[name]?.value),
      ops: ops.map((o) => o.attrs?.[name]?.op),
    }));
    const r = tx.upsertVertices({ vertexType: ops[i].type, ids, attrs: null, columns, start: i, end });
    c.inserted += r.inserted;
    c.updated += r.updated;
    c.skipped += r.skipped;
    c.invalid += r.invalid;
    i = end;
  }
}

/** inRuns with each vertex's attributes by shape (VertexRun.shapes, as a loading batch gives them). */
function inShapes(tx: WriteTx, ops: Op[], c: VertexRunCounts): void {
  const ids = ops.map((o) => o.id);
  const list: AttrShape[] = [];
  const values: Value[] = [];
  const of: number[] = [];
  const at: number[] = [];
  for (const o of ops) {
    at.push(values.length);
    const names = Object.keys(o.attrs ?? {});
    if (o.attrs === null || names.length === 0) {
      of.push(-1);
      continue;
    }
    const a = o.attrs;
    const opsOf = names.map((n) => a[n].op);
    // Vertices with the same names and ops share one shape object, as a batch's do.
    let k = list.findIndex((s) => s.names.join() === names.join() && s.ops.join() === opsOf.join());
    if (k < 0) k = list.push({ names, ops: opsOf }) - 1;
    of.push(k);
    for (const n of names) values.push(a[n].value);
  }
  const shapes = { list, of, values, at };
  for (let i = 0; i < ops.length;) {
    let end = i + 1;
    while (end < ops.length && ops[end].type === ops[i].type) end++;
    const r = tx.upsertVertices({ vertexType: ops[i].type, ids, attrs: null, shapes, start: i, end });
    c.inserted += r.inserted;
    c.updated += r.updated;
    c.skipped += r.skipped;
    c.invalid += r.invalid;
    i = end;
  }
}

test('upsertVertices, with records, columns or shapes, gives what upsertVertex gives vertex by vertex, counts included, and replays to the same graph', async () => {
  await fc.assert(
    fc.asyncProperty(scriptArb, async (script) => {
      const ta = tempDir();
      const tb = tempDir();
      const tc = tempDir();
      const td = tempDir();
      try {
        const a = await freshDb(ta);
        let b = await freshDb(tb);
        let c = await freshDb(tc);
        let d = await freshDb(td);
        const setup = (tx: WriteTx): void => {
          if (script.permanentlyDeleted === undefined) return;
          tx.upsertVertex('Num', script.permanentlyDeleted, {});
          tx.deleteVertex('Num', script.permanentlyDeleted, { permanent: true });
        };
        await a.write(setup);
        await b.write(setup);
        await c.write(setup);
        await d.write(setup);
        const ca = zero();
        const cb = zero();
        const cc = zero();
        const cd = zero();
        for (const ops of script.batches) {
          await a.write((tx) => oneByOne(tx, ops, ca));
          await b.write((tx) => inRuns(tx, ops, cb));
          await c.write((tx) => inColumns(tx, ops, cc));
          await d.write((tx) => inShapes(tx, ops, cd));
        }
        assert.deepEqual(cb, ca);
        assert.deepEqual(cc, ca, 'columns');
        assert.deepEqual(cd, ca, 'shapes');
        const expected = graphSnapshot(a);
        assert.deepEqual(graphSnapshot(b), expected);
        assert.deepEqual(graphSnapshot(c), expected, 'columns');
        assert.deepEqual(graphSnapshot(d), expected, 'shapes');
        await b.close();
        await c.close();
        await d.close();
        b = await tb.open();
        c = await tc.open();
        d = await td.open();
        assert.deepEqual(graphSnapshot(b), expected, 'after WAL replay');
        assert.deepEqual(graphSnapshot(c), expected, 'columns, after WAL replay');
        assert.deepEqual(graphSnapshot(d), expected, 'shapes, after WAL replay');
        await a.close();
        await b.close();
        await c.close();
        await d.close();
      } finally {
        ta.cleanup();
        tb.cleanup();
        tc.cleanup();
        td.cleanup();
      }
    }),
    { numRuns: 60 },
  );
});

test('a vertex run is logged as one UPSERT_VERTICES op', async () => {
  const t = tempDir();
  try {
    const db = await freshDb(t);
    const bytes = await db.write((tx) => {
      tx.upsertVertices({ vertexType: 'Num', ids: [1, 2, 3], attrs: null, start: 0, end: 3 });
      return (tx as WriteTxImpl).record.bytes();
    });
    // format 3, kind DATA, a one-byte version, then op 6 with the type name "Num" interned first
    // (0, length 3), then the count 3 as u32.
    assert.deepEqual([...bytes.subarray(0, 2)], [3, 1]);
    assert.deepEqual([...bytes.subarray(3, 13)], [6, 0, 3, 78, 117, 109, 3, 0, 0, 0]);
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('a run whose vertices partly exist leaves no rows past the table in its value columns', async () => {
  const t = tempDir();
  try {
    const db = await freshDb(t);
    await db.write((tx) => {
      tx.upsertVertices({ vertexType: 'Person', ids: ['a', 'b'], attrs: null, start: 0, end: 2 });
    });
    await db.write((tx) => {
      tx.upsertVertices({ vertexType: 'Person', ids: ['a', 'b', 'c'], attrs: null, start: 0, end: 3 });
    });
    const r = db.pin();
    try {
      const table = r.graphStore.tables.get('Person');
      assert.equal(table?.count, 3);
      const ids = table.idColumn;
      assert.ok(ids instanceof ValueColumn);
      // Three rows written since the (empty) base, none reserved beyond them: what a merge folds.
      assert.equal(ids.overlay, 3);
    } finally {
      r.release();
    }
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('a refused vertex inside a run changes nothing; the vertices around it apply and survive a restart', async () => {
  const t = tempDir();
  try {
    let db = await freshDb(t);
    await db.write((tx) => tx.upsertVertex('Num', 2, { v: { value: 5, op: 'set' } }));
    const counts = await db.write((tx) =>
      tx.upsertVertices({
        vertexType: 'Num',
        ids: ['1', 2, 'x', 4],
        attrs: [
          { v: { value: 10, op: 'set' } },
          { v: { value: 3, op: 'add' } },
          { v: { value: 1, op: 'set' } },
          { v: { value: 'no', op: 'set' } },
        ],
        start: 0,
        end: 4,
      }),
    );
    assert.deepEqual(counts, { inserted: 1, updated: 1, skipped: 0, invalid: 2 });
    const check = (): void => {
      const r = db.read();
      assert.deepEqual(
        [...r.rows('Num')].map((row) => [r.vertexIdValue('Num', row), r.attr('Num', row, 'v')]),
        [
          [2, 8],
          [1, 10],
        ],
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

test('a torn UPSERT_VERTICES record at the WAL tail is cut off; every run before it is whole', async () => {
  const t = tempDir();
  try {
    const fs = new FaultyFileLayer();
    let db = await t.open({ fileLayer: fs, sync: 'none' });
    await db.changeCatalog(fullCatalog());
    await db.write((tx) => tx.upsertVertex('Num', 0, { v: { value: 0, op: 'set' } }));
    await db.rebuild({ path: join(t.dir, 'rb') });
    for (let i = 1; i <= 10; i++) {
      const ids = Array.from({ length: 50 }, (_, k) => String(i * 1000 + k));
      const attrs = ids.map(() => ({ v: { value: i, op: 'set' as const } }));
      await db.write((tx) => tx.upsertVertices({ vertexType: 'Num', ids, attrs, start: 0, end: 50 }));
    }
    // Keep half of every un-synced write: the last record is torn.
    await fs.crash({ keep: (w) => Math.floor(w.length / 2) });
    await db.close().catch(() => undefined);
    const lines: string[] = [];
    db = await t.open({ fileLayer: fs, logger: lineLogger((l) => lines.push(l)) });
    const r = db.read();
    const perTx = new Map<number, number>();
    for (const row of r.rows('Num')) {
      const v = r.attr('Num', row, 'v') as number;
      perTx.set(v, (perTx.get(v) ?? 0) + 1);
    }
    r.release();
    assert.equal(perTx.get(0), 1, 'the checkpoint survives');
    perTx.delete(0);
    for (const [tx, n] of perTx) assert.equal(n, 50, `run ${tx} is whole`);
    const present = [...perTx.keys()].sort((x, y) => x - y);
    assert.deepEqual(
      present,
      present.map((_, i) => i + 1),
      'a prefix of the runs',
    );
    assert.ok(present.length < 10, 'the last run was torn');
    assert.ok(
      lines.some((l) => l.includes('torn WAL tail')),
      lines.join('\n'),
    );
    assert.equal(db.recovery.replayedRecords, present.length);
    await db.write((tx) => tx.upsertVertex('Num', 99, {}));
    await db.close();
  } finally {
    t.cleanup();
  }
});
