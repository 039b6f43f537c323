/**
 * User-defined expression functions: the `ExprFunctions` file of the catalog (a JavaScript module,
 * see util/udf-module.ts) as GSQL functions. Its exports' type names are read as GSQL types (base
 * types, lists and maps of those (nested too), sets and bags of base types, and the accumulators
 * whose values those are), so calls
 * are type checked like built-in ones; arguments and results are checked against them at run time.
 */
import type { Catalog } from '../catalog/types.js';
import type { Expr, TypeExpr } from '../gsql/ast-query.js';
import { tokenize } from '../gsql/lexer.js';
import { TokenCursor } from '../gsql/parser-expr.js';
import { parseType } from '../gsql/parser-type.js';
import { compileError } from './errors.js';
import { coerce, compileExpr } from './expr-support.js';
import type { Cx, Typed } from './scope.js';
import { accumValueType, typeText, T, type QType } from './types.js';
import { loadUdfModule, UdfError, type UdfModule } from '../util/udf-module.js';
import { collectionItems, MapAccum } from './accumulators.js';
import { canonical, QueryRuntimeError, TupleVal, Vtx } from './values.js';
import { vertexOfVid, vertexVid } from './vid.js';
import type { RunContext } from './context.js';

/** The UDF files TigerGraph knows by name; Ocelot keeps their text in the catalog. */
export const UDF_FILES = ['ExprFunctions', 'ExprUtil', 'TokenBank'] as const;
export type UdfFileName = (typeof UDF_FILES)[number];

/** The catalog's text of a UDF file ('' when never put). */
export function udfFileText(catalog: Catalog, name: UdfFileName): string {
  return catalog.udfFiles?.find((f) => f.name === name)?.text ?? '';
}

/** A catalog with a UDF file replaced. */
export function withUdfFile(catalog: Catalog, name: UdfFileName, text: string): Catalog {
  const files = (catalog.udfFiles ?? []).filter((f) => f.name !== name);
  if (text !== '') files.push({ name, text });
  return { ...catalog, udfFiles: files };
}

const putAllowed = new WeakMap<object, boolean>();

/**
 * Whether UDF files may be PUT on this database (`ocelot serve --allow-udf-put`). Off by default,
 * as TigerGraph's PUT of UDF files is until an administrator enables it: a UDF module is code the
 * server runs.
 */
export function allowUdfPut(db: object, allowed: boolean): void {
  putAllowed.set(db, allowed);
}

export function udfPutAllowed(db: object): boolean {
  return putAllowed.get(db) ?? false;
}

/** A UDF as GSQL sees it. */
export interface UdfFunction {
  name: string;
  params: QType[];
  returns: QType;
  module: UdfModule;
}

/** The functions of one ExprFunctions text, and the exports a built-in function of the same name shadows. */
export interface UdfFileFunctions {
  functions: Map<string, UdfFunction>;
  shadowed: string[];
}

const loaded = new Map<string, UdfFileFunctions>();

/**
 * The functions of an ExprFunctions module text, checked: throws UdfError for a module that does
 * not load or an export with an unknown type. An export named like a built-in function is left
 * out (calls resolve to built-ins first, so a TigerGraph UDF file that also defines, say,
 * `reverse` still loads) and listed in `shadowed`.
 */
export function udfFunctions(text: string, isBuiltin: (name: string) => boolean): UdfFileFunctions {
  const hit = loaded.get(text);
  if (hit) return hit;
  const module = loadUdfModule(text);
  const functions = new Map<string, UdfFunction>();
  const shadowed: string[] = [];
  for (const x of module.exports) {
    const fn: UdfFunction = {
      name: x.name,
      params: x.params.map((p, i) => udfParamType(p, `parameter ${i + 1} of ${x.name}`)),
      returns: udfType(x.returns, `the return type of ${x.name}`),
      module,
    };
    if (isBuiltin(x.name)) shadowed.push(x.name);
    else functions.set(x.name, fn);
  }
  const out = { functions, shadowed };
  // A few recent texts stay loaded (a catalog change recompiles queries against the same text).
  if (loaded.size >= 4) loaded.delete(loaded.keys().next().value!);
  loaded.set(text, out);
  return out;
}

const BASE = new Set(['INT', 'UINT', 'FLOAT', 'DOUBLE', 'STRING', 'BOOL', 'DATETIME']);

/** A parameter of type `TUPLE` takes any tuple (as TigerGraph's template UDFs over tuples do). */
const ANY_TUPLE: QType = { kind: 'TUPLE', name: '', fields: [] };

function udfParamType(text: string, what: string): QType {
  return text.trim().toUpperCase() === 'TUPLE' ? ANY_TUPLE : udfType(text, what);
}

/** A GSQL type name of a UDF signature as a QType (accumulators stand for their values). */
function udfType(text: string, what: string): QType {
  let te: TypeExpr;
  try {
    const c = TokenCursor.of(text, tokenize(text));
    te = parseType(c);
    if (c.peek().kind !== 'eof') throw new Error();
  } catch {
    throw new UdfError(`${what}: "${text}" is not a GSQL type`);
  }
  const conv = (t: TypeExpr): QType => {
    if (t.kind === 'base' && BASE.has(t.name)) return { kind: t.name };
    if (t.kind === 'vertex') return { kind: 'VERTEX', vertexType: t.vertexType };
    if (t.kind === 'collection') return { kind: t.collection, elem: conv(t.element) };
    if (t.kind === 'map') return { kind: 'MAP', key: scalar(t.key), value: conv(t.value) };
    if (t.kind === 'accum') {
      const [a, b] = t.args;
      switch (t.accum) {
        case 'SumAccum':
        case 'MinAccum':
        case 'MaxAccum':
          return scalar(a);
        case 'AvgAccum':
          return T.DOUBLE;
        case 'OrAccum':
        case 'AndAccum':
          return T.BOOL;
        case 'ListAccum':
          return { kind: 'LIST', elem: conv(a) };
        case 'SetAccum':
          return { kind: 'SET', elem: scalar(a) };
        case 'BagAccum':
          return { kind: 'BAG', elem: scalar(a) };
        case 'MapAccum':
          return { kind: 'MAP', key: scalar(a), value: conv(b) };
      }
    }
    throw new UdfError(
      `${what}: a UDF takes and returns base types, VERTEX and collections and maps of them, and takes TUPLE; not ${text}`,
    );
  };
  const scalar = (t: TypeExpr | undefined): QType => {
    const q = t && conv(t);
    if (!q || !(BASE.has(q.kind) || q.kind === 'VERTEX'))
      throw new UdfError(`${what}: collections of a UDF hold base types or VERTEX, not ${text}`);
    return q;
  };
  return conv(te);
}

/** Compiles a call of a UDF of the catalog's ExprFunctions; undefined when there is no such UDF. */
export function compileUdfCall(
  cx: Cx,
  e: Expr & { kind: 'call' },
  isBuiltin: (name: string) => boolean,
): Typed | undefined {
  const text = udfFileText(cx.catalog, 'ExprFunctions');
  if (text === '') return undefined;
  let fns: Map<string, UdfFunction>;
  try {
    fns = udfFunctions(text, isBuiltin).functions;
  } catch (err) {
    if (err instanceof UdfError)
      throw compileError(e.pos, `the ExprFunctions file does not load: ${err.message}`);
    throw err;
  }
  const fn = fns.get(e.name);
  if (!fn) return undefined;
  if (e.args.length !== fn.params.length)
    throw compileError(e.pos, `${fn.name}() takes ${fn.params.length} arguments, not ${e.args.length}`);
  const args = e.args.map((a, i) => {
    const x = compileExpr(cx, a);
    const t = valueType(x.t);
    const what = `argument ${i + 1} of ${fn.name}()`;
    if (fn.params[i] !== ANY_TUPLE) return coerce(fn.params[i], { ...x, t }, a.pos, what);
    if (t.kind !== 'TUPLE') throw compileError(a.pos, `${what} needs a tuple, not ${typeText(t)}`);
    return x.f;
  });
  const { name, returns, module } = fn;
  const types = cx.vertexTypeNames();
  return {
    t: returns,
    f: (ctx) => {
      let out: unknown;
      try {
        out = module.call(
          name,
          args.map((f) => plain(f(ctx), types)),
        );
      } catch (err) {
        if (err instanceof UdfError) throw new QueryRuntimeError(`Runtime Error: ${err.message}`);
        throw err;
      }
      return checked(out, returns, name, ctx, types);
    },
  };
}

/** A type with the accumulators in it (`MapAccum<INT, ListAccum<DOUBLE>>`) read as their values. */
function valueType(t: QType): QType {
  if (t.kind === 'ACCUM')
    return t.accum === 'GroupByAccum' || t.accum === 'ArrayAccum' ? t : valueType(accumValueType(t));
  if (t.kind === 'SET' || t.kind === 'BAG' || t.kind === 'LIST')
    return { kind: t.kind, elem: valueType(t.elem) };
  if (t.kind === 'MAP') return { kind: 'MAP', key: valueType(t.key), value: valueType(t.value) };
  return t;
}

/**
 * A run-time value as a UDF receives it: accumulators as their values, sets and bags as arrays,
 * tuples as objects keyed by field name, vertices as their getvid() numbers.
 */
function plain(v: unknown, types: readonly string[]): unknown {
  if (v instanceof Vtx) return vertexVid(v.type, v.row, types);
  if (v instanceof TupleVal)
    return Object.fromEntries(v.type.fields.map((f, i) => [f.name, plain(v.values[i], types)]));
  if (v instanceof MapAccum)
    return new Map([...v.entries.values()].map((e) => [plain(e.key, types), plain(e.acc.value(), types)]));
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [plain(k, types), plain(x, types)]));
  if (Array.isArray(v) || v instanceof Set || (typeof v === 'object' && v !== null))
    return collectionItems(v instanceof Set ? [...v] : v).map((x) => plain(x, types));
  return v;
}

/** A UDF's result in run-time form, checked against its declared type. */
function checked(v: unknown, t: QType, fn: string, ctx: RunContext, types: readonly string[]): unknown {
  const bad = (): never => {
    throw new QueryRuntimeError(
      `Runtime Error: ${fn}() returned ${JSON.stringify(typeof v === 'bigint' ? String(v) : v) ?? String(v)}, not ${typeText(t)}.`,
    );
  };
  switch (t.kind) {
    case 'INT':
    case 'UINT':
    case 'DATETIME':
      if (typeof v === 'bigint') return canonical(v);
      if (typeof v !== 'number' || !Number.isInteger(v)) bad();
      if (t.kind === 'UINT' && (v as number) < 0) bad();
      return v;
    case 'FLOAT':
    case 'DOUBLE':
      if (typeof v === 'bigint') return Number(v);
      return typeof v === 'number' ? v : bad();
    case 'STRING':
      return typeof v === 'string' ? v : bad();
    case 'BOOL':
      return typeof v === 'boolean' ? v : bad();
    case 'VERTEX': {
      if (typeof v !== 'number' && typeof v !== 'bigint') return bad();
      const x = vertexOfVid(ctx, Number(v), types, `${fn}() returned a vertex`);
      if (t.vertexType !== undefined && x.type !== t.vertexType) bad();
      return x;
    }
    case 'LIST':
    case 'BAG':
      return Array.isArray(v) ? v.map((x) => checked(x, t.elem, fn, ctx, types)) : bad();
    case 'SET': {
      if (!Array.isArray(v)) return bad();
      return [...new Set(v.map((x) => checked(x, t.elem, fn, ctx, types)))];
    }
    case 'MAP':
      if (!(v instanceof Map)) return bad();
      return new Map(
        [...v].map(([k, x]) => [checked(k, t.key, fn, ctx, types), checked(x, t.value, fn, ctx, types)]),
      );
    default:
      return bad();
  }
}
