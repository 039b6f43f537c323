/**
 * Run as a child process with UV_THREADPOOL_SIZE=1 by password-pool.test.ts: queues twelve password
 * derivations, then one fsync, and prints the order in which they finished. `libuv` derives with
 * crypto.scrypt (libuv's pool, as the server once did) as the control; `pool` uses the password
 * pool's threads.
 */
import { scrypt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PasswordPool } from '../../src/auth/password-pool.js';

const mode = process.argv[2];
const dir = mkdtempSync(join(tmpdir(), 'ocelot-pool-'));
const order: string[] = [];
const pool = new PasswordPool(2, 64);
const cost = { N: 16384, r: 8, p: 1 };

const derive = (i: number): Promise<void> =>
  mode === 'libuv'
    ? new Promise((resolve, reject) =>
        scrypt(`pw${i}`, 'salt', 32, { ...cost, maxmem: 64 * 1024 * 1024 }, (err) =>
          err ? reject(err) : resolve(),
        ),
      )
    : pool
        .derive({ password: `pw${i}`, salt: Buffer.from('salt'), keyLength: 32, ...cost })
        .then(() => undefined);

const fsync = async (): Promise<void> => {
  const fh = await open(join(dir, 'wal'), 'w');
  await fh.write('record');
  await fh.sync();
  await fh.close();
};

const work = [
  ...Array.from({ length: 12 }, (_, i) => derive(i).then(() => void order.push(`derive${i}`))),
  fsync().then(() => void order.push('fsync')),
];
await Promise.all(work);
await pool.close();
rmSync(dir, { recursive: true, force: true });
process.stdout.write(JSON.stringify(order));
