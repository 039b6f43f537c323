import assert from 'node:assert/strict';
import { test } from 'node:test';
import { socialNet } from '../fixtures/query/social-net.js';
import { runText } from '../fixtures/query/run.js';

test('outdegree counts what a SELECT over the same edge type reaches: reverse types, undirected self-loops once, all types', async () => {
  const g = socialNet();
  g.addEdge('friend', 'person4', 'person4');
  const out = await runText(
    g,
    `CREATE QUERY t() FOR GRAPH socialNet {
       MapAccum<VERTEX, INT> @@friends, @@walked, @@all, @@reversePosted, @@posted;
       People = {person.*};
       Posts = {post.*};
       S = SELECT p FROM People:p -(friend:e)- person:f ACCUM @@walked += (p -> 1);
       S = SELECT p FROM People:p POST-ACCUM @@friends += (p -> p.outdegree("friend")), @@all += (p -> p.outdegree());
       S = SELECT q FROM Posts:q
           POST-ACCUM @@reversePosted += (q -> q.outdegree("reverse_posted")), @@posted += (q -> q.outdegree("posted"));
       PRINT @@friends, @@walked, @@all, @@reversePosted, @@posted;
     }`,
  );
  const r = out[0] as Record<string, Record<string, number>>;
  assert.deepEqual(r['@@friends'], r['@@walked']);
  assert.deepEqual(r['@@friends'], { person1: 2, person2: 2, person3: 3, person4: 2 });
  // person1: friends person2 and person3, posted 0 and 1, liked 2.
  assert.equal(r['@@all'].person1, 5);
  assert.deepEqual(r['@@reversePosted'], { 0: 1, 1: 1, 2: 1, 3: 1 });
  assert.deepEqual(r['@@posted'], { 0: 0, 1: 0, 2: 0, 3: 0 });
});
