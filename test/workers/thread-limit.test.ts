/**
 * GSQL-THREAD-LIMIT caps the threads a query's split SELECTs use: at 1 no helper joins, at 2 at
 * most one does, and the answer is the same at every limit.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Database } from '../../src/engine/database.js';
import { registryFor } from '../../src/query/index.js';
import { runScript } from '../../src/shell/run-script.js';
import { JsonText } from '../../src/util/json.js';
import { attachPool, QueryPool, runQuery } from '../../src/workers/index.js';

const ENTRY = new URL('../../src/server/workers/thread.js', import.meta.url);

const SCRIPT = `
CREATE VERTEX V (PRIMARY_ID id INT)
CREATE DIRECTED EDGE E (FROM V, TO V)
CREATE GRAPH g (*)
USE GRAPH g
CREATE QUERY spread() FOR GRAPH g {
  SumAccum<INT> @n; SumAccum<INT> @@total;
  All = {V.*};
  R = SELECT t FROM All:v -(E>)- V:t ACCUM t.@n += 1, @@total += 1;
  PRINT @@total;
}
`;

test('GSQL-THREAD-LIMIT: 1 runs a query on its own thread, 2 with at most one helper, same answer', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ocelot-tlimit-'));
  const db = await Database.open({ dataDir: join(dir, 'db'), sync: 'none', rebuildIntervalMs: 0 });
  try {
    let out = '';
    assert.equal(await runScript(db, SCRIPT, { user: 'tigergraph' }, (t) => (out += t)), 0, out);
    await registryFor(db).install('g', 'all', db.catalog, true);
    const n = 2000;
    await db.write((tx) => {
      for (let i = 0; i < n; i++) tx.upsertVertex('V', i, {});
      for (let i = 0; i < n; i++)
        for (const d of [1, 7, 31]) tx.upsertEdge('E', 'V', i, 'V', (i + d) % n, {});
    });
    await db.rebuild({ path: join(dir, 'summary') });
    const pool = new QueryPool(db, {
      threads: 3,
      entry: ENTRY,
      parallelSelect: { minSources: 16, minPartition: 64 },
    });
    attachPool(db, pool);
    try {
      const query = registryFor(db).installed('g', 'spread', db.catalog);
      const run = async (threadLimit?: number): Promise<{ answer: string; helped: number }> => {
        const before = pool.stats.helped;
        const r = await runQuery(
          db,
          { kind: 'installed', graph: 'g', query, args: {} },
          threadLimit === undefined ? {} : { threadLimit },
        );
        const answer = r.results instanceof JsonText ? r.results.text : JSON.stringify(r.results);
        return { answer, helped: pool.stats.helped - before };
      };
      const expected = JSON.stringify([{ '@@total': 3 * n }]);
      // Helpers join when they are idle at that moment (a previous task's helpers are released
      // asynchronously), so a limit runs until the allowed number joined (a bounded number of
      // tries, each after the pool settled): never more than the limit allows, every answer equal.
      const reach = async (threadLimit: number | undefined, allowed: number): Promise<number> => {
        let seen = 0;
        for (let i = 0; i < 40 && seen < allowed; i++) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          const r = await run(threadLimit);
          assert.equal(r.answer, expected, `answer at limit ${threadLimit}`);
          assert.ok(r.helped <= allowed, `${r.helped} helpers at limit ${threadLimit}`);
          seen = Math.max(seen, r.helped);
        }
        return seen;
      };
      assert.equal(await reach(undefined, 2), 2, 'without a limit both other threads help');
      for (let i = 0; i < 5; i++) assert.equal((await run(1)).helped, 0);
      assert.equal(await reach(2, 1), 1);
      assert.equal(await reach(64, 2), 2, '--threads caps a larger limit');
    } finally {
      await pool.close();
    }
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
});
