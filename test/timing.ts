/**
 * Time in tests. Tests never assert how long something took; they wait for an outcome, polling up
 * to a generous deadline, and fail only when it never comes. Every deadline is multiplied by
 * OCELOT_TEST_TIME_FACTOR (default 1) so that a slow or loaded machine can stretch them all.
 */
import { setTimeout as sleep } from 'node:timers/promises';

function factorFromEnv(): number {
  const text = process.env.OCELOT_TEST_TIME_FACTOR;
  if (text === undefined || text === '') return 1;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) {
    throw new Error(`OCELOT_TEST_TIME_FACTOR must be a positive number, not '${text}'`);
  }
  return n;
}

export const TIME_FACTOR = factorFromEnv();

/** A deadline of `ms` milliseconds on an unloaded machine, stretched by the factor. */
export function scaled(ms: number): number {
  return Math.ceil(ms * TIME_FACTOR);
}

/**
 * Polls `probe` until it returns something other than undefined/false, and returns that; throws
 * naming `what` once `ms` (scaled) have passed without it.
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | false | undefined | Promise<T | false | undefined>,
  ms = 30_000,
): Promise<T> {
  const stop = Date.now() + scaled(ms);
  for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > stop) throw new Error(`timed out after ${scaled(ms)} ms waiting for ${what}`);
    await sleep(pause);
  }
}
