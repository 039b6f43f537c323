import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  paramHint,
  paramQueryString,
  paramsFromSignature,
  parseParamType,
} from '../../studio/src/model/query-params.js';

test('parameter types from query text and from the server signature agree', () => {
  assert.deepEqual(parseParamType('vertex<member>'), { base: 'VERTEX', vertexType: 'member' });
  assert.deepEqual(parseParamType('SET < VERTEX >'), { base: 'VERTEX', collection: 'SET' });
  assert.deepEqual(parseParamType('list<string>'), { base: 'STRING', collection: 'LIST' });
  assert.deepEqual(parseParamType('DATETIME'), { base: 'DATETIME' });
  assert.deepEqual(
    paramsFromSignature([{ minAge: 'int' }, { m: 'vertex<member>' }, { cities: 'set<string>' }, 'junk']),
    [
      { name: 'minAge', typeText: 'int', type: { base: 'INT' } },
      { name: 'm', typeText: 'vertex<member>', type: { base: 'VERTEX', vertexType: 'member' } },
      { name: 'cities', typeText: 'set<string>', type: { base: 'STRING', collection: 'SET' } },
    ],
  );
  assert.deepEqual(paramsFromSignature(undefined), []);
});

test("form values become REST++'s query-string forms", () => {
  const params = paramsFromSignature([
    { minAge: 'int' },
    { m: 'vertex<member>' },
    { cities: 'set<string>' },
    { anyV: 'vertex' },
    { many: 'set<vertex>' },
    { name: 'string' },
    { flag: 'bool' },
  ]);
  const q = paramQueryString(params, {
    minAge: ' 30 ',
    m: 'Ada',
    cities: 'Oslo, Cork,,',
    anyV: 'member:Boris',
    many: 'member:Ada, city:Oslo',
    name: '',
    flag: 'true',
  });
  assert.equal(
    q,
    'minAge=30&m=Ada&cities=Oslo&cities=Cork&anyV=Boris&anyV.type=member' +
      '&many%5B0%5D=Ada&many%5B0%5D.type=member&many%5B1%5D=Oslo&many%5B1%5D.type=city&flag=true',
  );
  assert.equal(paramQueryString(params, {}), '');
});

test('a value that cannot be sent names its parameter', () => {
  const params = paramsFromSignature([{ v: 'vertex' }]);
  assert.throws(
    () => paramQueryString(params, { v: 'Ada' }),
    /Parameter v: write a vertex as type:id, not 'Ada'/,
  );
});

test('hints say what to type', () => {
  const [v, s, b] = paramsFromSignature([{ v: 'vertex<member>' }, { s: 'set<int>' }, { b: 'bool' }]);
  assert.equal(paramHint(v), 'member id');
  assert.equal(paramHint(s), 'int, … (comma-separated)');
  assert.equal(paramHint(b), 'true or false');
});
