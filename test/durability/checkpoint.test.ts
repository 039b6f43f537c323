import assert from 'node:assert/strict';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { CheckpointStore, FaultyFileLayer, checkpointName } from '../../src/durability/index.js';
import { withTmpDir } from './tmp-dir.js';

test('write then read the newest checkpoint', async () => {
  await withTmpDir(async (dir) => {
    const store = new CheckpointStore(dir);
    assert.deepEqual(await store.readNewest(), { report: { skipped: [], incomplete: [] } });
    await store.write(5, [Buffer.from('hello '), Buffer.from('world')]);
    await store.write(9, [Buffer.from('newer')]);
    const { checkpoint, report } = await store.readNewest();
    assert.equal(checkpoint?.lsn, 9);
    assert.equal(checkpoint?.bytes.toString(), 'newer');
    assert.deepEqual(report, { used: { file: checkpointName(9), lsn: 9 }, skipped: [], incomplete: [] });
    assert.deepEqual(
      (await store.list()).map((c) => c.lsn),
      [9, 5],
    );
  });
});

test('a large checkpoint streams from an async iterable whose producer reuses its buffer', async () => {
  await withTmpDir(async (dir) => {
    const fs = new FaultyFileLayer();
    const store = new CheckpointStore(dir, fs);
    const chunk = Buffer.alloc(1000);
    const count = 20_000; // 20 MB in small chunks
    async function* produce(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < count; i++) {
        chunk.fill(i & 0xff);
        yield chunk;
      }
    }
    fs.resetCounts();
    await store.write(1, produce());
    // Small chunks are coalesced: far fewer writes than chunks.
    assert.ok(fs.counts.write < count / 100, `${fs.counts.write} writes for ${count} chunks`);
    const { checkpoint } = await store.readNewest();
    assert.equal(checkpoint?.bytes.length, count * 1000);
    // The body is a view into the one buffer the file was read into, just past the header.
    assert.equal(checkpoint?.bytes.byteOffset, 40);
    assert.equal(checkpoint?.bytes.buffer.byteLength, count * 1000 + 40);
    for (const i of [0, 1, 255, 256, count - 1]) {
      assert.equal(checkpoint!.bytes[i * 1000], i & 0xff);
      assert.equal(checkpoint!.bytes[i * 1000 + 999], i & 0xff);
    }
  });
});

test('a damaged newest checkpoint falls back to the previous one and says why', async () => {
  await withTmpDir(async (dir) => {
    const store = new CheckpointStore(dir);
    await store.write(3, [Buffer.from('three')]);
    await store.write(7, [Buffer.from('seven')]);
    const newest = join(dir, checkpointName(7));
    const bytes = await readFile(newest);
    bytes[bytes.length - 1]! ^= 1;
    await writeFile(newest, bytes);
    const { checkpoint, report } = await store.readNewest();
    assert.equal(checkpoint?.lsn, 3);
    assert.equal(checkpoint?.bytes.toString(), 'three');
    assert.deepEqual(report.skipped, [{ file: checkpointName(7), lsn: 7, reason: 'body checksum mismatch' }]);

    await writeFile(newest, bytes.subarray(0, 43));
    assert.match((await store.readNewest()).report.skipped[0]!.reason, /body is 3 bytes, header says 5/);
    await writeFile(newest, Buffer.from('garbage'));
    assert.match((await store.readNewest()).report.skipped[0]!.reason, /too short/);
  });
});

test('prune keeps the newest checkpoints', async () => {
  await withTmpDir(async (dir) => {
    const store = new CheckpointStore(dir);
    for (const lsn of [1, 2, 3, 4]) await store.write(lsn, [Buffer.from(String(lsn))]);
    const kept = await store.prune(2);
    assert.deepEqual(
      kept.map((c) => c.lsn),
      [4, 3],
    );
    assert.deepEqual((await readdir(dir)).sort(), [checkpointName(3), checkpointName(4)]);
  });
});

test('a power cut at any step of a checkpoint write leaves the old or the new one, never a damaged one', async () => {
  await withTmpDir(async (root) => {
    // Count the operations a complete write takes (close cannot fail).
    const probe = new FaultyFileLayer();
    await new CheckpointStore(join(root, 'probe'), probe).write(1, [Buffer.from('old')]);
    probe.resetCounts();
    await new CheckpointStore(join(root, 'probe'), probe).write(2, [
      Buffer.from('new-'),
      Buffer.from('body'),
    ]);
    const steps = Object.entries(probe.counts)
      .filter(([k]) => k !== 'bytesWritten' && k !== 'close')
      .reduce((n, [, v]) => n + v, 0);
    assert.ok(steps >= 6, `a checkpoint write takes several steps (${steps})`);

    const outcomes = new Set<number>();
    for (let k = 0; k <= steps; k++) {
      const dir = join(root, `run${k}`);
      const fs = new FaultyFileLayer();
      const store = new CheckpointStore(dir, fs);
      await store.write(1, [Buffer.from('old')]);
      let seen = 0;
      fs.failWhen(() => ++seen > k);
      const result = await store.write(2, [Buffer.from('new-'), Buffer.from('body')]).then(
        () => 'ok',
        () => 'failed',
      );
      assert.equal(result, k >= steps ? 'ok' : 'failed', `step ${k}`);
      fs.clearFaults();
      await fs.crash();
      const { checkpoint, report } = await new CheckpointStore(dir, fs).readNewest();
      assert.deepEqual(report.skipped, [], `no damaged checkpoint after a cut at step ${k}`);
      assert.ok(checkpoint, `a checkpoint is readable after a cut at step ${k}`);
      assert.equal(checkpoint.bytes.toString(), checkpoint.lsn === 1 ? 'old' : 'new-body');
      outcomes.add(checkpoint.lsn);
      // A later write succeeds and cleans any leftover temporary file.
      await store.write(3, [Buffer.from('later')]);
      assert.deepEqual(
        (await readdir(dir)).filter((f) => f.endsWith('.tmp')),
        [],
      );
    }
    // Cuts before the directory fsync lose the new checkpoint; the last one keeps it.
    assert.deepEqual([...outcomes].sort(), [1, 2]);
  });
});

test('a producer that fails part-way leaves the previous checkpoint in place', async () => {
  await withTmpDir(async (dir) => {
    const store = new CheckpointStore(dir);
    await store.write(1, [Buffer.from('one')]);
    function* failing(): Generator<Uint8Array> {
      yield Buffer.from('partial');
      throw new Error('snapshot failed');
    }
    await assert.rejects(store.write(2, failing()), /snapshot failed/);
    const { checkpoint, report } = await store.readNewest();
    assert.equal(checkpoint?.lsn, 1);
    assert.deepEqual(report.incomplete, [checkpointName(2) + '.tmp']);
    await store.write(3, [Buffer.from('three')]);
    assert.deepEqual((await readdir(dir)).sort(), [checkpointName(1), checkpointName(3)]);
  });
});

test('large chunks reused by their producer are written before the next one is asked for', async () => {
  await withTmpDir(async (dir) => {
    const store = new CheckpointStore(dir);
    const chunk = Buffer.alloc(100_000);
    function* produce(): Generator<Uint8Array> {
      for (let i = 0; i < 30; i++) {
        chunk.fill(i + 1);
        yield chunk;
      }
    }
    await store.write(1, produce());
    const { checkpoint } = await store.readNewest();
    assert.equal(checkpoint?.bytes.length, 3_000_000);
    for (let i = 0; i < 30; i++) assert.equal(checkpoint!.bytes[i * 100_000 + 99_999], i + 1);
  });
});

test('an empty chunk over an empty ArrayBuffer does not spoil the body checksum', async () => {
  await withTmpDir(async (dir) => {
    const store = new CheckpointStore(dir);
    await store.write(3, [
      Buffer.from('head'),
      new Uint8Array(new Uint32Array(0).buffer),
      Buffer.from('tail'),
    ]);
    const { checkpoint, report } = await store.readNewest();
    assert.equal(checkpoint?.bytes.toString(), 'headtail');
    assert.deepEqual(report.skipped, []);
  });
});
