/**
 * Cuts a loading input into pieces of whole lines for the parse workers (parallel-runner.ts), where
 * CsvTokenizer would end its lines (quoting included: tokenizer.ts lineEnd), so that tokenizing the
 * pieces one by one finds the lines tokenizing the whole input finds. The header line is handed on
 * alone (the main thread reads the column names), and a line the tokenizer would drop as longer
 * than the line limit is dropped here the same way. Every byte read is accounted to one piece in
 * input order (`consumed`), so the statistics' `bytes` stay a resume point.
 */
import type { FileFormat } from './format.js';
import { lineEnd } from './tokenizer.js';

export type Piece =
  /** The header line (with the empty lines before it). */
  | { kind: 'header'; line: Uint8Array; consumed: number }
  /** Whole lines; the last piece of an input may end without an end of line. */
  | { kind: 'lines'; bytes: Uint8Array; consumed: number }
  /** A line longer than the line limit, dropped (counted as oversizeToken). */
  | { kind: 'oversize'; consumed: number }
  /** More bytes of a dropped line. */
  | { kind: 'skipped'; consumed: number };

export interface ChunkerOptions {
  /** The first non-empty line is the header. */
  header: boolean;
  maxLineBytes: number;
  /** A piece holds whole lines up to about this many bytes (a longer line makes a piece alone). */
  pieceBytes: number;
}

export class LineChunker {
  private carry: Buffer | null = null;
  private skipping = false;
  private headerPending: boolean;

  constructor(
    private readonly format: Pick<FileFormat, 'separator' | 'eol' | 'quote'>,
    private readonly opts: ChunkerOptions,
  ) {
    this.headerPending = opts.header;
  }

  /** The pieces complete once `chunk` is read; the caller may reuse `chunk` afterwards. */
  push(chunk: Buffer): Piece[] {
    const out: Piece[] = [];
    let input = chunk;
    if (this.skipping) {
      // As the tokenizer does: a dropped line runs to the next byte ending a line.
      const eol = this.format.eol;
      const at = input.indexOf(eol[eol.length - 1]);
      if (at < 0) {
        out.push({ kind: 'skipped', consumed: input.length });
        return out;
      }
      this.skipping = false;
      out.push({ kind: 'skipped', consumed: at + 1 });
      input = input.subarray(at + 1);
    }
    const buf = this.carry === null ? input : Buffer.concat([this.carry, input]);
    this.carry = null;
    let pos = this.cut(buf, out);
    if (buf.length - pos > this.opts.maxLineBytes) {
      out.push({ kind: 'oversize', consumed: buf.length - pos });
      this.skipping = true;
      pos = buf.length;
    }
    if (pos < buf.length) this.carry = Buffer.from(buf.subarray(pos));
    return out;
  }

  /** The rest of the input: a last line without an end of line. */
  finish(): Piece[] {
    const rest = this.carry;
    this.carry = null;
    this.skipping = false;
    if (rest === null || rest.length === 0) return [];
    // A header still pending is this last line: the tokenizer would read it as the header.
    if (this.headerPending) {
      this.headerPending = false;
      return [{ kind: 'header', line: own(rest), consumed: rest.length }];
    }
    return [{ kind: 'lines', bytes: own(rest), consumed: rest.length }];
  }

  /** Emits the complete pieces of buf; returns where the incomplete rest starts. */
  private cut(buf: Buffer, out: Piece[]): number {
    let pos = 0;
    while (this.headerPending) {
      const e = lineEnd(buf, pos, this.format);
      if (e < 0) return 0;
      // Empty lines before the header are skipped, as the tokenizer skips them.
      if (e - this.format.eol.length === pos) {
        pos = e;
        continue;
      }
      this.headerPending = false;
      out.push({ kind: 'header', line: own(buf.subarray(pos, e)), consumed: e });
      pos = e;
    }
    for (;;) {
      const e = this.piecesEnd(buf, pos);
      if (e < 0) return pos;
      out.push({ kind: 'lines', bytes: own(buf.subarray(pos, e)), consumed: e - pos });
      pos = e;
    }
  }

  /**
   * The end of the last whole line that ends within pieceBytes of `pos`, or of the first line when
   * it is longer; -1 when no line is complete.
   */
  private piecesEnd(buf: Buffer, pos: number): number {
    const limit = pos + this.opts.pieceBytes;
    const f = this.format;
    if (f.quote === 0 && f.separator.length === 1 && f.eol.length === 1) {
      const eol = f.eol[0];
      if (limit < buf.length) {
        const at = buf.lastIndexOf(eol, limit - 1);
        if (at >= pos) return at + 1;
      }
      const at = limit < buf.length ? buf.indexOf(eol, limit) : buf.lastIndexOf(eol);
      return at < pos ? -1 : at + 1;
    }
    let last = -1;
    for (let p = pos; ;) {
      const e = lineEnd(buf, p, f);
      if (e < 0) return last;
      if (e > limit) return last < 0 ? e : last;
      last = e;
      p = e;
    }
  }
}

/** A copy in a buffer of its own (it is transferred to a worker). */
function own(bytes: Uint8Array): Uint8Array {
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return copy;
}
