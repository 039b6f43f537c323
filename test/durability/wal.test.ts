import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FaultyFileLayer, MAX_PAYLOAD, WriteAheadLog, type WalRecord } from '../../src/durability/index.js';
import { withTmpDir } from './tmp-dir.js';

async function collect(records: AsyncIterable<WalRecord>): Promise<Array<[number, string]>> {
  const out: Array<[number, string]> = [];
  for await (const r of records) out.push([r.lsn, Buffer.from(r.payload).toString()]);
  return out;
}

test('records survive reopen, in order, with consecutive LSNs', async () => {
  await withTmpDir(async (dir) => {
    const wal = await WriteAheadLog.open({ dir });
    assert.equal(wal.lastLsn, 0);
    assert.equal(await wal.append(Buffer.from('a')), 1);
    assert.equal(await wal.append(Buffer.from('')), 2);
    assert.equal(await wal.append(Buffer.from('ccc')), 3);
    await wal.close();
    const again = await WriteAheadLog.open({ dir });
    assert.equal(again.recovery.lastLsn, 3);
    assert.equal(again.recovery.tailCut, undefined);
    assert.deepEqual(await collect(again.records()), [
      [1, 'a'],
      [2, ''],
      [3, 'ccc'],
    ]);
    assert.deepEqual(await collect(again.records(2)), [[3, 'ccc']]);
    assert.equal(await again.append(Buffer.from('d')), 4);
    await again.close();
    await assert.rejects(again.append(Buffer.from('late')), /closed/);
  });
});

test("'always': many concurrent appends collapse into few fsyncs (group commit)", async () => {
  await withTmpDir(async (dir) => {
    const fs = new FaultyFileLayer();
    const wal = await WriteAheadLog.open({ dir, fs, syncMode: 'always' });
    fs.resetCounts();
    const n = 2000;
    const lsns = await Promise.all(Array.from({ length: n }, (_, i) => wal.append(Buffer.from(`r${i}`))));
    assert.deepEqual(
      lsns,
      Array.from({ length: n }, (_, i) => i + 1),
    );
    assert.ok(fs.counts.sync <= 3, `expected a handful of fsyncs, got ${fs.counts.sync}`);
    assert.ok(fs.counts.write <= 3, `expected a handful of writes, got ${fs.counts.write}`);
    assert.equal(wal.durableLsn, n);
    // Every acknowledged record was covered by an fsync: nothing is lost in a power cut.
    await fs.crash();
    const again = await WriteAheadLog.open({ dir, fs });
    assert.equal(again.recovery.lastLsn, n);
    await again.close();
  });
});

test("'always': appends that arrive while an fsync is in flight share the next one", async () => {
  await withTmpDir(async (dir) => {
    const fs = new FaultyFileLayer();
    const wal = await WriteAheadLog.open({ dir, fs, syncMode: 'always' });
    fs.resetCounts();
    const first = wal.append(Buffer.from('first'));
    // Let the first batch start its write+fsync, then queue more behind it.
    await new Promise((r) => setImmediate(r));
    const rest = Array.from({ length: 100 }, (_, i) => wal.append(Buffer.from(`late${i}`)));
    await Promise.all([first, ...rest]);
    assert.equal(fs.counts.sync, 2);
    await wal.close();
  });
});

test("'always': a 1 MB record costs one write and one fsync", async () => {
  await withTmpDir(async (dir) => {
    const fs = new FaultyFileLayer();
    const wal = await WriteAheadLog.open({ dir, fs });
    fs.resetCounts();
    const big = Buffer.alloc(1 << 20, 7);
    assert.equal(await wal.append(big), 1);
    assert.equal(fs.counts.write, 1);
    assert.equal(fs.counts.sync, 1);
    await wal.close();
    const again = await WriteAheadLog.open({ dir });
    const [rec] = await collect(again.records());
    assert.equal(rec![1].length, 1 << 20);
    await again.close();
  });
});

test("'batch': fsyncs at most once per interval, and appends resolve only after that fsync", async () => {
  await withTmpDir(async (dir) => {
    const fs = new FaultyFileLayer();
    const wal = await WriteAheadLog.open({ dir, fs, syncMode: 'batch', batchIntervalMs: 40 });
    fs.resetCounts();
    const started = Date.now();
    const pending: Promise<number>[] = [];
    // Appends spread over ~120 ms: with a 40 ms interval that is at most ~4 fsyncs.
    for (let i = 0; i < 12; i++) {
      pending.push(wal.append(Buffer.from(`b${i}`)));
      await new Promise((r) => setTimeout(r, 10));
    }
    const lsns = await Promise.all(pending);
    const elapsed = Date.now() - started;
    assert.deepEqual(
      lsns,
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    assert.ok(fs.counts.sync >= 2, `expected at least 2 fsyncs, got ${fs.counts.sync}`);
    assert.ok(
      fs.counts.sync <= Math.ceil(elapsed / 40) + 1,
      `${fs.counts.sync} fsyncs in ${elapsed} ms exceeds one per 40 ms`,
    );
    // Resolved means fsynced: a power cut now loses nothing.
    assert.equal(fs.unsyncedWrites(), 0);
    await fs.crash();
    const again = await WriteAheadLog.open({ dir, fs });
    assert.equal(again.recovery.lastLsn, 12);
    await again.close();
  });
});

test("'none': never fsyncs appends (a power cut may lose them), sync() forces one", async () => {
  await withTmpDir(async (dir) => {
    const fs = new FaultyFileLayer();
    const wal = await WriteAheadLog.open({ dir, fs, syncMode: 'none' });
    fs.resetCounts();
    await Promise.all([wal.append(Buffer.from('x')), wal.append(Buffer.from('y'))]);
    assert.equal(fs.counts.sync, 0);
    assert.equal(fs.counts.write, 1);
    assert.equal(wal.durableLsn, 2);
    await wal.sync();
    assert.equal(fs.counts.sync, 1);
    await wal.append(Buffer.from('z'));
    await fs.crash();
    const again = await WriteAheadLog.open({ dir, fs });
    assert.equal(again.recovery.lastLsn, 2);
    assert.equal(await again.append(Buffer.from('z2')), 3);
    await again.close();
  });
});

test('segments roll over at the size limit; truncateBefore drops only whole covered segments', async () => {
  await withTmpDir(async (dir) => {
    const wal = await WriteAheadLog.open({ dir, segmentSize: 200 });
    for (let i = 1; i <= 20; i++) await wal.append(Buffer.alloc(30, i));
    const names = wal.segmentNames();
    assert.ok(names.length >= 5, `expected several segments, got ${names.join(',')}`);
    // Each frame is 46 bytes after a 32-byte header: 3 records per 200-byte segment.
    assert.deepEqual(names.slice(0, 3), [
      'wal-0000000000000001.log',
      'wal-0000000000000004.log',
      'wal-0000000000000007.log',
    ]);
    assert.equal(await wal.truncateBefore(6), 1);
    assert.equal(wal.segmentNames()[0], 'wal-0000000000000004.log');
    assert.equal(await wal.truncateBefore(1000), wal.stats.rolls - 2);
    assert.equal(wal.segmentNames().length, 1);
    await wal.close();
    const again = await WriteAheadLog.open({ dir, afterLsn: 18 });
    assert.deepEqual(
      (await collect(again.records(18))).map(([lsn]) => lsn),
      [19, 20],
    );
    await again.close();
  });
});

test('a record larger than a segment gets a segment of its own', async () => {
  await withTmpDir(async (dir) => {
    const wal = await WriteAheadLog.open({ dir, segmentSize: 100 });
    await Promise.all([
      wal.append(Buffer.alloc(10)),
      wal.append(Buffer.alloc(500)),
      wal.append(Buffer.alloc(10)),
    ]);
    assert.equal(wal.segmentNames().length, 3);
    await wal.close();
    const again = await WriteAheadLog.open({ dir });
    assert.deepEqual(
      (await collect(again.records())).map(([lsn, p]) => [lsn, p.length]),
      [
        [1, 10],
        [2, 500],
        [3, 10],
      ],
    );
    await again.close();
  });
});

test('a record over the size limit is refused without taking an LSN or failing the log', async () => {
  await withTmpDir(async (dir) => {
    const wal = await WriteAheadLog.open({ dir });
    const huge = new Uint8Array(new ArrayBuffer(MAX_PAYLOAD + 1));
    await assert.rejects(wal.append(huge), RangeError);
    assert.equal(wal.failure, undefined);
    assert.equal(await wal.append(Buffer.from('fine')), 1);
    await wal.close();
  });
});

test('an empty payload over an empty ArrayBuffer keeps a valid checksum (zlib.crc32 returns 0 for it)', async () => {
  await withTmpDir(async (dir) => {
    const wal = await WriteAheadLog.open({ dir });
    await wal.append(new Uint8Array(new ArrayBuffer(0)));
    await wal.append(Buffer.from('after'));
    await wal.close();
    const again = await WriteAheadLog.open({ dir });
    assert.equal(again.recovery.tailCut, undefined);
    assert.deepEqual(await collect(again.records()), [
      [1, ''],
      [2, 'after'],
    ]);
    await again.close();
  });
});
