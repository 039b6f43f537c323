import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addResult, resultGraph } from '../../studio/src/model/result-graph.js';

const ada = { v_id: 'Ada', v_type: 'member', attributes: { age: 36 } };
const boris = { v_id: 'Boris', v_type: 'member', attributes: { age: 52 } };
const friend = (from: string, to: string, since: string) => ({
  e_type: 'friend_of',
  directed: false,
  from_id: from,
  from_type: 'member',
  to_id: to,
  to_type: 'member',
  attributes: { since },
});

test('vertex sets and edge sets anywhere in a result become one graph', () => {
  const g = resultGraph([
    { S: [ada, boris] },
    { '@@edges': [friend('Ada', 'Boris', '2019'), friend('Boris', 'Ada', '2019')] },
  ]);
  assert.deepEqual([...g.vertices.keys()], ['member:Ada', 'member:Boris']);
  assert.deepEqual(g.vertices.get('member:Ada')?.attributes, { age: 36 });
  // Both directions of an undirected edge are one edge.
  assert.equal(g.edges.size, 1);
  const [e] = g.edges.values();
  assert.deepEqual(
    { type: e.type, source: e.source, target: e.target, directed: e.directed, attributes: e.attributes },
    {
      type: 'friend_of',
      source: 'member:Ada',
      target: 'member:Boris',
      directed: false,
      attributes: { since: '2019' },
    },
  );
});

test('an edge brings its ends without attributes; a later vertex object fills them in', () => {
  const g = resultGraph({ path: [{ nested: [friend('Chen', 'Dalia', '2020')] }] });
  assert.deepEqual(
    [...g.vertices.values()].map((v) => [v.key, v.attributes]),
    [
      ['member:Chen', undefined],
      ['member:Dalia', undefined],
    ],
  );
  const named = addResult(g, [{ v_id: 'Chen', v_type: 'member', attributes: { age: 29 } }]);
  assert.deepEqual(named, { vertices: ['member:Chen'], edges: [] });
  assert.deepEqual(g.vertices.get('member:Chen')?.attributes, { age: 29 });
});

test('a reverse edge is drawn as the edge it mirrors', () => {
  const reverseOf = new Map([['reverse_born_in', 'born_in']]);
  const forward = {
    e_type: 'born_in',
    directed: true,
    from_id: 'Ada',
    from_type: 'person',
    to_id: 'Leeds',
    to_type: 'city',
    attributes: {},
  };
  const reverse = {
    ...forward,
    e_type: 'reverse_born_in',
    from_id: 'Leeds',
    from_type: 'city',
    to_id: 'Ada',
    to_type: 'person',
  };
  const g = resultGraph([forward, reverse], reverseOf);
  assert.equal(g.edges.size, 1);
  const [e] = g.edges.values();
  assert.deepEqual([e.type, e.source, e.target, e.directed], ['born_in', 'person:Ada', 'city:Leeds', true]);
});

test('directed edges keep their direction; different attributes are different edges', () => {
  const e = (from: string, to: string, w: number) => ({
    e_type: 'transfer',
    directed: true,
    from_id: from,
    from_type: 'acct',
    to_id: to,
    to_type: 'acct',
    attributes: { w },
  });
  const g = resultGraph([e('a', 'b', 1), e('b', 'a', 1), e('a', 'b', 2), e('a', 'b', 1)]);
  assert.equal(g.edges.size, 3);
});

test('numeric ids and values that are not graph elements', () => {
  const g = resultGraph([{ n: 3, list: [1, 'x', null], m: { v_id: 7, v_type: 'badge' } }]);
  assert.deepEqual([...g.vertices.keys()], ['badge:7']);
  assert.equal(g.edges.size, 0);
});
