import assert from 'node:assert/strict';
import { test } from 'node:test';
import { colorOf, PALETTE, typeColors } from '../../studio/src/model/colors.js';
import { errorPosition, offsetOf, outputFailure } from '../../studio/src/model/error-position.js';
import { addToHistory, firstLine, parseHistory, type HistoryEntry } from '../../studio/src/model/history.js';
import { parseLoadingJobs } from '../../studio/src/model/loading-jobs.js';
import { filterText, vertexListPath } from '../../studio/src/model/vertex-query.js';

test('error positions in the GSQL server messages', () => {
  assert.deepEqual(errorPosition('Syntax Error: line 3, column 3: expected ";"'), { line: 3, column: 3 });
  assert.deepEqual(errorPosition('Semantic Check Error in query anonymous: line 2, col 21\nx'), {
    line: 2,
    column: 21,
  });
  assert.deepEqual(errorPosition('Semantic Check Fails: nope (line 6, column 1)', 1), { line: 5, column: 1 });
  assert.equal(errorPosition('(line 1, column 1)', 1), undefined);
  assert.equal(errorPosition('no position'), undefined);
  assert.equal(offsetOf('ab\ncde\nf', { line: 2, column: 3 }), 5);
  assert.equal(offsetOf('ab', { line: 9, column: 9 }), 2);
  assert.deepEqual(outputFailure("Using graph 'g'\nSyntax Error: line 2, column 4: bad\n", 1), {
    message: 'Syntax Error: line 2, column 4: bad',
    position: { line: 1, column: 4 },
  });
  assert.equal(outputFailure('Successfully created queries: [q].'), undefined);
});

test('loading jobs and their filename variables from SHOW JOB output', () => {
  const out = [
    "Using graph 'club'",
    'CREATE LOADING JOB load_club FOR GRAPH club {',
    '  DEFINE FILENAME members;',
    '  DEFINE FILENAME friends = "/data/f.csv";',
    '  LOAD members TO VERTEX member VALUES ($"name", $1) USING header="true", separator=",";',
    '}',
    'CREATE SCHEMA_CHANGE JOB sc FOR GRAPH club { ADD VERTEX x (PRIMARY_ID id STRING); }',
    'CREATE LOADING JOB other FOR GRAPH club { DEFINE FILENAME f; LOAD f TO VERTEX member VALUES ($0); }',
  ].join('\n');
  assert.deepEqual(parseLoadingJobs(out), [
    { name: 'load_club', graph: 'club', filenames: ['members', 'friends'] },
    { name: 'other', graph: 'club', filenames: ['f'] },
  ]);
  assert.deepEqual(parseLoadingJobs("Using graph 'club'\n"), []);
});

test('the REST++ vertex list path with filters, sorting and a limit', () => {
  assert.equal(
    vertexListPath({
      graph: 'my graph',
      vertexType: 'member',
      filters: [
        { attribute: 'age', op: '>=', value: '30' },
        { attribute: 'city', op: '=', value: 'Lyon "x"' },
        { attribute: 'gender', op: '!=', value: '  ' },
      ],
      sortBy: 'age',
      descending: true,
      limit: 10.7,
    }),
    '/restpp/graph/my%20graph/vertices/member?limit=10&filter=' +
      encodeURIComponent('age>=30,city="Lyon \\"x\\""') +
      '&sort=-age',
  );
  assert.equal(
    vertexListPath({ graph: 'g', vertexType: 't', filters: [], limit: 0 }),
    '/restpp/graph/g/vertices/t?limit=1',
  );
  assert.equal(filterText({ attribute: 'ok', op: '=', value: 'true' }), 'ok=true');
});

test('colours are stable per schema order and fall back for unknown types', () => {
  const colors = typeColors(['a', 'b', 'a']);
  assert.deepEqual(
    [...colors],
    [
      ['a', PALETTE[0]],
      ['b', PALETTE[1]],
    ],
  );
  assert.equal(colorOf(colors, 'b'), PALETTE[1]);
  assert.equal(colorOf(colors, 'zzz'), colorOf(new Map(), 'zzz'));
});

test('history: newest first, bounded, a rerun moves up, bad storage is ignored', () => {
  const entry = (text: string, at: string): HistoryEntry => ({
    text,
    graph: 'g',
    at,
    ok: true,
    summary: 's',
  });
  let h: HistoryEntry[] = [];
  h = addToHistory(h, entry('a', '1'), 2);
  h = addToHistory(h, entry('b', '2'), 2);
  h = addToHistory(h, entry('a', '3'), 2);
  assert.deepEqual(
    h.map((e) => [e.text, e.at]),
    [
      ['a', '3'],
      ['b', '2'],
    ],
  );
  h = addToHistory(h, entry('c', '4'), 2);
  assert.deepEqual(
    h.map((e) => e.text),
    ['c', 'a'],
  );
  assert.deepEqual(parseHistory(JSON.stringify([...h, { text: 1 }])), h);
  assert.deepEqual(parseHistory('{'), []);
  assert.deepEqual(parseHistory(null), []);
  assert.equal(firstLine('\n  SELECT 1\nmore', 6), 'SELEC…');
});
