/**
 * JSONOBJECT and JSONARRAY values: parse_json_object / parse_json_array and their getters
 * (getInt, getDouble, getString, getBool, getJsonObject, getJsonArray, containsKey, size).
 * At run time a value is the parsed JSON itself (64-bit integers kept exact).
 */
import { parseJsonStrict } from '../util/json-parse.js';
import type { JsonValue } from '../util/json.js';
import { arity, typed, type Call, type Method } from './builtin-args.js';
import { compileError } from './errors.js';
import type { Cx, Eval, Typed } from './scope.js';
import { T, type QType } from './types.js';
import { canonical, QueryRuntimeError } from './values.js';

type JsonObject = { [key: string]: JsonValue };

/** parse_json_object(s) / parse_json_array(s). */
export function compileJsonParse(cx: Cx, e: Call, kind: 'JSONOBJECT' | 'JSONARRAY'): Typed {
  arity(e, 1);
  const s = typed(cx, e.args[0], T.STRING, `${e.name}()`);
  const what = kind === 'JSONOBJECT' ? 'json object' : 'json array';
  return {
    t: { kind },
    f: (ctx) => {
      const text = s(ctx) as string;
      let v: JsonValue;
      try {
        v = parseJsonStrict(text);
      } catch {
        throw new QueryRuntimeError(`Runtime Error: ${text} cannot be parsed as a ${what}.`);
      }
      const ok =
        kind === 'JSONARRAY' ? Array.isArray(v) : v !== null && typeof v === 'object' && !Array.isArray(v);
      if (!ok) throw new QueryRuntimeError(`Runtime Error: ${text} cannot be parsed as a ${what}.`);
      return v;
    },
  };
}

const GETTERS: Record<string, QType> = {
  getint: T.INT,
  getdouble: T.DOUBLE,
  getstring: T.STRING,
  getbool: T.BOOL,
  getjsonobject: { kind: 'JSONOBJECT' },
  getjsonarray: { kind: 'JSONARRAY' },
};

/** A method of a JSONOBJECT (keyed by name) or JSONARRAY (keyed by index) value. */
export function compileJsonMethod(cx: Cx, e: Method, name: string, target: Typed): Typed {
  const array = target.t.kind === 'JSONARRAY';
  const tf = target.f;
  if (name === 'size' && array) {
    arity(e, 0);
    return { t: T.INT, f: (ctx) => (tf(ctx) as JsonValue[]).length };
  }
  if (name === 'containskey' && !array) {
    arity(e, 1);
    const k = typed(cx, e.args[0], T.STRING, 'containsKey()');
    return { t: T.BOOL, f: (ctx) => Object.hasOwn(tf(ctx) as JsonObject, k(ctx) as string) };
  }
  const t = GETTERS[name];
  if (!t) throw compileError(e.namePos, `${target.t.kind} has no method ${e.name}()`);
  arity(e, 1);
  const key: Eval = array
    ? typed(cx, e.args[0], T.INT, `${e.name}()`)
    : typed(cx, e.args[0], T.STRING, `${e.name}()`);
  return {
    t,
    f: (ctx) => {
      const k = key(ctx);
      const v = array ? (tf(ctx) as JsonValue[])[Number(k)] : (tf(ctx) as JsonObject)[k as string];
      return convert(v, t, `${e.name}(${String(k)})`);
    },
  };
}

function convert(v: JsonValue | undefined, t: QType, what: string): unknown {
  const bad = (): never => {
    throw new QueryRuntimeError(`Runtime Error: ${what} is not a ${t.kind.toLowerCase()} value.`);
  };
  switch (t.kind) {
    case 'INT':
      if (typeof v === 'bigint') return canonical(v);
      return typeof v === 'number' ? Math.trunc(v) : bad();
    case 'DOUBLE':
      return typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : bad();
    case 'STRING':
      return typeof v === 'string' ? v : bad();
    case 'BOOL':
      return typeof v === 'boolean' ? v : bad();
    case 'JSONARRAY':
      return Array.isArray(v) ? v : bad();
    default:
      return v !== null && typeof v === 'object' && !Array.isArray(v) ? v : bad();
  }
}
