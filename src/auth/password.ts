/**
 * Password hashing with scrypt: a fresh 16-byte salt per hash, cost N=2^14, r=8, p=1 (about 16 MB
 * and tens of milliseconds, TigerGraph's own is bcrypt-like in cost). Verification recomputes with
 * the stored parameters and compares in constant time. Keys are derived on the password pool's own
 * threads (password-pool.ts), never on libuv's thread pool.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { PasswordHash } from '../catalog/security.js';
import { passwordPool } from './password-pool.js';

const KEY_LENGTH = 32;
const DEFAULT_COST = { N: 16384, r: 8, p: 1 } as const;

function derive(
  password: string,
  salt: Buffer,
  cost: { N: number; r: number; p: number },
  keyLength: number,
): Promise<Buffer> {
  return passwordPool.derive({ password, salt, keyLength, ...cost });
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
