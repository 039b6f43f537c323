import assert from 'node:assert/strict';
import { test } from 'node:test';
import { socialNet } from '../fixtures/query/social-net.js';
import { compileErrorOf, runText } from '../fixtures/query/run.js';

const q = (body: string, params = ''): string =>
  `CREATE QUERY t(${params}) FOR GRAPH socialNet {\n${body}\n}`;

test('ArrayAccum: sizes from a parameter, cell updates in ACCUM and the body, reads, size and reallocate', async () => {
  const out = await runText(
    socialNet(),
    q(
      `ArrayAccum<SumAccum<INT>> @@by_year[n];
       ArrayAccum<ListAccum<STRING>> @@grid[2][3];
       S = {person.*};
       S = SELECT s FROM S:s -(friend:e)- person:t ACCUM @@by_year[(e.since - 2010) / 2] += 1;
       @@grid[1][2] += "x";
       @@grid[1][2] += "y";
       @@grid[0][0] += "z";
       PRINT @@by_year, @@by_year[3] AS last, @@by_year.size() AS n, @@grid;
       @@by_year.reallocate(2);
       PRINT @@by_year;`,
      'INT n',
    ),
    { n: 4 },
  );
  // Friendships since 2010, 2012, 2014, 2016, each matched from both ends.
  assert.deepEqual(out, [
    {
      '@@by_year': [2, 2, 2, 2],
      last: 2,
      n: 4,
      '@@grid': [
        [['z'], [], []],
        [[], [], ['x', 'y']],
      ],
    },
    { '@@by_year': [0, 0] },
  ]);
});

test('ArrayAccum errors: an index out of range at run time, misuse at CREATE time', async () => {
  await assert.rejects(runText(socialNet(), q('ArrayAccum<SumAccum<INT>> @@a[2];\n  @@a[2] += 1;')), {
    message: 'Runtime Error: index 2 is out of range [0, 2) of an ArrayAccum.',
    code: 'GSQL-2620',
  });
  const err = (body: string): string => compileErrorOf(socialNet(), q(body)).split('\n')[1];
  assert.equal(err('ArrayAccum<SumAccum<INT>> @@a[2];\n  @@a[0][1] += 1;'), '@@a has 1 dimension, not 2');
  assert.equal(
    err('ArrayAccum<SumAccum<INT>> @@a[2];\n  @@a += 1;'),
    'an ArrayAccum is updated one cell at a time, e.g. @@a[0] += …',
  );
  assert.equal(err('ArrayAccum<SumAccum<INT>> @@a;'), 'the ArrayAccum @@a needs its sizes, e.g. @@a[3]');
  assert.equal(err('ArrayAccum<SumAccum<INT>> @a[3];'), 'vertex-attached ArrayAccum is not supported yet');
  assert.equal(
    err('ArrayAccum<INT> @@a[3];'),
    'the cells of an ArrayAccum must be accumulators, e.g. ArrayAccum<SumAccum<INT>>',
  );
});
