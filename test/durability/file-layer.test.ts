import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { realFileLayer } from '../../src/durability/file-layer.js';
import { withTmpDir } from './tmp-dir.js';

test('writeAndSync writes every chunk at its position, inline for small data and through the pool for large', async () => {
  await withTmpDir(async (dir) => {
    const path = join(dir, 'f');
    const fh = await realFileLayer.open(path, 'create');
    await fh.write(Buffer.from('0123456789'), 0);
    await fh.writeAndSync([Buffer.from('ab'), new Uint8Array(0), Buffer.from('cd')], 3);
    // Over the inline limit (1 MiB): the write goes through the thread pool, then the fsync.
    const large = Buffer.alloc((1 << 20) + 5, 0x78);
    await fh.writeAndSync([Buffer.from('Z'), large], 10);
    await fh.close();
    const got = await realFileLayer.readFile(path);
    assert.equal(got.length, 11 + large.length);
    assert.equal(got.subarray(0, 11).toString(), '012abcd789Z');
    assert.ok(got.subarray(11).equals(large));
  });
});
