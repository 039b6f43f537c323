/**
 * STRING ids coded on a parse thread (id-words.ts) decode to the same ids on the committing thread,
 * piece after piece, each word sent once, and across the dictionary starting again when full.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ExternalId } from '../../src/engine/api.js';
import { WordCoder, WordTable } from '../../src/loading/id-words.js';

/** Codes pieces on one side and decodes them on the other, as the parse threads' messages do. */
function roundTrip(coder: WordCoder, pieces: ExternalId[][][]): { ids: ExternalId[][][]; sent: number } {
  const table = new WordTable();
  const ids: ExternalId[][][] = [];
  let sent = 0;
  for (const [from, to] of pieces) {
    coder.startPiece();
    const img = {
      fromIds: coder.code(from, from.length) ?? from,
      toIds: coder.code(to, to.length) ?? to,
      words: coder.takeNew(),
    };
    sent += img.words.words.length;
    // What crosses is a clone: the coded arrays and the new words.
    const got = structuredClone(img);
    table.take(got);
    ids.push([Array.from(got.fromIds), Array.from(got.toIds)]);
  }
  return { ids, sent };
}

test('coded ids decode to the ids, each distinct word sent once', () => {
  const pieces: ExternalId[][][] = [
    [
      ['p1', 'p2', 'p1', ''],
      ['p2', 'p3', '', ''],
    ],
    [
      ['p3', 'p4', 'ü'],
      ['p1', 'p1', 'p9'],
    ],
  ];
  const { ids, sent } = roundTrip(new WordCoder(), pieces);
  assert.deepEqual(ids, pieces);
  assert.equal(sent, 7, 'p1 p2 "" p3 p4 ü p9');
});

test('ids that are not all strings cross as they are', () => {
  const coder = new WordCoder();
  assert.equal(coder.code(['a', 1, 'b'], 3), null);
  assert.equal(coder.code([1n, 'a'], 2), null);
  assert.deepEqual(
    roundTrip(coder, [
      [
        ['a', 2],
        ['b', 'c'],
      ],
    ]).ids,
    [
      [
        ['a', 2],
        ['b', 'c'],
      ],
    ],
  );
});

test('a full dictionary starts again on both sides', () => {
  const pieces: ExternalId[][][] = [];
  for (let p = 0; p < 6; p++) {
    const from = Array.from({ length: 5 }, (_, i) => `v${p * 3 + i}`);
    pieces.push([from, from.slice().reverse()]);
  }
  const { ids, sent } = roundTrip(new WordCoder(8), pieces);
  assert.deepEqual(ids, pieces);
  // Without the restarts 20 distinct words; each restart sends some again.
  assert.ok(sent > 20, `words sent again after a restart (${sent})`);
});
