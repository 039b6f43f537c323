/**
 * Byte-level CSV tokenizer. Input arrives as Buffer chunks (a file read in blocks, or a request
 * body); lines are found and split into token offsets without decoding or copying the line, and
 * each line is handed to a callback as a reused `Line` view. Only the tokens a job actually uses
 * are decoded, and integer ids can be read straight from the bytes.
 *
 * Quoting (QUOTE="double"|"single"): a token that starts with the quote character runs to the
 * closing quote; separators and ends of line inside it are ordinary characters and a doubled quote
 * stands for one quote. A quote anywhere else is an ordinary character.
 */
import { datetimeBytes } from './convert.js';
import type { FileFormat } from './format.js';
import type { TokenWords } from './token-words.js';

/** One line: token i is bytes [starts[i], ends[i]) of `buf`. Valid only during the callback. */
export class Line {
  buf: Buffer = Buffer.alloc(0);
  starts = new Int32Array(16);
  ends = new Int32Array(16);
  /** 1: quoted token that contains doubled quotes and must be unescaped when decoded. */
  escaped = new Uint8Array(16);
  /** Codes wordCode gave for this line's tokens. */
  codes = new Int32Array(16);
  /** The load's dictionary of id words, where ids are coded (else null). */
  words: TokenWords | null = null;
  count = 0;
  /** 1-based line number in the input (the header line counts). */
  lineNo = 0;
  /** Offset of the line in `buf` and its byte length (without its EOL). */
  lineStart = 0;
  byteLength = 0;
  /** Length in bytes of the longest token. */
  maxTokenBytes = 0;
  private quoteChar = '"';

  constructor(quote: number) {
    if (quote !== 0) this.quoteChar = String.fromCharCode(quote);
  }

  push(start: number, end: number, escaped: number): void {
    const n = this.count;
    if (n === this.starts.length) this.grow();
    this.starts[n] = start;
    this.ends[n] = end;
    this.escaped[n] = escaped;
    if (end - start > this.maxTokenBytes) this.maxTokenBytes = end - start;
    this.count = n + 1;
  }

  private grow(): void {
    const size = this.starts.length * 2;
    const s = new Int32Array(size);
    s.set(this.starts);
    this.starts = s;
    const e = new Int32Array(size);
    e.set(this.ends);
    this.ends = e;
    const q = new Uint8Array(size);
    q.set(this.escaped);
    this.escaped = q;
    this.codes = new Int32Array(size);
  }

  /** Token i as a string (UTF-8). */
  token(i: number): string {
    const t = this.buf.toString('utf8', this.starts[i], this.ends[i]);
    return this.escaped[i] === 1 ? t.split(this.quoteChar + this.quoteChar).join(this.quoteChar) : t;
  }

  wordCode(i: number): number {
    const w = this.words;
    const c = w === null || this.escaped[i] === 1 ? -1 : w.code(this.buf, this.starts[i], this.ends[i]);
    this.codes[i] = c;
    return c;
  }

  codeAt(i: number): number {
    return this.codes[i];
  }

  word(code: number): string {
    return (this.words as TokenWords).word(code);
  }

  datetime(i: number): number | undefined {
    return this.escaped[i] === 1 ? undefined : datetimeBytes(this.buf, this.starts[i], this.ends[i]);
  }

  /** Byte length of token i. */
  tokenBytes(i: number): number {
    return this.ends[i] - this.starts[i];
  }

  /**
   * Token i read as a decimal integer without decoding it, when it is a plain integer of at most
   * 15 digits (always exact); undefined otherwise (the caller falls back to the string path).
   */
  smallInt(i: number): number | undefined {
    const b = this.buf;
    let p = this.starts[i];
    const e = this.ends[i];
    let neg = false;
    if (p < e && b[p] === 0x2d) {
      neg = true;
      p++;
    }
    const digits = e - p;
    if (digits <= 0 || digits > 15) return undefined;
    let v = 0;
    for (; p < e; p++) {
      const d = b[p] - 0x30;
      if (d < 0 || d > 9) return undefined;
      v = v * 10 + d;
    }
    return neg ? -v : v;
  }

  /** The whole line's bytes. */
  bytes(): Buffer {
    return this.buf.subarray(this.lineStart, this.lineStart + this.byteLength);
  }

  /** All tokens decoded (header lines, tests). */
  tokens(): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.token(i));
    return out;
  }
}

export interface TokenizerLimits {
  /** A line longer than this is skipped whole and reported through `onOversize`. */
  maxLineBytes: number;
}

const DEFAULT_LIMITS: TokenizerLimits = { maxLineBytes: 64 * 1024 * 1024 };

export type LineCallback = (line: Line) => void;

/**
 * Splits a byte stream into lines and tokens. Call `push` for every chunk and `finish` at the end;
 * `onLine` is called synchronously for every line, `onOversize` for every line dropped because it
 * exceeded the line limit. Empty lines are skipped.
 */
export class CsvTokenizer {
  private readonly line: Line;
  private readonly sep: Uint8Array;
  private readonly eol: Uint8Array;
  private readonly quote: number;
  /** Unfinished line carried over from the previous chunk. */
  private carry: Buffer | null = null;
  /** Discarding an oversize line up to its next EOL byte. */
  private skipping = false;
  private lineNo = 0;

  constructor(
    format: Pick<FileFormat, 'separator' | 'eol' | 'quote'>,
    private readonly onLine: LineCallback,
    private readonly onOversize: (lineNo: number) => void = () => {},
    private readonly limits: TokenizerLimits = DEFAULT_LIMITS,
  ) {
    this.line = new Line(format.quote);
    this.sep = format.separator;
    this.eol = format.eol;
    this.quote = format.quote;
  }

  /** Codes id tokens in `words` (Line.wordCode), or not (null). */
  codeWords(words: TokenWords | null): void {
    this.line.words = words;
  }

  push(chunk: Buffer): void {
    let buf = chunk;
    if (this.skipping) {
      const at = chunk.indexOf(this.eol[this.eol.length - 1]);
      if (at < 0) return;
      this.skipping = false;
      buf = chunk.subarray(at + 1);
    }
    if (this.carry !== null) {
      buf = Buffer.concat([this.carry, buf]);
      this.carry = null;
    }
    const used = this.scan(buf, false);
    if (used < buf.length) {
      if (buf.length - used > this.limits.maxLineBytes) {
        this.lineNo++;
        this.onOversize(this.lineNo);
        this.skipping = true;
      } else {
        // Copy: the caller may reuse its chunk buffer.
        this.carry = Buffer.from(buf.subarray(used));
      }
    }
  }

  /** Bytes pushed that belong to a line not yet complete (not passed to onLine yet). */
  get pendingBytes(): number {
    return this.carry?.length ?? 0;
  }

  finish(): void {
    const rest = this.carry;
    this.carry = null;
    this.skipping = false;
    if (rest !== null && rest.length > 0) this.scan(rest, true);
  }

  /**
   * Emits every complete line of buf[0..] and returns the offset just after the last one. With
   * `final`, the remaining bytes form the last line even without an EOL.
   */
  private scan(buf: Buffer, final: boolean): number {
    const line = this.line;
    line.buf = buf;
    const end = buf.length;
    let pos = 0;
    if (this.quote === 0 && this.sep.length === 1 && this.eol.length === 1) {
      const s = this.sep[0];
      const e = this.eol[0];
      while (pos < end) {
        line.count = 0;
        line.maxTokenBytes = 0;
        let tokStart = pos;
        let i = pos;
        let done = false;
        for (; i < end; i++) {
          const c = buf[i];
          if (c === s) {
            line.push(tokStart, i, 0);
            tokStart = i + 1;
          } else if (c === e) {
            done = true;
            break;
          }
        }
        if (!done && !final) return pos;
        line.push(tokStart, i, 0);
        this.emit(pos, i);
        pos = i + 1;
      }
      return pos;
    }
    while (pos < end) {
      const next = this.scanGeneral(buf, pos, final);
      if (next < 0) return pos;
      pos = next;
    }
    return pos;
  }

  /** One line with any separator, EOL and quoting; returns the offset after it, or -1 if incomplete. */
  private scanGeneral(buf: Buffer, pos: number, final: boolean): number {
    const line = this.line;
    const end = buf.length;
    const sep = this.sep;
    const eol = this.eol;
    const q = this.quote;
    line.count = 0;
    line.maxTokenBytes = 0;
    let i = pos;
    for (;;) {
      // At the start of a token.
      let tokStart = i;
      let tokEnd = -1;
      let escaped = 0;
      if (q !== 0 && i < end && buf[i] === q) {
        let j = i + 1;
        for (;;) {
          if (j >= end) {
            if (!final) return -1;
            break;
          }
          if (buf[j] === q) {
            if (j + 1 < end && buf[j + 1] === q) {
              escaped = 1;
              j += 2;
              continue;
            }
            if (j + 1 >= end && !final) return -1;
            break;
          }
          j++;
        }
        tokStart = i + 1;
        tokEnd = Math.min(j, end);
        i = Math.min(j + 1, end);
      }
      // Scan to the next separator or EOL (bytes after a closing quote are dropped).
      for (;;) {
        if (i >= end) {
          if (!final) return -1;
          line.push(tokStart, tokEnd < 0 ? end : tokEnd, escaped);
          this.emit(pos, end);
          return end;
        }
        const c = buf[i];
        if (c === sep[0] && matchAt(buf, i, sep)) {
          line.push(tokStart, tokEnd < 0 ? i : tokEnd, escaped);
          i += sep.length;
          break;
        }
        if (c === eol[0] && matchAt(buf, i, eol)) {
          line.push(tokStart, tokEnd < 0 ? i : tokEnd, escaped);
          this.emit(pos, i);
          return i + eol.length;
        }
        if (c === eol[0] && eol.length > 1 && i + eol.length > end && !final) return -1;
        i++;
      }
    }
  }

  private emit(lineStart: number, lineEnd: number): void {
    this.lineNo++;
    const line = this.line;
    if (lineEnd === lineStart) return;
    line.lineNo = this.lineNo;
    line.lineStart = lineStart;
    line.byteLength = lineEnd - lineStart;
    this.onLine(line);
  }
}

function matchAt(buf: Uint8Array, at: number, pat: Uint8Array): boolean {
  if (at + pat.length > buf.length) return false;
  for (let k = 1; k < pat.length; k++) if (buf[at + k] !== pat[k]) return false;
  return true;
}

/**
 * Where the line starting at `pos` ends (the offset after its end of line), or -1 when buf holds
 * only part of it. Finds the same ends as CsvTokenizer.scan, quoting included, without recording
 * tokens: the parallel loader (line-chunks.ts) cuts its pieces there.
 */
export function lineEnd(
  buf: Uint8Array,
  pos: number,
  format: Pick<FileFormat, 'separator' | 'eol' | 'quote'>,
): number {
  const end = buf.length;
  const sep = format.separator;
  const eol = format.eol;
  const q = format.quote;
  if (q === 0 && sep.length === 1 && eol.length === 1) {
    const at = buf.indexOf(eol[0], pos);
    return at < 0 ? -1 : at + 1;
  }
  let i = pos;
  for (;;) {
    // At the start of a token: a quoted token runs to its closing quote.
    if (q !== 0 && i < end && buf[i] === q) {
      let j = i + 1;
      for (;;) {
        if (j >= end) return -1;
        if (buf[j] === q) {
          if (j + 1 < end && buf[j + 1] === q) {
            j += 2;
            continue;
          }
          if (j + 1 >= end) return -1;
          break;
        }
        j++;
      }
      i = j + 1;
    }
    for (;;) {
      if (i >= end) return -1;
      const c = buf[i];
      if (c === sep[0] && matchAt(buf, i, sep)) {
        i += sep.length;
        break;
      }
      if (c === eol[0] && matchAt(buf, i, eol)) return i + eol.length;
      if (c === eol[0] && eol.length > 1 && i + eol.length > end) return -1;
      i++;
    }
  }
}
