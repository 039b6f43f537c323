/**
 * What the parallel SELECT tests share: a seeded generator, a host that plays the other threads
 * on the test's own thread, and a database with a schema and installed queries whose SELECTs split
 * on small graphs.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../../src/engine/database.js';
import {
  executeQuery,
  parallelSelect,
  registryFor,
  shareRunArrays,
  type AccumJob,
  type CompiledQuery,
  type ParallelHost,
} from '../../src/query/index.js';
import { runScript } from '../../src/shell/run-script.js';
import { JsonText } from '../../src/util/json.js';
import { attachPool, type PoolOptions, QueryPool, releasePool, runQuery } from '../../src/workers/index.js';

const ENTRY = new URL('../../src/server/workers/thread.js', import.meta.url);

/** A seeded xorshift generator of integers in [0, m). */
export function rnd(seed: number): (m: number) => number {
  let x = seed | 1;
  return (m) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % m;
  };
}

/**
 * Plays the other threads: every partition runs here, last partition first. `stalled`: another
 * thread took the first range of a hoisting pull's fill and has not filled it (yet): this thread
 * must not wait for it.
 */
export class ReverseHost implements ParallelHost {
  readonly threads = 4;
  readonly jobs: AccumJob[] = [];
  private left: number[] = [];

  constructor(private readonly stalled = false) {}

  accum(_query: CompiledQuery, job: AccumJob, ownShare: () => void): [] {
    this.jobs.push(job);
    if (this.stalled && job.pull?.hoisted) Atomics.add(job.pull.hoisted.filling, 0, 1);
    this.left = Array.from({ length: job.bounds.length - 1 }, (_, p) => p).reverse();
    ownShare();
    return [];
  }

  take(): number {
    return this.left.shift() ?? -1;
  }

  expect(): void {}
}

/**
 * A database in `dir` with `schema` (which creates graph g) and `queries` installed. No idle merge
 * unless asked: a merge landing mid-test would change which walk a SELECT takes.
 */
export async function queryDb(
  dir: string,
  schema: string,
  queries: readonly (readonly [string, string, ...unknown[]])[],
  idleMergeMs = 0,
): Promise<Database> {
  const db = await Database.open({
    dataDir: join(dir, 'db'),
    sync: 'none',
    rebuildIntervalMs: 0,
    idleMergeMs,
  });
  let out = '';
  assert.equal(await runScript(db, schema, { user: 'tigergraph' }, (t) => (out += t)), 0, out);
  for (const [, q] of queries)
    assert.equal(await runScript(db, `USE GRAPH g\n${q}`, { user: 'tigergraph' }, (t) => (out += t)), 0, out);
  await registryFor(db).install('g', 'all', db.catalog, true);
  return db;
}

/** Split thresholds low enough for the tests' graphs of a few hundred vertices to split. */
export const LOWERED = { minSources: 16, minPartition: 32, sourceCost: 2, pullCost: 1 };

/** A test database (queryDb) in a fresh temporary directory, and how to be done with it. */
export interface LoweredDb {
  dir: string;
  db: Database;
  /** Puts the split thresholds back, closes the database and removes the directory. */
  close(): Promise<void>;
}

/**
 * queryDb in a new directory named from `prefix`, with run arrays in shared memory (as a query
 * worker keeps them) and SELECTs splitting at `thresholds` until `close()`.
 */
export async function loweredQueryDb(
  prefix: string,
  schema: string,
  queries: readonly (readonly [string, string, ...unknown[]])[],
  thresholds: Partial<typeof parallelSelect> = LOWERED,
): Promise<LoweredDb> {
  const saved = { ...parallelSelect };
  shareRunArrays();
  Object.assign(parallelSelect, thresholds);
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const db = await queryDb(dir, schema, queries);
  return {
    dir,
    db,
    close: async () => {
      Object.assign(parallelSelect, saved);
      await db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The text of a WCC query over edge type E in both directions, as the bench and the algorithm
 * library write it: `getvid` labels, MinAccum propagation while anything changed, a Roots pass.
 * `sources`: the vertex set it starts from (e.g. `V.*`); `print`: what it prints beside the count.
 */
export function labelsQuery(name: string, sources: string, print: string): string {
  return `CREATE QUERY ${name}() FOR GRAPH g {
      MinAccum<INT> @cc; SumAccum<INT> @@components;
      All = {${sources}};
      Changed = SELECT v FROM All:v POST-ACCUM v.@cc = getvid(v);
      WHILE Changed.size() > 0 DO
        Changed = SELECT t FROM Changed:v -(E>|<E:e)- V:t WHERE v.@cc < t.@cc ACCUM t.@cc += v.@cc;
      END;
      Roots = SELECT v FROM All:v WHERE v.@cc == getvid(v) POST-ACCUM @@components += 1;
      PRINT @@components, ${print};
    }`;
}

/**
 * What an installed query of graph g prints, as JSON text: run here on one thread, here with a
 * host playing the other threads, or on the database's attached query pool.
 */
export async function printedAnswer(
  db: Database,
  name: string,
  where: ParallelHost | 'here' | 'pool',
  args: Record<string, unknown> = {},
): Promise<string> {
  const query = registryFor(db).installed('g', name, db.catalog);
  const r =
    where === 'pool'
      ? await runQuery(db, { kind: 'installed', graph: 'g', query, args })
      : await executeQuery(db, query, args, where === 'here' ? {} : { parallel: where });
  return r.results instanceof JsonText ? r.results.text : JSON.stringify(r.results);
}

/**
 * Runs `fn` with a query pool of `threads` workers attached to `db` (SELECTs splitting at
 * `thresholds`), then releases the pool.
 */
export async function withQueryPool(
  db: Database,
  threads: number,
  fn: (pool: QueryPool) => Promise<void>,
  thresholds: PoolOptions['parallelSelect'] = LOWERED,
): Promise<void> {
  const pool = new QueryPool(db, { threads, entry: ENTRY, parallelSelect: thresholds });
  attachPool(db, pool);
  try {
    await fn(pool);
  } finally {
    await releasePool(db);
  }
}

/**
 * Each query of `names` prints on query pools of 2 and 4 workers what it prints here on one
 * thread, twice (the second run starts from the workers' pooled run arrays), and some SELECT splits.
 */
export async function assertSameOnPools(
  db: Database,
  names: readonly string[],
  answer: (name: string, where: 'here' | 'pool') => Promise<string>,
): Promise<void> {
  const want = new Map<string, string>();
  for (const name of names) want.set(name, await answer(name, 'here'));
  for (const threads of [2, 4])
    await withQueryPool(db, threads, async (pool) => {
      for (let run = 0; run < 2; run++)
        for (const name of names)
          assert.equal(await answer(name, 'pool'), want.get(name), `${name} on ${threads} threads`);
      assert.ok(pool.stats.helped > 0, 'some SELECT was split');
    });
}
