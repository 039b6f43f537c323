/**
 * A load's dictionary of STRING id tokens, keyed by their bytes: an edge end's token is coded
 * straight from the line (tokenizer.ts `Line.wordCode`), so an id met before costs a hash of its
 * bytes and a compare, not a new string, and its code finds the row the writer remembered for it
 * (engine/row-cache.ts). Each distinct word is decoded to a string once; every later edge end
 * holds that same string (so the id index's Map and the WAL see one string per id).
 *
 * Codes are dense (0, 1, 2, … in order of first sight). A dictionary holds at most `maxWords`
 * words: past that, `code` answers -1 for a word it does not hold (the caller falls back to the
 * token as a string) until the owner empties it with `clear()` at a point where no code given
 * before is still in use (a parse thread between two pieces).
 */
import { RowCache } from '../engine/api.js';

/** Words a dictionary holds before it stops coding new ones. */
const MAX_WORDS = 1 << 20;

/** Longest word kept in its slot as packed bytes (two 32-bit halves). */
const PACKED_BYTES = 8;

const encoder = new TextEncoder();

/** FNV-1a over bytes [start, end) of `b` (words longer than PACKED_BYTES). */
function hashBytes(b: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ b[i], 0x01000193);
  return h | 0;
}

/** A slot's position hash from what it holds (packed halves, or a long word's hash and 0). */
function mix(a: number, b: number, len: number): number {
  const h = Math.imul(a ^ Math.imul(b, 0x9e3779b1) ^ len, 0x85ebca6b);
  return h ^ (h >>> 15);
}

/** Int32s per slot of TokenWords. */
const SLOT = 4;

export class TokenWords {
  /**
   * Open addressing, SLOT Int32s per slot: a, b, byte length, code + 1 (0: empty); a power of two
   * slots, at most half full. A word of at most PACKED_BYTES bytes is its own key: a and b are its
   * bytes packed little-endian, so a probe compares two numbers in the slot's cache line instead of
   * reading a hash, an offset and the bytes from three other arrays (about a third less time per
   * probe of an edge file's ids). A longer word keeps its FNV hash in a and the offset of its bytes
   * in `bytes` in b.
   */
  private slots = new Int32Array(SLOT << 12);
  private bytes = new Uint8Array(1 << 12);
  private bytesUsed = 0;
  private readonly words: string[] = [];
  /** Words added since `takeFresh`. */
  private fresh: string[] = [];
  private scratch = new Uint8Array(256);
  /** The rows the writer found for these codes (forgotten with the words). */
  readonly rows = new RowCache();

  constructor(private readonly maxWords = MAX_WORDS) {}

  get size(): number {
    return this.words.length;
  }

  /** Whether every further word is coded (false once `maxWords` are held). */
  get open(): boolean {
    return this.words.length < this.maxWords;
  }

  /** The word of a code. */
  word(code: number): string {
    return this.words[code];
  }

  /**
   * The code of the UTF-8 bytes [start, end) of `buf` (added when new, decoded to a string then),
   * or -1 when they are new and the dictionary is full.
   */
  code(buf: Uint8Array, start: number, end: number): number {
    const len = end - start;
    if (len > PACKED_BYTES) return this.codeLong(buf, start, end);
    const half = start + (len < 4 ? len : 4);
    let a = 0;
    let b = 0;
    for (let i = half - 1; i >= start; i--) a = (a << 8) | buf[i];
    for (let i = end - 1; i >= half; i--) b = (b << 8) | buf[i];
    const slots = this.slots;
    const mask = (slots.length >> 2) - 1;
    for (let k = mix(a, b, len) & mask; ; k = (k + 1) & mask) {
      const o = k << 2;
      const c = slots[o + 3];
      if (c === 0) return this.open ? this.add(buf, start, end, o, a, b) : -1;
      if (slots[o] === a && slots[o + 1] === b && slots[o + 2] === len) return c - 1;
    }
  }

  /** `code` for a word longer than PACKED_BYTES: found by its hash, checked byte by byte. */
  private codeLong(buf: Uint8Array, start: number, end: number): number {
    const len = end - start;
    const h = hashBytes(buf, start, end);
    const slots = this.slots;
    const bytes = this.bytes;
    const mask = (slots.length >> 2) - 1;
    for (let k = mix(h, 0, len) & mask; ; k = (k + 1) & mask) {
      const o = k << 2;
      const c = slots[o + 3];
      if (c === 0) {
        if (!this.open) return -1;
        const at = this.keep(buf, start, end);
        return this.add(buf, start, end, o, h, at);
      }
      if (slots[o] !== h || slots[o + 2] !== len) continue;
      const from = slots[o + 1];
      let i = 0;
      while (i < len && bytes[from + i] === buf[start + i]) i++;
      if (i === len) return c - 1;
    }
  }

  /** The code of a string (as `code` of its UTF-8 bytes). */
  codeString(w: string): number {
    if (this.scratch.length < w.length * 3) this.scratch = new Uint8Array(w.length * 3);
    const n = encoder.encodeInto(w, this.scratch).written;
    return this.code(this.scratch, 0, n);
  }

  /** The words added since the last call. */
  takeFresh(): string[] {
    const f = this.fresh;
    this.fresh = [];
    return f;
  }

  /** Forgets every word and row (no code given before may be used after this). */
  clear(): void {
    this.slots.fill(0);
    this.bytesUsed = 0;
    this.words.length = 0;
    this.fresh = [];
    this.rows.clear();
  }

  /** Copies a long word's bytes into `bytes`; returns their offset. */
  private keep(buf: Uint8Array, start: number, end: number): number {
    const at = this.bytesUsed;
    const to = at + (end - start);
    if (to > this.bytes.length) {
      const b = new Uint8Array(Math.max(to, 2 * this.bytes.length));
      b.set(this.bytes.subarray(0, at));
      this.bytes = b;
    }
    this.bytes.set(buf.subarray(start, end), at);
    this.bytesUsed = to;
    return at;
  }

  /** Adds a word in the empty slot at Int32 offset `o`, with the slot's a and b. */
  private add(buf: Uint8Array, start: number, end: number, o: number, a: number, b: number): number {
    const c = this.words.length;
    const slots = this.slots;
    slots[o] = a;
    slots[o + 1] = b;
    slots[o + 2] = end - start;
    slots[o + 3] = c + 1;
    const w = Buffer.from(buf.buffer, buf.byteOffset + start, end - start).toString('utf8');
    this.words.push(w);
    this.fresh.push(w);
    if (2 * (c + 1) > slots.length >> 2) this.rehash();
    this.rows.reserve(c + 1);
    return c;
  }

  private rehash(): void {
    const old = this.slots;
    const slots = new Int32Array(old.length * 2);
    const mask = (slots.length >> 2) - 1;
    for (let o = 0; o < old.length; o += SLOT) {
      if (old[o + 3] === 0) continue;
      const len = old[o + 2];
      let k = mix(old[o], len > PACKED_BYTES ? 0 : old[o + 1], len) & mask;
      while (slots[(k << 2) + 3] !== 0) k = (k + 1) & mask;
      // Element by element: a subarray per word would be an object for the collector each.
      const n = k << 2;
      slots[n] = old[o];
      slots[n + 1] = old[o + 1];
      slots[n + 2] = len;
      slots[n + 3] = old[o + 3];
    }
    this.slots = slots;
  }
}
