/**
 * Random credentials and their stored forms. Tokens and secrets are 32 characters of [a-z0-9]
 * (TigerGraph's format), drawn without modulo bias: 32 * log2(36) ≈ 165 bits. They are stored as
 * SHA-256 digests; a plain hash is enough because the input is high-entropy, and lookups by
 * digest stay O(1). Digests are compared with timingSafeEqual.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** Largest multiple of 36 below 256: bytes at or above it are rejected to avoid modulo bias. */
const LIMIT = 252;

export function randomString(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= LIMIT) continue;
      out += ALPHABET[byte % ALPHABET.length];
      if (out.length === length) break;
    }
  }
  return out;
}

export const CREDENTIAL_LENGTH = 32;

export function newCredential(): string {
  return randomString(CREDENTIAL_LENGTH);
}

export function digestOf(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * A token as TigerGraph prints it in messages: first and last four characters ('eyJh****4WgE');
 * shorter values are not echoed at all.
 */
export function maskToken(token: string): string {
  if (token.length === 0) return '';
  if (token.length < 12) return '****';
  return `${token.slice(0, 4)}****${token.slice(-4)}`;
}

/** A secret as SHOW SECRET prints it: first and last three characters (pyTigerGraph matches this). */
export function maskSecret(secret: string): string {
  if (secret.length < 10) return '****';
  return `${secret.slice(0, 3)}****${secret.slice(-3)}`;
}
