/**
 * The base build split over a team of merge threads (store/base-parallel.ts via base-thread.ts) gives
 * the same arrays, bit for bit, as the one-thread build (base-builder.ts) on random blocks with a
 * base, deltas (some written after the merge's version) and tombstones, at several team sizes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type BaseSource, buildBase, type BuiltBase } from '../../src/store/base-builder.js';
import { buildOnThread, mergeThreadsStarted } from '../../src/store/base-thread.js';
import { sharedU32 } from '../../src/store/shared.js';

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** A block of `nBase` base edges and `dCount` delta slots over `rows` rows, skewed like a power law. */
function randomSource(seed: number, rows: number, nBase: number, dCount: number): BaseSource {
  const next = random(seed);
  const row = (): number => Math.floor(rows * next() ** 3);
  const pairs: [number, number][] = Array.from({ length: nBase }, () => [row(), row()]);
  pairs.sort((a, b) => a[0] - b[0]);
  // Base rows may be fewer than the table's (trailing rows without edges) or the delta's sources.
  const baseRows = pairs.reduce((m, p) => Math.max(m, p[0] + 1), 0);
  const outOffsets = sharedU32(baseRows + 1);
  const outTargets = sharedU32(nBase);
  pairs.forEach(([s, d], i) => {
    outOffsets[s + 1]++;
    outTargets[i] = d;
  });
  for (let r = 0; r < baseRows; r++) outOffsets[r + 1] += outOffsets[r];
  const version = 10;
  const dSrc = sharedU32(dCount);
  const dDst = sharedU32(dCount);
  const dVersion = sharedU32(dCount);
  for (let s = 0; s < dCount; s++) {
    // A few deltas name rows past the table's count (vertices added after planning).
    dSrc[s] = next() < 0.01 ? rows + Math.floor(next() * 5) : row();
    dDst[s] = next() < 0.01 ? rows + Math.floor(next() * 5) : row();
    dVersion[s] = next() < 0.1 ? version + 1 : 1 + Math.floor(next() * version);
  }
  const dead = new Set<number>();
  const deaths = Math.floor((nBase + dCount) * next() * 0.3);
  for (let i = 0; i < deaths; i++) dead.add(Math.floor(next() * (nBase + dCount + 3)));
  return {
    nBase,
    outOffsets,
    outTargets,
    dCount,
    dSrc,
    dDst,
    dVersion,
    dead: Uint32Array.from(dead),
    version,
    fromRows: rows,
    toRows: rows,
  };
}

const ARRAYS = ['outOffsets', 'outTargets', 'inOffsets', 'inSources', 'inEids', 'order'] as const;

function assertSame(got: BuiltBase, want: BuiltBase, what: string): void {
  assert.equal(got.n, want.n, `${what}: edge count`);
  for (const k of ARRAYS) assert.deepEqual(Array.from(got[k]), Array.from(want[k]), `${what}: ${k}`);
  for (const k of ARRAYS) assert.ok(got[k].buffer instanceof SharedArrayBuffer, `${what}: ${k} is shared`);
}

test('merge team: the same base as one thread at 1, 2 and 3 threads on random blocks', async () => {
  const sources: BaseSource[] = [];
  for (let seed = 1; seed <= 24; seed++) {
    const next = random(seed * 7919);
    const rows = 1 + Math.floor(next() * 60);
    const nBase = Math.floor(next() * 400);
    const dCount = Math.floor(next() * 400);
    sources.push(randomSource(seed, rows, seed % 5 === 0 ? 0 : nBase, seed % 7 === 0 ? 0 : dCount));
  }
  sources.push(randomSource(99, 5, 0, 0), randomSource(98, 3, 2, 1));
  const want = sources.map(buildBase);
  for (const threads of [1, 2, 3]) {
    const got = await buildOnThread(sources, { threads, teamMinEdges: 0 }).done;
    assert.equal(got.length, sources.length);
    got.forEach((g, i) => assertSame(g, want[i], `${threads} threads, block ${i}`));
  }
});

test('merge team: a large block split over 2 threads next to a small one built by the leader', async () => {
  const sources = [randomSource(5, 5000, 60_000, 40_000), randomSource(6, 30, 50, 50)];
  const want = sources.map(buildBase);
  const got = await buildOnThread(sources, { threads: 2, teamMinEdges: 50_000 }).done;
  got.forEach((g, i) => assertSame(g, want[i], `block ${i}`));
});

test('merge team: cancelling ends every thread and rejects the build', async () => {
  const build = buildOnThread([randomSource(7, 5000, 200_000, 200_000)], { threads: 2, teamMinEdges: 0 });
  build.cancel();
  await assert.rejects(build.done, /merge thread stopped/);
});

test('merge threads are kept between builds: later builds start none and give the same bases', async () => {
  const sources = [randomSource(8, 3000, 40_000, 30_000), randomSource(9, 40, 60, 60)];
  const want = sources.map(buildBase);
  // The first team may start threads (or find some an earlier test left idle).
  (await buildOnThread(sources, { threads: 2, teamMinEdges: 0 }).done).forEach((g, i) =>
    assertSame(g, want[i], `first, block ${i}`),
  );
  const started = mergeThreadsStarted();
  for (const threads of [2, 1, 2]) {
    const got = await buildOnThread(sources, { threads, teamMinEdges: 0 }).done;
    got.forEach((g, i) => assertSame(g, want[i], `again at ${threads}, block ${i}`));
  }
  assert.equal(mergeThreadsStarted(), started, 'no thread started for the later builds');
});

test('merge threads: a cancelled team is not kept; the next build starts threads of its own', async () => {
  const sources = [randomSource(10, 3000, 40_000, 30_000)];
  await buildOnThread(sources, { threads: 2, teamMinEdges: 0 }).done;
  const cancelled = buildOnThread([randomSource(11, 5000, 200_000, 200_000)], {
    threads: 2,
    teamMinEdges: 0,
  });
  cancelled.cancel();
  await assert.rejects(cancelled.done, /merge thread stopped/);
  const started = mergeThreadsStarted();
  const got = await buildOnThread(sources, { threads: 2, teamMinEdges: 0 }).done;
  assertSame(got[0], buildBase(sources[0]), 'after the cancel');
  assert.equal(mergeThreadsStarted(), started + 2, 'the cancelled team ended: two new threads');
  // Cancelling a build that already answered leaves its threads to the next one.
  const finished = buildOnThread(sources, { threads: 2, teamMinEdges: 0 });
  await finished.done;
  finished.cancel();
  assertSame(
    (await buildOnThread(sources, { threads: 2, teamMinEdges: 0 }).done)[0],
    buildBase(sources[0]),
    'after a late cancel',
  );
  assert.equal(mergeThreadsStarted(), started + 2, 'a late cancel ends nothing');
});

/**
 * The source with the repeats of each pair marked dead instead (the first live edge of a pair, the
 * lowest old id, stays; with `last` the last, the highest old id): what a build that drops repeats
 * (BaseSource.dedupe, keepLast) must give.
 */
function repeatsDead(src: BaseSource, last: boolean): BaseSource {
  const dead = new Set(src.dead);
  const kept = new Map<string, number>();
  const rows = src.outOffsets.length - 1;
  const visit = (e: number, from: number, to: number): void => {
    if (dead.has(e)) return;
    const k = `${from},${to}`;
    const before = kept.get(k);
    if (before === undefined) kept.set(k, e);
    else if (last) {
      dead.add(before);
      kept.set(k, e);
    } else dead.add(e);
  };
  for (let r = 0; r < rows; r++)
    for (let e = src.outOffsets[r]; e < src.outOffsets[r + 1]; e++) visit(e, r, src.outTargets[e]);
  for (let s = 0; s < src.dCount; s++)
    if (src.dVersion[s] <= src.version) visit(src.nBase + s, src.dSrc[s], src.dDst[s]);
  return { ...src, dead: Uint32Array.from(dead) };
}

for (const keepLast of [false, true])
  test(`merge with repeated pairs dropped: the ${keepLast ? 'last' : 'first'} edge of each pair stays, the same at 1, 2 and 3 threads`, async () => {
    const sources: BaseSource[] = [];
    for (let seed = 1; seed <= 24; seed++) {
      const next = random(seed * 104729);
      // Few rows and many edges: most pairs repeat, in the base, among the deltas and across both.
      const rows = 1 + Math.floor(next() * 12);
      const src = randomSource(
        seed,
        rows,
        seed % 5 === 0 ? 0 : Math.floor(next() * 200),
        Math.floor(next() * 400),
      );
      sources.push({ ...src, dedupe: true, keepLast });
    }
    sources.push(
      { ...randomSource(99, 5, 0, 0), dedupe: true, keepLast },
      { ...randomSource(98, 3, 2, 1), dedupe: true, keepLast },
    );
    const want = sources.map((s) => buildBase(repeatsDead({ ...s, dedupe: false }, keepLast)));
    sources.forEach((s, i) => assertSame(buildBase(s), want[i], `one thread, block ${i}`));
    assert.ok(
      sources.some((s, i) => buildBase({ ...s, dedupe: false }).n > want[i].n),
      'some blocks have repeats to drop',
    );
    for (const threads of [1, 2, 3]) {
      const got = await buildOnThread(sources, { threads, teamMinEdges: 0 }).done;
      got.forEach((g, i) => assertSame(g, want[i], `${threads} threads, block ${i}`));
    }
  });
