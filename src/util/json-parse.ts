/**
 * A JSON parser for request bodies, stricter and more exact than JSON.parse where TigerGraph needs it:
 * - integers outside ±2^53 become bigint, so 64-bit ids and attribute values are never rounded;
 * - with `keepDuplicateKeys`, a key repeated in one object keeps every value (pyTigerGraph repeats a
 *   target id under a discriminated edge type), wrapped in `RepeatedKey`;
 * - nesting is limited, so a hostile body cannot exhaust the stack;
 * - errors say what was expected and where (line and column).
 */
import type { JsonValue } from './json.js';

export class RepeatedKey {
  constructor(readonly values: ParsedJson[]) {}
}

export type ParsedJson =
  null | boolean | number | bigint | string | ParsedJson[] | RepeatedKey | { [key: string]: ParsedJson };

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${message} at line ${line}, column ${column}`);
    this.name = 'JsonSyntaxError';
  }
}

export interface ParseOptions {
  keepDuplicateKeys?: boolean;
  maxDepth?: number;
}

const DEFAULT_MAX_DEPTH = 512;
const SAFE_DIGITS = 15; // any integer literal with at most 15 digits is a safe integer

/**
 * V8 makes a slice of 13 or more characters a view into its parent string, so a stored attribute
 * value or id taken from a body would keep the whole request body alive. Shorter slices are copies.
 */
const SLICED_MIN = 13;

/** A copy of `s` that references no parent string (the concatenation is flattened by the slice). */
function detached(s: string): string {
  return (' ' + s).slice(1);
}

/** `s.slice(start, end)`, copied when it is long enough to be a view into `s`. */
export function detachedSlice(s: string, start: number, end: number): string {
  return end - start < SLICED_MIN ? s.slice(start, end) : detached(s.slice(start, end));
}

/**
 * The value of a JSON number literal: a bigint for an integer outside ±2^53, else a number.
 * `intDigits` counts the digits before any '.' or exponent.
 */
export function numberFromText(text: string, isInt: boolean, intDigits: number): number | bigint {
  if (isInt && intDigits > SAFE_DIGITS) {
    const b = BigInt(text);
    if (b > BigInt(Number.MAX_SAFE_INTEGER) || b < BigInt(Number.MIN_SAFE_INTEGER)) return b;
    return Number(b);
  }
  return Number(text);
}

export function parseJson(text: string, options: ParseOptions = {}): ParsedJson {
  const p = new Parser(text, options.keepDuplicateKeys ?? false, options.maxDepth ?? DEFAULT_MAX_DEPTH);
  p.skipWs();
  const v = p.value(0);
  p.skipWs();
  if (p.pos < text.length) p.fail('Unexpected data after the JSON value');
  return v;
}

/** parseJson for callers that never keep duplicates: the result is plain JSON. */
export function parseJsonStrict(text: string, maxDepth?: number): JsonValue {
  return parseJson(text, { maxDepth }) as JsonValue;
}

/**
 * A pull reader over one JSON text, for callers that walk a known shape (REST++ upsert bodies)
 * without first building every object of it: an object is read key by key in source order, so a
 * repeated key is simply met again, and any value can still be read whole (repeated keys inside
 * it kept as RepeatedKey). Syntax errors are JsonSyntaxError, as from parseJson.
 */
export class JsonReader {
  private readonly p: Parser;
  private depth = 0;

  /**
   * A reader at the start of `text`, or, with `resumeAt`, at that offset inside the top-level
   * object, just after one of its values (the next call is nextKey).
   */
  constructor(text: string, maxDepth = DEFAULT_MAX_DEPTH, resumeAt?: number) {
    this.p = new Parser(text, true, maxDepth);
    if (resumeAt !== undefined) {
      this.p.pos = resumeAt;
      this.depth = 1;
    }
    this.p.skipWs();
  }

  /** Consumes the `{` of an object when the next value is one; false, consuming nothing, otherwise. */
  enterObject(): boolean {
    const p = this.p;
    p.skipWs();
    if (p.s.charCodeAt(p.pos) !== 123) return false;
    if (this.depth > p.maxDepth) p.fail(`JSON nested deeper than ${p.maxDepth} levels`);
    p.pos++;
    this.depth++;
    return true;
  }

  /** The first key of the object just entered (its ':' consumed); undefined when it is empty. */
  firstKey(): string | undefined {
    const p = this.p;
    p.skipWs();
    if (p.s.charCodeAt(p.pos) === 125) return this.leave();
    return this.key();
  }

  /** The next key of the current object, after its previous value; undefined at its end. */
  nextKey(): string | undefined {
    const p = this.p;
    p.skipWs();
    const c = p.s.charCodeAt(p.pos);
    if (c === 125) return this.leave();
    if (c !== 44) p.fail("Expected ',' or '}' in an object");
    p.pos++;
    p.skipWs();
    return this.key();
  }

  /** The next value, read whole. */
  value(): ParsedJson {
    this.p.skipWs();
    return this.p.value(this.depth);
  }

  /** Checks that nothing but whitespace follows the value read. */
  end(): void {
    this.p.skipWs();
    if (this.p.pos < this.p.s.length) this.p.fail('Unexpected data after the JSON value');
  }

  private leave(): undefined {
    this.p.pos++;
    this.depth--;
    return undefined;
  }

  private key(): string {
    const p = this.p;
    if (p.s.charCodeAt(p.pos) !== 34) p.fail('Expected a string key');
    const k = p.string();
    p.skipWs();
    if (p.s.charCodeAt(p.pos) !== 58) p.fail("Expected ':' after an object key");
    p.pos++;
    return k;
  }
}

class Parser {
  pos = 0;
  constructor(
    readonly s: string,
    readonly keepDup: boolean,
    readonly maxDepth: number,
  ) {}

  fail(msg: string, at = this.pos): never {
    let line = 1;
    let col = 1;
    for (let i = 0; i < at && i < this.s.length; i++) {
      if (this.s.charCodeAt(i) === 10) {
        line++;
        col = 1;
      } else col++;
    }
    throw new JsonSyntaxError(msg, line, col);
  }

  skipWs(): void {
    const s = this.s;
    let i = this.pos;
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) i++;
      else break;
    }
    this.pos = i;
  }

  value(depth: number): ParsedJson {
    if (depth > this.maxDepth) this.fail(`JSON nested deeper than ${this.maxDepth} levels`);
    const c = this.s.charCodeAt(this.pos);
    if (c === 123) return this.object(depth);
    if (c === 91) return this.array(depth);
    if (c === 34) return this.string();
    if (c === 45 || (c >= 48 && c <= 57)) return this.number();
    if (this.s.startsWith('true', this.pos)) {
      this.pos += 4;
      return true;
    }
    if (this.s.startsWith('false', this.pos)) {
      this.pos += 5;
      return false;
    }
    if (this.s.startsWith('null', this.pos)) {
      this.pos += 4;
      return null;
    }
    if (this.pos >= this.s.length) this.fail('Unexpected end of JSON input');
    this.fail(`Unexpected character '${this.s[this.pos]}'`);
  }

  object(depth: number): ParsedJson {
    this.pos++;
    const obj: { [key: string]: ParsedJson } = {};
    this.skipWs();
    if (this.s.charCodeAt(this.pos) === 125) {
      this.pos++;
      return obj;
    }
    for (;;) {
      this.skipWs();
      if (this.s.charCodeAt(this.pos) !== 34) this.fail('Expected a string key');
      const key = this.string();
      this.skipWs();
      if (this.s.charCodeAt(this.pos) !== 58) this.fail("Expected ':' after an object key");
      this.pos++;
      this.skipWs();
      const v = this.value(depth + 1);
      if (Object.hasOwn(obj, key)) {
        if (this.keepDup) {
          const prev = obj[key];
          obj[key] =
            prev instanceof RepeatedKey ? new RepeatedKey([...prev.values, v]) : new RepeatedKey([prev, v]);
        } else obj[key] = v;
      } else if (key === '__proto__') {
        // A plain assignment would replace the prototype; define it as an ordinary own property.
        Object.defineProperty(obj, key, { value: v, enumerable: true, writable: true, configurable: true });
      } else obj[key] = v;
      this.skipWs();
      const c = this.s.charCodeAt(this.pos);
      if (c === 44) {
        this.pos++;
        continue;
      }
      if (c === 125) {
        this.pos++;
        return obj;
      }
      this.fail("Expected ',' or '}' in an object");
    }
  }

  array(depth: number): ParsedJson {
    this.pos++;
    const arr: ParsedJson[] = [];
    this.skipWs();
    if (this.s.charCodeAt(this.pos) === 93) {
      this.pos++;
      return arr;
    }
    for (;;) {
      this.skipWs();
      arr.push(this.value(depth + 1));
      this.skipWs();
      const c = this.s.charCodeAt(this.pos);
      if (c === 44) {
        this.pos++;
        continue;
      }
      if (c === 93) {
        this.pos++;
        return arr;
      }
      this.fail("Expected ',' or ']' in an array");
    }
  }

  string(): string {
    const s = this.s;
    const start = ++this.pos;
    let i = start;
    // Fast path: no escapes.
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if (c === 34) {
        this.pos = i + 1;
        return detachedSlice(s, start, i);
      }
      if (c === 92) break;
      if (c < 32) this.fail('Control character in a string', i);
      i++;
    }
    let out = s.slice(start, i);
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if (c === 34) {
        this.pos = i + 1;
        return out.length < SLICED_MIN ? out : detached(out);
      }
      if (c < 32) this.fail('Control character in a string', i);
      if (c !== 92) {
        out += s[i++];
        continue;
      }
      const e = s[i + 1];
      i += 2;
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          const hex = s.slice(i, i + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('Invalid \\u escape', i - 2);
          const unit = parseInt(hex, 16);
          i += 4;
          if (unit < 0xd800 || unit > 0xdfff) {
            out += String.fromCharCode(unit);
            break;
          }
          // Half of a surrogate pair alone is no character: it cannot be stored or written as UTF-8.
          const low = unit <= 0xdbff ? /^\\u([dD][c-fC-F][0-9a-fA-F]{2})/.exec(s.slice(i, i + 6)) : null;
          if (!low) this.fail('Invalid \\u escape: half of a surrogate pair alone is not a character', i - 6);
          out += String.fromCharCode(unit, parseInt(low[1], 16));
          i += 6;
          break;
        }
        default:
          this.fail('Invalid escape in a string', i - 2);
      }
    }
    this.fail('Unterminated string', start - 1);
  }

  number(): number | bigint {
    const s = this.s;
    const start = this.pos;
    let i = start;
    if (s.charCodeAt(i) === 45) i++;
    const intStart = i;
    if (s.charCodeAt(i) === 48) i++;
    else if (s.charCodeAt(i) >= 49 && s.charCodeAt(i) <= 57) {
      while (s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
    } else this.fail('Invalid number', start);
    const intDigits = i - intStart;
    let isInt = true;
    if (s.charCodeAt(i) === 46) {
      isInt = false;
      i++;
      if (!(s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57)) this.fail('Invalid number', start);
      while (s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
    }
    const e = s.charCodeAt(i);
    if (e === 101 || e === 69) {
      isInt = false;
      i++;
      if (s.charCodeAt(i) === 43 || s.charCodeAt(i) === 45) i++;
      if (!(s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57)) this.fail('Invalid number', start);
      while (s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
    }
    this.pos = i;
    return numberFromText(s.slice(start, i), isInt, intDigits);
  }
}
