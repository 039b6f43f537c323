/**
 * Fault injection at the Database level, through the durability layer's file interface: a stream of
 * concurrent multi-vertex/edge transactions (with rebuilds mixed in) meets a simulated power loss at
 * a random file operation, a torn write, or an fsync/write EIO. Properties:
 * - an EIO makes the Database report fatal once and refuse every later write (SYS-FATAL);
 * - reopening on the surviving files recovers every acknowledged write (--sync always and batch,
 *   which both acknowledge after the fsync; 'none' promises nothing on power loss);
 * - every transaction is all-or-nothing after recovery, whatever the sync mode;
 * - a write refused before it was staged is absent; recovery is repeatable and the reopened
 *   Database accepts writes.
 * Bounded by run count and time (OCELOT_SOAK_SCALE scales both, see soak.ts).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { FaultyFileLayer, type PendingWrite } from '../../src/durability/index.js';
import { EngineError, type SyncMode } from '../../src/engine/api.js';
import { Database } from '../../src/engine/database.js';
import { runScript } from '../../src/shell/run-script.js';
import { soakScale } from './scale.js';

type Fault =
  | { kind: 'power'; atOp: number; keep: 'none' | 'all' | 'half' }
  | { kind: 'tear'; atWrite: number; fraction: number }
  | { kind: 'eio'; op: 'sync' | 'write'; after: number };

interface Plan {
  sync: SyncMode;
  concurrency: number;
  txs: { size: number; rebuildAfter: boolean }[];
  fault: Fault;
}

const plan: fc.Arbitrary<Plan> = fc.record({
  sync: fc.constantFrom<SyncMode>('always', 'always', 'batch', 'none'),
  concurrency: fc.integer({ min: 1, max: 4 }),
  txs: fc.array(
    fc.record({
      size: fc.integer({ min: 1, max: 5 }),
      rebuildAfter: fc.integer({ min: 0, max: 9 }).map((n) => n < 3),
    }),
    { minLength: 1, maxLength: 16 },
  ),
  fault: fc.oneof(
    fc.record({
      kind: fc.constant('power' as const),
      atOp: fc.integer({ min: 0, max: 120 }),
      keep: fc.constantFrom('none' as const, 'all' as const, 'half' as const),
    }),
    fc.record({
      kind: fc.constant('tear' as const),
      atWrite: fc.integer({ min: 1, max: 30 }),
      fraction: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
    fc.record({
      kind: fc.constant('eio' as const),
      op: fc.constantFrom('sync' as const, 'write' as const),
      after: fc.integer({ min: 0, max: 20 }),
    }),
  ),
});

const SCHEMA = `CREATE VERTEX V (PRIMARY_ID id INT, tx INT)
CREATE DIRECTED EDGE E (FROM V, TO V)
CREATE GRAPH g (V, E)`;

const vid = (tx: number, k: number): number => tx * 100 + k;

/** Installs the fault: every operation from the failure point on fails, as on a dead machine. */
function inject(fs: FaultyFileLayer, fault: Fault): void {
  if (fault.kind === 'power') {
    let n = 0;
    fs.failWhen(() => ++n > fault.atOp);
  } else if (fault.kind === 'tear') {
    let writes = 0;
    let torn = false;
    fs.tearWhen(
      () => ++writes === fault.atWrite,
      (len) => {
        torn = true;
        return Math.floor(len * fault.fraction);
      },
    );
    fs.failWhen(() => torn);
  } else {
    fs.failAfter(fault.op, fault.after);
  }
}

function keepPolicy(fault: Fault): ((w: PendingWrite) => number) | undefined {
  if (fault.kind !== 'power' || fault.keep === 'none') return undefined;
  return fault.keep === 'all' ? (w) => w.length : (w) => Math.floor(w.length / 2);
}

/** Per transaction: vertices present and edges present. */
function census(db: Database, txs: number): { vertices: number[]; edges: number[]; wrongTx: number } {
  const r = db.read();
  try {
    const vertices = new Array<number>(txs).fill(0);
    const edges = new Array<number>(txs).fill(0);
    let wrongTx = 0;
    for (const row of r.rows('V')) {
      const id = Number(r.vertexIdValue('V', row));
      const tx = Math.floor(id / 100);
      if (tx >= txs || r.attr('V', row, 'tx') !== tx) {
        wrongTx++;
        continue;
      }
      vertices[tx]++;
      edges[tx] += r.edges('V', row, { edgeType: 'E' }).length;
    }
    return { vertices, edges, wrongTx };
  } finally {
    r.release();
  }
}

async function runPlan(p: Plan): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'ocelot-dbfault-'));
  const fs = new FaultyFileLayer();
  const fatals: Error[] = [];
  const open = (sync: SyncMode) =>
    Database.open({
      dataDir: join(root, 'data'),
      fileLayer: fs,
      sync,
      rebuildIntervalMs: 0,
      onFatal: (e) => fatals.push(e),
    });
  // The schema is made durable first, so that a lost schema does not hide what the data did.
  let db = await open('always');
  try {
    assert.equal(await runScript(db, SCHEMA, { user: 'tigergraph' }, () => undefined), 0);
    await db.close();
    db = await open(p.sync);
    inject(fs, p.fault);
    const outcome: ('ok' | 'refused' | 'unknown')[] = p.txs.map(() => 'unknown');
    let batch: Promise<void>[] = [];
    for (let i = 0; i < p.txs.length; i++) {
      const size = p.txs[i].size;
      batch.push(
        db
          .write((tx) => {
            for (let k = 0; k < size; k++) tx.upsertVertex('V', vid(i, k), { tx: { value: i, op: 'set' } });
            for (let k = 0; k + 1 < size; k++) tx.upsertEdge('E', 'V', vid(i, k), 'V', vid(i, k + 1), {});
          })
          .then(
            () => void (outcome[i] = 'ok'),
            (e: unknown) => {
              assert.ok(e instanceof EngineError, `a failed write is an EngineError: ${String(e)}`);
              assert.equal(e.code, 'SYS-FATAL');
              // Refused before staging: it must never appear. A failed commit is unknown.
              if (e.message.startsWith('The database stopped accepting writes')) outcome[i] = 'refused';
            },
          ),
      );
      if (batch.length >= p.concurrency || p.txs[i].rebuildAfter) {
        await Promise.all(batch);
        batch = [];
      }
      if (p.txs[i].rebuildAfter) await db.rebuild({ path: join(root, 'rb') }).catch(() => undefined);
    }
    await Promise.all(batch);
    assert.ok(fatals.length <= 1, 'onFatal fires at most once');
    if (fatals.length === 1) {
      await assert.rejects(
        db.write((tx) => tx.upsertVertex('V', 99_999, {})),
        (e: unknown) => e instanceof EngineError && e.code === 'SYS-FATAL',
        'a fatal Database refuses writes',
      );
    }
    if (p.fault.kind === 'eio' && p.fault.op === 'sync' && outcome.some((o) => o !== 'ok'))
      assert.equal(fatals.length, 1, 'a failed fsync is reported fatal');

    await fs.crash({ keep: keepPolicy(p.fault) });
    fs.clearFaults();
    await db.close().catch(() => undefined);
    db = await open('always');
    const seen = census(db, p.txs.length);
    assert.equal(seen.wrongTx, 0, 'no vertex that was never written');
    for (let i = 0; i < p.txs.length; i++) {
      const size = p.txs[i].size;
      const v = seen.vertices[i];
      const e = seen.edges[i];
      const whole = v === size && e === size - 1;
      assert.ok(whole || v + e === 0, `transaction ${i} half-applied: ${v}/${size} vertices, ${e} edges`);
      if (outcome[i] === 'refused') assert.equal(v, 0, `refused transaction ${i} present`);
      if (outcome[i] === 'ok' && p.sync !== 'none') assert.ok(whole, `acknowledged transaction ${i} lost`);
    }
    await db.close();
    db = await open('always');
    assert.deepEqual(census(db, p.txs.length), seen, 'recovery is repeatable');
    await db.write((tx) => tx.upsertVertex('V', 99_999, { tx: { value: -1, op: 'set' } }));
  } finally {
    await db.close().catch(() => undefined);
    await rm(root, { recursive: true, force: true });
  }
}

test('power loss, torn writes and EIO under concurrent transactions: acknowledged writes recovered, all-or-nothing', async () => {
  const scale = soakScale();
  const started = Date.now();
  let runs = 0;
  await fc.assert(
    fc.asyncProperty(plan, async (p) => {
      runs++;
      await runPlan(p);
    }),
    { numRuns: 40 * scale, interruptAfterTimeLimit: 12_000 * scale, includeErrorInReport: true },
  );
  console.log(`db-faults: ${runs} fault plans in ${Date.now() - started} ms, 0 violations`);
});
