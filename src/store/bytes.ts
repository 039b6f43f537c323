/**
 * Little-endian byte writer/reader used by the WAL record and checkpoint encodings and by the value
 * heaps of shared columns (value-heap.ts), including the tagged encoding of any Value:
 *   0 false | 1 true | 2 uint (varuint) | 3 negative int (varuint of -v) | 4 float64 | 5 string
 *   6 bytes | 7 list (count, values) | 8 map (count, key, value, ...) | 9 tuple (name, count, values)
 *   10 vertex ref (type, id) | 11 bigint (decimal string)
 * varuint: 7 bits per byte, low first, up to 2^53.
 */
import { Tuple, type Value, VertexRef, type Primitive } from '../catalog/value.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

export class ByteWriter {
  buf: Uint8Array;
  pos = 0;
  private view: DataView;

  constructor(initial = 256) {
    this.buf = new Uint8Array(initial);
    this.view = new DataView(this.buf.buffer);
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.pos + n) cap *= 2;
    const b = new Uint8Array(cap);
    b.set(this.buf.subarray(0, this.pos));
    this.buf = b;
    this.view = new DataView(b.buffer);
  }

  u8(v: number): void {
    this.room(1);
    this.buf[this.pos++] = v;
  }

  u32(v: number): void {
    this.room(4);
    this.view.setUint32(this.pos, v, true);
    this.pos += 4;
  }

  /** Overwrites 4 bytes at `at` (a count reserved with u32 before it was known). */
  u32At(at: number, v: number): void {
    this.view.setUint32(at, v, true);
  }

  varuint(v: number): void {
    this.room(8);
    if (v <= 0x7fffffff) {
      // Integer arithmetic for the common small values.
      while (v >= 0x80) {
        this.buf[this.pos++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      this.buf[this.pos++] = v;
      return;
    }
    while (v >= 0x80) {
      this.buf[this.pos++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.pos++] = v;
  }

  f64(v: number): void {
    this.room(8);
    this.view.setFloat64(this.pos, v, true);
    this.pos += 8;
  }

  str(s: string): void {
    // UTF-8 is at most 3 bytes per UTF-16 unit.
    this.room(s.length * 3 + 8);
    if (s.length < 64 && this.ascii(s)) return;
    const start = this.pos;
    this.varuint(s.length * 3);
    const lenBytes = this.pos - start;
    const r = enc.encodeInto(s, this.buf.subarray(this.pos));
    // Re-write the length with the real byte count, keeping the reserved width.
    let n = r.written;
    for (let i = 0; i < lenBytes; i++) {
      this.buf[start + i] = (n % 0x80) | (i < lenBytes - 1 ? 0x80 : 0);
      n = Math.floor(n / 0x80);
    }
    this.pos += r.written;
  }

  /**
   * Writes a short string that is all ASCII (the usual type, attribute and id text) byte by byte:
   * cheaper than a TextEncoder call per string. False, writing nothing, for any other string.
   */
  private ascii(s: string): boolean {
    return this.asciiFrom(this.pos, s);
  }

  /**
   * Writes `s` (shorter than 64 units) at `p` as ascii() does, in one pass: the bytes go in as
   * they are read, and `pos` moves only once the whole string was ASCII (room for it is made).
   */
  private asciiFrom(p: number, s: string): boolean {
    const n = s.length;
    const buf = this.buf;
    buf[p++] = n; // n < 64: a one-byte varuint
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c > 0x7f) return false;
      buf[p++] = c;
    }
    this.pos = p;
    return true;
  }

  /** Copies bytes [from, to) of `b` as they are (already encoded values). */
  raw(b: Uint8Array, from: number, to: number): void {
    this.room(to - from);
    this.buf.set(b.subarray(from, to), this.pos);
    this.pos += to - from;
  }

  bytes(b: Uint8Array): void {
    this.varuint(b.length);
    this.room(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** A number as `value` writes it (tag and varuint for a safe integer, else tag and float64). */
  number(v: number): void {
    if (v >= 0 && v <= 0x7fffffff && (v | 0) === v && (v !== 0 || 1 / v > 0)) {
      // The common case (INT ids of a load): tag and varuint with one bounds check.
      this.room(6);
      const buf = this.buf;
      let p = this.pos;
      buf[p++] = 2;
      let x = v;
      while (x >= 0x80) {
        buf[p++] = (x & 0x7f) | 0x80;
        x >>>= 7;
      }
      buf[p++] = x;
      this.pos = p;
    } else if (Number.isSafeInteger(v) && !Object.is(v, -0)) {
      this.u8(v >= 0 ? 2 : 3);
      this.varuint(Math.abs(v));
    } else {
      this.u8(4);
      this.f64(v);
    }
  }

  value(v: Value): void {
    switch (typeof v) {
      case 'boolean':
        this.u8(v ? 1 : 0);
        return;
      case 'number':
        this.number(v);
        return;
      case 'string':
        // The common case (STRING ids and short text): tag and ASCII text with one bounds check.
        if (v.length < 64) {
          this.room(v.length + 2);
          this.buf[this.pos] = 5;
          if (this.asciiFrom(this.pos + 1, v)) return;
        }
        this.u8(5);
        this.str(v);
        return;
      case 'bigint':
        this.u8(11);
        this.str(v.toString());
        return;
    }
    if (v instanceof Uint8Array) {
      this.u8(6);
      this.bytes(v);
    } else if (Array.isArray(v)) {
      this.u8(7);
      this.varuint(v.length);
      for (const e of v) this.value(e);
    } else if (v instanceof Map) {
      this.u8(8);
      this.varuint(v.size);
      for (const [k, e] of v) {
        this.value(k);
        this.value(e);
      }
    } else if (v instanceof Tuple) {
      this.u8(9);
      this.str(v.typeName);
      this.varuint(v.values.length);
      for (const e of v.values) this.value(e);
    } else {
      this.u8(10);
      this.str(v.type);
      this.str(v.id);
    }
  }

  result(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }
}

export class ByteReader {
  pos = 0;
  private view: DataView;

  constructor(readonly buf: Uint8Array) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  get done(): boolean {
    return this.pos >= this.buf.length;
  }

  private need(n: number): void {
    if (this.pos + n > this.buf.length) throw new RangeError('truncated record');
  }

  u8(): number {
    this.need(1);
    return this.buf[this.pos++];
  }

  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  varuint(): number {
    let v = 0;
    let mul = 1;
    for (;;) {
      const b = this.u8();
      v += (b & 0x7f) * mul;
      if (b < 0x80) return v;
      mul *= 0x80;
    }
  }

  f64(): number {
    this.need(8);
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }

  str(): string {
    const n = this.varuint();
    this.need(n);
    const s = dec.decode(this.buf.subarray(this.pos, this.pos + n));
    this.pos += n;
    return s;
  }

  bytes(): Uint8Array {
    const n = this.varuint();
    this.need(n);
    // A copy as a plain Uint8Array (the buffer may be a Node Buffer, whose slice is a view).
    const b = new Uint8Array(this.buf.subarray(this.pos, this.pos + n));
    this.pos += n;
    return b;
  }

  /** Bytes written 8-aligned (relative to the stream start), as a view into the buffer (no copy). */
  aligned(): Uint8Array {
    const n = this.varuint();
    this.pos += (8 - (this.pos % 8)) % 8;
    this.need(n);
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }

  value(): Value {
    const tag = this.u8();
    switch (tag) {
      case 0:
        return false;
      case 1:
        return true;
      case 2:
        return this.varuint();
      case 3:
        return -this.varuint();
      case 4:
        return this.f64();
      case 5:
        return this.str();
      case 6:
        return this.bytes();
      case 7: {
        const n = this.varuint();
        const out: Value[] = [];
        for (let i = 0; i < n; i++) out.push(this.value());
        return out;
      }
      case 8: {
        const n = this.varuint();
        const m = new Map<Primitive, Value>();
        for (let i = 0; i < n; i++) {
          const k = this.value() as Primitive;
          m.set(k, this.value());
        }
        return m;
      }
      case 9: {
        const name = this.str();
        const n = this.varuint();
        const vals: Value[] = [];
        for (let i = 0; i < n; i++) vals.push(this.value());
        return new Tuple(name, vals);
      }
      case 10: {
        const type = this.str();
        return new VertexRef(type, this.str());
      }
      case 11:
        return BigInt(this.str());
      default:
        throw new RangeError(`unknown value tag ${tag}`);
    }
  }
}
