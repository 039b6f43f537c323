/**
 * TigerGraph's token functions for loading jobs. They take tokens (strings) and return a token:
 * numbers as decimal text and booleans as "true"/"false", so a result can feed another token
 * function, an attribute of any type, or a WHERE condition.
 */
import { randomUUID } from 'node:crypto';
import { formatDatetime, parseDatetime } from '../util/datetime.js';

export interface TokenFunction {
  minArgs: number;
  maxArgs: number;
  fn: (args: readonly string[]) => string;
}

const INT_RE = /^[+-]?\d+$/;
const NUM_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function bool(b: boolean): string {
  return b ? 'true' : 'false';
}

/** to_int / gsql_to_int: an integer token as is, a float truncated; anything else unchanged (so it fails as an INT). */
function toIntText(t: string, unsigned: boolean): string {
  const s = t.trim();
  if (INT_RE.test(s)) {
    const v = BigInt(s);
    return unsigned && v < 0n ? t : v.toString();
  }
  if (NUM_RE.test(s)) {
    const n = Math.trunc(Number(s));
    if (!Number.isFinite(n) || (unsigned && n < 0)) return t;
    return BigInt(n).toString();
  }
  return t;
}

function datePart(t: string, part: 'year' | 'month' | 'day', epoch: boolean): string {
  const s = t.trim();
  const secs = epoch ? (INT_RE.test(s) ? Number(s) : undefined) : parseDatetime(s);
  if (secs === undefined || !Number.isFinite(secs)) return t;
  const iso = formatDatetime(secs);
  const n = part === 'year' ? iso.slice(0, 4) : part === 'month' ? iso.slice(5, 7) : iso.slice(8, 10);
  return String(Number(n));
}

function regex(pattern: string): RegExp {
  try {
    return new RegExp(pattern, 'g');
  } catch {
    throw new TokenFunctionError(`invalid regular expression "${pattern}"`);
  }
}

export class TokenFunctionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TokenFunctionError';
  }
}

const FUNCTIONS: Record<string, TokenFunction> = {
  gsql_reverse: { minArgs: 1, maxArgs: 1, fn: ([s]) => [...s].reverse().join('') },
  gsql_concat: { minArgs: 1, maxArgs: Infinity, fn: (a) => a.join('') },
  gsql_uuid_v4: { minArgs: 0, maxArgs: 0, fn: () => randomUUID() },
  gsql_split_by_space: { minArgs: 1, maxArgs: 1, fn: ([s]) => s.replaceAll(' ', '\x1e') },
  gsql_substring: {
    minArgs: 2,
    maxArgs: 3,
    fn: ([s, b, l]) => {
      const chars = [...s];
      const begin = Math.max(0, Number(b) || 0);
      const len = l === undefined ? chars.length : Math.max(0, Number(l) || 0);
      return chars.slice(begin, begin + len).join('');
    },
  },
  gsql_find: { minArgs: 2, maxArgs: 2, fn: ([s, sub]) => String(s.indexOf(sub)) },
  gsql_length: { minArgs: 1, maxArgs: 1, fn: ([s]) => String([...s].length) },
  gsql_replace: {
    minArgs: 3,
    maxArgs: 4,
    fn: ([s, from, to, max]) => {
      if (from === '') return s;
      let limit = max === undefined ? Infinity : Number(max);
      if (!Number.isFinite(limit) || limit < 0) limit = Infinity;
      let out = '';
      let pos = 0;
      for (let n = 0; n < limit; n++) {
        const at = s.indexOf(from, pos);
        if (at < 0) break;
        out += s.slice(pos, at) + to;
        pos = at + from.length;
      }
      return out + s.slice(pos);
    },
  },
  gsql_regex_replace: { minArgs: 3, maxArgs: 3, fn: ([s, re, to]) => s.replace(regex(re), to) },
  gsql_regex_match: {
    minArgs: 2,
    maxArgs: 2,
    fn: ([s, re]) => {
      const r = regex(re);
      r.lastIndex = 0;
      const m = new RegExp(`^(?:${r.source})$`).test(s);
      return bool(m);
    },
  },
  gsql_to_bool: {
    minArgs: 1,
    maxArgs: 1,
    fn: ([s]) => {
      const t = s.toLowerCase();
      return bool(t === 't' || t === 'true');
    },
  },
  gsql_to_uint: { minArgs: 1, maxArgs: 1, fn: ([s]) => toIntText(s, true) },
  gsql_to_int: { minArgs: 1, maxArgs: 1, fn: ([s]) => toIntText(s, false) },
  to_int: { minArgs: 1, maxArgs: 1, fn: ([s]) => toIntText(s, false) },
  to_float: {
    minArgs: 1,
    maxArgs: 1,
    fn: ([s]) => (NUM_RE.test(s.trim()) ? String(Number(s.trim())) : s),
  },
  gsql_ts_to_epoch_seconds: {
    minArgs: 1,
    maxArgs: 1,
    fn: ([s]) => {
      const v = parseDatetime(s);
      return v === undefined || v < 0 ? s : String(v);
    },
  },
  gsql_current_time_epoch: { minArgs: 0, maxArgs: 1, fn: () => String(Math.floor(Date.now() / 1000)) },
  gsql_is_true: {
    minArgs: 1,
    maxArgs: 1,
    fn: ([s]) => {
      const t = s.toLowerCase();
      return bool(t === 't' || t === 'true');
    },
  },
  gsql_is_false: {
    minArgs: 1,
    maxArgs: 1,
    fn: ([s]) => {
      const t = s.toLowerCase();
      return bool(t === 'f' || t === 'false');
    },
  },
  gsql_is_not_empty_string: { minArgs: 1, maxArgs: 1, fn: ([s]) => bool(s.trim() !== '') },
  gsql_token_equal: { minArgs: 2, maxArgs: 2, fn: ([a, b]) => bool(a === b) },
  gsql_token_ignore_case_equal: {
    minArgs: 2,
    maxArgs: 2,
    fn: ([a, b]) => bool(a.toLowerCase() === b.toLowerCase()),
  },
  gsql_trim: { minArgs: 1, maxArgs: 1, fn: ([s]) => s.trim() },
  gsql_ltrim: { minArgs: 1, maxArgs: 1, fn: ([s]) => s.trimStart() },
  gsql_rtrim: { minArgs: 1, maxArgs: 1, fn: ([s]) => s.trimEnd() },
  gsql_upper: { minArgs: 1, maxArgs: 1, fn: ([s]) => s.toUpperCase() },
  gsql_lower: { minArgs: 1, maxArgs: 1, fn: ([s]) => s.toLowerCase() },
  gsql_year: { minArgs: 1, maxArgs: 1, fn: ([s]) => datePart(s, 'year', false) },
  gsql_month: { minArgs: 1, maxArgs: 1, fn: ([s]) => datePart(s, 'month', false) },
  gsql_day: { minArgs: 1, maxArgs: 1, fn: ([s]) => datePart(s, 'day', false) },
  gsql_year_epoch: { minArgs: 1, maxArgs: 1, fn: ([s]) => datePart(s, 'year', true) },
  gsql_month_epoch: { minArgs: 1, maxArgs: 1, fn: ([s]) => datePart(s, 'month', true) },
  gsql_day_epoch: { minArgs: 1, maxArgs: 1, fn: ([s]) => datePart(s, 'day', true) },
};

/** Looks a token function up by name (case-insensitive); undefined when there is none. */
export function tokenFunction(name: string): TokenFunction | undefined {
  return FUNCTIONS[name.toLowerCase()];
}

/** Names of all token functions, for error messages. */
export function tokenFunctionNames(): string[] {
  return Object.keys(FUNCTIONS);
}
