/**
 * The primary-id index of a vertex type: external id key -> entry (a row, or ~row for a deleted one).
 *
 * Small non-negative integer ids — the common case for INT ids — live in a direct Int32Array indexed
 * by the id (one memory access per lookup; a JS Map of a million entries costs several cache misses).
 * The array grows while the ids stay dense enough (below 8 × (entries + 1) + 2^16); any other key
 * (strings, negative, large or sparse integers, bigints) goes to the keyed part. When the array
 * grows, the keyed part's integer keys it now covers move into it, so a key below the array's length
 * is only ever looked up there. Slot encoding: 0 absent, row + 1 for a row, ~row (negative) for a
 * deleted one.
 *
 * Both parts are readable by worker threads (store/mirror.ts): the direct array is shared memory
 * written with Atomics.store, so a worker that reads an entry also sees the row stamps written
 * before it; the keyed part is a shared hash of encoded keys built at each rebuild (`base`) plus a
 * Map of the keys set since (`over`, where NaN marks a key removed), which workers mirror from
 * `log`.
 */
import type { Value } from '../catalog/value.js';
import { ByteWriter } from './bytes.js';
import { epochs } from './epochs.js';
import { grownShared, sharedI32, toShared } from './shared.js';
import { HeapBuilder, ValueHeap } from './value-heap.js';
import type { IdKey } from './vertex-table.js';

const DIRECT_MIN = 1 << 16;
const DIRECT_MAX = 2 ** 31 - 1;

/** Whether `key` may live in the direct array once it is large enough. */
function directKey(key: IdKey): key is number {
  return typeof key === 'number' && key >= 0 && key < DIRECT_MAX && Number.isInteger(key);
}

const scratch = new ByteWriter(256);

/** FNV-1a over encoded key bytes. */
function hashBytes(b: Uint8Array, n: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < n; i++) h = Math.imul(h ^ b[i], 0x01000193);
  return h | 0;
}

/** Encodes `key` into the shared scratch writer; returns its byte length. */
function encodeKey(key: IdKey): number {
  scratch.pos = 0;
  scratch.value(key as Value);
  return scratch.pos;
}

/**
 * An immutable open-addressing hash of keys to entries in shared memory: keys are stored encoded
 * (bytes.ts), compared byte for byte, so any thread can look them up.
 */
export class KeyTable {
  constructor(
    readonly keys: ValueHeap,
    readonly entries: Int32Array,
    readonly hashes: Int32Array,
    /** Slot -> key number + 1 (0: empty); a power of two, at most half full. */
    readonly slots: Int32Array,
  ) {}

  get size(): number {
    return this.entries.length;
  }

  static build(pairs: readonly [IdKey, number][]): KeyTable {
    const b = new KeyTableBuilder(pairs);
    b.step(Infinity);
    return b.finish();
  }

  get(key: IdKey): number | undefined {
    const len = encodeKey(key);
    const enc = scratch.buf;
    const h = hashBytes(enc, len);
    const slots = this.slots;
    const mask = slots.length - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const k = slots[s] - 1;
      if (k < 0) return undefined;
      if (this.hashes[k] === h && this.keys.equals(k, enc, len)) return this.entries[k];
    }
  }

  key(i: number): IdKey {
    return this.keys.get(i) as IdKey;
  }
}

/**
 * A KeyTable built a few keys at a time (`step`), so that a long build can give the event loop
 * turns in between (the background merge); first the keys' bytes, then the hash slots.
 */
export class KeyTableBuilder {
  private readonly keys: HeapBuilder;
  private readonly entries: Int32Array;
  private readonly hashes: Int32Array;
  private readonly slots: Int32Array;
  private hashed = 0;

  constructor(private readonly pairs: readonly [IdKey, number][]) {
    const n = pairs.length;
    this.keys = new HeapBuilder(n, (i) => pairs[i][0] as Value);
    this.entries = sharedI32(n);
    this.hashes = sharedI32(n);
    let cap = 64;
    while (cap < n * 2) cap *= 2;
    this.slots = sharedI32(cap);
  }

  /** Takes up to `keys` more keys; false once the table is complete. */
  step(keys: number): boolean {
    if (this.keys.step(keys)) return true;
    const { pairs, entries, hashes, slots } = this;
    const mask = slots.length - 1;
    const end = Math.min(pairs.length, this.hashed + keys);
    for (let i = this.hashed; i < end; i++) {
      entries[i] = pairs[i][1];
      const len = encodeKey(pairs[i][0]);
      const h = hashBytes(scratch.buf, len);
      hashes[i] = h;
      let s = h & mask;
      while (slots[s] !== 0) s = (s + 1) & mask;
      slots[s] = i + 1;
    }
    this.hashed = end;
    return end < pairs.length;
  }

  finish(): KeyTable {
    return new KeyTable(this.keys.finish(), this.entries, this.hashes, this.slots);
  }
}

/** The keyed part of an id index being rebuilt (IdIndex.beginRebase). */
export interface PendingKeys {
  index: IdIndex;
  /** The new base's builder; null: the keyed part is empty now; undefined: only the log is dropped. */
  builder: KeyTableBuilder | null | undefined;
  /** The index's fold count at the start (another fold or a load meanwhile voids this one). */
  folds: number;
  /** Where the changes made after the start begin in the log. */
  logFrom: number;
}

export class IdIndex {
  direct: Int32Array = new Int32Array(new SharedArrayBuffer(0));
  private directCount = 0;
  /** Keys of the keyed part as the last rebuild left them. */
  base: KeyTable | null = null;
  /** Keyed entries set since (NaN: removed, hiding the base's entry). */
  readonly over = new Map<IdKey, number>();
  /** Live entries of the keyed part. */
  private keyedCount = 0;
  /** Changes of `over` since the base was built, in order, for workers' mirrors. */
  readonly logKeys: IdKey[] = [];
  readonly logEntries: number[] = [];
  /** Rebases and loads so far (see PendingKeys). */
  private folds = 0;
  /** The epoch the direct array was created in, and its replacements (see epochs.ts). */
  born = epochs.current;
  gen = 0;

  get size(): number {
    return this.directCount + this.keyedCount;
  }

  get(key: IdKey): number | undefined {
    if (typeof key === 'number' && key >= 0 && key < this.direct.length && Number.isInteger(key)) {
      const s = this.direct[key];
      return s === 0 ? undefined : s > 0 ? s - 1 : s;
    }
    return this.keyed(key);
  }

  private keyed(key: IdKey): number | undefined {
    if (this.over.size > 0) {
      const e = this.over.get(key);
      if (e !== undefined) return e !== e ? undefined : e;
    }
    return this.base === null ? undefined : this.base.get(key);
  }

  has(key: IdKey): boolean {
    return this.get(key) !== undefined;
  }

  set(key: IdKey, entry: number): void {
    this.put(key, entry, false, undefined);
  }

  /**
   * `set` by a caller that has just read the key's entry (`old`, what get(key) returned): the keyed
   * part then needs no second lookup of the key (a new vertex of a STRING id: one Map probe less).
   */
  setAfterGet(key: IdKey, entry: number, old: number | undefined): void {
    this.put(key, entry, true, old);
  }

  private put(key: IdKey, entry: number, known: boolean, old: number | undefined): void {
    if (directKey(key)) {
      if (key >= this.direct.length && key < Math.max(DIRECT_MIN, 8 * (this.size + 1))) this.grow(key + 1);
      if (key < this.direct.length) {
        if (this.direct[key] === 0) this.directCount++;
        Atomics.store(this.direct, key, entry >= 0 ? entry + 1 : entry);
        return;
      }
    }
    // Past the direct array (it only grows), `old` came from the keyed part.
    this.setKeyed(key, entry, known ? old !== undefined : this.had(key));
  }

  /** Replays one entry of the main thread's log (a worker's mirror; NaN: removed). */
  applyKeyed(key: IdKey, entry: number): void {
    this.setKeyed(key, entry, this.had(key));
    this.logKeys.length = 0;
    this.logEntries.length = 0;
  }

  /** Whether the keyed part holds a live entry for `key`. */
  private had(key: IdKey): boolean {
    return this.keyed(key) !== undefined;
  }

  /** Sets a keyed entry (NaN: removes it); `had`: whether the keyed part holds one for `key` now. */
  private setKeyed(key: IdKey, entry: number, had: boolean): void {
    if (!had && entry === entry) this.keyedCount++;
    else if (had && entry !== entry) this.keyedCount--;
    if (entry !== entry && (this.base === null || this.base.get(key) === undefined)) this.over.delete(key);
    else this.over.set(key, entry);
    this.logKeys.push(key);
    this.logEntries.push(entry);
  }

  delete(key: IdKey): void {
    if (typeof key === 'number' && key >= 0 && key < this.direct.length && Number.isInteger(key)) {
      if (this.direct[key] !== 0) {
        Atomics.store(this.direct, key, 0);
        this.directCount--;
      }
      return;
    }
    if (this.had(key)) this.setKeyed(key, NaN, true);
  }

  private grow(needed: number): void {
    let cap = Math.max(this.direct.length, 1024);
    while (cap < needed) cap *= 2;
    const d = grownShared(this.direct, Math.min(cap, DIRECT_MAX));
    this.direct = d;
    this.born = epochs.current;
    this.gen++;
    // Keyed integer keys the array now covers move into it.
    if (this.keyedCount === 0) return;
    for (const [k, entry] of this.keyedEntries()) {
      if (directKey(k) && k < d.length) {
        Atomics.store(d, k, entry >= 0 ? entry + 1 : entry);
        this.directCount++;
        this.setKeyed(k, NaN, true);
      }
    }
  }

  /**
   * Live entries of the keyed part: those set since the base, then the base's others; with
   * `outsideDirect`, only the keys the direct array does not cover. An array, not a generator: a
   * rebuild after a load of 100,000 STRING ids spent about 25 MB on iterator results.
   */
  private keyedEntries(outsideDirect = false): [IdKey, number][] {
    const pairs: [IdKey, number][] = [];
    const n = this.direct.length;
    const keep = (k: IdKey): boolean => !outsideDirect || !(directKey(k) && k < n);
    // forEach, not for-of: no entry array per key.
    this.over.forEach((e, k) => {
      if (e === e && keep(k)) pairs.push([k, e]);
    });
    const base = this.base;
    if (base !== null) {
      for (let i = 0; i < base.size; i++) {
        const k = base.key(i);
        if (!this.over.has(k) && keep(k)) pairs.push([k, base.entries[i]]);
      }
    }
    return pairs;
  }

  *entries(): IterableIterator<[IdKey, number]> {
    for (let k = 0; k < this.direct.length; k++) {
      const s = this.direct[k];
      if (s !== 0) yield [k, s > 0 ? s - 1 : s];
    }
    yield* this.keyedEntries(true);
  }

  /** Folds the keys set since the last rebuild into a new shared base (the rebuild). */
  rebase(): void {
    const p = this.beginRebase();
    if (p) this.finishRebase(p);
  }

  /** Keys set since the base was built. */
  get overlay(): number {
    return this.over.size;
  }

  /**
   * Starts folding the keyed part into a new base, built a step at a time from the entries as
   * they are now while writes go on; undefined: nothing to fold. A log left without an overlay
   * (keys that moved into the direct array) is dropped too, so that no worker replays it again.
   */
  beginRebase(): PendingKeys | undefined {
    if (this.over.size === 0 && this.logKeys.length === 0) return undefined;
    const pairs = this.over.size === 0 ? undefined : this.keyedEntries(true);
    return {
      index: this,
      builder: pairs === undefined ? undefined : pairs.length === 0 ? null : new KeyTableBuilder(pairs),
      folds: this.folds,
      logFrom: this.logKeys.length,
    };
  }

  /**
   * Installs a built base (writes quiesced): keys changed since `beginRebase` stay in the overlay
   * with their current entries, logged again for workers' mirrors. Dropped when the index was
   * folded or loaded meanwhile.
   */
  finishRebase(p: PendingKeys): void {
    if (this.folds !== p.folds) return;
    this.folds++;
    const later = new Map<IdKey, number>();
    for (let i = p.logFrom; i < this.logKeys.length; i++) {
      const k = this.logKeys[i];
      if (!later.has(k)) later.set(k, this.keyed(k) ?? NaN);
    }
    if (p.builder) {
      p.builder.step(Infinity);
      this.base = p.builder.finish();
    } else if (p.builder === null) this.base = null;
    this.over.clear();
    this.logKeys.length = 0;
    this.logEntries.length = 0;
    for (const [k, e] of later) {
      const inBase = this.base === null ? undefined : this.base.get(k);
      if (e === inBase || (e !== e && inBase === undefined)) continue;
      this.over.set(k, e);
      this.logKeys.push(k);
      this.logEntries.push(e);
    }
    this.gen++;
  }

  /** Takes loaded parts (a checkpoint, or a worker's mirror). */
  load(direct: Int32Array, base: KeyTable | null): void {
    this.folds++;
    this.direct = toShared(direct);
    this.base = base;
    this.over.clear();
    let n = 0;
    for (let k = 0; k < direct.length; k++) if (direct[k] !== 0) n++;
    this.directCount = n;
    this.keyedCount = base === null ? 0 : base.size;
    this.logKeys.length = 0;
    this.logEntries.length = 0;
    this.born = epochs.current;
    this.gen++;
  }
}
