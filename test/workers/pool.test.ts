/**
 * The pool's control of its workers, with a stand-in worker program (fixtures/stub-thread.ts): a
 * task past its deadline on a worker that never stops is ended by terminating the worker, so is an
 * aborted one; a worker that dies fails its task only; every such worker is replaced, tasks queue
 * while all workers are busy, and each task reads the version pinned when it started.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Database } from '../../src/engine/database.js';
import { epochs } from '../../src/store/epochs.js';
import { QueryPool, TaskStopped } from '../../src/workers/index.js';

const ENTRY = new URL('./fixtures/stub-thread.js', import.meta.url);

let dir: string;
let db: Database;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ocelot-pool-'));
  db = await Database.open({ dataDir: dir, sync: 'none', rebuildIntervalMs: 0 });
});
after(async () => {
  await db.close();
  await rm(dir, { recursive: true, force: true });
});

async function stopped(p: Promise<unknown>): Promise<TaskStopped> {
  try {
    await p;
  } catch (e) {
    if (e instanceof TaskStopped) return e;
    throw e;
  }
  assert.fail('the task was expected to be stopped');
}

test('a task past its deadline is stopped by terminating its worker; the pool goes on', async () => {
  const pool = new QueryPool(db, { threads: 1, entry: ENTRY });
  try {
    const e = await stopped(
      pool.run({ kind: 'call', fn: 'spin', input: null }, { deadline: Date.now() + 200 }),
    );
    assert.equal(e.reason, 'timeout');
    const r = await pool.run({ kind: 'call', fn: 'echo', input: 'after' });
    assert.deepEqual(r, { kind: 'call', output: { input: 'after', version: db.version } });
    assert.equal(pool.stats.started, 2, 'a fresh worker replaced the terminated one');
  } finally {
    await pool.close();
  }
  assert.equal(epochs.active, 0, 'no task still counts as running');
});

test('one timer serves every deadline: a later task with an earlier deadline is stopped first', async () => {
  const pool = new QueryPool(db, { threads: 2, entry: ENTRY });
  try {
    // The first task's far deadline sets the timer; the second's nearer one must move it.
    const far = stopped(
      pool.run({ kind: 'call', fn: 'spin', input: null }, { deadline: Date.now() + 60_000 }),
    );
    const near = await stopped(
      pool.run({ kind: 'call', fn: 'spin', input: null }, { deadline: Date.now() + 200 }),
    );
    assert.equal(near.reason, 'timeout');
    // A task that answers before its deadline is not stopped, and the timer still serves the rest
    // (a generous deadline: the stopped worker is replaced first, which a loaded box makes slow).
    const r = await pool.run({ kind: 'call', fn: 'echo', input: 1 }, { deadline: Date.now() + 30_000 });
    assert.deepEqual(r, { kind: 'call', output: { input: 1, version: db.version } });
    const next = await stopped(
      pool.run({ kind: 'call', fn: 'spin', input: null }, { deadline: Date.now() + 300 }),
    );
    assert.equal(next.reason, 'timeout');
    await pool.close();
    assert.equal((await far).reason, 'closed', 'the far deadline had not passed');
  } finally {
    await pool.close();
  }
  assert.equal(epochs.active, 0, 'no task still counts as running');
});

test('an abort stops a task whose worker never reads it; waiting tasks run', async () => {
  const pool = new QueryPool(db, { threads: 1, entry: ENTRY });
  try {
    const ac = new AbortController();
    const spinning = stopped(pool.run({ kind: 'call', fn: 'spin', input: null }, { signal: ac.signal }));
    const waiting = pool.run({ kind: 'call', fn: 'echo', input: 2 });
    ac.abort();
    assert.equal((await spinning).reason, 'aborted');
    assert.deepEqual((await waiting).kind, 'call');
    // A task aborted before it started never reaches a worker.
    const gone = new AbortController();
    gone.abort();
    assert.equal(
      (await stopped(pool.run({ kind: 'call', fn: 'echo', input: 3 }, { signal: gone.signal }))).reason,
      'aborted',
    );
  } finally {
    await pool.close();
  }
});

test('a worker that dies fails its task only; the others and later tasks are answered', async () => {
  const pool = new QueryPool(db, { threads: 2, entry: ENTRY });
  try {
    const results = await Promise.allSettled([
      pool.run({ kind: 'call', fn: 'crash', input: null }),
      pool.run({ kind: 'call', fn: 'echo', input: 'a' }),
      pool.run({ kind: 'call', fn: 'throw', input: null }),
      pool.run({ kind: 'call', fn: 'echo', input: 'b' }),
    ]);
    const reasons = results.map((r) =>
      r.status === 'rejected'
        ? (r.reason as TaskStopped).reason
        : (r.value as { output: { input: string } }).output.input,
    );
    assert.deepEqual(reasons, ['crashed', 'a', 'crashed', 'b']);
    const later = await pool.run({ kind: 'call', fn: 'echo', input: 'c' });
    assert.equal((later as { output: { input: string } }).output.input, 'c');
  } finally {
    await pool.close();
  }
});

test('tasks queue behind busy workers and each reads the version of its start', async () => {
  const pool = new QueryPool(db, { threads: 2, entry: ENTRY });
  try {
    const before = db.version;
    const first = await Promise.all(
      [1, 2, 3, 4, 5].map((i) => pool.run({ kind: 'call', fn: 'echo', input: i })),
    );
    assert.deepEqual(
      first.map((r) => (r as { output: unknown }).output),
      [1, 2, 3, 4, 5].map((input) => ({ input, version: before })),
    );
    await db.changeCatalog({ ...db.catalog });
    const r = await pool.run({ kind: 'call', fn: 'echo', input: 6 });
    assert.deepEqual((r as { output: unknown }).output, { input: 6, version: db.version });
    assert.ok(db.version > before);
  } finally {
    await pool.close();
  }
});

test('closing the pool fails waiting and running tasks', async () => {
  const pool = new QueryPool(db, { threads: 1, entry: ENTRY });
  const running = stopped(pool.run({ kind: 'call', fn: 'spin', input: null }));
  const waiting = stopped(pool.run({ kind: 'call', fn: 'echo', input: 1 }));
  await new Promise((r) => setTimeout(r, 50));
  await pool.close();
  assert.equal((await running).reason, 'closed');
  assert.equal((await waiting).reason, 'closed');
  assert.equal((await stopped(pool.run({ kind: 'call', fn: 'echo', input: 1 }))).reason, 'closed');
});
