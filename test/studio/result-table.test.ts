import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cellText, resultTables } from '../../studio/src/model/result-table.js';

test('a vertex set becomes type, id and attribute columns', () => {
  const [t] = resultTables([
    {
      S: [
        { v_id: 'Ada', v_type: 'member', attributes: { age: 36, tags: ['x'] } },
        { v_id: 'Boris', v_type: 'member', attributes: { age: 52, city: 'Porto' } },
      ],
    },
  ]);
  assert.deepEqual(t, {
    name: 'S',
    columns: ['v_type', 'v_id', 'age', 'tags', 'city'],
    rows: [
      ['member', 'Ada', '36', '["x"]', ''],
      ['member', 'Boris', '52', '', 'Porto'],
    ],
  });
});

test('an edge set, a list of objects, a map and scalars, one table per printed name', () => {
  const tables = resultTables([
    {
      '@@edges': [
        {
          e_type: 'friend_of',
          from_type: 'member',
          from_id: 'Ada',
          to_type: 'member',
          to_id: 'Boris',
          attributes: { since: 2019 },
        },
      ],
      rows: [{ a: 1 }, { b: true }],
    },
    { total: 42, '@@m': { x: 1, y: [2] }, nums: [1, 2] },
  ]);
  assert.deepEqual(
    tables.map((t) => [t.name, t.columns, t.rows]),
    [
      [
        '@@edges',
        ['e_type', 'from_type', 'from_id', 'to_type', 'to_id', 'since'],
        [['friend_of', 'member', 'Ada', 'member', 'Boris', '2019']],
      ],
      [
        'rows',
        ['a', 'b'],
        [
          ['1', ''],
          ['', 'true'],
        ],
      ],
      ['total', ['value'], [['42']]],
      [
        '@@m',
        ['key', 'value'],
        [
          ['x', '1'],
          ['y', '[2]'],
        ],
      ],
      ['nums', ['value'], [['1'], ['2']]],
    ],
  );
});

test('a result that is not a list of printed objects still tabulates', () => {
  assert.deepEqual(resultTables('text'), [{ name: 'result', columns: ['value'], rows: [['text']] }]);
  assert.deepEqual(resultTables([5]), [{ name: 'result 1', columns: ['value'], rows: [['5']] }]);
  assert.equal(cellText(null), '');
  assert.equal(cellText(12345678901234567890n), '12345678901234567890');
});
