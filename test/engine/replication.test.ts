/**
 * The engine's cluster hooks without a cluster: a leader's commits go through a replicator before
 * the local WAL, a follower applies those records through the replay path, a failed replication
 * makes outcomes unknown, refuses writes and is undone by reload().
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EngineError, type CommitReplicator } from '../../src/engine/api.js';
import type { Database } from '../../src/engine/database.js';
import { fullCatalog, graphSnapshot, tempDir } from './fixtures.js';

/** Records every replicated record; `gate` decides when (and whether) each one is confirmed. */
class RecordingReplicator implements CommitReplicator {
  readonly records: { record: Uint8Array; version: number }[] = [];
  constructor(private readonly gate: (version: number) => Promise<void> = () => Promise.resolve()) {}
  replicate(record: Uint8Array, version: number): Promise<void> {
    this.records.push({ record: record.slice(), version });
    return this.gate(version);
  }
}

async function someWrites(db: Database, from: number, n: number): Promise<void> {
  await Promise.all(
    Array.from({ length: n }, (_, k) =>
      db.write((tx) => {
        const i = from + k;
        tx.upsertVertex('Num', i, { v: { value: i * 10, op: 'set' } });
        tx.upsertEdge('owns', 'Num', i, 'Item', i % 4, {});
      }),
    ),
  );
}

async function refusal(p: Promise<unknown>): Promise<EngineError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof EngineError, String(e));
    return e;
  }
  assert.fail('expected the engine to refuse');
}

test('a follower that applies the leader’s records reaches the same graph, schema changes included', async () => {
  const a = tempDir();
  const b = tempDir();
  try {
    const leader = await a.open();
    const rep = new RecordingReplicator();
    leader.lead(rep);
    await leader.changeCatalog(fullCatalog());
    await someWrites(leader, 0, 20);
    await leader.write((tx) => tx.deleteVertex('Num', 3));
    assert.deepEqual(
      rep.records.map((r) => r.version),
      Array.from({ length: rep.records.length }, (_, i) => i + 1),
      'every commit is replicated, in version order',
    );

    const follower = await b.open();
    follower.follow('a follower');
    for (const r of rep.records) {
      const { version, durable } = await follower.applyReplicated(r.record);
      assert.equal(version, r.version);
      await durable;
    }
    assert.equal(follower.version, leader.version);
    assert.deepEqual(graphSnapshot(follower), graphSnapshot(leader));
    // The follower's own WAL holds what it applied.
    await follower.close();
    const reopened = await b.open();
    assert.deepEqual(graphSnapshot(reopened), graphSnapshot(leader));
    await reopened.close();
    await leader.close();
  } finally {
    a.cleanup();
    b.cleanup();
  }
});

test('a follower refuses local writes but still rebuilds; a record out of order is refused', async () => {
  const t = tempDir();
  try {
    const db = await t.open();
    await db.changeCatalog(fullCatalog());
    db.follow('this node follows n1');
    const e = await refusal(db.write((tx) => tx.upsertVertex('Num', 1, { v: { value: 1, op: 'set' } })));
    assert.equal(e.code, 'SYS-0001');
    assert.equal(e.message, 'this node follows n1');
    assert.equal((await refusal(db.changeCatalog({ ...db.catalog }))).code, 'SYS-0001');
    await db.rebuild({ path: t.dir });

    // A record two versions ahead does not follow this node's data.
    const other = tempDir();
    const leader = await other.open();
    const rep = new RecordingReplicator();
    leader.lead(rep);
    await leader.changeCatalog(fullCatalog());
    await someWrites(leader, 0, 2);
    const gap = await refusal(db.applyReplicated(rep.records[2].record));
    assert.match(gap.message, /version 3 does not follow this node's version 1/);
    await leader.close();
    other.cleanup();
    await db.close();
  } finally {
    t.cleanup();
  }
});

test('a failed replication: no acknowledgement, later writes refused, the local WAL never gets the record, reload() returns to the confirmed state', async () => {
  const t = tempDir();
  try {
    const db = await t.open();
    await db.changeCatalog(fullCatalog());
    await someWrites(db, 0, 5);
    const confirmed = graphSnapshot(db);
    const before = db.version;

    // Version before+2 is refused by the log; before+1 is confirmed late, after the refusal.
    let confirmFirst!: () => void;
    const rep = new RecordingReplicator((v) =>
      v === before + 1
        ? new Promise<void>((r) => (confirmFirst = r))
        : v === before + 2
          ? Promise.reject(new Error('wrong last sequence'))
          : Promise.resolve(),
    );
    db.lead(rep);
    const writes = [0, 1, 2].map((k) =>
      db.write((tx) => tx.upsertVertex('Num', 100 + k, { v: { value: k, op: 'set' } })),
    );
    await new Promise((r) => setTimeout(r, 20));
    confirmFirst();
    const outcomes = await Promise.allSettled(writes);
    assert.equal(outcomes[0].status, 'fulfilled', 'the confirmed write is acknowledged');
    for (const o of outcomes.slice(1)) {
      assert.equal(o.status, 'rejected');
      assert.match(String((o as PromiseRejectedResult).reason), /outcome is unknown/);
    }
    assert.ok(db.replicationFailed);
    assert.equal((await refusal(db.write((tx) => tx.deleteVertex('Num', 1)))).code, 'SYS-0001');
    // Readers never saw the unconfirmed writes.
    assert.equal(db.version, before + 1);

    db.follow('stepped down');
    await db.reload();
    assert.equal(db.replicationFailed, false);
    assert.equal(db.version, before + 1);
    assert.equal(db.stagedVersion, before + 1);
    const r = db.read();
    assert.equal(r.vertexExists('Num', 100), true);
    assert.equal(r.vertexExists('Num', 101), false);
    assert.equal(r.vertexExists('Num', 102), false);
    r.release();

    // The data directory holds exactly the confirmed commits.
    await db.close();
    const again = await t.open();
    assert.equal(again.version, before + 1);
    assert.notDeepEqual(graphSnapshot(again), confirmed, 'the confirmed write is there');
    const r2 = again.read();
    assert.equal(r2.vertexExists('Num', 101), false);
    r2.release();
    await again.close();
  } finally {
    t.cleanup();
  }
});

test('replications confirmed out of order still reach the local WAL in commit order', async () => {
  const t = tempDir();
  try {
    const db = await t.open();
    await db.changeCatalog(fullCatalog());
    const releases = new Map<number, () => void>();
    db.lead(new RecordingReplicator((v) => new Promise<void>((r) => releases.set(v, r))));
    const writes = Array.from({ length: 6 }, (_, k) =>
      db.write((tx) => tx.upsertVertex('Num', 1, { v: { value: k, op: 'set' } })),
    );
    await new Promise((r) => setTimeout(r, 10));
    for (const v of [...releases.keys()].reverse()) releases.get(v)!();
    await Promise.all(writes);
    const expected = graphSnapshot(db);
    await db.close();
    const again = await t.open();
    assert.deepEqual(graphSnapshot(again), expected);
    const r = again.read();
    assert.equal(r.attr('Num', r.lookup('Num', 1)!, 'v'), 5, 'the last write wins after recovery');
    r.release();
    await again.close();
  } finally {
    t.cleanup();
  }
});
