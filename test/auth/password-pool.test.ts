/**
 * The password pool: keys equal node's scrypt, the queue is bounded, and password checks never
 * hold up file syncs (the write-ahead log's fsyncs run on libuv's thread pool).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { scryptSync } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { AuthError } from '../../src/auth/errors.js';
import { PasswordPool } from '../../src/auth/password-pool.js';

const COST = { N: 1024, r: 8, p: 1 };

test('keys derived on the pool are the keys of scrypt', async () => {
  const pool = new PasswordPool(2, 8);
  try {
    const salt = Buffer.from('0123456789abcdef');
    const keys = await Promise.all(
      ['a', 'tigergraph', 'päss'].map((password) => pool.derive({ password, salt, keyLength: 32, ...COST })),
    );
    assert.deepEqual(
      keys.map((k) => k.toString('hex')),
      ['a', 'tigergraph', 'päss'].map((p) => scryptSync(p, salt, 32, COST).toString('hex')),
    );
  } finally {
    await pool.close();
  }
});

test('beyond its queue the pool refuses at once with 429 instead of waiting', async () => {
  const pool = new PasswordPool(1, 2);
  try {
    const job = { password: 'x', salt: Buffer.from('s'), keyLength: 32, N: 16384, r: 8, p: 1 };
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map(() => pool.derive(job)));
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected'],
    );
    const refusal = (results[3] as PromiseRejectedResult).reason as unknown;
    assert.ok(refusal instanceof AuthError && refusal.status === 429 && refusal.retryAfter === 1);
    // Once the queue drains, checks are taken again.
    assert.equal((await pool.derive(job)).length, 32);
  } finally {
    await pool.close();
  }
});

const CHILD = fileURLToPath(new URL('./password-pool-child.js', import.meta.url));

function finishOrder(mode: 'libuv' | 'pool'): string[] {
  const r = spawnSync(process.execPath, [CHILD, mode], {
    env: { ...process.env, UV_THREADPOOL_SIZE: '1' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as string[];
}

test('an fsync queued behind a burst of password checks is not held up by them', () => {
  // The control: on libuv's pool (one thread), the fsync waits for every scrypt queued before it.
  const onLibuv = finishOrder('libuv');
  assert.equal(onLibuv.at(-1), 'fsync', onLibuv.join(' '));
  // On the password pool's own threads, it is done while the checks are still running.
  const onPool = finishOrder('pool');
  assert.ok(onPool.indexOf('fsync') < onPool.length / 2, onPool.join(' '));
});
