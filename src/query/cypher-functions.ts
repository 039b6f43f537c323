/**
 * openCypher's operators and functions GSQL has no form for (the expression parser calls them
 * `cypher.<name>`): STARTS WITH, ENDS WITH, CONTAINS, =~, ^, list[i], size, toString, toInteger,
 * toFloat, toBoolean, round, sign, log10, ltrim, rtrim, substring, left, right, replace, split,
 * reverse, head, last, tail, range, id, type, labels, pi, e. As in openCypher, a NULL argument
 * gives NULL.
 */
import { CYPHER_FN } from '../gsql/parser-cypher-expr.js';
import { formatDatetime, parseDatetime } from '../util/datetime.js';
import { collectionItems } from './accumulators.js';
import { arity, type Call } from './builtin-args.js';
import type { RunContext } from './context.js';
import { compileError } from './errors.js';
import { compileExpr } from './expr-support.js';
import { registerFunctions } from './functions.js';
import type { Cx, Typed } from './scope.js';
import { isInteger, isNumeric, T, typeText, type QType } from './types.js';
import { EdgeVal, QueryRuntimeError, toNumber, Vtx } from './values.js';

type Fn = (cx: Cx, e: Call) => Typed;

const isNull = (v: unknown): boolean => v === null || v === undefined;

/** Compiles the arguments; the result is NULL when one of them is. */
function over(
  cx: Cx,
  e: Call,
  min: number,
  max: number,
  t: (ts: QType[]) => QType,
  f: (vs: unknown[], ctx: RunContext) => unknown,
): Typed {
  arity(e, min, max);
  const xs = e.args.map((a) => compileExpr(cx, a));
  const fs = xs.map((x) => x.f);
  return {
    t: t(xs.map((x) => x.t)),
    f: (ctx) => {
      const vs = fs.map((g) => g(ctx));
      return vs.some(isNull) ? null : f(vs, ctx);
    },
  };
}

function need(e: Call, t: QType, ok: boolean, what: string): void {
  if (!ok) throw compileError(e.pos, `${e.name.slice(CYPHER_FN.length)}() needs ${what}, not ${typeText(t)}`);
}

const isText = (t: QType): boolean => t.kind === 'STRING';
const isList = (t: QType): boolean => t.kind === 'LIST' || t.kind === 'SET' || t.kind === 'BAG';
const elemOf = (t: QType): QType =>
  t.kind === 'LIST' || t.kind === 'SET' || t.kind === 'BAG' ? t.elem : T.STRING;

/** A string predicate of two strings. */
function textTest(test: (a: string, b: string) => boolean): Fn {
  return (cx, e) =>
    over(
      cx,
      e,
      2,
      2,
      (ts) => {
        ts.forEach((t) => need(e, t, isText(t), 'strings'));
        return T.BOOL;
      },
      ([a, b]) => test(a as string, b as string),
    );
}

function textFn(
  min: number,
  max: number,
  f: (s: string, rest: number[]) => unknown,
  t: QType = T.STRING,
): Fn {
  return (cx, e) =>
    over(
      cx,
      e,
      min,
      max,
      (ts) => {
        need(e, ts[0], isText(ts[0]), 'a string');
        ts.slice(1).forEach((x) => need(e, x, isNumeric(x), 'integers'));
        return t;
      },
      ([s, ...rest]) => f(s as string, rest.map(toNumber)),
    );
}

function numFn(f: (x: number) => number, t: QType = T.DOUBLE): Fn {
  return (cx, e) =>
    over(
      cx,
      e,
      1,
      1,
      (ts) => {
        need(e, ts[0], isNumeric(ts[0]), 'a number');
        return t;
      },
      ([x]) => f(toNumber(x)),
    );
}

function regexOf(pattern: string): RegExp {
  try {
    return new RegExp(`^(?:${pattern})$`, 'u');
  } catch {
    throw new QueryRuntimeError(`Runtime Error: "${pattern}" is not a regular expression.`);
  }
}

function textOf(ctx: RunContext, v: unknown, t: QType): string {
  if (t.kind === 'DATETIME') return formatDatetime(v as number);
  if (v instanceof Vtx) return ctx.graph.vertexId(v.type, v.row);
  return String(v);
}

function listFn(f: (items: unknown[]) => unknown, t: (elem: QType, list: QType) => QType): Fn {
  return (cx, e) =>
    over(
      cx,
      e,
      1,
      1,
      (ts) => {
        need(e, ts[0], isList(ts[0]), 'a list');
        return t(elemOf(ts[0]), ts[0]);
      },
      ([l]) => f(collectionItems(l)),
    );
}

const FUNCTIONS: Record<string, Fn> = {
  /** Its argument, or NULL where that reads an attribute of a NULL node (OPTIONAL MATCH). */
  nullable: (cx, e) => {
    arity(e, 1);
    const x = compileExpr(cx, e.args[0]);
    const f = x.f;
    return {
      t: x.t,
      f: (ctx) => {
        try {
          return f(ctx);
        } catch (err) {
          if (err instanceof QueryRuntimeError && err.code === 'GSQL-1001') return null;
          throw err;
        }
      },
    };
  },
  /** datetime(text) reads "YYYY-MM-DD[ hh:mm:ss]"; a DATETIME stays as it is. */
  datetime: (cx, e) =>
    over(
      cx,
      e,
      1,
      1,
      (ts) => {
        need(e, ts[0], ts[0].kind === 'DATETIME' || isText(ts[0]), 'a DATETIME or its text');
        return T.DATETIME;
      },
      ([v]) => {
        if (typeof v !== 'string') return v;
        const d = parseDatetime(v);
        if (d === undefined)
          throw new QueryRuntimeError(`Runtime Error: "${v}" is not a DATETIME.`, 'GSQL-2501');
        return d;
      },
    ),
  starts_with: textTest((a, b) => a.startsWith(b)),
  ends_with: textTest((a, b) => a.endsWith(b)),
  contains: textTest((a, b) => a.includes(b)),
  regex: textTest((a, b) => regexOf(b).test(a)),
  pow: (cx, e) =>
    over(
      cx,
      e,
      2,
      2,
      (ts) => {
        ts.forEach((t) => need(e, t, isNumeric(t), 'numbers'));
        return T.DOUBLE;
      },
      ([a, b]) => Math.pow(toNumber(a), toNumber(b)),
    ),
  index: (cx, e) =>
    over(
      cx,
      e,
      2,
      2,
      (ts) => {
        need(e, ts[0], isList(ts[0]) || isText(ts[0]), 'a list');
        need(e, ts[1], isInteger(ts[1]), 'an integer index');
        return elemOf(ts[0]);
      },
      ([l, i]) => {
        const items = typeof l === 'string' ? [...l] : collectionItems(l);
        const k = toNumber(i);
        return items[k < 0 ? items.length + k : k] ?? null;
      },
    ),
  size: (cx, e) =>
    over(
      cx,
      e,
      1,
      1,
      (ts) => {
        need(e, ts[0], isList(ts[0]) || isText(ts[0]), 'a list or a string');
        return T.INT;
      },
      ([v]) => (typeof v === 'string' ? v.length : collectionItems(v).length),
    ),
  tostring: (cx, e) => {
    arity(e, 1);
    const x = compileExpr(cx, e.args[0]);
    const f = x.f;
    return {
      t: T.STRING,
      f: (ctx) => {
        const v = f(ctx);
        return isNull(v) ? null : textOf(ctx, v, x.t);
      },
    };
  },
  tointeger: (cx, e) =>
    over(
      cx,
      e,
      1,
      1,
      () => T.INT,
      ([v]) => {
        if (typeof v === 'string') {
          const n = Number(v.trim());
          return v.trim() === '' || Number.isNaN(n) ? null : Math.trunc(n);
        }
        if (typeof v === 'boolean') return v ? 1 : 0;
        return typeof v === 'bigint' ? v : Math.trunc(toNumber(v));
      },
    ),
  tofloat: (cx, e) =>
    over(
      cx,
      e,
      1,
      1,
      () => T.DOUBLE,
      ([v]) => {
        if (typeof v === 'string') {
          const n = Number(v.trim());
          return v.trim() === '' || Number.isNaN(n) ? null : n;
        }
        return toNumber(v);
      },
    ),
  toboolean: (cx, e) =>
    over(
      cx,
      e,
      1,
      1,
      () => T.BOOL,
      ([v]) => {
        if (typeof v === 'boolean') return v;
        const s = String(v).trim().toLowerCase();
        return s === 'true' ? true : s === 'false' ? false : null;
      },
    ),
  round: numFn((x) => Math.round(x)),
  sign: numFn(Math.sign, T.INT),
  log10: numFn(Math.log10),
  ltrim: textFn(1, 1, (s) => s.trimStart()),
  rtrim: textFn(1, 1, (s) => s.trimEnd()),
  substring: textFn(2, 3, (s, [from, n]) => s.substring(from, n === undefined ? undefined : from + n)),
  left: textFn(2, 2, (s, [n]) => s.substring(0, n)),
  right: textFn(2, 2, (s, [n]) => s.substring(Math.max(0, s.length - n))),
  replace: (cx, e) =>
    over(
      cx,
      e,
      3,
      3,
      (ts) => {
        ts.forEach((t) => need(e, t, isText(t), 'strings'));
        return T.STRING;
      },
      ([s, a, b]) => (s as string).split(a as string).join(b as string),
    ),
  split: (cx, e) =>
    over(
      cx,
      e,
      2,
      2,
      (ts) => {
        ts.forEach((t) => need(e, t, isText(t), 'strings'));
        return { kind: 'LIST', elem: T.STRING };
      },
      ([s, d]) => (s as string).split(d as string),
    ),
  reverse: (cx, e) =>
    over(
      cx,
      e,
      1,
      1,
      (ts) => {
        need(e, ts[0], isList(ts[0]) || isText(ts[0]), 'a list or a string');
        return isText(ts[0]) ? T.STRING : { kind: 'LIST', elem: elemOf(ts[0]) };
      },
      ([v]) => (typeof v === 'string' ? [...v].reverse().join('') : [...collectionItems(v)].reverse()),
    ),
  head: listFn(
    (items) => items[0] ?? null,
    (elem) => elem,
  ),
  last: listFn(
    (items) => items[items.length - 1] ?? null,
    (elem) => elem,
  ),
  tail: listFn(
    (items) => items.slice(1),
    (elem) => ({ kind: 'LIST', elem }),
  ),
  range: (cx, e) =>
    over(
      cx,
      e,
      2,
      3,
      (ts) => {
        ts.forEach((t) => need(e, t, isInteger(t), 'integers'));
        return { kind: 'LIST', elem: T.INT };
      },
      ([a, b, s]) => {
        const from = toNumber(a);
        const to = toNumber(b);
        const step = s === undefined ? 1 : toNumber(s);
        if (step === 0) throw new QueryRuntimeError('Runtime Error: the step of range() cannot be 0.');
        const out: number[] = [];
        for (let i = from; step > 0 ? i <= to : i >= to; i += step) out.push(i);
        return out;
      },
    ),
  id: (cx, e) =>
    over(
      cx,
      e,
      1,
      1,
      (ts) => {
        need(e, ts[0], ts[0].kind === 'VERTEX', 'a node');
        return T.STRING;
      },
      ([v], ctx) => ctx.graph.vertexId((v as Vtx).type, (v as Vtx).row),
    ),
  type: (cx, e) =>
    over(
      cx,
      e,
      1,
      1,
      (ts) => {
        need(e, ts[0], ts[0].kind === 'VERTEX' || ts[0].kind === 'EDGE', 'a node or a relationship');
        return T.STRING;
      },
      ([v]) => (v instanceof EdgeVal ? v.handle.edgeType : (v as Vtx).type),
    ),
  labels: (cx, e) =>
    over(
      cx,
      e,
      1,
      1,
      (ts) => {
        need(e, ts[0], ts[0].kind === 'VERTEX', 'a node');
        return { kind: 'LIST', elem: T.STRING };
      },
      ([v]) => [(v as Vtx).type],
    ),
  pi: (cx, e) =>
    over(
      cx,
      e,
      0,
      0,
      () => T.DOUBLE,
      () => Math.PI,
    ),
  e: (cx, e) =>
    over(
      cx,
      e,
      0,
      0,
      () => T.DOUBLE,
      () => Math.E,
    ),
};
FUNCTIONS.length = FUNCTIONS.size;
FUNCTIONS.toint = FUNCTIONS.tointeger;

registerFunctions(Object.fromEntries(Object.entries(FUNCTIONS).map(([k, f]) => [CYPHER_FN + k, f])));
// GSQL 4.x also has type(v) (`SELECT DISTINCT type(s) FROM (s:Account:City)`).
registerFunctions({ type: FUNCTIONS.type });
