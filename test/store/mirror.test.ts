/**
 * A worker's mirror of the store (store/mirror.ts) reads exactly what the main thread reads at the
 * mirror's version, while the writer goes on updating, deleting, aborting and rebuilding: the
 * image crosses a structured clone as it crosses a thread, and every read of the version is
 * compared with the main thread's answers taken when the version was pinned.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Value } from '../../src/catalog/value.js';
import { Tuple, VertexRef } from '../../src/catalog/value.js';
import { EngineError, type ReadTx, type WriteTx } from '../../src/engine/api.js';
import { ReadTxImpl } from '../../src/engine/read-tx.js';
import { epochs } from '../../src/store/epochs.js';
import { MirrorExporter, MirrorImporter } from '../../src/store/mirror.js';
import { freshDb, tempDir } from '../engine/fixtures.js';

const PERSONS = ['a', 'b', 'c', 'd', 'é1', 'long-person-name-beyond-the-short-path-0001'];

/** Everything a reader can see, in a comparable form. */
function dump(tx: ReadTx): unknown {
  const out: unknown[] = [];
  for (const vt of tx.catalog.vertexTypes) {
    const rows = [...tx.rows(vt.name)];
    out.push(vt.name, tx.vertexCount(vt.name));
    for (const r of rows) {
      out.push(tx.vertex(vt.name, r));
      for (const h of tx.edges(vt.name, r, { direction: 'both' }))
        out.push([h.edgeType, h.tgtType, tx.vertexId(h.tgtType, h.tgtRow), tx.edgeRecord(h)]);
    }
  }
  for (const p of PERSONS) out.push(['lookup', p, tx.lookup('Person', p)]);
  for (let i = -3; i < 40; i++) out.push(['lookup', i, tx.lookup('Num', i)]);
  out.push(['lookup', 2 ** 40, tx.lookup('Num', 2 ** 40)]);
  for (const et of tx.catalog.edgeTypes) out.push(['edges', et.name, tx.edgeCount(et.name)]);
  return JSON.parse(
    JSON.stringify(out, (_k, v: unknown) =>
      typeof v === 'bigint'
        ? `${v}n`
        : v instanceof Map
          ? { map: [...v] }
          : v instanceof Uint8Array
            ? { bin: [...v] }
            : v,
    ),
  );
}

type Op =
  | { kind: 'person'; id: number; age: number; nums: number[]; tag: string; big: boolean }
  | { kind: 'num'; id: number; v: number }
  | { kind: 'follow'; a: number; b: number; since: number }
  | { kind: 'knows'; a: number; b: number; w: number }
  | { kind: 'link'; a: number; b: number }
  | { kind: 'links'; pairs: [number, number][] }
  | { kind: 'refresh' }
  | { kind: 'deletePerson'; id: number }
  | { kind: 'deleteNum'; id: number }
  | { kind: 'deleteFollow'; a: number; b: number }
  | { kind: 'abort'; id: number }
  | { kind: 'rebuild' }
  | { kind: 'pin'; staged: number }
  | { kind: 'check' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('person' as const),
    id: fc.nat(PERSONS.length - 1),
    age: fc.integer({ min: -5, max: 99 }),
    nums: fc.array(fc.integer(), { maxLength: 3 }),
    tag: fc.constantFrom('x', 'y', 'zz', 'ünï'),
    big: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('num' as const), id: fc.integer({ min: -3, max: 39 }), v: fc.integer() }),
  fc.record({
    kind: fc.constant('follow' as const),
    a: fc.nat(PERSONS.length - 1),
    b: fc.nat(PERSONS.length - 1),
    since: fc.nat(1e9),
  }),
  fc.record({
    kind: fc.constant('knows' as const),
    a: fc.nat(PERSONS.length - 1),
    b: fc.nat(PERSONS.length - 1),
    w: fc.double({ noNaN: true, min: -10, max: 10 }),
  }),
  fc.record({ kind: fc.constant('link' as const), a: fc.integer({ min: -3, max: 39 }), b: fc.nat(39) }),
  // Appended unchecked (as a load writes them), repeats included: settled by the next image.
  fc.record({
    kind: fc.constant('links' as const),
    pairs: fc.array(fc.tuple(fc.nat(6), fc.nat(6)), { minLength: 1, maxLength: 12 }),
  }),
  fc.constant({ kind: 'refresh' as const }),
  fc.record({ kind: fc.constant('deletePerson' as const), id: fc.nat(PERSONS.length - 1) }),
  fc.record({ kind: fc.constant('deleteNum' as const), id: fc.integer({ min: -3, max: 39 }) }),
  fc.record({
    kind: fc.constant('deleteFollow' as const),
    a: fc.nat(PERSONS.length - 1),
    b: fc.nat(PERSONS.length - 1),
  }),
  fc.record({ kind: fc.constant('abort' as const), id: fc.nat(PERSONS.length - 1) }),
  fc.constant({ kind: 'rebuild' as const }),
  fc.record({ kind: fc.constant('pin' as const), staged: fc.integer({ min: -1, max: PERSONS.length - 1 }) }),
  fc.constant({ kind: 'check' as const }),
);

function apply(tx: WriteTx, op: Op): void {
  const set = (value: Value) => ({ value, op: 'set' as const });
  switch (op.kind) {
    case 'person':
      tx.upsertVertex('Person', PERSONS[op.id], {
        age: set(op.age),
        nums: set(op.nums),
        tag: set(op.tag),
        name2: set(`n-${op.age}`),
        m: set(new Map([[op.tag, op.age]])),
        pt: set(new Tuple('Point', [op.age, op.age / 2])),
        ref: set(new VertexRef('Person', PERSONS[(op.id + 1) % PERSONS.length])),
        ...(op.big ? { big: set(2n ** 60n + BigInt(op.age)) } : {}),
      });
      return;
    case 'num':
      tx.upsertVertex('Num', op.id === 39 ? 2 ** 40 : op.id, { v: set(op.v) });
      return;
    case 'follow':
      tx.upsertEdge('follows', 'Person', PERSONS[op.a], 'Person', PERSONS[op.b], { since: set(op.since) });
      return;
    case 'knows':
      tx.upsertEdge('knows', 'Person', PERSONS[op.a], 'Person', PERSONS[op.b], { weight: set(op.w) });
      return;
    case 'link':
      tx.upsertEdge('link', 'Num', op.a, 'Num', op.b, {});
      return;
    case 'links':
      tx.upsertEdges(
        {
          edgeType: 'link',
          fromType: 'Num',
          toType: 'Num',
          fromIds: op.pairs.map((p) => p[0]),
          toIds: op.pairs.map((p) => p[1]),
          attrs: null,
          start: 0,
          end: op.pairs.length,
        },
        { createMissingEndpoints: true, unchecked: true },
      );
      return;
    case 'deletePerson':
      tx.deleteVertex('Person', PERSONS[op.id]);
      return;
    case 'deleteNum':
      tx.deleteVertex('Num', op.id);
      return;
    case 'deleteFollow':
      tx.deleteEdge('follows', 'Person', PERSONS[op.a], 'Person', PERSONS[op.b]);
      return;
    case 'abort':
      tx.upsertVertex('Person', `aborted-${op.id}`, { age: set(1) });
      tx.upsertEdge('follows', 'Person', PERSONS[op.id], 'Person', `aborted-${op.id}`, {});
      tx.upsertVertex('Person', PERSONS[op.id], { age: set(-1) });
      throw new EngineError('TEST', 'abort');
    default:
      return;
  }
}

/** Plays `ops` on a fresh database, checking each pinned mirror against the main thread's reads. */
async function play(ops: Op[]): Promise<void> {
  const t = tempDir();
  const db = await freshDb(t);
  const exporter = new MirrorExporter();
  const importer = new MirrorImporter();
  // Each rebuild writes its summary to a folder of its own: names are per millisecond.
  let rebuilds = 0;
  let pinned: { main: ReadTxImpl; mirror: ReadTx; expected: unknown; epoch: number } | undefined;
  const check = (): void => {
    if (!pinned) return;
    assert.deepEqual(dump(pinned.mirror), pinned.expected, `mirror at version ${pinned.main.version}`);
  };
  const unpin = (): void => {
    if (!pinned) return;
    check();
    epochs.end(pinned.epoch);
    pinned.main.release();
    pinned = undefined;
  };
  try {
    for (const op of ops) {
      if (op.kind === 'pin') {
        unpin();
        // With `staged`, pin while a write is applied but not yet durable (so not visible).
        let writing: Promise<unknown> | undefined;
        if (op.staged >= 0) {
          const before = db.stagedVersion;
          writing = db.write((tx) =>
            tx.upsertVertex('Person', PERSONS[op.staged], {
              age: { value: 1000, op: 'set' },
              name2: { value: 'staged', op: 'set' },
            }),
          );
          while (db.stagedVersion === before) await null;
        }
        const main = db.pin();
        const epoch = epochs.begin();
        const img = structuredClone(exporter.image(main.graphStore, main.version));
        const store = importer.apply(img);
        const mirror = new ReadTxImpl(store, main.version, () => undefined);
        pinned = { main, mirror, expected: dump(main), epoch };
        await writing;
      } else if (op.kind === 'check') check();
      else if (op.kind === 'refresh') {
        // An idle worker's refresh (nothing pinned on it): what is appended unchecked stays
        // unsettled and out of it.
        unpin();
        const main = db.pin();
        importer.apply(structuredClone(exporter.image(main.graphStore, main.version, false)));
        main.release();
      } else if (op.kind === 'rebuild') await db.rebuild({ path: `${t.dir}/s${rebuilds++}` });
      else {
        try {
          await db.write((tx) => apply(tx, op));
        } catch (e) {
          if (!(e instanceof EngineError)) throw e;
        }
      }
    }
    unpin();
  } finally {
    unpin();
    await db.close();
    t.cleanup();
  }
}

test('a mirror reads its pinned version exactly while writes, aborts and rebuilds go on', async () => {
  await fc.assert(fc.asyncProperty(fc.array(opArb, { minLength: 5, maxLength: 60 }), play), { numRuns: 40 });
  assert.equal(epochs.active, 0);
});

test('a mirror pinned before the writer moves the delta to larger arrays still reads its version', async () => {
  // New edges past the slot arrays the mirror holds, linked at the heads it shares.
  const grow: Op[] = [
    { kind: 'link', a: 0, b: 0 },
    { kind: 'pin', staged: -1 },
  ];
  for (let b = 1; b < 30; b++) grow.push({ kind: 'link', a: 0, b });
  await play([...grow, { kind: 'check' }]);
  // The same with edges appended unchecked, linked when the rebuild settles them.
  const pairs: [number, number][] = Array.from({ length: 16 }, () => [0, 0]);
  await play([
    { kind: 'link', a: 0, b: 0 },
    { kind: 'pin', staged: 0 },
    { kind: 'links', pairs: pairs.slice(0, 9) },
    { kind: 'links', pairs: pairs.slice(9) },
    { kind: 'rebuild' },
  ]);
  assert.equal(epochs.active, 0);
});
