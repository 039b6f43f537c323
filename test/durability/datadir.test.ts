import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readFile, readdir, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  DataDir,
  DataDirError,
  DurabilityFatalError,
  FaultyFileLayer,
  checkpointName,
  type WalRecord,
} from '../../src/durability/index.js';
import { processIdentity } from '../../src/durability/lock.js';
import { withTmpDir } from './tmp-dir.js';
import { scaled } from '../timing.js';

async function payloads(records: AsyncIterable<WalRecord>): Promise<string[]> {
  const out: string[] = [];
  for await (const r of records) out.push(`${r.lsn}:${Buffer.from(r.payload).toString()}`);
  return out;
}

function isDataDirError(code: string, pattern?: RegExp): (err: unknown) => boolean {
  return (err) => {
    assert.ok(err instanceof DataDirError, String(err));
    assert.equal(err.code, code);
    if (pattern) assert.match(err.message, pattern);
    return true;
  };
}

test('a new directory is created with a FORMAT file; records survive close and reopen', async () => {
  await withTmpDir(async (root) => {
    const path = join(root, 'data', 'nested');
    const dd = await DataDir.open({ path });
    const first = await dd.recover();
    assert.equal(first.report.created, true);
    assert.equal(first.checkpoint, undefined);
    assert.deepEqual(await payloads(first.records), []);
    await first.wal.append(Buffer.from('a'));
    await first.wal.append(Buffer.from('b'));
    await dd.close();
    assert.equal(await readFile(join(path, 'FORMAT'), 'utf8'), 'ocelot-data-directory\nformat-version: 1\n');
    assert.ok(!(await readdir(path)).includes('LOCK'), 'the lock is released on close');

    const again = await DataDir.open({ path });
    const rec = await again.recover();
    assert.equal(rec.report.created, false);
    assert.deepEqual(await payloads(rec.records), ['1:a', '2:b']);
    assert.equal(await rec.wal.append(Buffer.from('c')), 3);
    await assert.rejects(again.recover(), /already called/);
    await again.close();
  });
});

test('a newer, older, damaged or foreign format is refused with a clear message', async () => {
  await withTmpDir(async (root) => {
    const newer = join(root, 'newer');
    await mkdir(newer);
    await writeFile(join(newer, 'FORMAT'), 'ocelot-data-directory\nformat-version: 7\n');
    await assert.rejects(
      DataDir.open({ path: newer }),
      isDataDirError('FORMAT_NEWER', /format version 7, newer than this Ocelot supports \(1\)/),
    );
    assert.deepEqual(await readdir(newer), ['FORMAT'], 'a refused directory is left untouched');

    const older = join(root, 'older');
    await mkdir(older);
    await writeFile(join(older, 'FORMAT'), 'ocelot-data-directory\nformat-version: 0\n');
    await assert.rejects(DataDir.open({ path: older }), isDataDirError('FORMAT_OLDER', /version 0/));

    const damaged = join(root, 'damaged');
    await mkdir(damaged);
    await writeFile(join(damaged, 'FORMAT'), 'ocelot-data-dir');
    await assert.rejects(DataDir.open({ path: damaged }), isDataDirError('DAMAGED'));

    const foreign = join(root, 'foreign');
    await mkdir(foreign);
    await writeFile(join(foreign, 'notes.txt'), 'mine');
    await assert.rejects(DataDir.open({ path: foreign }), isDataDirError('NOT_A_DATA_DIR', /notes\.txt/));

    const lost = join(root, 'lost');
    const made = await DataDir.open({ path: lost });
    await made.recover();
    await made.close();
    await unlink(join(lost, 'FORMAT'));
    await assert.rejects(DataDir.open({ path: lost }), isDataDirError('DAMAGED', /FORMAT file is missing/));

    await writeFile(join(root, 'file'), 'x');
    await assert.rejects(DataDir.open({ path: join(root, 'file') }), isDataDirError('NOT_A_DATA_DIR'));
  });
});

test('the lock: one open per directory; stale or torn locks do not block', async () => {
  await withTmpDir(async (root) => {
    const path = join(root, 'd');
    const dd = await DataDir.open({ path });
    await assert.rejects(DataDir.open({ path }), isDataDirError('LOCKED', /already open in this process/));
    await dd.close();

    // A lock left by a process that no longer exists.
    const child = spawn(process.execPath, ['-e', '']);
    await once(child, 'exit');
    await writeFile(join(path, 'LOCK'), `${child.pid}\n${hostname()}\n`);
    await (await DataDir.open({ path })).close();

    // A lock torn by a crash while it was being written.
    await writeFile(join(path, 'LOCK'), '12');
    await (await DataDir.open({ path })).close();

    // A lock from another machine cannot be checked: refused.
    await writeFile(join(path, 'LOCK'), `1\nsome-other-host\n`);
    await assert.rejects(DataDir.open({ path }), isDataDirError('LOCKED', /on host some-other-host/));
  });
});

test(
  'another live process holding the directory blocks; after it is killed, a restart opens it',
  { timeout: scaled(60_000) },
  async () => {
    await withTmpDir(async (root) => {
      const path = join(root, 'd');
      const moduleUrl = new URL('../../src/durability/index.js', import.meta.url).href;
      const script =
        `const { DataDir } = await import(${JSON.stringify(moduleUrl)});` +
        `const dd = await DataDir.open({ path: ${JSON.stringify(path)} });` +
        `const { wal } = await dd.recover(); await wal.append(Buffer.from('from-child'));` +
        `console.log('ready'); setInterval(() => {}, 1000);`;
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      try {
        const [line] = (await once(child.stdout!, 'data')) as [Buffer];
        assert.equal(line.toString().trim(), 'ready');
        await assert.rejects(
          DataDir.open({ path }),
          isDataDirError('LOCKED', new RegExp(`process ${child.pid}`)),
        );
      } finally {
        child.kill('SIGKILL');
        await once(child, 'exit');
      }
      const dd = await DataDir.open({ path });
      const { records } = await dd.recover();
      assert.deepEqual(await payloads(records), ['1:from-child']);
      await dd.close();
    });
  },
);

test('checkpoints: recovery starts from the newest and replays the WAL after it', async () => {
  await withTmpDir(async (root) => {
    const path = join(root, 'd');
    const dd = await DataDir.open({ path, segmentSize: 128 });
    const { wal } = await dd.recover();
    for (let i = 1; i <= 10; i++) await wal.append(Buffer.from(`r${i}`));
    await assert.rejects(dd.writeCheckpoint(11, [Buffer.from('x')]), /beyond the last WAL record/);
    await dd.writeCheckpoint(4, [Buffer.from('state@4')]);
    for (let i = 11; i <= 20; i++) await wal.append(Buffer.from(`r${i}`));
    await dd.writeCheckpoint(15, [Buffer.from('state@'), Buffer.from('15')]);
    await dd.writeCheckpoint(18, [Buffer.from('state@18')]);
    // Kept: the newest two checkpoints, and the WAL back to the previous one.
    assert.deepEqual(await readdir(join(path, 'checkpoints')), [checkpointName(15), checkpointName(18)]);
    assert.ok(wal.segmentNames().length < 10);
    await dd.close();

    const again = await DataDir.open({ path });
    const rec = await again.recover();
    assert.equal(rec.checkpoint?.lsn, 18);
    assert.equal(rec.checkpoint?.bytes.toString(), 'state@18');
    assert.deepEqual(await payloads(rec.records), ['19:r19', '20:r20']);
    await again.close();

    // The newest checkpoint damaged: the previous one plus the log still give everything.
    const ck = join(path, 'checkpoints', checkpointName(18));
    const bytes = await readFile(ck);
    bytes[bytes.length - 1]! ^= 1;
    await writeFile(ck, bytes);
    const third = await DataDir.open({ path });
    const fallback = await third.recover();
    assert.equal(fallback.checkpoint?.lsn, 15);
    assert.equal(fallback.checkpoint?.bytes.toString(), 'state@15');
    assert.deepEqual(fallback.report.skippedCheckpoints, [
      { file: checkpointName(18), lsn: 18, reason: 'body checksum mismatch' },
    ]);
    assert.deepEqual(await payloads(fallback.records), ['16:r16', '17:r17', '18:r18', '19:r19', '20:r20']);
    await third.close();
  });
});

test('power cuts around opening and checkpointing never lose acknowledged records', async () => {
  await withTmpDir(async (root) => {
    const path = join(root, 'd');
    const fs = new FaultyFileLayer();
    let dd = await DataDir.open({ path, fs, segmentSize: 100 });
    let rec = await dd.recover();
    await fs.crash();
    await dd.close().catch(() => undefined);

    dd = await DataDir.open({ path, fs, segmentSize: 100 });
    rec = await dd.recover();
    assert.equal(rec.report.created, false, 'FORMAT was made durable at creation');
    for (let i = 1; i <= 12; i++) await rec.wal.append(Buffer.from(`r${i}`));
    await dd.writeCheckpoint(6, [Buffer.from('s6')]);
    await dd.writeCheckpoint(9, [Buffer.from('s9')]);
    // Cut power in the middle of the next checkpoint (after its data was written).
    fs.failWhen((op) => op.kind === 'rename');
    await assert.rejects(dd.writeCheckpoint(12, [Buffer.from('s12')]));
    await fs.crash();
    fs.clearFaults();
    await dd.close().catch(() => undefined);

    dd = await DataDir.open({ path, fs });
    rec = await dd.recover();
    assert.equal(rec.checkpoint?.lsn, 9);
    assert.deepEqual(await payloads(rec.records), ['10:r10', '11:r11', '12:r12']);
    await dd.close();
  });
});

test('a lock naming a live pid that now belongs to another process (pid reuse, reboot) is stale', async (t) => {
  if (processIdentity(process.pid) === undefined) {
    t.skip('needs /proc to tell processes apart');
    return;
  }
  await withTmpDir(async (root) => {
    const path = join(root, 'd');
    await (await DataDir.open({ path })).close();
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    try {
      const identity = processIdentity(child.pid!);
      assert.ok(identity);
      await writeFile(join(path, 'LOCK'), `${child.pid}\n${hostname()}\n${identity}\n`);
      await assert.rejects(
        DataDir.open({ path }),
        isDataDirError('LOCKED', new RegExp(`process ${child.pid}`)),
      );
      // Same pid, but the lock was written by a process started at another time or before a reboot.
      await writeFile(join(path, 'LOCK'), `${child.pid}\n${hostname()}\nsome-other-boot:12345\n`);
      const dd = await DataDir.open({ path });
      const [pid, host, own] = (await readFile(join(path, 'LOCK'), 'utf8')).split('\n');
      assert.deepEqual([Number(pid), host, own], [process.pid, hostname(), processIdentity(process.pid)]);
      await dd.close();
    } finally {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  });
});

test('no checkpoint is written once the log has failed', async () => {
  await withTmpDir(async (root) => {
    const fs = new FaultyFileLayer();
    const dd = await DataDir.open({ path: join(root, 'd'), fs, onFatal: () => undefined });
    const { wal } = await dd.recover();
    await wal.append(Buffer.from('a'));
    fs.failAfter('sync', 0);
    await assert.rejects(wal.append(Buffer.from('b')), DurabilityFatalError);
    fs.clearFaults();
    await assert.rejects(dd.writeCheckpoint(1, [Buffer.from('state')]), DurabilityFatalError);
    assert.deepEqual(await dd.checkpoints.list(), []);
    await dd.close();
  });
});
