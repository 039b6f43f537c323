/** The crash loop's history checker flags what it should (a checker that never fires proves nothing). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkSnapshot, History, memberId, type SeenEdge, type SeenVertex } from './history.js';

function group(kind: 'atomic' | 'load' | 'query', req: number, members: number[]): SeenVertex[] {
  return members.map((k) => ({ id: memberId(kind, req, k), req, k }));
}
function chain(req: number, from: number, to: number): SeenEdge[] {
  const out: SeenEdge[] = [];
  for (let k = from; k < to; k++) out.push({ from: { req, k }, to: { req, k: k + 1 }, req });
  return out;
}

test('a consistent recovery has no violations; each kind of damage is named', () => {
  const h = new History();
  const a = h.begin('atomic', 3);
  a.state = 'ok';
  const l = h.begin('load', 4);
  const q = h.begin('query', 2);
  h.registers.set('c0', { acked: 5, sent: 7 });
  const good = [
    ...group('atomic', a.req, [0, 1, 2]),
    ...group('load', l.req, [0, 2]),
    { id: 'c0', req: 0, k: 6 },
  ];
  assert.deepEqual(h.check(good, chain(a.req, 0, 2), new Map([['c0', 6]])), []);

  const lost = h.check(group('atomic', a.req, [0, 1, 2]), chain(a.req, 0, 1), new Map([['c0', 4]]));
  assert.ok(lost.some((v) => /acknowledged but 3\/3 vertices, 1\/2 edges/.test(v)));
  assert.ok(lost.some((v) => /register c0: acknowledged 5, recovered 4/.test(v)));
  assert.ok(lost.some((v) => /load request 2 \(pending\): changed between recoveries/.test(v)));

  const half = h.check(
    [...good, ...group('query', q.req, [0]), { id: 'a99-0', req: 99, k: 0 }, { id: 'zz', req: 1, k: 1 }],
    chain(a.req, 0, 2),
    new Map([['c0', 8]]),
  );
  assert.ok(half.some((v) => /query request 3 \(pending\): half-applied/.test(v)));
  assert.ok(half.some((v) => /vertex a99-0 was never written/.test(v)));
  assert.ok(half.some((v) => /unknown vertex zz/.test(v)));
  assert.ok(half.some((v) => /register c0: recovered 8, never sent beyond 7/.test(v)));
});

test('a snapshot read must see a group whole and every write acknowledged before it', () => {
  const h = new History();
  const a = h.begin('atomic', 2);
  const b = h.begin('atomic', 2);
  assert.deepEqual(checkSnapshot(h, group('atomic', a.req, [0, 1]), new Set([a.req])), []);
  assert.match(checkSnapshot(h, group('atomic', a.req, [1]), new Set())[0], /saw 1\/2 vertices/);
  assert.match(checkSnapshot(h, [], new Set([b.req]))[0], /missed acknowledged atomic request 2/);
});
