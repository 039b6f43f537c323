/**
 * The JSON texts of one level of a response (one per vertex or edge), written back to back into
 * one byte buffer. A level above copies its children's bytes into its own items, so a response of
 * millions of objects makes a few buffers rather than millions of small strings (whose garbage
 * would dominate the time).
 */

/** Items of one level: item i is `buf[at[i], at[i + 1])`. */
export interface Texts {
  readonly buf: Buffer;
  readonly at: Uint32Array;
}

/** Writes items into one growing buffer. */
export class TextWriter {
  private buf: Buffer;
  private n = 0;
  private readonly at: Uint32Array;
  private item = 0;

  constructor(items: number, bytesHint = 64) {
    this.buf = Buffer.allocUnsafe(Math.max(64, items * bytesHint));
    this.at = new Uint32Array(items + 1);
  }

  private room(k: number): void {
    if (this.n + k <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.n + k));
    this.buf.copy(next, 0, 0, this.n);
    this.buf = next;
  }

  /** JSON text (any characters). */
  text(s: string): void {
    this.room(s.length * 3);
    this.n += this.buf.write(s, this.n, 'utf8');
  }

  /** Text known to be ASCII (numbers, dates): one byte per character, no encoder call. */
  ascii(s: string): void {
    const k = s.length;
    this.room(k);
    const buf = this.buf;
    let n = this.n;
    for (let i = 0; i < k; i++) buf[n++] = s.charCodeAt(i);
    this.n = n;
  }

  /** Bytes already encoded (keys, constants). */
  bytes(b: Uint8Array): void {
    this.move(b, 0, b.length);
  }

  /** Item i of another level. */
  copy(t: Texts, i: number): void {
    this.move(t.buf, t.at[i], t.at[i + 1]);
  }

  private move(src: Uint8Array, from: number, to: number): void {
    const k = to - from;
    this.room(k);
    const buf = this.buf;
    let n = this.n;
    // Most pieces are a few bytes: a loop beats the native copy's call overhead.
    if (k < 64) for (let i = from; i < to; i++) buf[n++] = src[i];
    else {
      buf.set(src.subarray(from, to), n);
      n += k;
    }
    this.n = n;
  }

  /** Ends the current item. */
  end(): void {
    this.at[++this.item] = this.n;
  }

  done(): Texts {
    return { buf: this.buf, at: this.at };
  }
}

export function textOf(t: Texts, i: number): string {
  return t.buf.toString('utf8', t.at[i], t.at[i + 1]);
}

export const OPEN = Buffer.from('{');
export const CLOSE = Buffer.from('}');
export const COMMA = Buffer.from(',');
export const NULL = Buffer.from('null');
const LIST_OPEN = Buffer.from('[');
const LIST_CLOSE = Buffer.from(']');

/** Writes `[item, item, …]` of items from..to of a level. */
export function writeList(w: TextWriter, t: Texts, from: number, to: number): void {
  w.bytes(LIST_OPEN);
  for (let i = from; i < to; i++) {
    if (i > from) w.bytes(COMMA);
    w.copy(t, i);
  }
  w.bytes(LIST_CLOSE);
}

/** `[item, item, …]` of every item of a level, as a string. */
export function listText(t: Texts): string {
  const items = t.at.length - 1;
  const w = new TextWriter(1, t.at[items] + items + 2);
  writeList(w, t, 0, items);
  w.end();
  return textOf(w.done(), 0);
}
