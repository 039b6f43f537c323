import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseBool, parseQueryString, percentDecode } from '../../src/server/http/querystring.js';
import { RestError } from '../../src/server/http/envelope.js';

test('repeated keys are all kept, in order', () => {
  const q = parseQueryString('p=1&p=5&x=a');
  assert.deepEqual(q.getAll('p'), ['1', '5']);
  assert.equal(q.get('p'), '1');
  assert.deepEqual(q.toRecord(), { p: ['1', '5'], x: 'a' });
  assert.deepEqual(q.names(), ['p', 'x']);
});

test('a value is split on the first = only and percent-decoded; + stays a plus', () => {
  const q = parseQueryString('filter=a01%3E=3&s=50%25%20a%2Bb&t=a+b&empty=&flag');
  assert.equal(q.get('filter'), 'a01>=3');
  assert.equal(q.get('s'), '50% a+b');
  assert.equal(q.get('t'), 'a+b');
  assert.equal(q.get('empty'), '');
  assert.equal(q.get('flag'), '');
  assert.equal(q.has('missing'), false);
});

test('malformed percent escapes are kept as written', () => {
  assert.equal(percentDecode('100%'), '100%');
  assert.equal(percentDecode('a%20b%zz'), 'a b%zz');
  assert.equal(parseQueryString('x=%E0%A4%A').get('x'), '%E0%A4%A');
});

test('vertex parameters: v and v.type, indexed v[i] and v[i].type', () => {
  const q = parseQueryString(
    'p07=1&p07.type=vertex4&p13%5B1%5D=2&p13%5B1%5D.type=vertex5&p13%5B0%5D=1&p13%5B0%5D.type=vertex4&p14=7',
  );
  assert.deepEqual(q.vertex('p07'), { id: '1', type: 'vertex4' });
  assert.deepEqual(q.vertex('p14'), { id: '7' });
  assert.equal(q.vertex('nope'), undefined);
  assert.deepEqual(q.indexedVertices('p13'), [
    { id: '1', type: 'vertex4' },
    { id: '2', type: 'vertex5' },
  ]);
});

test('booleans: True/true/FALSE/1/0, bare flag is true, anything else is REST-30001', () => {
  const q = parseQueryString('a=True&b=false&c=FALSE&d=1&e&f=yes');
  assert.equal(q.bool('a'), true);
  assert.equal(q.bool('b'), false);
  assert.equal(q.bool('c'), false);
  assert.equal(q.bool('d'), true);
  assert.equal(q.bool('e'), true);
  assert.equal(q.bool('zz', true), true);
  assert.throws(
    () => q.bool('f'),
    (e: unknown) => e instanceof RestError && e.code === 'REST-30001' && /'yes'.*'f'.*BOOL/.test(e.message),
  );
  assert.equal(parseBool(' TRUE '), true);
  assert.equal(parseBool('no'), undefined);
});

test('integers and comma lists', () => {
  const q = parseQueryString('n=42&m=-3&bad=4x&vt=a,b&vt=c,,');
  assert.equal(q.int('n'), 42);
  assert.equal(q.int('m'), -3);
  assert.equal(q.int('none'), undefined);
  assert.throws(
    () => q.int('bad'),
    (e: unknown) => e instanceof RestError && e.code === 'REST-30001',
  );
  assert.deepEqual(q.list('vt'), ['a', 'b', 'c']);
});

test('leading ? and empty segments are tolerated', () => {
  assert.deepEqual(parseQueryString('?a=1&&b=2&').toRecord(), { a: '1', b: '2' });
  assert.deepEqual(parseQueryString('').entries, []);
});
