/**
 * Decoding query parameters into their run-time form, keyed by the declared parameter types: from a
 * JSON body (POST /query) and from a query-string map (GET /query, interpreted queries). Errors carry
 * REST++'s code REST-30000 and name the parameter.
 */
import { canonicalInt, VertexRef } from '../catalog/value.js';
import { parseDatetime } from '../util/datetime.js';
import type { JsonValue } from '../util/json.js';
import type { Expr, NamedQueryArgs } from '../gsql/ast-query.js';
import type { CompiledParam } from './compile-query.js';
import type { QType } from './types.js';
import { QueryRuntimeError } from './values.js';

export class ParamError extends QueryRuntimeError {
  constructor(message: string) {
    super(message, 'REST-30000');
    this.name = 'ParamError';
  }
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

function bad(p: string, t: QType, v: unknown): ParamError {
  const shown = typeof v === 'string' ? `"${v}"` : typeof v === 'bigint' ? v.toString() : JSON.stringify(v);
  return new ParamError(`Failed to convert parameter ${p}: ${shown} is not a valid ${t.kind} value.`);
}

/** A scalar from JSON or query-string text. */
function scalar(p: string, t: QType, v: JsonValue, fromText: boolean): unknown {
  switch (t.kind) {
    case 'INT':
    case 'UINT': {
      let big: bigint;
      if (typeof v === 'bigint') big = v;
      else if (typeof v === 'number' && Number.isInteger(v)) big = BigInt(v);
      else if (typeof v === 'string' && /^\s*[+-]?\d+\s*$/.test(v)) big = BigInt(v.trim());
      else throw bad(p, t, v);
      const [lo, hi] = t.kind === 'INT' ? [INT64_MIN, INT64_MAX] : [0n, UINT64_MAX];
      if (big < lo || big > hi)
        throw new ParamError(`Failed to convert parameter ${p}: ${big} is out of the range of ${t.kind}.`);
      return canonicalInt(big);
    }
    case 'FLOAT':
    case 'DOUBLE': {
      const n =
        typeof v === 'number'
          ? v
          : typeof v === 'bigint'
            ? Number(v)
            : typeof v === 'string' && v.trim() !== ''
              ? Number(v)
              : NaN;
      if (Number.isNaN(n)) throw bad(p, t, v);
      return n;
    }
    case 'BOOL':
      if (typeof v === 'boolean') return v;
      if (typeof v === 'string' && /^(true|false|1|0)$/i.test(v)) return /^(true|1)$/i.test(v);
      if (v === 1 || v === 0) return v === 1;
      throw bad(p, t, v);
    case 'STRING':
    case 'FILE':
      if (typeof v === 'string') return fromText ? v : percentDecode(v);
      if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
      throw bad(p, t, v);
    case 'DATETIME': {
      const d = typeof v === 'string' ? parseDatetime(v) : typeof v === 'number' ? v : undefined;
      if (d === undefined) throw bad(p, t, v);
      return d;
    }
    default:
      throw bad(p, t, v);
  }
}

/** REST++ URL-decodes string values inside JSON bodies: only %XX sequences, `+` stays. */
function percentDecode(s: string): string {
  if (!s.includes('%')) return s;
  try {
    return decodeURIComponent(s.replace(/%(?![0-9a-fA-F]{2})/g, '%25'));
  } catch {
    return s;
  }
}

function jsonVertex(p: string, t: QType & { kind: 'VERTEX' }, v: JsonValue): VertexRef {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || !('id' in v)) {
    throw new ParamError(`Failed to convert parameter ${p}: 'id' is not found in the VERTEX parameter ${p}.`);
  }
  const id = v.id;
  if (typeof id !== 'string' && typeof id !== 'number' && typeof id !== 'bigint') {
    throw new ParamError(`Failed to convert parameter ${p}: the vertex id must be a string or a number.`);
  }
  const type = v.type;
  if (type !== undefined && typeof type !== 'string')
    throw new ParamError(`Failed to convert parameter ${p}: the vertex type must be a string.`);
  if (t.vertexType) {
    if (type !== undefined && type !== t.vertexType) {
      throw new ParamError(
        `Failed to convert parameter ${p}: the vertex type ${type} does not match ${t.vertexType}.`,
      );
    }
    return new VertexRef(t.vertexType, String(id));
  }
  if (type === undefined)
    throw new ParamError(
      `Failed to convert parameter ${p}: 'type' is not found in the VERTEX parameter ${p}.`,
    );
  return new VertexRef(type, String(id));
}

function jsonValue(p: string, t: QType, v: JsonValue): unknown {
  if (t.kind === 'SET' || t.kind === 'BAG' || t.kind === 'LIST') {
    const items = Array.isArray(v) ? v : [v];
    return items.map((x) => jsonValue(p, t.elem, x));
  }
  if (t.kind === 'VERTEX') return jsonVertex(p, t, v);
  return scalar(p, t, v, false);
}

/** Decodes a JSON object of parameters (POST /query/{graph}/{name}). Absent parameters are left out. */
export function decodeJsonParams(
  params: readonly CompiledParam[],
  body: JsonValue | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (body === undefined || body === null) return out;
  if (typeof body !== 'object' || Array.isArray(body))
    throw new ParamError('The query parameters must be a JSON object.');
  for (const p of params) {
    const v = body[p.name];
    if (v === undefined || v === null) continue;
    out[p.name] = jsonValue(p.name, p.type, v);
  }
  return out;
}

/**
 * Decodes query-string parameters (`k=v`, repeated keys for collections, `k.type=T` for an untyped
 * vertex, `k[i]=id&k[i].type=T` for a set of untyped vertices).
 */
export function decodeQueryStringParams(
  params: readonly CompiledParam[],
  qs: Readonly<Record<string, readonly string[]>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of params) {
    const t = p.type;
    const values = qs[p.name];
    if (t.kind === 'SET' || t.kind === 'BAG' || t.kind === 'LIST') {
      const items: unknown[] = [];
      if (t.elem.kind === 'VERTEX' && !t.elem.vertexType) {
        for (let i = 0; qs[`${p.name}[${i}]`] !== undefined; i++) {
          const type = qs[`${p.name}[${i}].type`]?.[0];
          if (type === undefined)
            throw new ParamError(`Failed to convert parameter ${p.name}: ${p.name}[${i}].type is missing.`);
          items.push(new VertexRef(type, qs[`${p.name}[${i}]`][0]));
        }
        if (items.length > 0) out[p.name] = items;
        continue;
      }
      if (values === undefined) continue;
      out[p.name] = values.map((v) => textValue(p.name, t.elem, v, qs));
      continue;
    }
    if (values === undefined || values.length === 0) continue;
    out[p.name] = textValue(p.name, t, values[values.length - 1], qs);
  }
  return out;
}

function textValue(p: string, t: QType, v: string, qs: Readonly<Record<string, readonly string[]>>): unknown {
  if (t.kind === 'VERTEX') {
    if (t.vertexType) return new VertexRef(t.vertexType, v);
    const type = qs[`${p}.type`]?.[0];
    if (type === undefined)
      throw new ParamError(
        `Failed to convert parameter ${p}: ${p}.type is missing for the VERTEX parameter.`,
      );
    return new VertexRef(type, v);
  }
  return scalar(p, t, v, true);
}

/** Turns a literal argument of RUN/INTERPRET QUERY into the JSON-like form decoded above. */
function argJson(e: Expr): JsonValue {
  switch (e.kind) {
    case 'int':
    case 'float':
    case 'string':
    case 'bool':
      return e.value;
    case 'null':
      return null;
    case 'name':
      // `_` leaves a parameter unset: its default, or NULL (`p IS NULL` holds).
      if (e.name === '_') return null;
      break;
    case 'list':
      return e.items.map(argJson);
    case 'tuple':
      if (e.items.length === 2) return { id: argJson(e.items[0]), type: argJson(e.items[1]) };
      break;
  }
  throw new ParamError(`line ${e.pos.line}, col ${e.pos.column}: a query argument must be a literal value`);
}

/**
 * Decodes the positional arguments of `RUN QUERY q(1, "a", ("id", "Type"), [1, 2])`: a VERTEX<T>
 * takes an id, an untyped VERTEX an ("id", "Type") pair, collections a [ … ] list; or the JSON
 * object of `RUN QUERY q({"p": …})`.
 */
export function decodeRunArgs(
  params: readonly CompiledParam[],
  args: readonly Expr[] | NamedQueryArgs,
): Record<string, unknown> {
  // `q({"p": …})` names its parameters in JSON, as the REST endpoint's body does.
  if (!Array.isArray(args)) return decodeJsonParams(params, (args as NamedQueryArgs).values);
  if (args.length > params.length) {
    const extra = args[params.length];
    throw new ParamError(
      `line ${extra.pos.line}, col ${extra.pos.column}: the query takes ${params.length} parameter${params.length === 1 ? '' : 's'}, but ${args.length} arguments are given`,
    );
  }
  const body: { [key: string]: JsonValue } = {};
  args.forEach((a, i) => {
    const p = params[i];
    const v = argJson(a);
    const wrap = (t: QType, x: JsonValue): JsonValue =>
      t.kind === 'VERTEX' && (x === null || typeof x !== 'object') ? { id: x } : x;
    if (p.type.kind === 'SET' || p.type.kind === 'BAG' || p.type.kind === 'LIST') {
      const elem = p.type.elem;
      body[p.name] = (Array.isArray(v) ? v : [v]).map((x) => wrap(elem, x));
    } else body[p.name] = wrap(p.type, v);
  });
  // Literal strings in GSQL text are not URL-encoded: decode them as query-string text would be.
  return decodeJsonParams(params, protectPercent(body));
}

function protectPercent(v: JsonValue): JsonValue {
  if (typeof v === 'string') return v.replace(/%/g, '%25');
  if (Array.isArray(v)) return v.map(protectPercent);
  if (v && typeof v === 'object') {
    const o: { [key: string]: JsonValue } = {};
    for (const [k, x] of Object.entries(v)) o[k] = protectPercent(x);
    return o;
  }
  return v;
}
