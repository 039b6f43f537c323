import assert from 'node:assert/strict';
import { test } from 'node:test';
import { socialGraph } from '../fixtures/query/social.js';
import { runText, v } from '../fixtures/query/run.js';

const person = (
  id: string,
  age: number,
  gender: string,
  state: string,
  extra: Record<string, unknown> = {},
) => ({
  v_id: id,
  v_type: 'person',
  attributes: { name: id, age, gender, state, ...extra },
});

test('GSQL 101 hello: one-hop neighbours of Tom', async () => {
  const g = socialGraph();
  const out = await runText(
    g,
    `CREATE QUERY hello(VERTEX<person> p) FOR GRAPH social {
       Start = {p};
       Result = SELECT tgt FROM Start:s-(friendship:e) ->person:tgt;
       PRINT Result;
     }`,
    { p: v('person', 'Tom') },
  );
  assert.deepEqual(out, [{ Result: [person('Dan', 34, 'male', 'ny'), person('Jenny', 25, 'female', 'tx')] }]);
});

test('GSQL 101 hello2: second neighbours, OrAccum, AvgAccum, untyped step', async () => {
  const g = socialGraph();
  const out = await runText(
    g,
    `CREATE QUERY hello2 (VERTEX<person> p) FOR GRAPH social {
       OrAccum  @visited = false;
       AvgAccum @@avgAge;
       Start = {p};
       FirstNeighbors = SELECT tgt
                        FROM Start:s -(friendship:e)- person:tgt
                        ACCUM tgt.@visited += true, s.@visited += true;
       SecondNeighbors = SELECT tgt
                         FROM FirstNeighbors -(:e)- :tgt
                         WHERE tgt.@visited == false
                         POST_ACCUM @@avgAge += tgt.age;
       PRINT SecondNeighbors;
       PRINT @@avgAge;
     }`,
    { p: v('person', 'Tom') },
  );
  // A SELECT lists its result in storage order (the order the people were added), whichever row
  // found each vertex first.
  assert.deepEqual(out, [
    {
      SecondNeighbors: [
        person('Kevin', 28, 'male', 'az', { '@visited': false }),
        person('Amily', 22, 'female', 'ca', { '@visited': false }),
        person('Nancy', 20, 'female', 'ky', { '@visited': false }),
      ],
    },
    { '@@avgAge': 23.33333333333333 },
  ]);
});
