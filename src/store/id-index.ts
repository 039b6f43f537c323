/**
 * The primary-id index of a vertex type: external id key -> entry (a row, or ~row for a deleted one).
 *
 * Small non-negative integer ids — the common case for INT ids — live in a direct Int32Array indexed
 * by the id (one memory access per lookup; a JS Map of a million entries costs several cache misses).
 * The array grows while the ids stay dense enough (below 8 × (entries + 1) + 2^16); any other key goes
 * to a Map. When the array grows, the Map's integer keys it now covers move into it, so a key below
 * the array's length is only ever in the array (ids arriving in random order would otherwise stay
 * in the Map for good). Slot encoding: 0 absent, row + 1 for a row, ~row (negative) for a deleted one.
 */
import type { IdKey } from './vertex-table.js';

const DIRECT_MIN = 1 << 16;
const DIRECT_MAX = 2 ** 31 - 1;

export class IdIndex {
  private direct: Int32Array = new Int32Array(0);
  private directCount = 0;
  private readonly map = new Map<IdKey, number>();

  get size(): number {
    return this.directCount + this.map.size;
  }

  /** Whether `key` may live in the direct array once it is large enough. */
  private directKey(key: IdKey): key is number {
    return typeof key === 'number' && key >= 0 && key < DIRECT_MAX && Number.isInteger(key);
  }

  get(key: IdKey): number | undefined {
    if (typeof key === 'number' && key >= 0 && key < this.direct.length && Number.isInteger(key)) {
      const s = this.direct[key];
      return s === 0 ? undefined : s > 0 ? s - 1 : s;
    }
    return this.map.size === 0 ? undefined : this.map.get(key);
  }

  has(key: IdKey): boolean {
    return this.get(key) !== undefined;
  }

  set(key: IdKey, entry: number): void {
    if (this.directKey(key)) {
      if (key >= this.direct.length && key < Math.max(DIRECT_MIN, 8 * (this.size + 1))) this.grow(key + 1);
      if (key < this.direct.length) {
        if (this.direct[key] === 0) this.directCount++;
        this.direct[key] = entry >= 0 ? entry + 1 : entry;
        return;
      }
    }
    this.map.set(key, entry);
  }

  delete(key: IdKey): void {
    if (typeof key === 'number' && key >= 0 && key < this.direct.length && Number.isInteger(key)) {
      if (this.direct[key] !== 0) {
        this.direct[key] = 0;
        this.directCount--;
      }
      return;
    }
    this.map.delete(key);
  }

  private grow(needed: number): void {
    let cap = Math.max(this.direct.length, 1024);
    while (cap < needed) cap *= 2;
    const d = new Int32Array(Math.min(cap, DIRECT_MAX));
    d.set(this.direct);
    this.direct = d;
    for (const [k, entry] of this.map) {
      if (this.directKey(k) && k < d.length) {
        d[k] = entry >= 0 ? entry + 1 : entry;
        this.directCount++;
        this.map.delete(k);
      }
    }
  }

  *entries(): IterableIterator<[IdKey, number]> {
    for (let k = 0; k < this.direct.length; k++) {
      const s = this.direct[k];
      if (s !== 0) yield [k, s > 0 ? s - 1 : s];
    }
    yield* this.map;
  }
}
