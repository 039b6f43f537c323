/**
 * A count (live vertices of a type, live edges of a block) readable at any pinned version.
 * `current` includes staged writes; `log` holds (version, count) pairs published at commit time.
 */
export interface Counter {
  current: number;
  /** Flat pairs: version, count, version, count, ... in ascending version order. */
  log: number[];
  /**
   * What `current` holds of versions after the given one that a publish must leave out (an edge
   * block's edges appended unchecked: `settle` takes repeats off the counts of their version on,
   * which is right only if no earlier version's count holds them).
   */
  later?: (version: number) => number;
}

export function newCounter(version: number, count = 0): Counter {
  return { current: count, log: [version, count] };
}

/** Records the count as of a committed version. */
export function publishCount(c: Counter, version: number): void {
  const n = c.log.length;
  const count = c.later === undefined ? c.current : c.current - c.later(version);
  if (c.log[n - 2] === version) c.log[n - 1] = count;
  else if (c.log[n - 1] !== count) c.log.push(version, count);
}

export function countAt(c: Counter, version: number): number {
  const log = c.log;
  for (let i = log.length - 2; i >= 0; i -= 2) if (log[i] <= version) return log[i + 1];
  return 0;
}

/** Forgets entries older than the one a reader at `minVersion` needs. */
export function trimCount(c: Counter, minVersion: number): void {
  let keepFrom = 0;
  for (let i = 0; i < c.log.length; i += 2) if (c.log[i] <= minVersion) keepFrom = i;
  if (keepFrom > 0) c.log.splice(0, keepFrom);
}

/**
 * Sets the entries from `version` on to `count` (a transaction of that version aborted: an entry
 * there is a new block's or table's, never published, that `uncount` may have lowered meanwhile).
 */
export function restoreCountFrom(c: Counter, version: number, count: number): void {
  const log = c.log;
  for (let i = log.length - 2; i >= 0 && log[i] >= version; i -= 2) log[i + 1] = count;
}

/** Takes `n` off the count from `version` on (current and published), for edges found dead after the fact. */
export function uncount(c: Counter, version: number, n: number): void {
  c.current -= n;
  const log = c.log;
  for (let i = log.length - 2; i >= 0 && log[i] >= version; i -= 2) log[i + 1] -= n;
}
