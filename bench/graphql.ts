/**
 * GraphQL service benchmark (run by hand: `node dist/bench/graphql.js [--scale N] [--queries Q]`):
 * an RMAT graph of `person` vertices (INT age, STRING name) with directed `knows` edges is loaded
 * and rebuilt, then these run through the GraphQL service (no HTTP), each over one snapshot:
 *  1. root list with where + order_by + limit 10 (a full scan and sort) — ms per query
 *  2. the same filter as whereExpr (compiled GSQL) — ms per query
 *  3. 2-hop from one random person: knows { to { knows(limit 20) { to { name age } } } } — ms per query
 *  4. person_aggregate count with a filter — ms per query
 * Percentiles are over the queries.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Catalog } from '../src/catalog/types.js';
import { Database } from '../src/engine/database.js';
import { engineScript, numberArg } from './_engine-common.js';
import { GraphQLService } from '../src/graphql/index.js';
import { rmat, Rng } from './generators/rmat.js';

const catalog: Catalog = {
  version: 1,
  tuples: [],
  jobs: [],
  graphs: [{ name: 'g', vertexTypes: ['person'], edgeTypes: ['knows'] }],
  vertexTypes: [
    {
      name: 'person',
      keyKind: 'primary_id',
      primaryId: { name: 'id', type: { kind: 'INT', bytes: 8 } },
      keyAttributes: [],
      primaryIdAsAttribute: true,
      attributes: [
        { name: 'name', type: { kind: 'STRING', compress: false } },
        { name: 'age', type: { kind: 'INT', bytes: 8 } },
      ],
      stats: 'OUTDEGREE_BY_EDGETYPE',
    },
  ],
  edgeTypes: [
    {
      name: 'knows',
      directed: true,
      pairs: [{ from: 'person', to: 'person' }],
      attributes: [],
      discriminator: [],
    },
  ],
};

function percentiles(ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  const p = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))].toFixed(2);
  return `p50 ${p(0.5)} ms, p95 ${p(0.95)} ms, max ${s[s.length - 1].toFixed(2)} ms`;
}

async function time(
  label: string,
  n: number,
  query: (i: number) => string,
  service: GraphQLService,
): Promise<void> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const a = await service.execute('g', { query: query(i) }, { method: 'POST' });
    ms.push(performance.now() - t);
    if (a.text.startsWith('{"errors"')) throw new Error(`${label}: ${a.text.slice(0, 500)}`);
  }
  console.log(`${label}: ${percentiles(ms)} (${n} queries)`);
}

async function main(): Promise<void> {
  const scale = numberArg('scale', 14);
  const queries = numberArg('queries', 50);
  const dir = mkdtempSync(join(tmpdir(), 'ocelot-bench-graphql-'));
  try {
    const g = rmat(scale, 8, 42);
    const db = await Database.open({ dataDir: dir, sync: 'none', rebuildIntervalMs: 0 });
    await db.changeCatalog(catalog);
    const rng = new Rng(3);
    await db.write((tx) => {
      for (let v = 0; v < g.vertices; v++) {
        tx.upsertVertex('person', v, {
          name: { value: `p${v}`, op: 'set' },
          age: { value: 18 + rng.below(60), op: 'set' },
        });
      }
    });
    for (let start = 0; start < g.src.length; start += 100_000) {
      const end = Math.min(g.src.length, start + 100_000);
      await db.write((tx) => {
        for (let e = start; e < end; e++) tx.upsertEdge('knows', 'person', g.src[e], 'person', g.dst[e], {});
      });
    }
    await db.rebuild({ path: join(dir, 'rebuildnow') });
    console.log(`rmat scale ${scale}: ${g.vertices} persons, ${g.src.length} knows edges`);
    const service = new GraphQLService(db);
    await time(
      'root where + order_by + limit',
      queries,
      () => '{ g { person(where: {age: {_gt: 60}}, order_by: {age: desc, id: asc}, limit: 10) { id age } } }',
      service,
    );
    await time(
      'root whereExpr + limit',
      queries,
      () => '{ g { person(whereExpr: "age > 60 AND name LIKE \\"p1%\\"", limit: 10) { id } } }',
      service,
    );
    await time(
      '2-hop from one person',
      queries,
      (i) =>
        `{ g { person(where: {id: {_eq: ${g.src[(i * 7919) % g.src.length]}}}) { knows { to { knows(limit: 20) { to { name age } } } } } } }`,
      service,
    );
    await time(
      'aggregate count with a filter',
      queries,
      () => '{ g { person_aggregate(where: {age: {_lt: 30}}) { count } } }',
      service,
    );
    await db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const run = engineScript(import.meta.url, main);
