import assert from 'node:assert/strict';
import { appendFile, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  DurabilityFatalError,
  FaultyFileLayer,
  WalDamageError,
  WriteAheadLog,
  segmentName,
  type WalRecord,
} from '../../src/durability/index.js';
import { withTmpDir } from './tmp-dir.js';

async function lsnsAndPayloads(records: AsyncIterable<WalRecord>): Promise<string[]> {
  const out: string[] = [];
  for await (const r of records) out.push(`${r.lsn}:${Buffer.from(r.payload).toString()}`);
  return out;
}

async function writeRecords(dir: string, n: number, segmentSize?: number): Promise<void> {
  const wal = await WriteAheadLog.open({ dir, ...(segmentSize ? { segmentSize } : {}) });
  for (let i = 1; i <= n; i++) await wal.append(Buffer.from(`rec${i}`));
  await wal.close();
}

test('garbage after the last record is cut off, reported, and never returned', async () => {
  await withTmpDir(async (dir) => {
    await writeRecords(dir, 3);
    const seg = join(dir, segmentName(1));
    const validSize = (await stat(seg)).size;
    await appendFile(seg, Buffer.from([9, 0, 0, 0, 1, 2, 3]));
    const wal = await WriteAheadLog.open({ dir });
    assert.deepEqual(wal.recovery.tailCut, {
      segment: segmentName(1),
      offset: validSize,
      bytes: 7,
      lsn: 4,
      reason: 'short frame header',
    });
    assert.deepEqual(await lsnsAndPayloads(wal.records()), ['1:rec1', '2:rec2', '3:rec3']);
    assert.equal((await stat(seg)).size, validSize);
    assert.equal(await wal.append(Buffer.from('rec4')), 4);
    await wal.close();
    const again = await WriteAheadLog.open({ dir });
    assert.equal(again.recovery.tailCut, undefined);
    assert.deepEqual(await lsnsAndPayloads(again.records(2)), ['3:rec3', '4:rec4']);
    await again.close();
  });
});

test('a last record with a bad checksum is cut off', async () => {
  await withTmpDir(async (dir) => {
    await writeRecords(dir, 3);
    const seg = join(dir, segmentName(1));
    const bytes = await readFile(seg);
    bytes[bytes.length - 1]! ^= 0xff;
    await writeFile(seg, bytes);
    const wal = await WriteAheadLog.open({ dir });
    assert.equal(wal.recovery.tailCut?.lsn, 3);
    assert.equal(wal.recovery.tailCut?.reason, 'checksum mismatch');
    assert.equal(wal.recovery.tailCut?.bytes, 16 + 4);
    assert.deepEqual(await lsnsAndPayloads(wal.records()), ['1:rec1', '2:rec2']);
    await wal.close();
  });
});

test('a write torn by a power cut is cut at recovery; records fsynced before it survive', async () => {
  await withTmpDir(async (dir) => {
    const fs = new FaultyFileLayer();
    const wal = await WriteAheadLog.open({ dir, fs, syncMode: 'none' });
    await wal.append(Buffer.from('safe'));
    await wal.sync();
    await wal.append(Buffer.from('torn-record-payload'));
    await fs.crash({ keep: (w) => w.length - 5 });
    const again = await WriteAheadLog.open({ dir, fs });
    assert.equal(again.recovery.tailCut?.lsn, 2);
    assert.equal(again.recovery.tailCut?.bytes, 16 + 19 - 5);
    assert.deepEqual(await lsnsAndPayloads(again.records()), ['1:safe']);
    await again.close();
  });
});

test('damage in an earlier, complete segment is refused, not skipped', async () => {
  await withTmpDir(async (dir) => {
    await writeRecords(dir, 9, 120);
    const first = join(dir, segmentName(1));
    const bytes = await readFile(first);
    // Corrupt the payload of the first record: valid records follow it.
    bytes[32 + 16]! ^= 0x01;
    await writeFile(first, bytes);
    await assert.rejects(WriteAheadLog.open({ dir }), (err: unknown) => {
      assert.ok(err instanceof WalDamageError);
      assert.equal(err.segment, segmentName(1));
      assert.equal(err.offset, 32);
      assert.equal(err.lsn, 1);
      assert.match(err.message, /not a torn tail/);
      return true;
    });
  });
});

test('a missing middle segment is refused', async () => {
  await withTmpDir(async (dir) => {
    await writeRecords(dir, 9, 120);
    const wal = await WriteAheadLog.open({ dir });
    const names = wal.segmentNames();
    await wal.close();
    assert.ok(names.length >= 3);
    await unlink(join(dir, names[1]!));
    await assert.rejects(WriteAheadLog.open({ dir }), (err: unknown) => {
      assert.ok(err instanceof WalDamageError);
      assert.match(err.message, /segment is missing/);
      return true;
    });
  });
});

test('a log that does not reach back to the checkpoint is refused', async () => {
  await withTmpDir(async (dir) => {
    await writeRecords(dir, 9, 120);
    await unlink(join(dir, segmentName(1)));
    await assert.rejects(WriteAheadLog.open({ dir, afterLsn: 1 }), /records 2\.\.\d+ are missing/);
    // Segments holding only records covered by the checkpoint are not needed.
    const wal = await WriteAheadLog.open({ dir, afterLsn: 6 });
    assert.deepEqual(
      (await lsnsAndPayloads(wal.records(6))).map((s) => s.split(':')[0]),
      ['7', '8', '9'],
    );
    await wal.close();
  });
});

test('a segment whose creation was torn (header incomplete) is removed and reported', async () => {
  await withTmpDir(async (dir) => {
    await writeRecords(dir, 2);
    await writeFile(join(dir, segmentName(3)), Buffer.from('OCWAL'));
    const wal = await WriteAheadLog.open({ dir });
    assert.deepEqual(wal.recovery.removedSegments, [segmentName(3)]);
    assert.equal(wal.recovery.lastLsn, 2);
    assert.equal(await wal.append(Buffer.from('rec3')), 3);
    await wal.close();
    const again = await WriteAheadLog.open({ dir });
    assert.deepEqual(await lsnsAndPayloads(again.records()), ['1:rec1', '2:rec2', '3:rec3']);
    await again.close();
  });
});

test('an fsync error is fatal: in-flight and queued appends reject, onFatal fires once, later appends reject', async () => {
  await withTmpDir(async (dir) => {
    const fs = new FaultyFileLayer();
    const fatal: Error[] = [];
    const wal = await WriteAheadLog.open({ dir, fs, onFatal: (e) => fatal.push(e) });
    assert.equal(await wal.append(Buffer.from('acked')), 1);
    fs.failAfter('sync', 0);
    const first = wal.append(Buffer.from('a'));
    await new Promise((r) => setImmediate(r));
    const queued = [wal.append(Buffer.from('b')), wal.append(Buffer.from('c'))];
    const results = await Promise.allSettled([first, ...queued]);
    for (const r of results) {
      assert.equal(r.status, 'rejected');
      assert.ok(r.reason instanceof DurabilityFatalError);
    }
    assert.equal(fatal.length, 1);
    assert.match(fatal[0]!.message, /EIO/);
    assert.ok(wal.failure instanceof DurabilityFatalError);
    await assert.rejects(wal.append(Buffer.from('d')), DurabilityFatalError);
    await assert.rejects(wal.sync(), DurabilityFatalError);
    await wal.close();
    // Restart: the acknowledged record is there; the failed ones may or may not be (never acked).
    fs.clearFaults();
    await fs.crash();
    const again = await WriteAheadLog.open({ dir, fs });
    const recs = await lsnsAndPayloads(again.records());
    assert.equal(recs[0], '1:acked');
    assert.equal(recs.length, 1);
    assert.equal(await again.append(Buffer.from('after')), 2);
    await again.close();
  });
});

test('a write error (torn, then EIO) is fatal and recovery cuts the torn bytes', async () => {
  await withTmpDir(async (dir) => {
    const fs = new FaultyFileLayer();
    let fatalCount = 0;
    const wal = await WriteAheadLog.open({ dir, fs, onFatal: () => fatalCount++ });
    await wal.append(Buffer.from('one'));
    fs.tearWhen(
      () => true,
      (len) => len >> 1,
    );
    await assert.rejects(wal.append(Buffer.from('two-two-two')), DurabilityFatalError);
    assert.equal(fatalCount, 1);
    await wal.close();
    fs.clearFaults();
    // No crash: the torn half-record is in the file; recovery still must not return it.
    const again = await WriteAheadLog.open({ dir, fs });
    assert.equal(again.recovery.tailCut?.lsn, 2);
    assert.deepEqual(await lsnsAndPayloads(again.records()), ['1:one']);
    await again.close();
  });
});

test('an error while starting a new segment is fatal too', async () => {
  await withTmpDir(async (dir) => {
    const fs = new FaultyFileLayer();
    const wal = await WriteAheadLog.open({ dir, fs, segmentSize: 64 });
    await wal.append(Buffer.alloc(10));
    fs.failWhen((op) => op.kind === 'syncDir');
    await assert.rejects(wal.append(Buffer.alloc(40)), DurabilityFatalError);
    await wal.close();
  });
});

test('a torn header in the only segment is replaced; in an earlier segment it is damage', async () => {
  await withTmpDir(async (dir) => {
    await writeFile(join(dir, segmentName(1)), Buffer.from('OCW'));
    const wal = await WriteAheadLog.open({ dir });
    assert.deepEqual(wal.recovery.removedSegments, [segmentName(1)]);
    assert.equal(await wal.append(Buffer.from('x')), 1);
    await wal.close();
  });
  await withTmpDir(async (dir) => {
    await writeRecords(dir, 9, 120);
    const first = join(dir, segmentName(1));
    const bytes = await readFile(first);
    bytes[0] = 0;
    await writeFile(first, bytes);
    await assert.rejects(WriteAheadLog.open({ dir }), /invalid header \(bad magic\)/);
  });
});
