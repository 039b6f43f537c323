import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { schemaProblems } from '../../src/catalog/schema-check.js';
import type { Catalog } from '../../src/catalog/types.js';
import { MemoryStore, run } from '../shell/memory-store.js';

async function testGraph(): Promise<Catalog> {
  const store = new MemoryStore();
  await run(
    store,
    readFileSync(new URL('../../../test/fixtures/gsql/testserver.gsql', import.meta.url), 'utf8'),
  );
  return store.catalog;
}

test('a catalog built by the DDL statements has no problems', async () => {
  assert.deepEqual(schemaProblems(await testGraph()), []);
});

test('each broken rule is named', async () => {
  const c = await testGraph();
  const [tests] = c.graphs;
  const broken: Catalog = {
    ...c,
    graphs: [
      { ...tests, vertexTypes: [...tests.vertexTypes.filter((n) => n !== 'vertex5'), 'ghost'] },
      { name: 'side', vertexTypes: ['vertex4'], edgeTypes: [] },
    ],
    vertexTypes: c.vertexTypes.map((v) => (v.name === 'vertex7' ? { ...v, graph: 'gone' } : v)),
    edgeTypes: c.edgeTypes.map((e) =>
      e.name === 'edge6_loop' ? { ...e, pairs: [{ from: 'vertex4', to: 'nowhere' }] } : e,
    ),
  };
  const problems = schemaProblems(broken);
  for (const expected of [
    "The vertex type 'vertex7' is local to graph 'gone', which does not exist.",
    "The edge type 'edge6_loop' connects vertex type 'nowhere', which does not exist.",
    "Graph 'tests' lists vertex type 'ghost', which does not exist.",
    "Graph 'tests' has edge type 'edge1_undirected' but not its vertex type 'vertex5'.",
    "Graph 'side' lists vertex type 'vertex4', which is local to graph 'tests'.",
  ]) {
    assert.ok(problems.includes(expected), `${expected}\n in ${problems.join('\n')}`);
  }
});
