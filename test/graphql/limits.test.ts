/**
 * Cost control through the service on a graph big enough to matter (300 vertices, 20 edges each):
 * the estimate before execution (roots × fan-out per level, aliases and fragments counted, exact
 * degrees of roots named by id), refusals naming the limit and the estimate, the depth and row
 * limits, the deadline and the abort signal during execution, a batch's shared budget, and the
 * per-role limits.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Database } from '../../src/engine/database.js';
import {
  DEFAULT_LIMITS,
  GraphQLService,
  limitsOfRoles,
  parseRoleLimits,
  type GraphQLLimits,
} from '../../src/graphql/index.js';
import { INLINE_MAX_COST } from '../../src/graphql/inline.js';
import { runScript } from '../../src/shell/run-script.js';
import { parsed, type Answer } from './fixture.js';

const N = 300;
const FANOUT = 20;
let dir: string;
let db: Database;
let service: GraphQLService;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ocelot-graphql-limits-'));
  db = await Database.open({ dataDir: dir, sync: 'none', rebuildIntervalMs: 0 });
  let out = '';
  const code = await runScript(
    db,
    'CREATE VERTEX v (PRIMARY_ID id INT, name STRING)\nCREATE DIRECTED EDGE e (FROM v, TO v)\nCREATE GRAPH G (v, e)',
    { user: 'tigergraph' },
    (t) => (out += t),
  );
  assert.equal(code, 0, out);
  await db.write((tx) => {
    for (let i = 0; i < N; i++) tx.upsertVertex('v', i, { name: { value: `n${i}`, op: 'set' } });
    // Vertex 0 is a hub with an edge to every vertex; the others have FANOUT edges each.
    for (let t = 1; t < N; t++) tx.upsertEdge('e', 'v', 0, 'v', t, {});
    for (let i = 1; i < N; i++)
      for (let k = 1; k <= FANOUT; k++) tx.upsertEdge('e', 'v', i, 'v', (i * 7 + k * 13) % N, {});
  });
  service = new GraphQLService(db);
});
after(async () => {
  await db.close();
  await rm(dir, { recursive: true, force: true });
});

async function run(
  query: string,
  opts: {
    limits?: Partial<GraphQLLimits>;
    timeoutMs?: number;
    signal?: { aborted: boolean };
    budget?: { cost: number };
  } = {},
): Promise<Answer> {
  const limits = { ...DEFAULT_LIMITS, ...opts.limits };
  return parsed(await service.execute('G', { query }, { method: 'POST', ...opts, limits }));
}

/** The estimated cost of a query: the refusal under a limit of 1 names it. */
async function estimate(query: string): Promise<number> {
  const a = await run(query, { limits: { maxCost: 1 } });
  assert.equal(a.status, 400, JSON.stringify(a.body));
  assert.equal(a.body.errors?.[0].extensions?.code, 'GRAPHQL-COST');
  return a.body.errors?.[0].extensions?.cost as number;
}

const hops = (root: string, k: number) =>
  `{ G { v(where: {_id: {_eq: ${root}}}) { ${'e { to { '.repeat(k)} name ${'} } '.repeat(k)} } } }`;

test('a deep traversal is refused before it runs, naming the limit and the estimate', async () => {
  const a = await run(hops('5', 6));
  assert.equal(a.status, 400);
  assert.equal(a.body.data, undefined);
  const e = a.body.errors?.[0];
  assert.equal(e?.extensions?.code, 'GRAPHQL-COST');
  assert.equal(e?.extensions?.limit, DEFAULT_LIMITS.maxCost);
  const cost = e?.extensions?.cost as number;
  // 20 edges per level, six levels, edges and vertices both counted: about 2·20^6.
  assert.ok(cost > 20 ** 6, `estimate ${cost}`);
  assert.equal(
    e?.message,
    `The query's estimated cost is ${cost.toLocaleString('en-US')}, over the limit of ${DEFAULT_LIMITS.maxCost.toLocaleString('en-US')} (--graphql-max-cost): it would read about that many vertices and edges. Narrow it with filters, limit or first.`,
  );
  // The same query within a raised limit runs.
  const ok = await run(hops('5', 2), { limits: { maxCost: 0 } });
  assert.equal(ok.status, 200);
});

test('the estimate counts aliases and expanded fragments, and reads the degrees of named roots', async () => {
  const one = await estimate(hops('5', 2));
  const thirty = await estimate(
    `{ G { ${Array.from({ length: 30 }, (_, i) => `a${i}: v(where: {_id: {_eq: 5}}) { e { to { e { to { name } } } } }`).join(' ')} } }`,
  );
  assert.ok(thirty >= 29 * one && thirty <= 31 * one, `${thirty} vs 30 × ${one}`);
  const viaFragments = await estimate(
    '{ G { v(where: {_id: {_eq: 5}}) { ...Hop } } } fragment Hop on v { e { to { ...Leaf } } } fragment Leaf on v { e { to { name } } }',
  );
  assert.equal(viaFragments, one);
  // The hub has 299 edges, a leaf 20: the first level is read exactly.
  const hub = await estimate(hops('0', 1));
  const leaf = await estimate(hops('5', 1));
  assert.ok(hub > 10 * leaf, `hub ${hub}, leaf ${leaf}`);
  // A whole-type root multiplies by the vertex count; a limit bounds it.
  const all = await estimate('{ G { v { e { to { name } } } } }');
  const limited = await estimate('{ G { v(limit: 3) { e { to { name } } } } }');
  assert.ok(all > 50 * limited, `all ${all}, limit 3 ${limited}`);
});

test('depth and row limits; the deadline and the abort signal stop a running request', async () => {
  const deep = await run(hops('5', 8), { limits: { maxCost: 0 } });
  assert.equal(deep.status, 400);
  assert.deepEqual(deep.body.errors?.[0].extensions, { code: 'GRAPHQL-DEPTH', depth: 16, limit: 15 });
  assert.match(deep.body.errors?.[0].message ?? '', /nests fields 16 deep at G\.v\.e\.to\.e\.to/);
  const rows = await run('{ G { v { e { to { name } } } } }', { limits: { maxRows: 1000 } });
  assert.equal(rows.status, 400);
  assert.deepEqual(rows.body.errors?.[0].extensions, { code: 'GRAPHQL-ROWS', limit: 1000 });
  // Nested neighbour filters that never match: millions of edge checks, no output.
  const slow =
    '{ G { v(where: {e: {_some: {to: {e: {_some: {to: {e: {_some: {to: {name: {_eq: "none"}}}}}}}}}}}) { name } } }';
  const timeout = await run(slow, { timeoutMs: 1 });
  assert.equal(timeout.status, 408);
  assert.deepEqual(timeout.body.errors?.[0].extensions, { code: 'GSQL-TIMEOUT', timeoutMs: 1 });
  assert.match(timeout.body.errors?.[0].message ?? '', /did not finish within its timeout of 1 ms/);
  const aborted = await run(slow, { signal: { aborted: true } });
  assert.equal(aborted.status, 499);
  assert.equal(aborted.body.errors?.[0].extensions?.code, 'GRAPHQL-ABORTED');
});

test('a batch shares one cost budget', async () => {
  const one = await estimate(hops('5', 2));
  const budget = { cost: 0 };
  const limits = { maxCost: Math.floor(one * 1.5) };
  assert.equal((await run(hops('5', 2), { limits, budget })).status, 200);
  const second = await run(hops('5', 2), { limits, budget });
  assert.equal(second.status, 400);
  assert.equal(second.body.errors?.[0].extensions?.code, 'GRAPHQL-COST');
});

test('point lookups by id run here; scans, edge fields and many ids are left for a worker', async () => {
  const here = (query: string, budget = { cost: 0 }) =>
    service.executeHere('G', { query }, { method: 'POST', limits: DEFAULT_LIMITS, budget });
  const point = here('{ G { v(where: {_id: {_in: [1, 2]}}) { _id name } } }');
  assert.ok(point);
  assert.deepEqual(parsed(await point).body, {
    data: {
      G: {
        v: [
          { _id: 1, name: 'n1' },
          { _id: 2, name: 'n2' },
        ],
      },
    },
  });
  const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1).join(', ');
  assert.ok(here(`{ G { v(where: {_id: {_in: [${ids(16)}]}}) { name } } }`));
  const budget = { cost: 5 };
  assert.equal(
    here(`{ G { v(where: {_id: {_in: [${ids(INLINE_MAX_COST + 1)}]}}) { name } } }`, budget),
    undefined,
  );
  assert.deepEqual(budget, { cost: 5 }, 'a request left for a worker spends nothing here');
  assert.equal(here('{ G { v(limit: 1) { name } } }'), undefined, 'a scan');
  assert.equal(here(hops('0', 1)), undefined, 'an edge field, even from one id');
  assert.equal(here('{ G { v(where: {_id: {_eq: 3}}) { e_aggregate { count } } } }'), undefined);
  assert.equal(here('{ __schema { queryType { name } } }'), undefined, 'introspection');
  // A point lookup over the cost limit is refused here; a scan's cost is not even estimated here.
  const limits = { ...DEFAULT_LIMITS, maxCost: 1 };
  const refused = service.executeHere(
    'G',
    { query: '{ G { v(where: {_id: {_in: [1, 2]}}) { name } } }' },
    { method: 'POST', limits },
  );
  assert.ok(refused);
  assert.equal(parsed(await refused).body.errors?.[0].extensions?.code, 'GRAPHQL-COST');
  assert.equal(
    service.executeHere('G', { query: '{ G { v { name } } }' }, { method: 'POST', limits }),
    undefined,
  );
  // Not a document: answered here, the same as anywhere.
  const invalid = service.executeHere('G', { query: '{ G { nothing } }' }, { method: 'POST' });
  assert.ok(invalid);
  assert.equal((await invalid).status, 400);
});

test('per-role limits: parsed from the flag, the most generous role wins, 0 means none', () => {
  const roles = parseRoleLimits('queryreader:cost=10000,depth=8; designer : rows=5 ;superuser:cost=0');
  assert.deepEqual(
    [...roles],
    [
      ['queryreader', { maxCost: 10000, maxDepth: 8 }],
      ['designer', { maxRows: 5 }],
      ['superuser', { maxCost: 0 }],
    ],
  );
  const base = { maxCost: 100, maxDepth: 10, maxRows: 50 };
  assert.deepEqual(limitsOfRoles(base, ['observer'], roles), base);
  assert.deepEqual(limitsOfRoles(base, ['queryreader'], roles), { maxCost: 10000, maxDepth: 8, maxRows: 50 });
  assert.deepEqual(limitsOfRoles(base, ['queryreader', 'designer'], roles), {
    maxCost: 10000,
    maxDepth: 10,
    maxRows: 50,
  });
  assert.deepEqual(limitsOfRoles(base, ['queryreader', 'superuser'], roles), {
    maxCost: 0,
    maxDepth: 10,
    maxRows: 50,
  });
  assert.throws(() => parseRoleLimits('queryreader:speed=3'), /unknown limit 'speed' for role queryreader/);
  assert.throws(
    () => parseRoleLimits('queryreader:cost=lots'),
    /the cost limit of role queryreader must be a whole number, not 'lots'/,
  );
  assert.throws(() => parseRoleLimits('cost=3'), /'cost=3' is not role:key=N/);
});
