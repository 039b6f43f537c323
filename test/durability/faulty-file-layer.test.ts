import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { FaultyFileLayer, errorCode, realFileLayer } from '../../src/durability/index.js';
import { withTmpDir } from './tmp-dir.js';

async function content(path: string): Promise<string | undefined> {
  try {
    return (await readFile(path)).toString();
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return undefined;
    throw err;
  }
}

test('real layer: positional and gathered writes, ranges, stat, list, truncate', async () => {
  await withTmpDir(async (dir) => {
    const fs = realFileLayer;
    const p = join(dir, 'f');
    const h = await fs.open(p, 'create');
    await h.write([Buffer.from('ab'), Buffer.from(''), Buffer.from('cde')], 0);
    await h.write(Buffer.from('XY'), 1);
    await h.write(Buffer.alloc(0), 3); // an empty write is a no-op, not an error
    await h.sync();
    assert.equal((await h.read(1, 10)).toString(), 'XYde');
    assert.equal(await h.size(), 5);
    await h.close();
    assert.deepEqual(await fs.stat(p), { size: 5, isFile: true, isDirectory: false });
    assert.equal(await fs.stat(join(dir, 'missing')), undefined);
    await fs.truncate(p, 2);
    assert.equal((await fs.readFile(p)).toString(), 'aX');
    await assert.rejects(fs.open(p, 'createNew'), (e) => errorCode(e) === 'EEXIST');
    await fs.mkdir(join(dir, 'a', 'b'));
    await fs.mkdir(join(dir, 'a', 'b'));
    assert.deepEqual((await fs.list(dir)).sort(), ['a', 'f']);
    await fs.syncDir(dir);
  });
});

test('real layer: a gathered write of more buffers than one writev takes (IOV_MAX) is written whole', async () => {
  await withTmpDir(async (dir) => {
    const p = join(dir, 'many');
    const h = await realFileLayer.open(p, 'create');
    const chunks = Array.from({ length: 3000 }, (_, i) => Buffer.from([i & 0xff]));
    await h.write(chunks, 0);
    await h.close();
    const bytes = await readFile(p);
    assert.equal(bytes.length, 3000);
    assert.equal(bytes[2999], 2999 & 0xff);
    assert.equal(bytes[1024], 1024 & 0xff);
  });
});

test('crash drops writes made after the last fsync, keeps fsynced ones', async () => {
  await withTmpDir(async (dir) => {
    const fs = new FaultyFileLayer();
    const p = join(dir, 'f');
    const h = await fs.open(p, 'create');
    await fs.syncDir(dir);
    await h.write(Buffer.from('durable'), 0);
    await h.sync();
    await h.write(Buffer.from('-lost'), 7);
    await h.write(Buffer.from('D'), 0);
    assert.equal(await content(p), 'Durable-lost');
    assert.equal(fs.unsyncedWrites(), 6);
    await fs.crash();
    assert.equal(await content(p), 'durable');
    await assert.rejects(h.write(Buffer.from('x'), 0), (e) => errorCode(e) === 'EBADF');
  });
});

test('a created file whose directory was not fsynced vanishes, even if the file was fsynced', async () => {
  await withTmpDir(async (dir) => {
    const fs = new FaultyFileLayer();
    const h = await fs.open(join(dir, 'new'), 'create');
    await h.write(Buffer.from('x'), 0);
    await h.sync();
    await h.close();
    await fs.crash();
    assert.equal(await content(join(dir, 'new')), undefined);
  });
});

test('rename and unlink are undone by a crash unless the directory was fsynced', async () => {
  await withTmpDir(async (dir) => {
    await writeFile(join(dir, 'old'), 'OLD');
    await writeFile(join(dir, 'gone'), 'GONE');
    const fs = new FaultyFileLayer();
    const h = await fs.open(join(dir, 'tmp'), 'create');
    await h.write(Buffer.from('NEW'), 0);
    await h.sync();
    await h.close();
    await fs.rename(join(dir, 'tmp'), join(dir, 'old'));
    await fs.unlink(join(dir, 'gone'));
    assert.equal(await content(join(dir, 'old')), 'NEW');
    await fs.crash();
    assert.equal(await content(join(dir, 'old')), 'OLD');
    assert.equal(await content(join(dir, 'gone')), 'GONE');
    assert.equal(await content(join(dir, 'tmp')), undefined);

    const h2 = await fs.open(join(dir, 'tmp'), 'create');
    await h2.write(Buffer.from('NEW'), 0);
    await h2.sync();
    await h2.close();
    await fs.rename(join(dir, 'tmp'), join(dir, 'old'));
    await fs.syncDir(dir);
    await fs.crash();
    assert.equal(await content(join(dir, 'old')), 'NEW');
    assert.deepEqual((await realFileLayer.list(dir)).sort(), ['gone', 'old']);
  });
});

test('a renamed file keeps content synced after the rename under its durable name', async () => {
  await withTmpDir(async (dir) => {
    const fs = new FaultyFileLayer();
    const h = await fs.open(join(dir, 'a'), 'create');
    await fs.syncDir(dir);
    await fs.rename(join(dir, 'a'), join(dir, 'b'));
    await h.write(Buffer.from('data'), 0);
    await h.sync();
    await fs.crash();
    // The rename was not durable: the file is back under 'a', with the fsynced content.
    assert.equal(await content(join(dir, 'a')), 'data');
    assert.equal(await content(join(dir, 'b')), undefined);
  });
});

test('crash can keep a torn prefix of un-synced writes', async () => {
  await withTmpDir(async (dir) => {
    const fs = new FaultyFileLayer();
    const p = join(dir, 'f');
    const h = await fs.open(p, 'create');
    await fs.syncDir(dir);
    await h.write(Buffer.from('AAAA'), 0);
    await h.write(Buffer.from('BBBB'), 4);
    await fs.crash({ keep: (w) => (w.index === 0 ? w.length : 2) });
    assert.equal(await content(p), 'AAAABB');
  });
});

test('truncation not followed by fsync is undone by a crash', async () => {
  await withTmpDir(async (dir) => {
    await writeFile(join(dir, 'f'), '0123456789');
    const fs = new FaultyFileLayer();
    await fs.truncate(join(dir, 'f'), 3);
    const h = await fs.open(join(dir, 'f'), 'create');
    await h.write(Buffer.from('z'), 0);
    await fs.crash();
    assert.equal(await content(join(dir, 'f')), '0123456789');
  });
});

test('failAfter and failWhen inject errors; tearWhen writes a prefix then fails; counts', async () => {
  await withTmpDir(async (dir) => {
    const fs = new FaultyFileLayer();
    const p = join(dir, 'f');
    const h = await fs.open(p, 'create');
    fs.failAfter('sync', 1);
    await h.sync();
    await assert.rejects(h.sync(), (e) => errorCode(e) === 'EIO');
    await assert.rejects(h.sync(), (e) => errorCode(e) === 'EIO');
    fs.clearFaults();
    fs.failWhen((op) => op.kind === 'write' && op.position === 100, 'ENOSPC');
    await h.write(Buffer.from('ok'), 0);
    await assert.rejects(h.write(Buffer.from('no'), 100), (e) => errorCode(e) === 'ENOSPC');
    fs.clearFaults();
    fs.tearWhen(
      () => true,
      (len) => len - 3,
    );
    await assert.rejects(h.write(Buffer.from('123456'), 2), (e) => errorCode(e) === 'EIO');
    assert.equal(await content(p), 'ok123');
    assert.equal(fs.counts.sync, 3);
    assert.equal(fs.counts.write, 3);
    assert.equal(fs.counts.bytesWritten, 5);
    await h.close();
  });
});
