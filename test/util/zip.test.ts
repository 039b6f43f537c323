import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readZip, ZipWriter } from '../../src/util/zip.js';

test('an archive written entry by entry reads back whole; unzip(1) agrees when it is installed', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ocelot-zip-'));
  try {
    const path = join(dir, 'a.zip');
    const big = 'id\x1dname\x1c'.repeat(50_000);
    const z = await ZipWriter.create(path);
    await z.add('global.gsql', 'CREATE VERTEX v (PRIMARY_ID id STRING)\n');
    await z.add('GlobalTypes/vertex_v.csv', big);
    await z.add('empty.txt', '');
    await z.add('naïve.json', Buffer.from([0, 1, 2, 255]));
    await z.close();
    const entries = await readZip(path);
    assert.deepEqual(
      [...entries.keys()],
      ['global.gsql', 'GlobalTypes/vertex_v.csv', 'empty.txt', 'naïve.json'],
    );
    assert.equal(entries.get('GlobalTypes/vertex_v.csv')?.toString(), big);
    assert.equal(entries.get('empty.txt')?.length, 0);
    assert.deepEqual([...(entries.get('naïve.json') ?? [])], [0, 1, 2, 255]);
    assert.ok((await readFile(path)).length < big.length / 10, 'compressed');
    let listing: string | undefined;
    try {
      listing = execFileSync('unzip', ['-t', path], { encoding: 'utf8' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    if (listing !== undefined) assert.match(listing, /No errors detected/);
    const damaged = Buffer.from(await readFile(path));
    // The first entry's data starts after its 30-byte header and its 11-byte name.
    damaged[30 + 'global.gsql'.length] ^= 1;
    await writeFile(path, damaged);
    await assert.rejects(readZip(path), /global\.gsql fails its checksum|does not inflate/);
    await writeFile(path, 'not a zip');
    await assert.rejects(readZip(path), /no end of central directory/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
