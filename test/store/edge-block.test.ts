import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { EdgeType } from '../../src/catalog/types.js';
import { EdgeBlock, mergeBlock } from '../../src/store/edge-block.js';

const et: EdgeType = {
  name: 'E',
  directed: true,
  pairs: [{ from: 'A', to: 'B' }],
  attributes: [{ name: 'w', type: { kind: 'INT', bytes: 8 } }],
  discriminator: [],
};

type Op = { kind: 'add'; src: number; dst: number } | { kind: 'del'; pick: number } | { kind: 'merge' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('add' as const), src: fc.nat(12), dst: fc.nat(12) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('del' as const), pick: fc.nat(1000) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'merge' as const }) },
);

/** Live edges of a block at a version as sorted "src>dst=w" strings, read from the out side and the in side. */
function view(b: EdgeBlock, version: number): { out: string[]; in: string[] } {
  const out: string[] = [];
  const inn: string[] = [];
  const w = b.columns.get('w')!;
  for (let r = 0; r < 14; r++) {
    b.forEachOut(r, version, (dst, eid) => out.push(`${r}>${dst}=${String(w.get(eid))}`));
    b.forEachIn(r, version, (src, eid) => inn.push(`${src}>${r}=${String(w.get(eid))}`));
  }
  return { out: out.sort(), in: inn.sort() };
}

test('edge block: out/in adjacency, find, tombstones and merges agree with a model at every version', () => {
  fc.assert(
    fc.property(fc.array(opArb, { maxLength: 80 }), (ops) => {
      let b = new EdgeBlock(et, 'A', 'B', 0);
      let version = 0;
      const model: { src: number; dst: number; w: number; born: number; died: number }[] = [];
      const snapshots: { version: number; expect: string[] }[] = [];
      const expectAt = (v: number): string[] =>
        model
          .filter((e) => e.born <= v && (e.died === 0 || e.died > v))
          .map((e) => `${e.src}>${e.dst}=${e.w}`)
          .sort();
      for (const op of ops) {
        version++;
        if (op.kind === 'add') {
          const eid = b.addEdge(op.src, op.dst, version);
          b.columns.get('w')!.init(eid, version);
          model.push({ src: op.src, dst: op.dst, w: version, born: version, died: 0 });
        } else if (op.kind === 'del') {
          const live = model.filter((e) => e.died === 0);
          if (live.length === 0) continue;
          const e = live[op.pick % live.length];
          const eid = b.find(e.src, e.dst, version).find((id) => b.columns.get('w')!.get(id) === e.w);
          assert.notEqual(eid, undefined);
          b.tomb.set(eid as number, version);
          e.died = version;
        } else {
          b = mergeBlock(b, version - 1, 13, 13);
          // A merge keeps only what is live at its version; older snapshots are served by the old block.
          snapshots.length = 0;
        }
        snapshots.push({ version, expect: expectAt(version) });
        for (const s of snapshots) {
          const got = view(b, s.version);
          assert.deepEqual(got.out, s.expect);
          assert.deepEqual(got.in, s.expect);
        }
        for (const e of model) {
          const alive = e.died === 0;
          const hit = b.find(e.src, e.dst, version).some((id) => b.columns.get('w')!.get(id) === e.w);
          assert.equal(hit, alive);
        }
      }
    }),
    { numRuns: 150 },
  );
});

test('merged base is sorted by (from, to) and endpoints() inverts the layout', () => {
  const b = new EdgeBlock(et, 'A', 'B', 0);
  const pairs = [
    [3, 1],
    [0, 5],
    [3, 0],
    [1, 1],
    [0, 2],
  ];
  for (const [s, d] of pairs) b.columns.get('w')!.init(b.addEdge(s, d, 1), s * 10 + d);
  const m = mergeBlock(b, 1, 4, 6);
  assert.deepEqual([...m.outOffsets], [0, 2, 3, 3, 5]);
  assert.deepEqual([...m.outTargets], [2, 5, 1, 0, 1]);
  for (let e = 0; e < m.nBase; e++) {
    const [s, d] = m.endpoints(e);
    assert.equal(m.columns.get('w')!.get(e), s * 10 + d);
  }
  assert.deepEqual([...m.inOffsets], [0, 1, 3, 4, 4, 4, 5]);
  assert.deepEqual([...m.inSources], [3, 1, 3, 0, 0]);
});

test('merge sorts long rows by target and keeps multi-edges in insertion order', () => {
  const b = new EdgeBlock(et, 'A', 'B', 0);
  let x = 7;
  for (let i = 0; i < 500; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    b.columns.get('w')!.init(b.addEdge(i % 3 === 0 ? 1 : 0, x % 40, 1), i);
  }
  const m = mergeBlock(b, 1, 2, 40);
  for (const r of [0, 1]) {
    const seen: [number, number][] = [];
    for (let i = m.outOffsets[r]; i < m.outOffsets[r + 1]; i++)
      seen.push([m.outTargets[i], m.columns.get('w')!.get(i) as number]);
    const sorted = [...seen].sort((p, q) => p[0] - q[0] || p[1] - q[1]);
    assert.deepEqual(seen, sorted, `row ${r}`);
  }
  assert.equal(m.outOffsets[2], 500);
  for (let e = 0; e < 500; e++) assert.equal(m.find(...m.endpoints(e), 1).includes(e), true);
});

test('settling a repeat appended unchecked writes its values over the pair edge at its version, and an abort reverts them', () => {
  const b = new EdgeBlock(et, 'A', 'B', 1);
  const w = b.columns.get('w')!;
  const first = b.appendUnchecked(2, 3, 1);
  w.init(first, 10);
  b.appendUnchecked(4, 3, 1);
  w.init(first + 1, 20);
  b.live.current = 2;
  b.settle();
  assert.equal(b.takeHistory(), false, 'no repeat, no history');
  const repeat = b.appendUnchecked(2, 3, 5);
  w.init(repeat, 11);
  b.live.current = 3;
  assert.equal(b.findOne(2, 3, 9), first, 'the pair keeps its first edge');
  assert.equal(w.get(first), 11, 'with the last values');
  assert.equal(w.getAt(first, 4), 10, 'a reader before the repeat sees the earlier values');
  assert.equal(b.isLive(repeat, 9), false);
  assert.equal(b.takeHistory(), true);
  assert.equal(b.takeHistory(), false, 'reported once');
  assert.deepEqual(view(b, 9).out, ['2>3=11', '4>3=20']);
  b.truncateDelta(repeat - b.nBase);
  assert.equal(w.get(first), 10, 'an abort of the repeat reverts its write');
  assert.equal(w.history, null);
  assert.deepEqual(view(b, 9).out, ['2>3=10', '4>3=20']);
});
