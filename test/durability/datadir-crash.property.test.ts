/**
 * Power-loss property for a whole data directory: random appends, checkpoints (some cut by a power
 * loss part-way) and power cuts. The state rebuilt at every restart (checkpoint + replayed log) must
 * be a prefix of the appended history holding every acknowledged record.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { DataDir, FaultyFileLayer } from '../../src/durability/index.js';
import { withTmpDir } from './tmp-dir.js';

type Command =
  { t: 'append'; n: number } | { t: 'checkpoint'; cutAfter?: number } | { t: 'crash'; tear: boolean };

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ t: fc.constant('append' as const), n: fc.integer({ min: 1, max: 5 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record(
      { t: fc.constant('checkpoint' as const), cutAfter: fc.integer({ min: 0, max: 20 }) },
      { requiredKeys: ['t'] },
    ),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('crash' as const), tear: fc.boolean() }) },
);

async function run(segmentSize: number, commands: Command[]): Promise<void> {
  await withTmpDir(async (root) => {
    const path = join(root, 'data');
    const fs = new FaultyFileLayer();
    let history: string[] = [];
    let acked = 0;
    let next = 0;

    const openAndCheck = async (): Promise<DataDir> => {
      const dd = await DataDir.open({ path, fs, segmentSize });
      const rec = await dd.recover();
      const state: string[] = rec.checkpoint ? (JSON.parse(rec.checkpoint.bytes.toString()) as string[]) : [];
      assert.equal(
        state.length,
        rec.checkpoint?.lsn ?? 0,
        'a checkpoint holds exactly the records up to its LSN',
      );
      for await (const r of rec.records) {
        assert.equal(r.lsn, state.length + 1, 'replay continues right after the checkpoint');
        state.push(Buffer.from(r.payload).toString());
      }
      assert.deepEqual(state, history.slice(0, state.length), 'recovered state is a prefix of the history');
      assert.ok(state.length >= acked, `recovered ${state.length} records, ${acked} were acknowledged`);
      assert.equal(rec.wal.lastLsn, state.length);
      history = state;
      acked = state.length;
      return dd;
    };

    let dd = await openAndCheck();
    for (const c of commands) {
      if (c.t === 'append') {
        const ps: Promise<number>[] = [];
        for (let i = 0; i < c.n; i++) {
          const payload = `r${next++}`;
          history.push(payload);
          ps.push(dd.wal.append(Buffer.from(payload)));
        }
        const lsns = await Promise.all(ps);
        acked = lsns[lsns.length - 1]!;
      } else if (c.t === 'checkpoint') {
        const lsn = dd.wal.lastLsn;
        const body = Buffer.from(JSON.stringify(history.slice(0, lsn)));
        if (c.cutAfter === undefined) {
          await dd.writeCheckpoint(lsn, [body.subarray(0, 3), body.subarray(3)]);
        } else {
          let seen = 0;
          fs.failWhen(() => ++seen > c.cutAfter!);
          await dd.writeCheckpoint(lsn, [body]).catch(() => undefined);
          fs.clearFaults();
          await fs.crash();
          await dd.close().catch(() => undefined);
          dd = await openAndCheck();
        }
      } else {
        await fs.crash(c.tear ? { keep: (w) => w.length >> 1 } : {});
        await dd.close().catch(() => undefined);
        dd = await openAndCheck();
      }
    }
    await dd.close();
    dd = await openAndCheck();
    await dd.close();
  });
}

test('a data directory recovers every acknowledged record through checkpoints and power cuts', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 100, max: 400 }),
      fc.array(command, { minLength: 1, maxLength: 14 }),
      run,
    ),
    { numRuns: 30 },
  );
});
