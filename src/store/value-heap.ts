/**
 * Values stored as bytes in shared memory: the base of a STRING, FIXED_BINARY, collection, tuple
 * or vertex-reference column (and of the string id index) as the last rebuild left it, readable by
 * every thread without copying. Row r's value is bytes.subarray(starts[r], starts[r + 1]) in the
 * tagged encoding of bytes.ts; strings are read back with a fast path (no reader object).
 */
import type { Value } from '../catalog/value.js';
import { ByteReader, ByteWriter } from './bytes.js';
import { toShared } from './shared.js';

/** Strings up to this many bytes are decoded char by char when ASCII (cheaper than a native call). */
const SHORT = 24;

export class ValueHeap {
  /** A Buffer over the same bytes, for UTF-8 decoding. */
  private readonly text: Buffer;

  constructor(
    /** Row r's bytes start at starts[r]; starts[rows] is the end. Uint32 below 4 GiB of bytes. */
    readonly starts: Uint32Array | Float64Array,
    readonly bytes: Uint8Array,
  ) {
    this.text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get rows(): number {
    return this.starts.length - 1;
  }

  /**
   * Encodes rows [0, n): `get(r)` gives a row's value, or `reuse` the heap to copy row r's bytes
   * from unchanged (`reuse.changed(r)` false and r below its rows).
   */
  static build(
    n: number,
    get: (row: number) => Value,
    reuse?: { heap: ValueHeap; changed: (row: number) => boolean },
  ): ValueHeap {
    const b = new HeapBuilder(n, get, reuse);
    b.step(n);
    return b.finish();
  }

  /** Row r's value (a fresh object for collections, tuples and vertex references). */
  get(r: number): Value {
    const b = this.bytes;
    const p = this.starts[r];
    if (b[p] !== 5) return new ByteReader(b.subarray(p, this.starts[r + 1])).value();
    // A string: tag 5, varuint length, UTF-8 bytes.
    let q = p + 1;
    let len = 0;
    let mul = 1;
    for (;;) {
      const x = b[q++];
      len += (x & 0x7f) * mul;
      if (x < 0x80) break;
      mul *= 0x80;
    }
    if (len <= SHORT) {
      let s = '';
      for (let i = q; i < q + len; i++) {
        const c = b[i];
        if (c > 0x7f) return this.text.toString('utf8', q, q + len);
        s += String.fromCharCode(c);
      }
      return s;
    }
    return this.text.toString('utf8', q, q + len);
  }

  /** Whether row r holds exactly the encoded bytes `enc[0..len)`. */
  equals(r: number, enc: Uint8Array, len: number): boolean {
    const p = this.starts[r];
    if (this.starts[r + 1] - p !== len) return false;
    const b = this.bytes;
    for (let i = 0; i < len; i++) if (b[p + i] !== enc[i]) return false;
    return true;
  }
}

/**
 * A heap built a few rows at a time (`step`), so that a long build can give the event loop turns
 * in between (the background merge, engine/fresh-merge.ts); `ValueHeap.build` takes every row at once.
 */
export class HeapBuilder {
  private readonly w: ByteWriter;
  private readonly starts: Float64Array;
  /** Rows encoded so far. */
  done = 0;

  constructor(
    readonly n: number,
    private readonly get: (row: number) => Value,
    private readonly reuse?: { heap: ValueHeap; changed: (row: number) => boolean },
  ) {
    this.w = new ByteWriter(Math.max(256, n * 8));
    this.starts = new Float64Array(n + 1);
  }

  /** Encodes up to `rows` more rows; false once every row is encoded. */
  step(rows: number): boolean {
    const { w, starts, n } = this;
    const reuse = this.reuse;
    const old = reuse?.heap;
    const end = Math.min(n, this.done + rows);
    for (let r = this.done; r < end; r++) {
      starts[r] = w.pos;
      if (old && reuse && r < old.rows && !reuse.changed(r))
        w.raw(old.bytes, old.starts[r], old.starts[r + 1]);
      else w.value(this.get(r));
    }
    this.done = end;
    return end < n;
  }

  finish(): ValueHeap {
    const { w, starts } = this;
    starts[this.n] = w.pos;
    const bytes = toShared(w.result());
    return new ValueHeap(w.pos < 2 ** 32 ? toShared(Uint32Array.from(starts)) : toShared(starts), bytes);
  }
}
