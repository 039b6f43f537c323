/**
 * Power-loss property (SQLite crash-test style): random sequences of appends (some left in flight),
 * syncs, injected I/O errors (fatal to the log) and power cuts that drop or tear un-synced writes. After every cut, the recovered log must
 * be a prefix of what was appended (same LSNs, same bytes, same order, no garbage) that contains
 * every record whose durability was promised.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { FaultyFileLayer, WriteAheadLog, type SyncMode } from '../../src/durability/index.js';
import { withTmpDir } from './tmp-dir.js';

type Command =
  | { t: 'append'; sizes: number[]; wait: boolean }
  | { t: 'sync' }
  | { t: 'crash'; policy: 'drop' | 'keep' | 'tear'; seed: number }
  | { t: 'ioError'; kind: 'write' | 'sync' | 'syncDir'; after: number; tear: boolean };

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      t: fc.constant('append' as const),
      sizes: fc.array(fc.nat(120), { minLength: 1, maxLength: 6 }),
      wait: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ t: 'sync' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('ioError' as const),
      kind: fc.constantFrom('write' as const, 'sync' as const, 'syncDir' as const),
      after: fc.nat(3),
      tear: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('crash' as const),
      policy: fc.constantFrom('drop' as const, 'keep' as const, 'tear' as const),
      seed: fc.nat(),
    }),
  },
);

function payloadFor(id: number, size: number): Buffer {
  const b = Buffer.alloc(size);
  for (let i = 0; i < size; i++) b[i] = (id * 31 + i * 7) & 0xff;
  return b;
}

async function run(mode: SyncMode, segmentSize: number, commands: Command[]): Promise<void> {
  await withTmpDir(async (dir) => {
    const fs = new FaultyFileLayer();
    const open = (): Promise<WriteAheadLog> =>
      WriteAheadLog.open({
        dir,
        fs,
        syncMode: mode,
        segmentSize,
        batchIntervalMs: 1,
        onFatal: () => undefined,
      });
    let wal = await open();
    /** appended[i] is the payload appended with LSN i + 1 (in the current history). */
    let appended: Buffer[] = [];
    /** Every record up to this LSN was promised durable. */
    let promised = 0;
    let inflight: Promise<unknown>[] = [];
    let nextId = 0;

    const check = async (): Promise<void> => {
      let expect = 1;
      for await (const r of wal.records()) {
        assert.equal(r.lsn, expect, 'LSNs are consecutive from 1');
        assert.ok(r.lsn <= appended.length, `record ${r.lsn} was never appended`);
        assert.deepEqual(
          Buffer.from(r.payload),
          appended[r.lsn - 1],
          `record ${r.lsn} has the bytes appended`,
        );
        expect++;
      }
      const recovered = expect - 1;
      assert.ok(
        recovered >= promised,
        `recovered ${recovered} records but ${promised} were promised durable`,
      );
      assert.equal(wal.lastLsn, recovered);
      appended = appended.slice(0, recovered);
      promised = recovered;
    };

    for (const c of commands) {
      if (c.t === 'append') {
        const ps = c.sizes.map((size) => {
          const payload = payloadFor(nextId++, size);
          const before = wal.lastLsn;
          const p = wal.append(payload);
          // The LSN is assigned at call time, in call order (none when the log has failed).
          if (wal.lastLsn === before + 1) appended[before] = payload;
          return p.then(
            (lsn) => {
              if (mode !== 'none') promised = Math.max(promised, lsn);
            },
            () => undefined,
          );
        });
        if (c.wait) await Promise.all(ps);
        else inflight.push(...ps);
      } else if (c.t === 'sync') {
        const upTo = wal.lastLsn;
        await wal.sync().then(
          () => {
            promised = Math.max(promised, upTo);
          },
          () => undefined,
        );
      } else if (c.t === 'ioError') {
        // From now on the log fails (fatal) at the chosen operation; the next crash clears it.
        if (c.kind === 'write' && c.tear) {
          let seen = 0;
          fs.tearWhen(
            () => ++seen > c.after,
            (len) => len >> 1,
          );
        } else {
          fs.failAfter(c.kind, c.after);
        }
      } else {
        fs.clearFaults();
        let state = c.seed;
        const random = (): number => {
          state = (state * 1103515245 + 12345) & 0x7fffffff;
          return state / 0x80000000;
        };
        await fs.crash({
          keep: (w) =>
            c.policy === 'drop' ? 0 : c.policy === 'keep' ? w.length : Math.floor(random() * (w.length + 1)),
        });
        await Promise.all(inflight);
        inflight = [];
        await wal.close();
        wal = await open();
        await check();
      }
    }
    await Promise.all(inflight);
    fs.clearFaults();
    await fs.crash();
    await wal.close();
    wal = await open();
    await check();
    await wal.close();
  });
}

test('power loss never loses a promised record and never returns garbage', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom<SyncMode>('always', 'batch', 'none'),
      fc.integer({ min: 80, max: 600 }),
      fc.array(command, { minLength: 1, maxLength: 25 }),
      (mode, segmentSize, commands) => run(mode, segmentSize, commands),
    ),
    { numRuns: 40 },
  );
});
