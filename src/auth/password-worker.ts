/**
 * A password-hashing worker thread: derives scrypt keys synchronously on its own thread, so that
 * password checks never occupy libuv's thread pool, where the write-ahead log's fsyncs run.
 */
import { scryptSync } from 'node:crypto';
import { parentPort } from 'node:worker_threads';

export interface DeriveRequest {
  id: number;
  password: string;
  salt: Uint8Array;
  keyLength: number;
  N: number;
  r: number;
  p: number;
}

export type DeriveReply = { id: number; key: Uint8Array } | { id: number; error: string };

parentPort?.on('message', (m: DeriveRequest) => {
  try {
    // maxmem must cover 128*N*r bytes plus slack, or Node refuses the parameters.
    const key = scryptSync(m.password, m.salt, m.keyLength, {
      N: m.N,
      r: m.r,
      p: m.p,
      maxmem: 128 * m.N * m.r * 2,
    });
    parentPort?.postMessage({ id: m.id, key } satisfies DeriveReply);
  } catch (e) {
    parentPort?.postMessage({
      id: m.id,
      error: e instanceof Error ? e.message : String(e),
    } satisfies DeriveReply);
  }
});
