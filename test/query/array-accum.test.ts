import assert from 'node:assert/strict';
import { test } from 'node:test';
import { libraryGraph } from '../fixtures/query/library.js';
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
    'an ArrayAccum is updated one cell at a time, e.g. @@a[0] += …, or at the query-body level from whole ArrayAccums (@@a = @@b + @@c)',
  );
  assert.equal(err('ArrayAccum<SumAccum<INT>> @@a;'), 'the ArrayAccum @@a needs its sizes, e.g. @@a[3]');
  assert.equal(
    err('ArrayAccum<SumAccum<INT>> @@a[2];\n  ArrayAccum<SumAccum<FLOAT>> @@b[2];\n  @@a = @@b;'),
    '@@b is an ArrayAccum of SumAccum<FLOAT>, not of SumAccum<INT>; whole arrays combine only with the same cell type',
  );
  assert.equal(
    err('ArrayAccum<INT> @@a[3];'),
    'the cells of an ArrayAccum must be accumulators, e.g. ArrayAccum<SumAccum<INT>>',
  );
});

const lib = (body: string): string => `CREATE QUERY t() FOR GRAPH library {\n${body}\n}`;

test('vertex-attached ArrayAccum: each vertex has its own cells, updated and read by index', async () => {
  const out = await runText(
    libraryGraph(),
    lib(
      `ArrayAccum<SumAccum<INT>> @byType[3];
       ArrayAccum<SumAccum<INT>> @grid[2][2];
       R = {reader.*};
       R = SELECT r FROM R:r -(:e)- :t
           ACCUM CASE e.type
                   WHEN "knows" THEN r.@byType[0] += 1
                   WHEN "borrowed" THEN r.@byType[1] += 1
                   WHEN "reviewed" THEN r.@byType[2] += 1
                 END
           POST-ACCUM r.@grid[0][1] = r.@byType[1] * 10, r.@grid[1][0] += r.age
           ORDER BY r.age;
       Busy = SELECT r FROM R:r WHERE r.@byType[1] + r.@byType[2] > 1;
       PRINT R[R.@byType, R.@grid[0][1] AS lent, R.@grid], Busy.size() AS busy;`,
    ),
  );
  const rows = (out[0] as { R: { v_id: string; attributes: Record<string, unknown> }[] }).R;
  assert.deepEqual(
    rows.map((r) => [r.v_id, r.attributes]),
    [
      [
        'cid',
        {
          'R.@byType': [1, 1, 1],
          lent: 10,
          'R.@grid': [
            [0, 10],
            [27, 0],
          ],
        },
      ],
      [
        'ann',
        {
          'R.@byType': [1, 2, 1],
          lent: 20,
          'R.@grid': [
            [0, 20],
            [31, 0],
          ],
        },
      ],
      [
        'bob',
        {
          'R.@byType': [2, 1, 0],
          lent: 10,
          'R.@grid': [
            [0, 10],
            [45, 0],
          ],
        },
      ],
    ],
  );
  assert.equal((out[0] as { busy: number }).busy, 2);
});

test('vertex-attached ArrayAccum misuse is refused at CREATE, an index out of range at run time', async () => {
  const err = (body: string): string => compileErrorOf(libraryGraph(), lib(body));
  assert.equal(
    err('ArrayAccum<SumAccum<INT>> @a[3];\nR = SELECT r FROM reader:r ACCUM r.@a += 1;'),
    'Semantic Check Error in query t: line 3, col 34\nan ArrayAccum is updated one cell at a time, e.g. v.@a[0] += …',
  );
  assert.equal(
    err('ArrayAccum<SumAccum<INT>> @a[3];\nR = SELECT r FROM reader:r ACCUM r.@a[0][1] += 1;'),
    'Semantic Check Error in query t: line 3, col 34\n@a has 1 dimension, not 2',
  );
  assert.equal(
    err('SumAccum<INT> @s;\nR = SELECT r FROM reader:r ACCUM r.@s[0] += 1;'),
    'Semantic Check Error in query t: line 3, col 34\n@s is a SumAccum, not an ArrayAccum',
  );
  assert.equal(
    err('ArrayAccum<SumAccum<INT>> @a[3], @a[2];'),
    'Semantic Check Error in query t: line 2, col 34\n@a is already declared',
  );
  assert.equal(
    err('ArrayAccum<SumAccum<INT>> @a["x"];'),
    'Semantic Check Error in query t: line 2, col 30\nan ArrayAccum size must be an integer, not STRING',
  );
  await assert.rejects(
    runText(
      libraryGraph(),
      lib('ArrayAccum<SumAccum<INT>> @a[2];\nR = SELECT r FROM reader:r ACCUM r.@a[r.age] += 1;'),
    ),
    {
      message: /^Runtime Error: index (27|31|45) is out of range \[0, 2\) of an ArrayAccum\.$/,
      code: 'GSQL-2620',
    },
  );
});

test('a size-less ArrayAccum is sized by reallocate; = takes sizes and dimensions, += and + add cell by cell', async () => {
  const out = await runText(
    socialNet(),
    q(`ArrayAccum<SumAccum<INT>> @@one[4];
  ArrayAccum<SumAccum<INT>> @@two[][];
  ArrayAccum<SumAccum<INT>> @@sum[1];
  ArrayAccum<ListAccum<STRING>> @@words[];
  ArrayAccum<ListAccum<STRING>> @@more[2];
  @@two.reallocate(2, 3);
  @@words.reallocate(2);
  FOREACH i IN RANGE[0, 1] DO
    @@words[i] += "w" + to_string(i);
    @@more[i] += "m";
    FOREACH j IN RANGE[0, 2] DO
      @@two[i][j] += 10 * i + j;
    END;
  END;
  @@one[3] += 7;
  PRINT @@one.size() AS before, @@two;
  @@sum = @@one;
  @@one = @@two;
  @@two = @@sum;
  PRINT @@one, @@two;
  @@sum += @@two;
  @@words += @@more;
  PRINT @@sum, @@words;
  @@sum = @@sum + @@two + @@two;
  PRINT @@sum;`),
  );
  assert.deepEqual(out, [
    {
      before: 4,
      '@@two': [
        [0, 1, 2],
        [10, 11, 12],
      ],
    },
    {
      '@@one': [
        [0, 1, 2],
        [10, 11, 12],
      ],
      '@@two': [0, 0, 0, 7],
    },
    {
      '@@sum': [0, 0, 0, 14],
      '@@words': [
        ['w0', 'm'],
        ['w1', 'm'],
      ],
    },
    { '@@sum': [0, 0, 0, 28] },
  ]);
});

test('whole-array += of different sizes, and a cell of a size-less array, stop the query', async () => {
  await assert.rejects(
    runText(
      socialNet(),
      q(`ArrayAccum<SumAccum<INT>> @@a[2];
  ArrayAccum<SumAccum<INT>> @@b[3];
  @@a += @@b;`),
    ),
    { message: 'Runtime Error: ArrayAccums of sizes [2] and [3] cannot be combined cell by cell.' },
  );
  await assert.rejects(runText(socialNet(), q(`ArrayAccum<SumAccum<INT>> @@a[][];\n  @@a[0][0] += 1;`)), {
    message: 'Runtime Error: index 0 is out of range [0, 0) of an ArrayAccum.',
  });
  await assert.rejects(
    runText(
      socialNet(),
      q(`ArrayAccum<SumAccum<INT>> @@a[2];
  ArrayAccum<SumAccum<INT>> @@b[2][2];
  @@a = @@b;
  @@a[1] += 1;`),
    ),
    { message: 'Runtime Error: this ArrayAccum has 2 dimensions, but 1 indexes are given.' },
  );
});
