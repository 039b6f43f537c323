/**
 * JSON response bodies written as UTF-8 bytes in place (the vertex list). A body built as a string
 * is a rope of small pieces: the socket write flattens it into a new string and then copies that
 * into its own buffer, and for a 100-row list the flattening alone cost more than writing the rows.
 * Here the bytes go straight into a shared slab, and the body handed to the socket is a view of it.
 *
 * One body is written at a time: `begin` to `finish` runs synchronously, and a body left unfinished
 * (its writer threw) is written over by the next one. A finished body's bytes are never written
 * again: the next body starts after it, and a full slab is left to the bodies still being sent.
 */

/** A slab holds many bodies (a 100-row list is about 5.5 KB). */
const SLAB_BYTES = 256 * 1024;
/** A body starts in a fresh slab when less than this is left. */
const MIN_ROOM = 16 * 1024;
const TWO_31 = 2 ** 31;

/** 1e0 … 1e15, written out: each is an exact double, so the comparisons with them are exact. */
const POWERS = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/** The number of decimal digits of a non-negative integer below 2^53. */
function digitCount(n: number): number {
  if (n < 1e5) return n < 100 ? (n < 10 ? 1 : 2) : n < 1e3 ? 3 : n < 1e4 ? 4 : 5;
  if (n < 1e10) return n < 1e7 ? (n < 1e6 ? 6 : 7) : n < 1e8 ? 8 : n < 1e9 ? 9 : 10;
  let digits = 11;
  while (digits < 16 && n >= POWERS[digits]) digits++;
  return digits;
}

export class JsonWriter {
  /** The slab being written; the bytes before `start` belong to finished bodies. */
  private buf: Buffer = Buffer.allocUnsafeSlow(SLAB_BYTES);
  private start = 0;
  /** Where the next byte goes. */
  private pos = 0;

  /** Starts a body (where an unfinished one started, if any). */
  begin(): this {
    // A slab grown for a large body is not kept for the small ones after it.
    if (this.buf.length - this.start < MIN_ROOM || this.buf.length > SLAB_BYTES) {
      this.buf = Buffer.allocUnsafeSlow(SLAB_BYTES);
      this.start = 0;
    }
    this.pos = this.start;
    return this;
  }

  /** The body written since `begin`: a view of the slab, whose bytes are never written again. */
  finish(): Buffer {
    const body = this.buf.subarray(this.start, this.pos);
    this.start = this.pos;
    return body;
  }

  /** Makes room for n more bytes: a larger slab takes the body written so far. */
  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const written = this.pos - this.start;
    const next = Buffer.allocUnsafeSlow(Math.max(SLAB_BYTES, 2 * (written + n)));
    this.buf.copy(next, 0, this.start, this.pos);
    this.buf = next;
    this.start = 0;
    this.pos = written;
  }

  /** Bytes as they are (pre-encoded constant text). */
  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** A string whose characters are all below U+0080 (number and date texts). */
  ascii(s: string): void {
    const n = s.length;
    this.room(n);
    const b = this.buf;
    let p = this.pos;
    for (let i = 0; i < n; i++) b[p++] = s.charCodeAt(i);
    this.pos = p;
  }

  /** Any string, as UTF-8 (what `Buffer.from(s)` holds). */
  text(s: string): void {
    const n = s.length;
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    this.room(3 * n);
    const b = this.buf;
    let p = this.pos;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) {
        this.pos = p + b.write(i === 0 ? s : s.slice(i), p, 'utf8');
        return;
      }
      b[p++] = c;
    }
    this.pos = p;
  }

  /**
   * `JSON.stringify(s)`: a string with nothing to escape is written between quotes as it is,
   * anything else through JSON.stringify.
   */
  jsonString(s: string): void {
    const n = s.length;
    this.room(n + 2);
    const b = this.buf;
    let p = this.pos;
    b[p++] = 0x22;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      // Controls, quote and backslash are escaped; anything past ASCII is encoded.
      if (c < 0x20 || c === 0x22 || c === 0x5c || c >= 0x80) {
        this.text(JSON.stringify(s));
        return;
      }
      b[p++] = c;
    }
    b[p++] = 0x22;
    this.pos = p;
  }

  /** `String(n)` of an integer with |n| <= 2^53 (-0 is "0", as String writes it). */
  int(n: number): void {
    this.room(17);
    const b = this.buf;
    let p = this.pos;
    if (n < 0) {
      b[p++] = 0x2d;
      n = -n;
    }
    p += digitCount(n);
    this.pos = p;
    if (n < TWO_31) {
      let x = n | 0;
      while (x >= 10) {
        const q = (x / 10) | 0;
        b[--p] = 0x30 + (x - q * 10);
        x = q;
      }
      b[--p] = 0x30 + x;
    } else {
      let x = n;
      while (x >= 10) {
        const q = Math.floor(x / 10);
        b[--p] = 0x30 + (x - q * 10);
        x = q;
      }
      b[--p] = 0x30 + x;
    }
  }
}

/** The process's writer (bodies are written one at a time, see above). */
export const jsonWriter = new JsonWriter();
