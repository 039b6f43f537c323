import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemGraph, makeCatalog } from '../fixtures/query/mem-graph.js';
import { runText, v } from '../fixtures/query/run.js';

/** workNet-style: people with collection attributes, companies, worksFor edges with attributes. */
function workNet(): MemGraph {
  const g = new MemGraph(
    makeCatalog({
      graph: 'workNet',
      vertices: {
        person: {
          attrs: [
            ['locationId', 'STRING'],
            ['skillSet', 'SET<STRING>'],
            ['skillList', 'LIST<INT>'],
          ],
        },
        company: { attrs: [['country', 'STRING']] },
      },
      edges: {
        worksFor: {
          from: 'person',
          to: 'company',
          directed: false,
          attrs: [
            ['startYear', 'INT'],
            ['fullTime', 'BOOL'],
          ],
        },
      },
    }),
  );
  g.addVertex('person', 'person1', {
    locationId: 'us',
    skillSet: ['management', 'financial'],
    skillList: [1, 2, 3],
  })
    .addVertex('person', 'person2', { locationId: 'chn', skillSet: ['engineering'], skillList: [6, 5] })
    .addVertex('person', 'person3', { locationId: 'jp', skillSet: [], skillList: [] })
    .addVertex('company', 'company1', { country: 'us' })
    .addVertex('company', 'company2', { country: 'chn' });
  g.addEdge('worksFor', 'person1', 'company1', { startYear: 2016, fullTime: true })
    .addEdge('worksFor', 'person2', 'company1', { startYear: 2015, fullTime: false })
    .addEdge('worksFor', 'person2', 'company2', { startYear: 2017, fullTime: true })
    .addEdge('worksFor', 'person3', 'company2', { startYear: 2018, fullTime: true });
  return g;
}

test('collection attributes print as arrays; BFS reachable within maxDepth hops with WHILE … LIMIT', async () => {
  const out = await runText(
    workNet(),
    `CREATE QUERY reachable(VERTEX<person> p, INT maxDepth) FOR GRAPH workNet {
       OrAccum @visited;
       SetAccum<VERTEX> @@reached;
       Frontier = {p};
       WHILE Frontier.size() > 0 LIMIT maxDepth DO
         Frontier = SELECT t FROM Frontier:s -(worksFor:e)- :t
                    WHERE t.@visited == false AND t != p
                    ACCUM t.@visited += true
                    POST-ACCUM @@reached += t;
       END;
       Start = {p};
       PRINT Start, @@reached.size() AS n;
     }`,
    { p: v('person', 'person1'), maxDepth: 3 },
  );
  assert.deepEqual(out, [
    {
      Start: [
        {
          v_id: 'person1',
          v_type: 'person',
          attributes: {
            locationId: 'us',
            skillSet: ['management', 'financial'],
            skillList: [1, 2, 3],
            '@visited': false,
          },
        },
      ],
      n: 3,
    },
  ]);
});

test('edge attributes in WHERE and ACCUM; GroupBy-style counting with MapAccum per company', async () => {
  const out = await runText(
    workNet(),
    `CREATE QUERY companyCount() FOR GRAPH workNet {
       MapAccum<STRING, SumAccum<INT>> @@fullTimeByCountry;
       SumAccum<INT> @employees;
       MinAccum<INT> @firstYear;
       C = SELECT c FROM person:s -(worksFor:e)- company:c
           WHERE e.fullTime
           ACCUM c.@employees += 1, c.@firstYear += e.startYear, @@fullTimeByCountry += (c.country -> 1)
           ORDER BY c.@firstYear;
       PRINT C[C.@employees AS employees, C.@firstYear AS since], @@fullTimeByCountry;
     }`,
  );
  assert.deepEqual(out, [
    {
      C: [
        { v_id: 'company1', v_type: 'company', attributes: { employees: 1, since: 2016 } },
        { v_id: 'company2', v_type: 'company', attributes: { employees: 2, since: 2017 } },
      ],
      '@@fullTimeByCountry': { us: 1, chn: 2 },
    },
  ]);
});
