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

const encoder = new TextEncoder();

/** FNV-1a over bytes [start, end) of `b`. */
function hashBytes(b: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ b[i], 0x01000193);
  return h | 0;
}

export class TokenWords {
  /** Open addressing: code + 1 per slot (0: empty); a power of two, at most half full. */
  private slots = new Int32Array(1 << 12);
  private hashes = new Int32Array(1 << 11);
  /** Word k is bytes [ends[k-1] (0 for k = 0), ends[k]) of `bytes`. */
  private ends = new Int32Array(1 << 11);
  private bytes = new Uint8Array(1 << 15);
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
    const h = hashBytes(buf, start, end);
    const len = end - start;
    const slots = this.slots;
    const mask = slots.length - 1;
    const ends = this.ends;
    const bytes = this.bytes;
    let s = h & mask;
    for (let c = slots[s] - 1; c >= 0; s = (s + 1) & mask, c = slots[s] - 1) {
      if (this.hashes[c] !== h) continue;
      const from = c === 0 ? 0 : ends[c - 1];
      if (ends[c] - from !== len) continue;
      let k = 0;
      while (k < len && bytes[from + k] === buf[start + k]) k++;
      if (k === len) return c;
    }
    if (!this.open) return -1;
    return this.add(buf, start, end, h, s);
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
    this.words.length = 0;
    this.fresh = [];
    this.rows.clear();
  }

  private add(buf: Uint8Array, start: number, end: number, h: number, slot: number): number {
    const c = this.words.length;
    const from = c === 0 ? 0 : this.ends[c - 1];
    const to = from + (end - start);
    if (c === this.ends.length) {
      this.ends = grown(this.ends, 2 * c);
      this.hashes = grown(this.hashes, 2 * c);
    }
    if (to > this.bytes.length) {
      const b = new Uint8Array(Math.max(to, 2 * this.bytes.length));
      b.set(this.bytes.subarray(0, from));
      this.bytes = b;
    }
    this.bytes.set(buf.subarray(start, end), from);
    this.ends[c] = to;
    this.hashes[c] = h;
    const w = Buffer.from(buf.buffer, buf.byteOffset + start, end - start).toString('utf8');
    this.words.push(w);
    this.fresh.push(w);
    this.slots[slot] = c + 1;
    if (2 * (c + 1) > this.slots.length) this.rehash();
    this.rows.reserve(c + 1);
    return c;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let c = 0; c < this.words.length; c++) {
      let s = this.hashes[c] & mask;
      while (slots[s] !== 0) s = (s + 1) & mask;
      slots[s] = c + 1;
    }
    this.slots = slots;
  }
}

function grown(a: Int32Array, n: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(n);
  b.set(a);
  return b;
}
