/**
 * Built-in functions (math, string, conversion, DATETIME, vertex lookup) and tuple constructors.
 */
import { formatDatetime, parseDatetime } from '../util/datetime.js';
import { collectionItems } from './accumulators.js';
import { arity, num, typed, type Call } from './builtin-args.js';
import { coerce, compileExpr, compileNullTest, expectType } from './expr-support.js';
import { zeroOf } from './accum-scalar.js';
import { compileEvaluate } from './evaluate.js';
import { compileJsonParse } from './json-values.js';
import { vertexVid } from './vid.js';
import { STRING_FUNCTIONS } from './string-functions.js';
import { compileUdfCall } from './udf.js';
import type { RunContext } from './context.js';
import { compileError } from './errors.js';
import type { Expr, Pos } from '../gsql/ast-query.js';
import type { Cx, SubqueryRef, Typed } from './scope.js';
import { accumValueType, isNumeric, T, typeText } from './types.js';
import { canonical, compareValues, intArith, QueryRuntimeError, toNumber, TupleVal, Vtx } from './values.js';

const MATH1: Record<string, (x: number) => number> = {
  sqrt: Math.sqrt,
  log: Math.log,
  log10: Math.log10,
  exp: Math.exp,
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  asin: Math.asin,
  acos: Math.acos,
  atan: Math.atan,
};

function dtPart(part: (d: Date) => number): (cx: Cx, e: Call) => Typed {
  return (cx, e) => {
    arity(e, 1);
    const f = typed(cx, e.args[0], T.DATETIME, `${e.name}()`);
    return { t: T.INT, f: (ctx) => part(new Date((f(ctx) as number) * 1000)) };
  };
}

function toIntText(s: string): number | bigint {
  const m = /^\s*([+-]?\d+)/.exec(s);
  if (!m) throw new QueryRuntimeError(`Runtime Error: "${s}" is not an integer.`);
  return canonical(BigInt(m[1]));
}

const FUNCTIONS: Record<string, (cx: Cx, e: Call) => Typed> = {
  ...STRING_FUNCTIONS,
  evaluate: compileEvaluate,
  /** ISEMPTY(setBagExpr): whether a collection or vertex set has no elements. */
  isempty: (cx, e) => {
    arity(e, 1);
    const x = compileExpr(cx, e.args[0]);
    if (!['SET', 'BAG', 'LIST', 'MAP', 'VSET'].includes(x.t.kind)) {
      throw compileError(e.args[0].pos, `ISEMPTY() needs a collection or a vertex set, not ${typeText(x.t)}`);
    }
    const f = x.f;
    return { t: T.BOOL, f: (ctx) => collectionItems(f(ctx)).length === 0 };
  },
  abs: (cx, e) => {
    arity(e, 1);
    const x = compileExpr(cx, e.args[0]);
    if (!isNumeric(x.t)) throw compileError(e.args[0].pos, `abs() needs a number, not ${typeText(x.t)}`);
    const f = x.f;
    return {
      t: x.t,
      f: (ctx) => {
        const v = f(ctx);
        return typeof v === 'bigint' ? canonical(v < 0n ? -v : v) : Math.abs(v as number);
      },
    };
  },
  pow: (cx, e) => {
    arity(e, 2);
    const a = num(cx, e.args[0]);
    const b = num(cx, e.args[1]);
    return { t: T.DOUBLE, f: (ctx) => Math.pow(a(ctx), b(ctx)) };
  },
  ceil: (cx, e) => roundFn(cx, e, Math.ceil),
  floor: (cx, e) => roundFn(cx, e, Math.floor),
  round: (cx, e) => roundFn(cx, e, Math.round),
  to_string: (cx, e) => {
    arity(e, 1);
    const x = compileExpr(cx, e.args[0]);
    const f = x.f;
    const dt = x.t.kind === 'DATETIME';
    return { t: T.STRING, f: (ctx) => (dt ? formatDatetime(f(ctx) as number) : scalarText(f(ctx))) };
  },
  to_int: (cx, e) => strToInt(cx, e),
  str_to_int: (cx, e) => strToInt(cx, e),
  float_to_int: (cx, e) => {
    arity(e, 1);
    const f = num(cx, e.args[0]);
    return { t: T.INT, f: (ctx) => Math.trunc(f(ctx)) };
  },
  to_float: (cx, e) => {
    arity(e, 1);
    const x = compileExpr(cx, e.args[0]);
    const f = x.f;
    return {
      t: T.DOUBLE,
      f: (ctx) => {
        const v = f(ctx);
        const n = typeof v === 'string' ? Number(v.trim()) : toNumber(v);
        if (Number.isNaN(n)) throw new QueryRuntimeError(`Runtime Error: "${String(v)}" is not a number.`);
        return n;
      },
    };
  },
  lower: (cx, e) => strFn(cx, e, (s) => s.toLowerCase()),
  upper: (cx, e) => strFn(cx, e, (s) => s.toUpperCase()),
  trim: (cx, e) => strFn(cx, e, (s) => s.trim()),
  length: (cx, e) => {
    arity(e, 1);
    const f = typed(cx, e.args[0], T.STRING, 'length()');
    return { t: T.INT, f: (ctx) => (f(ctx) as string).length };
  },
  to_datetime: (cx, e) => {
    arity(e, 1);
    const f = typed(cx, e.args[0], T.STRING, 'to_datetime()');
    return {
      t: T.DATETIME,
      f: (ctx) => {
        const s = f(ctx) as string;
        const d = parseDatetime(s);
        if (d === undefined)
          throw new QueryRuntimeError(`Runtime Error: "${s}" is not a valid DATETIME.`, 'GSQL-2501');
        return d;
      },
    };
  },
  datetime_diff: (cx, e) => {
    arity(e, 2);
    const a = typed(cx, e.args[0], T.DATETIME, 'datetime_diff()');
    const b = typed(cx, e.args[1], T.DATETIME, 'datetime_diff()');
    return { t: T.INT, f: (ctx) => (a(ctx) as number) - (b(ctx) as number) };
  },
  datetime_add: (cx, e) => datetimeShift(cx, e, 1),
  datetime_sub: (cx, e) => datetimeShift(cx, e, -1),
  datetime_to_epoch: (cx, e) => {
    arity(e, 1);
    const f = typed(cx, e.args[0], T.DATETIME, 'datetime_to_epoch()');
    return { t: T.INT, f };
  },
  epoch_to_datetime: (cx, e) => {
    arity(e, 1);
    const f = num(cx, e.args[0]);
    return { t: T.DATETIME, f: (ctx) => Math.trunc(f(ctx)) };
  },
  now: (_cx, e) => {
    arity(e, 0);
    return { t: T.DATETIME, f: () => Math.floor(Date.now() / 1000) };
  },
  datetime_format: (cx, e) => {
    arity(e, 1, 2);
    const d = typed(cx, e.args[0], T.DATETIME, 'datetime_format()');
    const fmt = e.args[1] ? typed(cx, e.args[1], T.STRING, 'datetime_format()') : () => '%Y-%m-%d %H:%M:%S';
    return { t: T.STRING, f: (ctx) => formatWith(d(ctx) as number, fmt(ctx) as string) };
  },
  year: dtPart((d) => d.getUTCFullYear()),
  month: dtPart((d) => d.getUTCMonth() + 1),
  day: dtPart((d) => d.getUTCDate()),
  hour: dtPart((d) => d.getUTCHours()),
  minute: dtPart((d) => d.getUTCMinutes()),
  second: dtPart((d) => d.getUTCSeconds()),
  getvid: (cx, e) => {
    arity(e, 1);
    const x = compileExpr(cx, e.args[0]);
    if (x.t.kind !== 'VERTEX')
      throw compileError(e.args[0].pos, `getvid() needs a vertex, not ${typeText(x.t)}`);
    const f = x.f;
    const types = cx.vertexTypeNames();
    return {
      t: T.INT,
      f: (ctx) => {
        const v = f(ctx) as Vtx;
        return vertexVid(v.type, v.row, types);
      },
    };
  },
  to_vertex: (cx, e) => {
    arity(e, 2);
    const id = compileExpr(cx, e.args[0]).f;
    const type = typed(cx, e.args[1], T.STRING, 'to_vertex()');
    return { t: T.VERTEX, f: (ctx) => toVertex(ctx, id(ctx), type(ctx) as string) };
  },
  to_vertex_set: (cx, e) => {
    arity(e, 2);
    const ids = compileExpr(cx, e.args[0]);
    if (!['SET', 'BAG', 'LIST'].includes(ids.t.kind)) {
      throw compileError(e.args[0].pos, `to_vertex_set() needs a collection of ids, not ${typeText(ids.t)}`);
    }
    const type = typed(cx, e.args[1], T.STRING, 'to_vertex_set()');
    const idsF = ids.f;
    return {
      t: T.VSET,
      f: (ctx) => {
        const tn = type(ctx) as string;
        if (!ctx.graph.catalog.vertexTypes.some((v) => v.name === tn))
          throw new QueryRuntimeError(`Runtime Error: "${tn}" is not a vertex type.`);
        // Ids that are not vertices are left out with a warning, as TigerGraph does.
        const out = new Set<Vtx>();
        let missing = 0;
        for (const id of collectionItems(idsF(ctx))) {
          const row = ctx.graph.lookup(tn, String(id));
          if (row === undefined) missing++;
          else out.add(ctx.vertex(tn, row));
        }
        const warning = `Runtime Warning: ${missing} ids are invalid ${tn} vertex ids.`;
        if (missing > 0 && !ctx.warnings.includes(warning)) ctx.warnings.push(warning);
        return [...out];
      },
    };
  },
  float: (cx, e) => {
    arity(e, 1);
    const f = num(cx, e.args[0]);
    return { t: T.DOUBLE, f };
  },
  int: (cx, e) => {
    arity(e, 1);
    const f = num(cx, e.args[0]);
    return { t: T.INT, f: (ctx) => Math.trunc(f(ctx)) };
  },
  parse_json_object: (cx, e) => compileJsonParse(cx, e, 'JSONOBJECT'),
  parse_json_array: (cx, e) => compileJsonParse(cx, e, 'JSONARRAY'),
  count: (cx, e) => aggregate(cx, e, 'count'),
  sum: (cx, e) => aggregate(cx, e, 'sum'),
  min: (cx, e) => aggregate(cx, e, 'min'),
  max: (cx, e) => aggregate(cx, e, 'max'),
  avg: (cx, e) => aggregate(cx, e, 'avg'),
  coalesce: (cx, e) => {
    if (e.args.length === 0) throw compileError(e.pos, 'coalesce() needs at least one argument');
    // The result has the first argument's type; the others are converted to it (999.5 -> 999).
    const t = compileExpr(cx, e.args[0]).t;
    const xs = e.args.map((a) => ({
      isNull: compileNullTest(cx, a),
      f: coerce(t, compileExpr(cx, a), a.pos, 'an argument of coalesce()'),
    }));
    return {
      t,
      f: (ctx) => {
        for (const x of xs) if (!x.isNull(ctx)) return x.f(ctx);
        return zeroOf(t);
      },
    };
  },
};
for (const [name, fn] of Object.entries(MATH1)) {
  FUNCTIONS[name] = (cx, e) => {
    arity(e, 1);
    const f = num(cx, e.args[0]);
    // TigerGraph's math functions return FLOAT (32-bit).
    return { t: T.FLOAT, f: (ctx) => Math.fround(fn(f(ctx))) };
  };
}

const UNIT_SECONDS: Record<string, number> = { SECOND: 1, MINUTE: 60, HOUR: 3600, DAY: 86400, WEEK: 604800 };

/** datetime_add / datetime_sub with `INTERVAL n UNIT`; months and years follow the calendar. */
function datetimeShift(cx: Cx, e: Call, sign: 1 | -1): Typed {
  arity(e, 2);
  const d = typed(cx, e.args[0], T.DATETIME, `${e.name}()`);
  const iv = e.args[1];
  if (iv.kind !== 'interval')
    throw compileError(iv.pos, `${e.name}() needs INTERVAL n UNIT as its second argument`);
  const n = num(cx, iv.amount);
  const unit = iv.unit;
  return {
    t: T.DATETIME,
    f: (ctx) => {
      const base = d(ctx) as number;
      const k = Math.trunc(n(ctx)) * sign;
      if (unit === 'MONTH' || unit === 'YEAR') {
        const dt = new Date(base * 1000);
        dt.setUTCMonth(dt.getUTCMonth() + (unit === 'YEAR' ? 12 * k : k));
        return Math.floor(dt.getTime() / 1000);
      }
      return base + k * UNIT_SECONDS[unit];
    },
  };
}

/** The vertex of type `type` with external id `id`; a run-time error when there is none. */
function toVertex(ctx: RunContext, id: unknown, type: string): Vtx {
  const known = ctx.graph.catalog.vertexTypes.some((v) => v.name === type);
  if (!known) throw new QueryRuntimeError(`Runtime Error: "${type}" is not a vertex type.`);
  const row = ctx.graph.lookup(type, String(id));
  if (row === undefined)
    throw new QueryRuntimeError(`Runtime Error: vertex ${type} "${String(id)}" does not exist.`);
  return ctx.vertex(type, row);
}

function roundFn(cx: Cx, e: Call, fn: (x: number) => number): Typed {
  arity(e, 1);
  const f = num(cx, e.args[0]);
  return { t: T.INT, f: (ctx) => fn(f(ctx)) };
}

function strFn(cx: Cx, e: Call, fn: (s: string) => string): Typed {
  arity(e, 1);
  const f = typed(cx, e.args[0], T.STRING, `${e.name}()`);
  return { t: T.STRING, f: (ctx) => fn(f(ctx) as string) };
}

function strToInt(cx: Cx, e: Call): Typed {
  arity(e, 1);
  const x = compileExpr(cx, e.args[0]);
  const f = x.f;
  if (isNumeric(x.t)) return { t: T.INT, f: (ctx) => Math.trunc(toNumber(f(ctx))) };
  expectType(x, T.STRING, e.args[0].pos, `${e.name}()`);
  return { t: T.INT, f: (ctx) => toIntText(f(ctx) as string) };
}

function scalarText(v: unknown): string {
  if (v instanceof Vtx) return String(v.row);
  if (typeof v === 'number' && !Number.isInteger(v)) return v.toFixed(6);
  return String(v);
}

function formatWith(epoch: number, fmt: string): string {
  const s = formatDatetime(epoch);
  const parts: Record<string, string> = {
    Y: s.slice(0, 4),
    m: s.slice(5, 7),
    d: s.slice(8, 10),
    H: s.slice(11, 13),
    M: s.slice(14, 16),
    S: s.slice(17, 19),
    '%': '%',
  };
  return fmt.replace(/%([YmdHMS%])/g, (_m, k: string) => parts[k]);
}

/**
 * count/sum/min/max/avg over a collection (SET, BAG, LIST or a collection accumulator). The
 * average of integers is an integer (truncated), as TigerGraph computes it; min/max/avg of an
 * empty collection give the element type's zero.
 */
function aggregate(cx: Cx, e: Call, fn: 'count' | 'sum' | 'min' | 'max' | 'avg'): Typed {
  arity(e, 1);
  const x = compileExpr(cx, e.args[0]);
  const t = x.t;
  if (t.kind !== 'SET' && t.kind !== 'BAG' && t.kind !== 'LIST')
    throw compileError(e.args[0].pos, `${fn}() needs a set, bag or list, not ${typeText(t)}`);
  const f = x.f;
  if (fn === 'count') return { t: T.INT, f: (ctx) => collectionItems(f(ctx)).length };
  if (!isNumeric(t.elem) && fn !== 'min' && fn !== 'max')
    throw compileError(e.args[0].pos, `${fn}() needs numbers, not ${typeText(t)}`);
  const integer = t.elem.kind === 'INT' || t.elem.kind === 'UINT';
  const total = (items: unknown[]): number | bigint =>
    integer
      ? items.reduce<number | bigint>((a, b) => intArith('+', a, b as number | bigint), 0)
      : items.reduce<number>((a, b) => a + toNumber(b), 0);
  return {
    t: fn === 'avg' && !integer ? T.DOUBLE : t.elem,
    f: (ctx) => {
      const items = collectionItems(f(ctx));
      if (fn === 'sum') return total(items);
      if (items.length === 0) return zeroOf(t.elem);
      if (fn === 'avg') {
        const s = total(items);
        return integer ? intArith('/', s, items.length) : (s as number) / items.length;
      }
      let best = items[0];
      for (const v of items) {
        const c = compareValues(v, best);
        if (fn === 'min' ? c < 0 : c > 0) best = v;
      }
      return best;
    },
  };
}

/** Whether `name` is a built-in function (PRINT shows its calls in lower case). */
/** Adds functions compiled elsewhere (openCypher's, under `cypher.` names GSQL text cannot call). */
export function registerFunctions(fns: Readonly<Record<string, (cx: Cx, e: Call) => Typed>>): void {
  Object.assign(FUNCTIONS, fns);
}

export function isBuiltinFunction(name: string): boolean {
  return Object.hasOwn(FUNCTIONS, name.toLowerCase());
}

export function compileCall(cx: Cx, e: Call): Typed {
  const tuple = cx.tuples.get(e.name);
  if (tuple) {
    if (e.args.length !== tuple.fields.length) {
      throw compileError(
        e.pos,
        `${tuple.name} has ${tuple.fields.length} fields, but ${e.args.length} values are given`,
      );
    }
    const fs = e.args.map((a, i) =>
      coerce(
        tuple.fields[i].type,
        compileExpr(cx, a),
        a.pos,
        `field ${tuple.fields[i].name} of ${tuple.name}`,
      ),
    );
    return {
      t: tuple,
      f: (ctx) =>
        new TupleVal(
          tuple,
          fs.map((f) => f(ctx)),
        ),
    };
  }
  const fn = FUNCTIONS[e.name.toLowerCase()];
  if (fn) return fn(cx, e);
  const udf = compileUdfCall(cx, e, isBuiltinFunction);
  if (udf) return udf;
  const sub = cx.resolveQuery?.(e.name);
  if (!sub) throw compileError(e.pos, `unknown function ${e.name}()`);
  return compileSubqueryCall(cx, sub, e.args, e.pos, 'query');
}

/** A call of another query, or of a GSQL function (`pkg.f(…)`), with its arguments checked. */
export function compileSubqueryCall(
  cx: Cx,
  sub: SubqueryRef,
  argExprs: readonly Expr[],
  pos: Pos,
  what: 'query' | 'function',
): Typed {
  if (argExprs.length > sub.params.length) {
    throw compileError(
      pos,
      `the ${what} ${sub.name} takes ${sub.params.length} arguments, not ${argExprs.length}`,
    );
  }
  const args = argExprs.map((a, i) =>
    coerce(sub.params[i].type, compileExpr(cx, a), a.pos, `argument ${sub.params[i].name} of ${sub.name}`),
  );
  // An accumulator return type is used as its value (SetAccum<T> as SET<T>); a query without
  // RETURNS is called as a statement for its effects (PRINT, DML, FILE output).
  const t = !sub.returns ? T.VOID : sub.returns.kind === 'ACCUM' ? accumValueType(sub.returns) : sub.returns;
  return {
    t,
    f: (ctx) =>
      sub.call(
        ctx,
        args.map((f) => f(ctx)),
      ),
  };
}
