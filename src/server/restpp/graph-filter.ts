/**
 * The small selection language of REST++'s vertex and edge endpoints:
 * - `filter`: comma-separated conditions `attr<op>literal`, ANDed; ops `=`, `!=`, `>`, `>=`, `<`, `<=`;
 *   string literals may be double-quoted (a comma inside quotes does not split);
 * - `sort`: comma-separated attribute names, `-attr` for descending;
 * - `select`: comma-separated attribute names returned.
 * Conditions are bound per record type, because one edge listing can span edge types with different
 * attributes: an edge whose type lacks a filtered attribute does not match, and an attribute that no
 * type in scope has is a parameter error.
 */
import type { AttrType } from '../../catalog/types.js';
import { canonicalInt, type Value } from '../../catalog/value.js';
import { parseDatetime } from '../../util/datetime.js';
import { RestError } from '../http/envelope.js';

export type CompareOp = '=' | '!=' | '>' | '>=' | '<' | '<=';

export interface FilterCondition {
  attribute: string;
  op: CompareOp;
  literal: string;
  /** The condition as written, for error messages. */
  text: string;
}

export interface SortKey {
  attribute: string;
  descending: boolean;
}

/** Attribute name → type of one vertex or edge type. */
export type AttrTypes = ReadonlyMap<string, AttrType>;

/** A record seen by a filter or a sort: its type name and an attribute reader. */
export type AttrReader = (attribute: string) => Value;

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

function paramError(message: string): RestError {
  return new RestError('REST-30001', message);
}

/** Splits on commas outside double quotes (a backslash escapes the next character inside quotes). */
function splitOutsideQuotes(text: string): string[] {
  const parts: string[] = [];
  let cur = '';
  let inQuote = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inQuote && c === '\\' && i + 1 < text.length) {
      cur += c + text[++i];
      continue;
    }
    if (c === '"') inQuote = !inQuote;
    if (c === ',' && !inQuote) {
      parts.push(cur);
      cur = '';
    } else cur += c;
  }
  if (inQuote) throw paramError(`Unterminated string literal in filter '${text}'.`);
  parts.push(cur);
  return parts;
}

/** Parses every `filter` value given (repeated parameters are ANDed like commas). */
export function parseFilter(values: readonly string[]): FilterCondition[] {
  const out: FilterCondition[] = [];
  for (const value of values) {
    for (const raw of splitOutsideQuotes(value)) {
      const text = raw.trim();
      if (text === '') continue;
      out.push(parseCondition(text));
    }
  }
  return out;
}

function parseCondition(text: string): FilterCondition {
  const m = /^([^!<>=\s"]+)\s*(!=|>=|<=|==|=|>|<)\s*(.*)$/s.exec(text);
  if (!m) {
    throw paramError(
      `Invalid filter condition '${text}': expected <attribute><operator><value> with one of =, !=, >, >=, <, <=.`,
    );
  }
  const [, attribute, rawOp, rest] = m;
  if (!IDENT.test(attribute))
    throw paramError(`Invalid attribute name '${attribute}' in filter condition '${text}'.`);
  const op: CompareOp = rawOp === '==' ? '=' : (rawOp as CompareOp);
  let literal = rest.trim();
  if (literal.startsWith('"')) {
    if (literal.length < 2 || !literal.endsWith('"')) {
      throw paramError(`Invalid string literal in filter condition '${text}'.`);
    }
    literal = literal.slice(1, -1).replace(/\\(.)/gs, '$1');
  } else if (literal === '') {
    throw paramError(`Missing value in filter condition '${text}'.`);
  }
  return { attribute, op, literal, text };
}

/** Parses every `sort` value: `attr` ascending, `-attr` descending (`+attr` ascending). */
export function parseSort(values: readonly string[]): SortKey[] {
  const keys: SortKey[] = [];
  for (const value of values) {
    for (const raw of value.split(',')) {
      const item = raw.trim();
      if (item === '') continue;
      const descending = item.startsWith('-');
      const attribute = descending || item.startsWith('+') ? item.slice(1).trim() : item;
      if (!IDENT.test(attribute))
        throw paramError(`Invalid attribute name '${attribute}' in sort '${value}'.`);
      keys.push({ attribute, descending });
    }
  }
  return keys;
}

/** Parses every `select` value into attribute names (first occurrence kept). */
export function parseSelect(values: readonly string[]): string[] {
  const names: string[] = [];
  for (const value of values) {
    for (const raw of value.split(',')) {
      const name = raw.trim();
      if (name === '') continue;
      if (!IDENT.test(name)) throw paramError(`Invalid attribute name '${name}' in select '${value}'.`);
      if (!names.includes(name)) names.push(name);
    }
  }
  return names;
}

/**
 * Checks that every attribute named by a filter, sort or select exists in at least one of the
 * record types in scope. `what` names the scope in the message (e.g. "vertex type 'Person'").
 */
export function checkAttributes(
  names: Iterable<string>,
  scope: readonly AttrTypes[],
  what: string,
  param: string,
): void {
  for (const name of names) {
    if (!scope.some((types) => types.has(name))) {
      throw paramError(`The attribute '${name}' in parameter '${param}' does not exist in ${what}.`);
    }
  }
}

/** A comparable literal, converted to the attribute's type. */
type Literal = number | bigint | string | boolean;

function convertLiteral(cond: FilterCondition, type: AttrType): Literal {
  const lit = cond.literal.trim();
  const bad = (kind: string): RestError =>
    paramError(`The value '${cond.literal}' in filter condition '${cond.text}' is not a valid ${kind}.`);
  switch (type.kind) {
    case 'INT':
    case 'UINT': {
      if (/^[+-]?\d+$/.test(lit)) return canonicalInt(BigInt(lit));
      const n = Number(lit);
      if (lit === '' || !Number.isFinite(n)) throw bad(type.kind);
      return n;
    }
    case 'FLOAT':
    case 'DOUBLE': {
      const n = Number(lit);
      if (lit === '' || !Number.isFinite(n)) throw bad(type.kind);
      return n;
    }
    case 'BOOL': {
      const t = lit.toLowerCase();
      if (t === 'true' || t === '1') return true;
      if (t === 'false' || t === '0') return false;
      throw bad('BOOL');
    }
    case 'STRING':
      return cond.literal;
    case 'DATETIME': {
      const secs = parseDatetime(lit);
      if (secs === undefined) throw bad('DATETIME');
      return secs;
    }
    default:
      throw paramError(
        `The attribute '${cond.attribute}' in filter condition '${cond.text}' has type ${type.kind}, which filters cannot compare.`,
      );
  }
}

/** Orders two comparable values of one attribute type; numbers and 64-bit integers compare exactly. */
export function compareValues(a: Value, b: Value): number {
  if ((typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint')) {
    if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
    if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
    // Mixed: an integral number converts to bigint exactly; otherwise compare as doubles.
    const x = typeof a === 'number' && Number.isInteger(a) ? BigInt(a) : a;
    const y = typeof b === 'number' && Number.isInteger(b) ? BigInt(b) : b;
    if (typeof x === 'bigint' && typeof y === 'bigint') return x < y ? -1 : x > y ? 1 : 0;
    const nx = Number(x);
    const ny = Number(y);
    return nx < ny ? -1 : nx > ny ? 1 : 0;
  }
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return 0;
}

function holds(op: CompareOp, c: number): boolean {
  switch (op) {
    case '=':
      return c === 0;
    case '!=':
      return c !== 0;
    case '>':
      return c > 0;
    case '>=':
      return c >= 0;
    case '<':
      return c < 0;
    case '<=':
      return c <= 0;
  }
}

export type RecordPredicate = (read: AttrReader) => boolean;

/**
 * Binds the conditions to one record type. Returns a predicate; a condition on an attribute this
 * type lacks never holds. Literals are converted (and rejected) here.
 */
export function bindFilter(conditions: readonly FilterCondition[], types: AttrTypes): RecordPredicate {
  if (conditions.length === 0) return () => true;
  const bound: { attribute: string; op: CompareOp; literal: Literal }[] = [];
  for (const cond of conditions) {
    const type = types.get(cond.attribute);
    if (type === undefined) return () => false;
    bound.push({ attribute: cond.attribute, op: cond.op, literal: convertLiteral(cond, type) });
  }
  return (read) => bound.every((b) => holds(b.op, compareValues(read(b.attribute), b.literal)));
}

/**
 * Sorts records in place by the keys (stable). `read(record, attr)` returns undefined when the
 * record's type lacks the attribute; such records sort after the others.
 */
export function sortRecords<R>(
  records: R[],
  keys: readonly SortKey[],
  read: (r: R, attr: string) => Value | undefined,
): R[] {
  if (keys.length === 0) return records;
  return records.sort((x, y) => {
    for (const key of keys) {
      const a = read(x, key.attribute);
      const b = read(y, key.attribute);
      if (a === undefined || b === undefined) {
        if (a === b) continue;
        return a === undefined ? 1 : -1;
      }
      const c = compareValues(a, b);
      if (c !== 0) return key.descending ? -c : c;
    }
    return 0;
  });
}

/** A `limit` parameter: a non-negative integer, absent → undefined. */
export function parseLimit(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const v = value.trim();
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v))) {
    throw paramError(`The value '${value}' of parameter 'limit' is not a valid non-negative integer.`);
  }
  return Number(v);
}
