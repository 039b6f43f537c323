/**
 * A pull reader over the UTF-8 bytes of a JSON text, for fast paths that handle the common case and
 * hand everything else to the general reader (json-parse.ts). It reads objects, keys and scalar
 * values in place: scanning bytes is several times cheaper than scanning the decoded string, a key
 * can be matched without making a string of it, and a short number becomes a number without one.
 * At anything else (an array or object value, a key with an escape where keyIn is asked, malformed
 * JSON) it throws NotHandled; it reports no errors of its own. Values are those parseJson gives.
 */
import { detachedSlice, numberFromText } from './json-parse.js';

/** Thrown where the fast reader stops; the caller then reads the text the general way. */
export class NotHandled extends Error {}

const NOT_HANDLED = new NotHandled('left to the general JSON reader');

/** Scalar JSON values, as parseJson gives them. */
export type JsonScalar = null | boolean | number | bigint | string;

/** 10^0 .. 10^22, the powers of ten a double holds exactly. */
const POW10 = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));

export class JsonBytes {
  private pos = 0;
  private readonly n: number;
  /**
   * Whether the decoded text has one UTF-16 unit per byte (all ASCII, or lone invalid bytes each
   * decoded as U+FFFD), so that byte offsets are also offsets into it.
   */
  private readonly aligned: boolean;

  constructor(
    private readonly b: Buffer,
    /** `b` decoded as UTF-8 (Buffer#toString). */
    private readonly text: string,
  ) {
    this.n = b.length;
    this.aligned = text.length === b.length;
  }

  private ws(): void {
    const b = this.b;
    let i = this.pos;
    while (i < this.n) {
      const c = b[i];
      if (c === 32 || c === 10 || c === 13 || c === 9) i++;
      else break;
    }
    this.pos = i;
  }

  /** Consumes the `{` of an object when the next value is one; false, consuming nothing, otherwise. */
  enterObject(): boolean {
    this.ws();
    if (this.b[this.pos] !== 123) return false;
    this.pos++;
    return true;
  }

  /** Moves to the first key of the object just entered; false, leaving the object, when it is empty. */
  firstEntry(): boolean {
    this.ws();
    const c = this.b[this.pos];
    if (c === 125) {
      this.pos++;
      return false;
    }
    if (c !== 34) throw NOT_HANDLED;
    return true;
  }

  /** Moves to the next key of the current object, after its previous value; false at its end. */
  nextEntry(): boolean {
    this.ws();
    const c = this.b[this.pos];
    if (c === 125) {
      this.pos++;
      return false;
    }
    if (c !== 44) throw NOT_HANDLED;
    this.pos++;
    this.ws();
    if (this.b[this.pos] !== 34) throw NOT_HANDLED;
    return true;
  }

  /** The reader's position, a byte offset. */
  get position(): number {
    return this.pos;
  }

  /** A byte offset the reader has passed, as an offset into the decoded text (it follows ASCII). */
  textOffset(at: number): number {
    return this.aligned ? at : this.b.toString('utf8', 0, at).length;
  }

  /** Checks that nothing but whitespace follows. */
  end(): void {
    this.ws();
    if (this.pos !== this.n) throw NOT_HANDLED;
  }

  private colon(): void {
    this.ws();
    if (this.b[this.pos] !== 58) throw NOT_HANDLED;
    this.pos++;
  }

  /** The key the reader is at, its ':' consumed. */
  key(): string {
    const k = this.string();
    this.colon();
    return k;
  }

  /**
   * Reads the key the reader is at and returns the index of the name in `names` (their UTF-8
   * bytes) that it spells, compared byte for byte; -1 when it is none of them.
   */
  keyIn(names: readonly Uint8Array[]): number {
    const b = this.b;
    const start = this.pos + 1;
    let end = start;
    for (;;) {
      if (end >= this.n) throw NOT_HANDLED;
      const c = b[end];
      if (c === 34) break;
      if (c === 92 || c < 32) throw NOT_HANDLED;
      end++;
    }
    const len = end - start;
    let found = -1;
    for (let k = 0; k < names.length && found < 0; k++) {
      const name = names[k];
      if (name.length !== len) continue;
      let j = 0;
      while (j < len && name[j] === b[start + j]) j++;
      if (j === len) found = k;
    }
    this.pos = end + 1;
    this.colon();
    return found;
  }

  /**
   * When the key the reader is at is a decimal integer of 1 to 15 digits (any leading zeros; a '-'
   * first when `negative` allows it), reads it and returns its value ("-0" is 0); otherwise returns
   * undefined and consumes nothing.
   */
  decimalKey(negative: boolean): number | undefined {
    const b = this.b;
    let i = this.pos + 1;
    const minus = negative && b[i] === 45;
    if (minus) i++;
    const first = i;
    let v = 0;
    for (;;) {
      const c = b[i];
      if (!(c >= 48 && c <= 57)) break;
      v = v * 10 + (c - 48);
      i++;
    }
    const digits = i - first;
    if (digits === 0 || digits > 15 || b[i] !== 34) return undefined;
    this.pos = i + 1;
    this.colon();
    return minus && v !== 0 ? -v : v;
  }

  /** The next value, which must be a string, number, true, false or null. */
  scalar(): JsonScalar {
    this.ws();
    const b = this.b;
    const c = b[this.pos];
    if (c === 34) return this.string();
    if (c === 45 || (c >= 48 && c <= 57)) return this.number();
    const p = this.pos;
    if (c === 116 && b[p + 1] === 114 && b[p + 2] === 117 && b[p + 3] === 101) {
      this.pos += 4;
      return true;
    }
    if (c === 102 && b[p + 1] === 97 && b[p + 2] === 108 && b[p + 3] === 115 && b[p + 4] === 101) {
      this.pos += 5;
      return false;
    }
    if (c === 110 && b[p + 1] === 117 && b[p + 2] === 108 && b[p + 3] === 108) {
      this.pos += 4;
      return null;
    }
    throw NOT_HANDLED;
  }

  /** The text of bytes [start, end), which hold only ASCII. */
  private ascii(start: number, end: number): string {
    return this.aligned ? this.text.slice(start, end) : this.b.toString('latin1', start, end);
  }

  private string(): string {
    const b = this.b;
    const start = this.pos + 1;
    let i = start;
    let escaped = false;
    for (;;) {
      if (i >= this.n) throw NOT_HANDLED;
      const c = b[i];
      if (c === 34) break;
      if (c === 92) {
        escaped = true;
        i += 2;
        continue;
      }
      if (c < 32) throw NOT_HANDLED;
      i++;
    }
    this.pos = i + 1;
    if (escaped) {
      // Rare in practice: the token, quotes included, is decoded as JSON does.
      const token = this.aligned ? this.text.slice(start - 1, i + 1) : b.toString('utf8', start - 1, i + 1);
      let decoded: string;
      try {
        decoded = JSON.parse(token) as string;
      } catch {
        throw NOT_HANDLED;
      }
      // An escaped half of a surrogate pair: the general reader reports it.
      if (/\p{Cs}/u.test(decoded)) throw NOT_HANDLED;
      return decoded;
    }
    // A quote is ASCII, so decoding the bytes between two of them gives what decoding the whole
    // text gives there.
    return this.aligned ? detachedSlice(this.text, start, i) : b.toString('utf8', start, i);
  }

  private number(): number | bigint {
    const b = this.b;
    const start = this.pos;
    let i = start;
    const minus = b[i] === 45;
    if (minus) i++;
    const intStart = i;
    let m = 0;
    if (b[i] === 48) i++;
    else if (b[i] >= 49 && b[i] <= 57) {
      while (b[i] >= 48 && b[i] <= 57) m = m * 10 + (b[i++] - 48);
    } else throw NOT_HANDLED;
    const intDigits = i - intStart;
    let fracDigits = 0;
    let isInt = true;
    if (b[i] === 46) {
      isInt = false;
      i++;
      const fracStart = i;
      while (b[i] >= 48 && b[i] <= 57) m = m * 10 + (b[i++] - 48);
      fracDigits = i - fracStart;
      if (fracDigits === 0) throw NOT_HANDLED;
    }
    let exponent = false;
    if (b[i] === 101 || b[i] === 69) {
      exponent = true;
      isInt = false;
      i++;
      if (b[i] === 43 || b[i] === 45) i++;
      if (!(b[i] >= 48 && b[i] <= 57)) throw NOT_HANDLED;
      while (b[i] >= 48 && b[i] <= 57) i++;
    }
    this.pos = i;
    // At most 15 digits: m is exact, and m / 10^f is the correctly rounded value (Clinger's fast
    // path), so it equals Number of the text.
    if (!exponent && intDigits + fracDigits <= 15) {
      const v = fracDigits === 0 ? m : m / POW10[fracDigits];
      return minus ? -v : v;
    }
    return numberFromText(this.ascii(start, i), isInt, intDigits);
  }
}
