/**
 * Conversion of loaded tokens to attribute and id values, the way TigerGraph's loader reads them:
 * integers exactly (64-bit, bigint beyond ±2^53), BOOL as true/false/1/0 (any case), DATETIME in
 * the loader's date formats or as epoch seconds. A token that does not fit its type yields INVALID,
 * which the runner counts (invalidAttribute / invalidPrimaryId) instead of failing the load.
 */
import type { AttrType, Catalog } from '../catalog/types.js';
import { Tuple, canonicalInt, type Primitive, type Value } from '../catalog/value.js';
import { DATETIME_MAX, DATETIME_MIN, parseDatetime } from '../util/datetime.js';

export const INVALID: unique symbol = Symbol('invalid');
/** A FIXED_BINARY token of the wrong length (counted as incorrectFixedBinaryLength). */
export const WRONG_LENGTH: unique symbol = Symbol('wrong length');

export type Converted = Value | typeof INVALID | typeof WRONG_LENGTH;

/** What a VALUES expression produces for one line: a token, a list of tokens, map pairs or tuple fields. */
export type Produced = string | string[] | MapPairs | TupleFields;

export class MapPairs {
  constructor(readonly pairs: [string, string][]) {}
}

export class TupleFields {
  constructor(
    readonly typeName: string,
    readonly fields: string[],
  ) {}
}

export type Converter = (produced: Produced) => Converted;

const INT_RE = /^[+-]?\d+$/;
const FLOAT_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function intRange(kind: 'INT' | 'UINT', bytes: number): [bigint, bigint] {
  const bits = BigInt(bytes * 8);
  return kind === 'INT' ? [-(1n << (bits - 1n)), (1n << (bits - 1n)) - 1n] : [0n, (1n << bits) - 1n];
}

/** Parses an integer token for an INT/UINT of the given width; INVALID when malformed or out of range. */
export function parseIntToken(
  text: string,
  kind: 'INT' | 'UINT',
  bytes: number,
): number | bigint | typeof INVALID {
  if (text.length <= 15 && INT_RE.test(text)) {
    const n = Number(text);
    if (kind === 'UINT' && (n < 0 || Object.is(n, -0))) return n === 0 ? 0 : INVALID;
    if (bytes === 8) return n;
    const [lo, hi] = intRange(kind, bytes);
    return n >= Number(lo) && n <= Number(hi) ? n : INVALID;
  }
  if (!INT_RE.test(text)) return INVALID;
  const v = BigInt(text);
  const [lo, hi] = intRange(kind, bytes);
  return v >= lo && v <= hi ? canonicalInt(v) : INVALID;
}

export function parseBoolToken(text: string): boolean | typeof INVALID {
  if (text === '1') return true;
  if (text === '0') return false;
  const t = text.toLowerCase();
  if (t === 'true') return true;
  if (t === 'false') return false;
  return INVALID;
}

/** Days from 1970-01-01 to a proleptic Gregorian date (Hinnant's days_from_civil). */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function digits(b: Uint8Array, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const c = b[i] - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/** A string's first 19 UTF-16 units as bytes (a DATETIME's fast forms are ASCII). */
const datetimeScratch = new Uint8Array(19);

/**
 * The loader's common DATETIME forms "YYYY-MM-DD" and "YYYY-MM-DD HH:MM:SS" read without regular
 * expressions or Date objects (DATETIME columns dominate some loads); undefined for anything else,
 * which then goes through the general parser.
 */
export function fastDatetime(t: string): number | undefined {
  const n = t.length;
  if (n !== 10 && n !== 19) return undefined;
  for (let i = 0; i < n; i++) {
    const c = t.charCodeAt(i);
    if (c > 0x7f) return undefined;
    datetimeScratch[i] = c;
  }
  return datetimeBytes(datetimeScratch, 0, n);
}

/** fastDatetime of the bytes [start, end) of `b` (a token read straight from its line). */
export function datetimeBytes(b: Uint8Array, start: number, end: number): number | undefined {
  const n = end - start;
  if ((n !== 10 && n !== 19) || b[start + 4] !== 45 || b[start + 7] !== 45) return undefined;
  const y = digits(b, start, 4);
  const m = digits(b, start + 5, 2);
  const d = digits(b, start + 8, 2);
  if (y < 0 || m < 1 || m > 12 || d < 1) return undefined;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  if (d > (m === 2 && leap ? 29 : MONTH_DAYS[m - 1])) return undefined;
  let secs = daysFromCivil(y, m, d) * 86400;
  if (n === 19) {
    const sep = b[start + 10];
    if ((sep !== 32 && sep !== 84) || b[start + 13] !== 58 || b[start + 16] !== 58) return undefined;
    const h = digits(b, start + 11, 2);
    const mi = digits(b, start + 14, 2);
    const se = digits(b, start + 17, 2);
    if (h < 0 || h > 23 || mi < 0 || mi > 59 || se < 0 || se > 59) return undefined;
    secs += h * 3600 + mi * 60 + se;
  }
  return secs >= DATETIME_MIN && secs <= DATETIME_MAX ? secs : undefined;
}

function scalar(type: AttrType): ((text: string) => Converted) | undefined {
  switch (type.kind) {
    case 'INT':
    case 'UINT': {
      const { kind, bytes } = type;
      return (t) => parseIntToken(t, kind, bytes);
    }
    case 'FLOAT':
    case 'DOUBLE': {
      const f32 = type.kind === 'FLOAT';
      return (t) => {
        if (!FLOAT_RE.test(t)) return INVALID;
        const n = Number(t);
        return f32 ? Math.fround(n) : n;
      };
    }
    case 'BOOL':
      return parseBoolToken;
    case 'STRING': {
      const max = type.maxLength;
      return max === undefined ? (t) => t : (t) => (t.length <= max ? t : INVALID);
    }
    case 'DATETIME':
      return (t) => fastDatetime(t) ?? parseDatetime(t) ?? INVALID;
    case 'FIXED_BINARY': {
      const len = type.length;
      return (t) => {
        const b = new Uint8Array(Buffer.from(t, 'utf8'));
        return b.length === len ? b : WRONG_LENGTH;
      };
    }
    default:
      return undefined;
  }
}

/** Builds the converter of one attribute type. */
export function converterFor(type: AttrType, catalog: Catalog): Converter {
  const s = scalar(type);
  if (s) return (p) => (typeof p === 'string' ? s(p) : INVALID);
  switch (type.kind) {
    case 'LIST':
    case 'SET': {
      const el = scalar(type.element);
      if (!el) return () => INVALID;
      const isSet = type.kind === 'SET';
      return (p) => {
        // A plain token fills a one-element collection; an empty token an empty one.
        const items = typeof p === 'string' ? (p === '' ? [] : [p]) : Array.isArray(p) ? p : null;
        if (items === null) return INVALID;
        const out: Value[] = [];
        const seen = isSet ? new Set<Primitive>() : null;
        for (const it of items) {
          const v = el(it);
          if (v === INVALID || v === WRONG_LENGTH) return v;
          if (seen) {
            const key = v as Primitive;
            if (seen.has(key)) continue;
            seen.add(key);
          }
          out.push(v);
        }
        return out;
      };
    }
    case 'MAP': {
      const k = scalar(type.key);
      const v = scalar(type.value);
      if (!k || !v) return () => INVALID;
      return (p) => {
        if (!(p instanceof MapPairs)) return INVALID;
        const m = new Map<Primitive, Value>();
        for (const [ks, vs] of p.pairs) {
          const kv = k(ks);
          const vv = v(vs);
          if (kv === INVALID || kv === WRONG_LENGTH || vv === INVALID || vv === WRONG_LENGTH) return INVALID;
          m.set(kv as Primitive, vv);
        }
        return m;
      };
    }
    case 'UDT': {
      const tuple = catalog.tuples.find((t) => t.name.toLowerCase() === type.name.toLowerCase());
      if (!tuple) return () => INVALID;
      const fields = tuple.fields.map((f): ((t: string) => Converted) => scalar(f.type) ?? (() => INVALID));
      return (p) => {
        if (!(p instanceof TupleFields) || p.fields.length !== fields.length) return INVALID;
        const values: Value[] = [];
        for (let i = 0; i < fields.length; i++) {
          const v = fields[i](p.fields[i]);
          if (v === INVALID || v === WRONG_LENGTH) return INVALID;
          values.push(v);
        }
        return new Tuple(tuple.name, values);
      };
    }
    default:
      return () => INVALID;
  }
}

/**
 * Converts a vertex id token for the engine: INT/UINT ids as number/bigint, others as the string
 * (DATETIME ids are normalised by the engine). INVALID for a malformed id.
 */
export function idConverter(type: AttrType): (text: string) => string | number | bigint | typeof INVALID {
  if (type.kind === 'INT' || type.kind === 'UINT') {
    const { kind, bytes } = type;
    return (t) => parseIntToken(t, kind, bytes);
  }
  if (type.kind === 'DATETIME') return (t) => (parseDatetime(t) === undefined ? INVALID : t);
  return (t) => t;
}
