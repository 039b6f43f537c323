/**
 * Splits the bytes of an edge file whose loading job reads only two integer id columns (an
 * InputPlan with `intEdge`) into segments of parsed ids and raw pieces, in file order. A line goes
 * into a segment when the main thread's tokenizer and job would surely load it as one edge from
 * those two numbers: ASCII only, no quote byte, enough tokens, none longer than the token limit, and
 * both ids plain decimal integers of at most 15 digits (what Line.smallInt reads), not negative for
 * UINT. Every other line (the header, bad lines, lines longer than the line limit, a last line
 * without an end of line) is passed on as raw bytes for the main thread to tokenize as usual, so the
 * statistics and the order of writes are those of a load without the split.
 */
/** A `$n` column read as a 64-bit integer id; UINT refuses negative values. */
export interface IntColumn {
  position: number;
  unsigned: boolean;
}

/** Parsed ids of consecutive lines, and how many file bytes those lines took. */
export interface IdSegment {
  from: Float64Array;
  to: Float64Array;
  n: number;
  bytes: number;
}

export interface EdgeLineFormat {
  separator: number;
  eol: number;
  /** Quote byte, or 0 for none: a line containing it is passed on raw. */
  quote: number;
  /** The first non-empty line is the header: passed on raw. */
  header: boolean;
  from: IntColumn;
  to: IntColumn;
  /** A line needs more tokens than this (the job's highest column position). */
  needed: number;
  maxTokenBytes: number;
  /** An unfinished line longer than this is passed on raw as it arrives (the tokenizer's line limit). */
  maxLineBytes: number;
  /** Lines per segment. */
  segmentLines: number;
}

export interface EdgeLineSink {
  ids(segment: IdSegment): void;
  raw(bytes: Uint8Array): void;
}

/** Raw pieces are gathered up to this size before they are passed on. */
const RAW_FLUSH_BYTES = 1 << 20;

export class EdgeLineSplitter {
  private carry: Uint8Array | null = null;
  /** Passing on a line longer than maxLineBytes up to its end of line. */
  private passing = false;
  private headerPending: boolean;
  private from: Float64Array;
  private to: Float64Array;
  private n = 0;
  private segBytes = 0;
  private rawParts: Uint8Array[] = [];
  private rawBytes = 0;
  private readonly long: number;

  constructor(
    private readonly f: EdgeLineFormat,
    private readonly sink: EdgeLineSink,
  ) {
    this.headerPending = f.header;
    this.from = new Float64Array(f.segmentLines);
    this.to = new Float64Array(f.segmentLines);
    this.long = Math.min(f.maxLineBytes, 1 << 20);
  }

  /** Takes the next bytes of the file; `chunk` may be reused by the caller afterwards. */
  push(chunk: Uint8Array): void {
    let buf = chunk;
    if (this.passing) {
      const at = buf.indexOf(this.f.eol);
      if (at < 0) {
        this.addRaw(buf, 0, buf.length);
        return;
      }
      this.addRaw(buf, 0, at + 1);
      this.passing = false;
      buf = buf.subarray(at + 1);
    }
    if (this.carry !== null) {
      const joined = new Uint8Array(this.carry.length + buf.length);
      joined.set(this.carry);
      joined.set(buf, this.carry.length);
      buf = joined;
      this.carry = null;
    }
    const eol = this.f.eol;
    let pos = 0;
    for (;;) {
      const at = buf.indexOf(eol, pos);
      if (at < 0) break;
      this.line(buf, pos, at);
      pos = at + 1;
    }
    if (pos === buf.length) return;
    if (buf.length - pos > this.long) {
      this.addRaw(buf, pos, buf.length);
      this.passing = true;
    } else this.carry = buf.slice(pos);
  }

  /** The end of the file: a last line without an end of line goes on raw. */
  finish(): void {
    if (this.carry !== null) this.addRaw(this.carry, 0, this.carry.length);
    this.carry = null;
    this.flushIds();
    this.flushRaw();
  }

  /** One line buf[start, end) (end is its end-of-line byte). */
  private line(buf: Uint8Array, start: number, end: number): void {
    if (end > start && !this.headerPending) {
      const f = this.f;
      const sep = f.separator;
      const quote = f.quote;
      const fromPos = f.from.position;
      const toPos = f.to.position;
      let k = 0;
      let tokStart = start;
      let fromId = NaN;
      let toId = NaN;
      let ok = true;
      for (let i = start; i <= end; i++) {
        const c = i === end ? sep : buf[i];
        if (c === sep) {
          if (i - tokStart > f.maxTokenBytes) {
            ok = false;
            break;
          }
          if (k === fromPos) fromId = smallInt(buf, tokStart, i);
          if (k === toPos) toId = smallInt(buf, tokStart, i);
          k++;
          tokStart = i + 1;
        } else if (c >= 0x80 || c === quote) {
          ok = false;
          break;
        }
      }
      if (
        ok &&
        k > f.needed &&
        fromId === fromId &&
        toId === toId &&
        !(f.from.unsigned && fromId < 0) &&
        !(f.to.unsigned && toId < 0)
      ) {
        if (this.rawBytes > 0) this.flushRaw();
        const n = this.n;
        this.from[n] = fromId;
        this.to[n] = toId;
        this.n = n + 1;
        this.segBytes += end + 1 - start;
        if (this.n === f.segmentLines) this.flushIds();
        return;
      }
    }
    // An empty line is skipped by the tokenizer: its byte goes with whatever comes before it.
    if (end === start && this.rawBytes === 0) {
      this.segBytes += 1;
      return;
    }
    if (end > start) this.headerPending = false;
    this.addRaw(buf, start, end + 1);
  }

  private addRaw(buf: Uint8Array, start: number, end: number): void {
    if (end <= start) return;
    this.flushIds();
    this.rawParts.push(buf.slice(start, end));
    this.rawBytes += end - start;
    if (this.rawBytes >= RAW_FLUSH_BYTES) this.flushRaw();
  }

  private flushIds(): void {
    if (this.n === 0 && this.segBytes === 0) return;
    this.sink.ids({ from: this.from, to: this.to, n: this.n, bytes: this.segBytes });
    this.from = new Float64Array(this.f.segmentLines);
    this.to = new Float64Array(this.f.segmentLines);
    this.n = 0;
    this.segBytes = 0;
  }

  private flushRaw(): void {
    if (this.rawBytes === 0) return;
    const parts = this.rawParts;
    let out: Uint8Array;
    if (parts.length === 1) out = parts[0];
    else {
      out = new Uint8Array(this.rawBytes);
      let at = 0;
      for (const p of parts) {
        out.set(p, at);
        at += p.length;
      }
    }
    this.rawParts = [];
    this.rawBytes = 0;
    this.sink.raw(out);
  }
}

/** A token read as Line.smallInt reads it (optional '-', 1 to 15 digits), or NaN. */
function smallInt(buf: Uint8Array, start: number, end: number): number {
  let p = start;
  let neg = false;
  if (p < end && buf[p] === 0x2d) {
    neg = true;
    p++;
  }
  const digits = end - p;
  if (digits <= 0 || digits > 15) return NaN;
  let v = 0;
  for (; p < end; p++) {
    const d = buf[p] - 0x30;
    if (d < 0 || d > 9) return NaN;
    v = v * 10 + d;
  }
  return neg ? -v : v;
}
