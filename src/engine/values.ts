/**
 * Typed value rules shared by every writer: validation of in-memory Values against attribute types,
 * defaults, the six upsert operations, and primary-id keys.
 */
import type { AttrType, Catalog, VertexType } from '../catalog/types.js';
import { type Primitive, Tuple, type Value, VertexRef, canonicalInt } from '../catalog/value.js';
import { DATETIME_MAX, DATETIME_MIN, formatDatetime, parseDatetime } from '../util/datetime.js';
import type { IdKey } from '../store/vertex-table.js';
import { EngineError, type ExternalId, type UpsertOp } from './api.js';

function intRange(type: AttrType): [bigint, bigint] | undefined {
  if (type.kind === 'INT') {
    const bits = BigInt(type.bytes * 8 - 1);
    return [-(1n << bits), (1n << bits) - 1n];
  }
  if (type.kind === 'UINT') return [0n, (1n << BigInt(type.bytes * 8)) - 1n];
  return undefined;
}

/**
 * A string as stored: the WAL, checkpoints and merged value heaps hold UTF-8, where a lone
 * surrogate (JSON's "\ud800", a substring that split a pair) becomes U+FFFD. Writing that at once
 * keeps what a read returns the same before and after a merge or a restart.
 */
export function wellFormed(s: string): string {
  return s.isWellFormed() ? s : s.toWellFormed();
}

/** The canonical Value of `v` for `type`, or undefined when it does not fit the type. */
export function checkValue(type: AttrType, v: Value, catalog: Pick<Catalog, 'tuples'>): Value | undefined {
  switch (type.kind) {
    case 'INT':
    case 'UINT': {
      // Fast path: a safe integer always fits a 64-bit INT, and a UINT when not negative.
      if (
        typeof v === 'number' &&
        type.bytes === 8 &&
        Number.isSafeInteger(v) &&
        (type.kind === 'INT' || v >= 0)
      ) {
        return v;
      }
      let b: bigint;
      if (typeof v === 'bigint') b = v;
      else if (typeof v === 'number' && Number.isInteger(v)) b = BigInt(v);
      else return undefined;
      const [lo, hi] = intRange(type) as [bigint, bigint];
      if (b < lo || b > hi) return undefined;
      return typeof v === 'number' && Number.isSafeInteger(v) ? v : canonicalInt(b);
    }
    case 'FLOAT':
    case 'DOUBLE':
      if (typeof v === 'number') return v;
      if (typeof v === 'bigint') return Number(v);
      return undefined;
    case 'BOOL':
      return typeof v === 'boolean' ? v : undefined;
    case 'STRING':
      if (typeof v !== 'string') return undefined;
      if (type.maxLength !== undefined && v.length > type.maxLength) return undefined;
      return wellFormed(v);
    case 'DATETIME':
      if (typeof v === 'number' && Number.isInteger(v) && v >= DATETIME_MIN && v <= DATETIME_MAX) return v;
      return undefined;
    case 'FIXED_BINARY':
      return v instanceof Uint8Array && v.length === type.length ? v : undefined;
    case 'LIST':
    case 'SET': {
      if (!Array.isArray(v)) return undefined;
      const out: Value[] = [];
      const seen = type.kind === 'SET' ? new Set<Primitive>() : null;
      for (const e of v) {
        const c = checkValue(type.element, e, catalog);
        if (c === undefined) return undefined;
        if (seen && isPrimitive(c)) {
          if (seen.has(c)) continue;
          seen.add(c);
        }
        out.push(c);
      }
      return out;
    }
    case 'MAP': {
      if (!(v instanceof Map)) return undefined;
      const out = new Map<Primitive, Value>();
      for (const [k, e] of v) {
        const ck = checkValue(type.key, k, catalog);
        const ce = checkValue(type.value, e, catalog);
        if (ck === undefined || ce === undefined || !isPrimitive(ck)) return undefined;
        out.set(ck, ce);
      }
      return out;
    }
    case 'UDT': {
      const t = catalog.tuples.find((x) => x.name === type.name);
      if (!t || !(v instanceof Tuple) || v.values.length !== t.fields.length) return undefined;
      const vals: Value[] = [];
      for (let i = 0; i < t.fields.length; i++) {
        const c = checkValue(t.fields[i].type, v.values[i], catalog);
        if (c === undefined) return undefined;
        vals.push(c);
      }
      return new Tuple(t.name, vals);
    }
    case 'VERTEX':
      if (!(v instanceof VertexRef)) return undefined;
      if (type.vertexType !== undefined && v.type !== type.vertexType) return undefined;
      return v;
  }
}

/**
 * How checkValue treats a number for a type that keeps numbers as they are (DATETIME, FLOAT,
 * DOUBLE, 64-bit INT and UINT), for a writer that checks numbers without boxing them
 * (plainNumberFits); undefined for every other type.
 */
export function plainNumberKind(type: AttrType): number | undefined {
  switch (type.kind) {
    case 'FLOAT':
    case 'DOUBLE':
      return PLAIN_ANY;
    case 'DATETIME':
      return PLAIN_DATETIME;
    case 'INT':
    case 'UINT':
      if (type.bytes !== 8) return undefined;
      return type.kind === 'INT' ? PLAIN_INT : PLAIN_UINT;
    default:
      return undefined;
  }
}

const PLAIN_ANY = 0;
const PLAIN_DATETIME = 1;
const PLAIN_INT = 2;
const PLAIN_UINT = 3;

/** Whether checkValue keeps `v` as it is for a type of this plainNumberKind (else it refuses it). */
export function plainNumberFits(kind: number, v: number): boolean {
  switch (kind) {
    case PLAIN_ANY:
      return true;
    case PLAIN_DATETIME:
      return Number.isInteger(v) && v >= DATETIME_MIN && v <= DATETIME_MAX;
    case PLAIN_INT:
      return Number.isSafeInteger(v);
    default:
      return Number.isSafeInteger(v) && v >= 0;
  }
}

function isPrimitive(v: Value): v is Primitive {
  const t = typeof v;
  return t === 'number' || t === 'bigint' || t === 'string' || t === 'boolean';
}

function toBig(v: Value): bigint {
  return typeof v === 'bigint' ? v : BigInt(v as number);
}

function compare(a: Value, b: Value): number {
  if (typeof a === 'bigint' || typeof b === 'bigint') {
    const x = toBig(a);
    const y = toBig(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return 0;
}

/**
 * Combines the stored value with the payload under an upsert op. Returns undefined when the op
 * leaves the value unchanged; throws REST-30200 when the op does not apply to the type.
 */
export function applyOp(
  op: UpsertOp,
  type: AttrType,
  old: Value,
  v: Value,
  isNew: boolean,
  /** Names the vertex or edge for the error message (only called on error). */
  where: () => string,
): Value | undefined {
  switch (op) {
    case 'set':
      return v;
    case 'ignore_if_exists':
      return isNew ? v : undefined;
    case 'max':
    case 'min': {
      if (isNew) return v;
      const c = compare(v, old);
      return (op === 'max' ? c > 0 : c < 0) ? v : undefined;
    }
    case 'and':
    case 'or':
      if (isNew) return v;
      if (type.kind === 'BOOL') return op === 'and' ? old === true && v === true : old === true || v === true;
      if (type.kind === 'INT' || type.kind === 'UINT') {
        const r = op === 'and' ? toBig(old) & toBig(v) : toBig(old) | toBig(v);
        return canonicalInt(r);
      }
      break;
    case 'add':
      if (isNew) return v;
      switch (type.kind) {
        case 'INT':
        case 'UINT': {
          const bits = type.bytes * 8;
          const sum = toBig(old) + toBig(v);
          return canonicalInt(type.kind === 'INT' ? BigInt.asIntN(bits, sum) : BigInt.asUintN(bits, sum));
        }
        case 'FLOAT':
        case 'DOUBLE':
        case 'DATETIME':
          return (old as number) + (v as number);
        case 'STRING':
          return (old as string) + (v as string);
        case 'BOOL':
          return old === true || v === true;
        case 'LIST':
          return [...(old as Value[]), ...(v as Value[])];
        case 'SET': {
          const out = [...(old as Value[])];
          const seen = new Set(out as Primitive[]);
          for (const e of v as Value[]) if (!seen.has(e as Primitive)) out.push(e);
          return out;
        }
        case 'MAP': {
          const m = new Map(old as Map<Primitive, Value>);
          for (const [k, e] of v as Map<Primitive, Value>) m.set(k, e);
          return m;
        }
        default:
          break;
      }
      break;
  }
  throw new EngineError('REST-30200', `Operation '${op}' does not apply to ${typeName(type)} of ${where()}.`);
}

export function typeName(t: AttrType): string {
  switch (t.kind) {
    case 'INT':
    case 'UINT':
      return t.bytes === 8 ? t.kind : `${t.kind}${t.bytes * 8}`;
    case 'STRING':
      return t.compress ? 'STRING COMPRESS' : 'STRING';
    case 'FIXED_BINARY':
      return `FIXED_BINARY(${t.length})`;
    case 'LIST':
    case 'SET':
      return `${t.kind}<${typeName(t.element)}>`;
    case 'MAP':
      return `MAP<${typeName(t.key)},${typeName(t.value)}>`;
    case 'UDT':
      return t.name;
    case 'VERTEX':
      return t.vertexType ? `VERTEX<${t.vertexType}>` : 'VERTEX';
    default:
      return t.kind;
  }
}

/** Converts one id component (string form or typed) to the key type's canonical value. */
function idComponent(t: AttrType, raw: ExternalId): Value | undefined {
  if (typeof raw === 'string') {
    switch (t.kind) {
      case 'INT':
      case 'UINT': {
        const s = raw.trim();
        if (!/^[-+]?\d+$/.test(s)) return undefined;
        return checkValue(t, canonicalInt(BigInt(s)), { tuples: [] });
      }
      case 'DATETIME':
        return parseDatetime(raw);
      case 'FLOAT':
      case 'DOUBLE': {
        const n = Number(raw);
        return raw.trim() !== '' && !Number.isNaN(n) ? n : undefined;
      }
      case 'BOOL':
        return /^true$/i.test(raw) ? true : /^false$/i.test(raw) ? false : undefined;
      default:
        return wellFormed(raw);
    }
  }
  if (t.kind === 'STRING') return String(raw);
  return checkValue(t, raw, { tuples: [] });
}

export interface ParsedId {
  key: IdKey;
  /** The id as stored in the id column. */
  value: Value;
  /** For primary_key / composite: the key attribute values, in key order. */
  keyValues: Value[];
}

const NO_KEY_VALUES: Value[] = [];

/** The value of an optionally negative decimal of at most 15 digits (always a safe integer), else undefined. */
export function shortDecimal(s: string): number | undefined {
  const n = s.length;
  let i = s.charCodeAt(0) === 45 ? 1 : 0;
  if (i === n || n - i > 15) return undefined;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return undefined;
  }
  const v = Number(s);
  return v === 0 ? 0 : v; // "-0" is the id 0
}

/** Parses an external id for a vertex type; throws REST-30200 naming the type when it is invalid. */
export function parseId(vt: VertexType, id: ExternalId): ParsedId {
  if (vt.keyKind === 'primary_id') {
    // Fast paths for the common id forms.
    const k = vt.primaryId.type.kind;
    if (typeof id === 'number' && k === 'INT' && Number.isSafeInteger(id))
      return { key: id, value: id, keyValues: NO_KEY_VALUES };
    if (typeof id === 'string' && k === 'STRING' && id !== '') {
      const key = wellFormed(id);
      return { key, value: key, keyValues: NO_KEY_VALUES };
    }
    // A JSON key or URL segment holding a short decimal number: an INT id in its most common form.
    if (
      typeof id === 'string' &&
      k === 'INT' &&
      vt.primaryId.type.kind === 'INT' &&
      vt.primaryId.type.bytes === 8
    ) {
      const n = shortDecimal(id);
      if (n !== undefined) return { key: n, value: n, keyValues: NO_KEY_VALUES };
    }
  }
  const bad = (): EngineError =>
    new EngineError('REST-30200', `Invalid vertex id '${String(id)}' for vertex type '${vt.name}'.`);
  if (vt.keyKind === 'composite') {
    const parts = typeof id === 'string' ? splitComposite(id) : [String(id)];
    if (parts.length !== vt.keyAttributes.length) throw bad();
    const keyValues: Value[] = [];
    for (let i = 0; i < parts.length; i++) {
      const a = vt.attributes.find((x) => x.name === vt.keyAttributes[i]);
      const c = a ? idComponent(a.type, parts[i]) : undefined;
      if (c === undefined) throw bad();
      keyValues.push(c);
    }
    const text = keyValues.map((v, i) => componentText(vt, i, v)).join(',');
    return { key: text, value: text, keyValues };
  }
  const t = vt.primaryId.type;
  const c = idComponent(t, id);
  if (c === undefined || (typeof c === 'string' && c === '' && t.kind === 'STRING')) throw bad();
  const key = typeof c === 'number' || typeof c === 'bigint' || typeof c === 'string' ? c : String(c);
  return { key, value: c, keyValues: vt.keyKind === 'primary_key' ? [c] : [] };
}

function componentText(vt: VertexType, i: number, v: Value): string {
  const a = vt.attributes.find((x) => x.name === vt.keyAttributes[i]);
  if (a?.type.kind === 'DATETIME') return formatDatetime(v as number);
  return String(v);
}

/** Splits a composite id on commas; `\,` is a literal comma. */
function splitComposite(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\' && s[i + 1] === ',') {
      cur += ',';
      i++;
    } else if (s[i] === ',') {
      out.push(cur);
      cur = '';
    } else cur += s[i];
  }
  out.push(cur);
  return out;
}

/** The REST form of a stored id value. */
export function idText(vt: VertexType, v: Value): string {
  if (vt.keyKind !== 'composite' && vt.primaryId.type.kind === 'DATETIME') return formatDatetime(v as number);
  return String(v);
}
