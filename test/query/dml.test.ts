import assert from 'node:assert/strict';
import { test } from 'node:test';
import { socialNet } from '../fixtures/query/social-net.js';
import { runText } from '../fixtures/query/run.js';

const q = (body: string): string => `CREATE QUERY t() FOR GRAPH socialNet {\n${body}\n}`;

test('attribute updates are deferred to the end of the query and committed once', async () => {
  const g = socialNet();
  const out = await runText(
    g,
    q(`S = {person.*};
       S = SELECT s FROM S:s WHERE s.gender == "Male" POST-ACCUM s.gender = "M";
       PRINT S[S.gender];`),
  );
  // The query reads its own snapshot: the new values are visible only after it ends.
  assert.deepEqual(out, [
    {
      S: [
        { v_id: 'person1', v_type: 'person', attributes: { 'S.gender': 'Male' } },
        { v_id: 'person3', v_type: 'person', attributes: { 'S.gender': 'Male' } },
      ],
    },
  ]);
  assert.equal(g.commits, 1);
  assert.equal(g.attr('person', g.lookup('person', 'person1')!, 'gender'), 'M');
  assert.equal(g.attr('person', g.lookup('person', 'person2')!, 'gender'), 'Female');
});

test('edge attributes can be set in ACCUM; INSERT INTO vertices and edges; DELETE', async () => {
  const g = socialNet();
  await runText(
    g,
    q(`S = {person.*};
       S = SELECT s FROM S:s -(friend:e)- person:t WHERE s.gender == "Female" ACCUM e.since = 1999;
       INSERT INTO person VALUES ("person5", "Female");
       INSERT INTO friend VALUES ("person5", "person1", 2020);
       INSERT INTO posted (FROM, TO) VALUES ("person5" person, "9" post);
       D = SELECT p FROM post:p WHERE p.subject == "cats" ACCUM DELETE(p);
       DELETE s FROM person:s WHERE s.gender == "Male" AND s.outdegree("posted") == 1;`),
  );
  const friends = (id: string): string[] =>
    g
      .edges('person', g.lookup('person', id)!, { edgeType: 'friend' })
      .map((h) => `${g.vertexId(h.tgtType, h.tgtRow)}:${String(g.edgeAttr(h, 'since'))}`);
  assert.deepEqual(friends('person2').sort(), ['person1:1999']);
  assert.deepEqual(friends('person5'), ['person1:2020']);
  assert.equal(g.lookup('post', '9') !== undefined, true);
  assert.equal(g.lookup('post', '3'), undefined);
  assert.equal(g.lookup('person', 'person3'), undefined);
  assert.notEqual(g.lookup('person', 'person1'), undefined);
});

test('UPDATE … SET … WHERE changes matching vertices', async () => {
  const g = socialNet();
  await runText(g, q(`UPDATE s FROM person:s SET s.gender = "X" WHERE s.gender == "Female";`));
  assert.deepEqual(
    Array.from(g.rows('person'), (r) => g.attr('person', r, 'gender')),
    ['Male', 'X', 'Male', 'X'],
  );
});

test('a run-time error stops the query and commits nothing', async () => {
  const g = socialNet();
  await assert.rejects(
    runText(
      g,
      q(`INT zero = 0;
         S = SELECT s FROM person:s POST-ACCUM s.gender = "changed";
         INSERT INTO person VALUES ("late", "x");
         PRINT 1 / zero;`),
    ),
    { name: 'QueryRuntimeError', code: 'GSQL-2500', message: 'Runtime Error: divider is zero.' },
  );
  assert.equal(g.commits, 0);
  assert.equal(g.lookup('person', 'late'), undefined);
  assert.equal(g.attr('person', 0, 'gender'), 'Male');
});
