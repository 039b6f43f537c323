/**
 * A query's helpers go back to the pool when it ends: after a successful query the owner settles
 * its links and the pool frees the helpers on its answer (no message from them), so the next
 * query gets them at once; after a failed one they are freed when they say they left. Either way
 * every answer is right and no worker stays bound to a finished query. The channels two workers
 * keep for their links are made again when one of them is replaced, and serve queries that run
 * at the same time in every pairing of owner and helper; a query after a write reads it.
 * A helper whose owner's query succeeded stays on its link for the owner's next query (a kept
 * helper): that query gets it without a new link, reads its own version through it, and an abort,
 * a timeout, a task that needs the worker itself, a newer version while idle, or a lost worker
 * each take it off the link.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Worker } from 'node:worker_threads';
import { Database } from '../../src/engine/database.js';
import { QueryRuntimeError, registryFor } from '../../src/query/index.js';
import { runScript } from '../../src/shell/run-script.js';
import { JsonText } from '../../src/util/json.js';
import { attachPool, QueryAbort, QueryPool, runQuery } from '../../src/workers/index.js';

const ENTRY = new URL('../../src/server/workers/thread.js', import.meta.url);

const SCRIPT = `
CREATE VERTEX V (PRIMARY_ID id INT)
CREATE DIRECTED EDGE E (FROM V, TO V)
CREATE GRAPH g (*)
USE GRAPH g
CREATE QUERY spread(INT d) FOR GRAPH g {
  SumAccum<INT> @n; SumAccum<INT> @@total;
  All = {V.*};
  R = SELECT t FROM All:v -(E>)- V:t ACCUM t.@n += 1, @@total += 1;
  PRINT @@total / d AS total;
}
CREATE QUERY spin(INT iters) FOR GRAPH g {
  SumAccum<INT> @n; INT i = 0;
  All = {V.*};
  WHILE i < iters DO
    R = SELECT t FROM All:v -(E>)- V:t ACCUM t.@n += 1;
    i = i + 1;
  END;
  PRINT i;
}
`;

/**
 * Runs `fn` on a database of `n` vertices V, each with edges to the ones 1, 7 and 31 further on
 * (mod n), merged, with a pool of `threads` workers attached; `spread(d)` runs the query and gives
 * its printed answer.
 */
async function withSpread(
  n: number,
  threads: number,
  fn: (db: Database, pool: QueryPool, spread: (d: number) => Promise<string>) => Promise<void>,
  refreshMs?: number,
): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'ocelot-helpers-'));
  const db = await Database.open({ dataDir: join(dir, 'db'), sync: 'none', rebuildIntervalMs: 0 });
  try {
    let out = '';
    assert.equal(await runScript(db, SCRIPT, { user: 'tigergraph' }, (t) => (out += t)), 0, out);
    await registryFor(db).install('g', 'all', db.catalog, true);
    await db.write((tx) => {
      for (let i = 0; i < n; i++) tx.upsertVertex('V', i, {});
      for (let i = 0; i < n; i++)
        for (const d of [1, 7, 31]) tx.upsertEdge('E', 'V', i, 'V', (i + d) % n, {});
    });
    await db.rebuild({ path: join(dir, 'summary') });
    const pool = new QueryPool(db, {
      threads,
      entry: ENTRY,
      parallelSelect: { minSources: 16, minPartition: 64 },
      ...(refreshMs === undefined ? {} : { refreshMs }),
    });
    attachPool(db, pool);
    try {
      const query = registryFor(db).installed('g', 'spread', db.catalog);
      await fn(db, pool, async (d) => {
        const r = await runQuery(db, { kind: 'installed', graph: 'g', query, args: { d } });
        return r.results instanceof JsonText ? r.results.text : JSON.stringify(r.results);
      });
    } finally {
      await pool.close();
    }
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

type Helped = { answer: string; helped: number };

/** `run()` again, a bounded number of times, until a helper joined it. */
async function untilHelped(run: () => Promise<Helped>): Promise<Helped> {
  let r = await run();
  for (let i = 0; i < 50 && r.helped === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    r = await run();
  }
  return r;
}

test('helpers are free again after a query that succeeded (at once) and one that failed', async () => {
  const n = 2000;
  await withSpread(n, 2, async (db, pool, spread) => {
    const run = async (d: number): Promise<Helped> => {
      const before = pool.stats.helped;
      const answer = await spread(d);
      return { answer, helped: pool.stats.helped - before };
    };
    // The workers start with the pool: wait until the first query gets its helper.
    const first = await untilHelped(() => run(1));
    assert.equal(first.helped, 1, 'a helper joined');
    const expected = JSON.stringify([{ total: 3 * n }]);
    for (let i = 0; i < 12; i++) {
      const r = await run(1);
      assert.equal(r.answer, expected);
      assert.equal(r.helped, 1, `query ${i} right after the previous one got the helper`);
    }
    await assert.rejects(run(0), (e: unknown) => e instanceof QueryRuntimeError && e.code === 'GSQL-2500');
    // The failed query's helper is freed when its message arrives: bounded tries.
    const after = await untilHelped(() => run(2));
    assert.equal(after.answer, JSON.stringify([{ total: (3 * n) / 2 }]));
    assert.equal(after.helped, 1, 'the helper came back after the failed query');
    assert.equal((await run(1)).helped, 1);
    // A worker replaced (the helper's, then the owner's): the pair's channel is made anew.
    const slots = (pool as unknown as { slots: { worker?: Worker }[] }).slots;
    for (const k of [1, 0]) {
      await slots[k]?.worker?.terminate();
      const r = await untilHelped(() => run(1));
      assert.equal(r.answer, expected);
      assert.equal(r.helped, 1, `a helper joined after worker ${k} was replaced`);
      for (let i = 0; i < 3; i++) assert.deepEqual(await run(1), { answer: expected, helped: 1 });
    }
    // Edges written between two queries: the next one (owner and helper) reads the new version.
    await db.write((tx) => {
      for (let i = 0; i < n; i++) tx.upsertEdge('E', 'V', i, 'V', (i + 2) % n, {});
    });
    const grown = await run(1);
    assert.deepEqual(grown, { answer: JSON.stringify([{ total: 4 * n }]), helped: 1 });
  });
});

test('kept channels serve queries at the same time, whichever workers own and help', async () => {
  const n = 3000;
  await withSpread(n, 3, async (_db, pool, run) => {
    const answer = (d: number): string => JSON.stringify([{ total: Math.trunc((3 * n) / d) }]);
    const before = pool.stats.helped;
    for (let round = 0; round < 12; round++) {
      // One, two or three at once: owners and helpers change places between rounds.
      const ds = [1, 2, 3].slice(0, 1 + (round % 3));
      assert.deepEqual(await Promise.all(ds.map(run)), ds.map(answer), `round ${round}`);
    }
    assert.ok(pool.stats.helped > before, 'helpers joined');
  });
});

/** The pool's slots as the tests look into them (which worker is kept on a parked link). */
type Slots = { worker?: Worker; parked?: unknown }[];

/**
 * Runs `run()` until the pool keeps a helper on its owner's link, pausing 10 ms between tries (a
 * helper joins a small query only if it wakes before the owner is done, which a busy machine
 * delays), at most 300 times.
 */
async function untilKept(slots: Slots, run: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 300 && !slots[1]?.parked; i++) {
    await run();
    if (!slots[1]?.parked) await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Polls `done` every 10 ms, at most `tries` times. */
async function until(done: () => boolean, tries = 500): Promise<boolean> {
  for (let i = 0; i < tries && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  return done();
}

test("a kept helper serves its owner's next queries, on their own versions", async () => {
  const n = 2000;
  await withSpread(
    n,
    2,
    async (db, pool, spread) => {
      const slots = (pool as unknown as { slots: Slots }).slots;
      const run = async (d: number): Promise<Helped & { kept: number }> => {
        const before = { helped: pool.stats.helped, kept: pool.stats.kept };
        const answer = await spread(d);
        return { answer, helped: pool.stats.helped - before.helped, kept: pool.stats.kept - before.kept };
      };
      await untilHelped(() => run(1));
      const expected = JSON.stringify([{ total: 3 * n }]);
      // (The first helper may have come on a link the query asked for: not kept.)
      assert.equal((await run(1)).helped, 1);
      assert.ok(slots[1]?.parked, 'the helper stays on the link its owner parked');
      for (let i = 0; i < 5; i++)
        assert.deepEqual(await run(1), { answer: expected, helped: 1, kept: 1 }, `query ${i}`);
      // A write between two queries: the kept helper takes the new version's image with the query.
      await db.write((tx) => {
        for (let i = 0; i < n; i++) tx.upsertEdge('E', 'V', i, 'V', (i + 2) % n, {});
      });
      assert.deepEqual(await run(1), { answer: JSON.stringify([{ total: 4 * n }]), helped: 1, kept: 1 });
      // Two queries at once: the kept helper's worker runs the second one itself.
      const both = await Promise.all([run(1), run(2)]);
      assert.deepEqual(
        both.map((r) => r.answer),
        [JSON.stringify([{ total: 4 * n }]), JSON.stringify([{ total: 2 * n }])],
      );
      // Its link is taken up again by the next single query, or a fresh one made.
      const next = await untilHelped(() => run(1));
      assert.equal(next.answer, JSON.stringify([{ total: 4 * n }]));
      await run(1);
      assert.ok(slots[1]?.parked, 'kept again');
      // (No idle refresh here: it would take the helper off its link when the version moves.)
    },
    3_600_000,
  );
});

test('the idle refresh of a newer version takes a kept helper off its link', async () => {
  const n = 500;
  await withSpread(
    n,
    2,
    async (db, pool, spread) => {
      const slots = (pool as unknown as { slots: Slots }).slots;
      const helped = async (): Promise<number> => {
        const before = pool.stats.helped;
        await spread(1);
        return pool.stats.helped - before;
      };
      await untilKept(slots, helped);
      assert.ok(slots[1]?.parked, 'kept');
      await db.write((tx) => tx.upsertEdge('E', 'V', 0, 'V', 5, {}));
      assert.ok(await until(() => slots[1]?.parked === undefined), 'the refresh released the kept helper');
      const kept = pool.stats.kept;
      assert.equal(await spread(1), JSON.stringify([{ total: 3 * n + 1 }]));
      assert.equal(pool.stats.kept, kept, 'a fresh link');
    },
    20,
  );
});

test('a query whose helper was kept can be aborted or time out; the helper comes back', async () => {
  const n = 2000;
  await withSpread(n, 2, async (db, pool, spread) => {
    const slots = (pool as unknown as { slots: Slots }).slots;
    const spin = registryFor(db).installed('g', 'spin', db.catalog);
    const expected = JSON.stringify([{ total: 3 * n }]);
    await untilHelped(async () => {
      const before = pool.stats.helped;
      return { answer: await spread(1), helped: pool.stats.helped - before };
    });
    for (const how of ['abort', 'timeout'] as const) {
      // A helper the last query asked for itself (its link not of a kept channel) is not kept;
      // the next query gets it with its task, and keeps it.
      assert.equal(await spread(1), expected);
      assert.ok(slots[1]?.parked, `kept before the ${how}`);
      const kept = pool.stats.kept;
      const abort = new QueryAbort();
      const running = runQuery(
        db,
        { kind: 'installed', graph: 'g', query: spin, args: { iters: 1e9 } },
        how === 'abort' ? { abort } : { deadline: Date.now() + 300 },
      );
      assert.equal(pool.stats.kept, kept + 1, 'the running query got the kept helper');
      if (how === 'abort') abort.abort();
      const code = how === 'abort' ? 'GSQL-6500' : 'GSQL-7002';
      await assert.rejects(running, (e: unknown) => e instanceof QueryRuntimeError && e.code === code);
      const after = await untilHelped(async () => {
        const before = pool.stats.helped;
        return { answer: await spread(1), helped: pool.stats.helped - before };
      });
      assert.deepEqual(after, { answer: expected, helped: 1 }, `a helper joined after the ${how}`);
    }
  });
});

test("a kept helper whose query fails at once still takes that query's image: later versions read right", async () => {
  const n = 1000;
  await withSpread(
    n,
    2,
    async (db, pool, spread) => {
      const slots = (pool as unknown as { slots: Slots }).slots;
      const spin = registryFor(db).installed('g', 'spin', db.catalog);
      let total = 3 * n;
      await untilKept(slots, () => spread(1));
      for (let round = 0; round < 6; round++) {
        // A new version, then a query that takes the kept helper and is aborted before it splits.
        await db.write((tx) => tx.upsertEdge('E', 'V', round, 'V', (round + 500) % n, {}));
        total++;
        await untilKept(slots, async () => assert.equal(await spread(1), JSON.stringify([{ total }])));
        assert.ok(slots[1]?.parked, `kept in round ${round}`);
        const abort = new QueryAbort();
        const running = runQuery(
          db,
          { kind: 'installed', graph: 'g', query: spin, args: { iters: 1e9 } },
          { abort },
        );
        abort.abort();
        await assert.rejects(
          running,
          (e: unknown) => e instanceof QueryRuntimeError && e.code === 'GSQL-6500',
        );
        // Another version; the next queries' helper (kept or not) reads it whole.
        await db.write((tx) => tx.upsertEdge('E', 'V', round, 'V', (round + 600) % n, {}));
        total++;
        for (let i = 0; i < 3; i++)
          assert.equal(await spread(1), JSON.stringify([{ total }]), `round ${round}`);
      }
    },
    3_600_000,
  );
});
