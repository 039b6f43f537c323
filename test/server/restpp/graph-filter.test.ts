import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AttrType } from '../../../src/catalog/types.js';
import type { Value } from '../../../src/catalog/value.js';
import { RestError } from '../../../src/server/http/envelope.js';
import {
  bindFilter,
  checkAttributes,
  compareValues,
  parseFilter,
  parseLimit,
  parseSelect,
  parseSort,
  sortRecords,
} from '../../../src/server/restpp/graph-filter.js';

const INT: AttrType = { kind: 'INT', bytes: 8 };
const types = new Map<string, AttrType>([
  ['a01', INT],
  ['name', { kind: 'STRING', compress: false }],
  ['score', { kind: 'DOUBLE' }],
  ['ok', { kind: 'BOOL' }],
  ['born', { kind: 'DATETIME' }],
  ['tags', { kind: 'LIST', element: INT }],
]);

function isParamError(e: unknown, fragment: string): boolean {
  return (
    e instanceof RestError && e.code === 'REST-30001' && e.status === 400 && e.message.includes(fragment)
  );
}

function reader(rec: Record<string, Value>) {
  return (attr: string): Value => rec[attr];
}

test('parseFilter splits on commas outside quotes and keeps each operator', () => {
  const conds = parseFilter(['a01>=3,a01!=4', 'name="x, y",score<=1.5', 'a01<9,a01>1,a01=2,a01==2']);
  assert.deepEqual(
    conds.map((c) => [c.attribute, c.op, c.literal]),
    [
      ['a01', '>=', '3'],
      ['a01', '!=', '4'],
      ['name', '=', 'x, y'],
      ['score', '<=', '1.5'],
      ['a01', '<', '9'],
      ['a01', '>', '1'],
      ['a01', '=', '2'],
      ['a01', '=', '2'],
    ],
  );
});

test('parseFilter rejects malformed conditions with REST-30001 naming them', () => {
  assert.throws(
    () => parseFilter(['a01']),
    (e) => isParamError(e, "'a01'"),
  );
  assert.throws(
    () => parseFilter(['a01>']),
    (e) => isParamError(e, 'Missing value'),
  );
  assert.throws(
    () => parseFilter(['name="abc']),
    (e) => isParamError(e, 'Unterminated'),
  );
  assert.throws(
    () => parseFilter(['1x=3']),
    (e) => isParamError(e, "'1x'"),
  );
  assert.throws(
    () => parseFilter(['a01~3']),
    (e) => isParamError(e, 'a01~3'),
  );
});

test('bindFilter compares integers, doubles, strings, booleans and datetimes', () => {
  const rec = { a01: 3, name: 'Tom', score: 2.5, ok: true, born: Date.UTC(2020, 0, 2) / 1000 };
  const cases: [string, boolean][] = [
    ['a01=3', true],
    ['a01!=3', false],
    ['a01>2,a01<4', true],
    ['a01>=4', false],
    ['a01<=3', true],
    ['a01>2.5', true],
    ['name="Tom"', true],
    ['name=Tom', true],
    ['name>"Tim"', true],
    ['score<2.6', true],
    ['ok=true', true],
    ['ok=0', false],
    ['born>"2020-01-01 00:00:00"', true],
    ['born<2020-01-02', false],
  ];
  for (const [filter, expected] of cases) {
    assert.equal(bindFilter(parseFilter([filter]), types)(reader(rec)), expected, filter);
  }
});

test('bindFilter keeps 64-bit integers exact', () => {
  const big = 9007199254740993n;
  const p = bindFilter(parseFilter(['a01=9007199254740993']), types);
  assert.equal(p(reader({ a01: big })), true);
  assert.equal(p(reader({ a01: 9007199254740992n })), false);
  assert.equal(bindFilter(parseFilter(['a01>9007199254740992']), types)(reader({ a01: big })), true);
});

test('bindFilter: a type lacking the attribute never matches; bad literals are rejected', () => {
  const other = new Map<string, AttrType>([['x', INT]]);
  assert.equal(bindFilter(parseFilter(['a01=1']), other)(reader({ x: 1 })), false);
  assert.throws(
    () => bindFilter(parseFilter(['a01=abc']), types),
    (e) => isParamError(e, 'not a valid INT'),
  );
  assert.throws(
    () => bindFilter(parseFilter(['score=x']), types),
    (e) => isParamError(e, 'not a valid DOUBLE'),
  );
  assert.throws(
    () => bindFilter(parseFilter(['ok=maybe']), types),
    (e) => isParamError(e, 'not a valid BOOL'),
  );
  assert.throws(
    () => bindFilter(parseFilter(['born=yesterday']), types),
    (e) => isParamError(e, 'DATETIME'),
  );
  assert.throws(
    () => bindFilter(parseFilter(['tags=1']), types),
    (e) => isParamError(e, 'LIST'),
  );
});

test('checkAttributes names the missing attribute and parameter', () => {
  checkAttributes(['a01'], [types], "vertex type 'v'", 'filter');
  assert.throws(
    () => checkAttributes(['nope'], [types], "vertex type 'v'", 'sort'),
    (e) => isParamError(e, "The attribute 'nope' in parameter 'sort' does not exist in vertex type 'v'"),
  );
});

test('parseSort and sortRecords: ascending, descending, stable, missing attributes last', () => {
  assert.deepEqual(parseSort(['-a01,name', '+score']), [
    { attribute: 'a01', descending: true },
    { attribute: 'name', descending: false },
    { attribute: 'score', descending: false },
  ]);
  assert.throws(
    () => parseSort(['-']),
    (e) => isParamError(e, 'sort'),
  );
  const recs: Record<string, Value>[] = [
    { id: 'a', a01: 1, name: 'b' },
    { id: 'b', a01: 3, name: 'a' },
    { id: 'c', name: 'z' },
    { id: 'd', a01: 3, name: 'c' },
    { id: 'e', a01: 2, name: 'a' },
  ];
  const read = (r: Record<string, Value>, a: string): Value | undefined => r[a];
  const ids = (rs: Record<string, Value>[]): Value[] => rs.map((r) => r.id);
  assert.deepEqual(ids(sortRecords([...recs], parseSort(['-a01']), read)), ['b', 'd', 'e', 'a', 'c']);
  assert.deepEqual(ids(sortRecords([...recs], parseSort(['a01']), read)), ['a', 'e', 'b', 'd', 'c']);
  assert.deepEqual(ids(sortRecords([...recs], parseSort(['-a01,-name']), read)), ['d', 'b', 'e', 'a', 'c']);
});

test('parseSelect and parseLimit', () => {
  assert.deepEqual(parseSelect(['a01, name', 'a01']), ['a01', 'name']);
  assert.throws(
    () => parseSelect(['a b']),
    (e) => isParamError(e, 'select'),
  );
  assert.equal(parseLimit(undefined), undefined);
  assert.equal(parseLimit('2'), 2);
  assert.equal(parseLimit('0'), 0);
  assert.throws(
    () => parseLimit('-1'),
    (e) => isParamError(e, 'limit'),
  );
  assert.throws(
    () => parseLimit('x'),
    (e) => isParamError(e, 'limit'),
  );
});

test('compareValues orders mixed number and bigint exactly', () => {
  assert.equal(compareValues(1, 2n), -1);
  assert.equal(compareValues(2n ** 63n - 1n, 1e18), 1);
  assert.equal(compareValues(2.5, 2n), 1);
  assert.equal(compareValues('a', 'b'), -1);
  assert.equal(compareValues(false, true) < 0, true);
});
