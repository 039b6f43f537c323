import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { FaultyFileLayer, makeDirDurable, writeFileAtomic } from '../../src/durability/index.js';
import { withTmpDir } from './tmp-dir.js';

test('makeDirDurable fsyncs the parent of every directory it creates, and nothing when it exists', async () => {
  await withTmpDir(async (root) => {
    const fs = new FaultyFileLayer();
    const synced: string[] = [];
    fs.failWhen((op) => {
      if (op.kind === 'syncDir') synced.push(op.path);
      return false;
    });
    await makeDirDurable(fs, join(root, 'a', 'b', 'c'));
    assert.deepEqual(synced, [join(root, 'a', 'b'), join(root, 'a'), root]);
    synced.length = 0;
    await makeDirDurable(fs, join(root, 'a', 'b'));
    assert.deepEqual(synced, []);
    assert.deepEqual(await readdir(join(root, 'a', 'b')), ['c']);
  });
});

test('writeFileAtomic: a power cut leaves the old or the new content, never a mix', async () => {
  await withTmpDir(async (root) => {
    const path = join(root, 'config');
    const fs = new FaultyFileLayer();
    await writeFileAtomic(fs, path, Buffer.from('old'));
    let seen = 0;
    fs.failWhen((op) => op.kind === 'syncDir' && ++seen === 1);
    await assert.rejects(writeFileAtomic(fs, path, Buffer.from('new content')));
    fs.clearFaults();
    await fs.crash();
    assert.equal(await readFile(path, 'utf8'), 'old');
    await writeFileAtomic(fs, path, Buffer.from('new content'));
    await fs.crash();
    assert.equal(await readFile(path, 'utf8'), 'new content');
  });
});
