/**
 * Password hashing with scrypt: a fresh 16-byte salt per hash, cost N=2^14, r=8, p=1 (about 16 MB
 * and tens of milliseconds, TigerGraph's own is bcrypt-like in cost). Verification recomputes with
 * the stored parameters and compares in constant time.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { PasswordHash } from '../catalog/security.js';

const KEY_LENGTH = 32;
const DEFAULT_COST = { N: 16384, r: 8, p: 1 } as const;

function derive(password: string, salt: Buffer, options: ScryptOptions, keyLength: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // maxmem must cover 128*N*r bytes plus slack, or Node refuses the parameters.
    const maxmem = 128 * (options.N ?? 16384) * (options.r ?? 8) * 2;
    scrypt(password, salt, keyLength, { ...options, maxmem }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<PasswordHash> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, DEFAULT_COST, KEY_LENGTH);
  return {
    algorithm: 'scrypt',
    salt: salt.toString('base64'),
    hash: key.toString('base64'),
    ...DEFAULT_COST,
  };
}

export async function verifyPassword(password: string, stored: PasswordHash): Promise<boolean> {
  const expected = Buffer.from(stored.hash, 'base64');
  const key = await derive(
    password,
    Buffer.from(stored.salt, 'base64'),
    { N: stored.N, r: stored.r, p: stored.p },
    expected.length,
  );
  return key.length === expected.length && timingSafeEqual(key, expected);
}
