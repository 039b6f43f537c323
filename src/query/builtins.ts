/**
 * Built-in functions (math, string, conversion, DATETIME), tuple constructors, and the methods of
 * accumulators, collections and vertices.
 */
import type { Expr } from '../gsql/ast-query.js';
import { formatDatetime, parseDatetime } from '../util/datetime.js';
import {
  collectionContains,
  collectionItems,
  GroupByAccum,
  HeapAccum,
  ListAccum,
  MapAccum,
  SetAccum,
  type Accum,
} from './accumulators.js';
import { coerce, compileExpr, expectType, vaccOf, vertexAccumRef } from './compile-expr.js';
import type { RunContext } from './context.js';
import { compileError } from './errors.js';
import type { Cx, Eval, Typed } from './scope.js';
import { accumValueType, isNumeric, T, typeText, type AccumT, type QType } from './types.js';
import { canonical, QueryRuntimeError, toNumber, TupleVal, Vtx } from './values.js';

type Call = Expr & { kind: 'call' };
type Method = Expr & { kind: 'method' };

function arity(e: Call | Method, min: number, max = min): void {
  if (e.args.length < min || e.args.length > max) {
    const n = min === max ? `${min}` : `${min} to ${max}`;
    throw compileError(e.pos, `${e.name}() takes ${n} argument${max === 1 ? '' : 's'}, not ${e.args.length}`);
  }
}

function num(cx: Cx, e: Expr): (ctx: RunContext) => number {
  const x = compileExpr(cx, e);
  if (!isNumeric(x.t)) throw compileError(e.pos, `a number is needed here, not ${typeText(x.t)}`);
  const f = x.f;
  return (ctx) => toNumber(f(ctx));
}

function typed(cx: Cx, e: Expr, t: QType, what: string): Eval {
  const x = compileExpr(cx, e);
  expectType(x, t, e.pos, what);
  return x.f;
}

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
        if (d === undefined) throw new QueryRuntimeError(`Runtime Error: "${s}" is not a valid DATETIME.`);
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
    // Internal ids: the row, made unique across vertex types by the type's position in the graph.
    return { t: T.INT, f: (ctx) => ((v) => v.row * types.length + types.indexOf(v.type))(f(ctx) as Vtx) };
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
        return [...new Set(collectionItems(idsF(ctx)).map((id) => toVertex(ctx, id, tn)))];
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
  coalesce: (cx, e) => {
    if (e.args.length === 0) throw compileError(e.pos, 'coalesce() needs at least one argument');
    const xs = e.args.map((a) => compileExpr(cx, a));
    return {
      t: xs[0].t,
      f: (ctx) => {
        for (const x of xs) {
          const v = x.f(ctx);
          if (v !== null && v !== undefined) return v;
        }
        return null;
      },
    };
  },
};
for (const [name, fn] of Object.entries(MATH1)) {
  FUNCTIONS[name] = (cx, e) => {
    arity(e, 1);
    const f = num(cx, e.args[0]);
    return { t: T.DOUBLE, f: (ctx) => fn(f(ctx)) };
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
  if (!fn) throw compileError(e.pos, `unknown function ${e.name}()`);
  return fn(cx, e);
}

// ---------------------------------------------------------------------------------------------
// Methods
// ---------------------------------------------------------------------------------------------

/** A closure yielding the accumulator object an expression names (global or vertex-attached). */
export function accumRef(cx: Cx, e: Expr): { t: AccumT; get: (ctx: RunContext) => Accum } | undefined {
  if (e.kind === 'global') {
    const g = cx.globals.get(e.name);
    if (!g) throw compileError(e.pos, `the global accumulator @@${e.name} is not declared`);
    const slot = g.slot;
    return { t: g.t, get: (ctx) => ctx.vars[slot] as Accum };
  }
  if (e.kind === 'vattach') {
    const { va, target } = vertexAccumRef(cx, e);
    return { t: va.t, get: (ctx) => vaccOf(ctx, target(ctx), va) };
  }
  return undefined;
}

export function compileMethod(cx: Cx, e: Method): Typed {
  const name = e.name.toLowerCase();
  const acc = accumRef(cx, e.target);
  if (acc) return accumMethod(cx, e, name, acc);
  const target = compileExpr(cx, e.target);
  const tf = target.f;
  if (target.t.kind === 'VERTEX') return vertexMethod(cx, e, name, tf);
  const t = target.t;
  if (t.kind === 'LIST' || t.kind === 'SET' || t.kind === 'BAG' || t.kind === 'MAP' || t.kind === 'VSET') {
    switch (name) {
      case 'size':
        arity(e, 0);
        return { t: T.INT, f: (ctx) => collectionItems(tf(ctx)).length };
      case 'contains':
      case 'containskey': {
        arity(e, 1);
        const x = compileExpr(cx, e.args[0]).f;
        return { t: T.BOOL, f: (ctx) => collectionContains(tf(ctx), x(ctx)) };
      }
      case 'get':
        if (t.kind === 'MAP') {
          arity(e, 1);
          const k = compileExpr(cx, e.args[0]).f;
          return {
            t: t.value,
            f: (ctx) => {
              const m = tf(ctx);
              return m instanceof MapAccum
                ? m.get(k(ctx))
                : ((m as Map<unknown, unknown>).get(k(ctx)) ?? null);
            },
          };
        }
        if (t.kind === 'LIST') {
          arity(e, 1);
          const i = num(cx, e.args[0]);
          return { t: t.elem, f: (ctx) => listGet(collectionItems(tf(ctx)), i(ctx)) };
        }
    }
  }
  throw compileError(e.namePos, `${typeText(t)} has no method ${e.name}()`);
}

function listGet(items: unknown[], i: number): unknown {
  if (i < 0 || i >= items.length) {
    throw new QueryRuntimeError(
      `Runtime Error: index ${i} is out of range for a list of size ${items.length}.`,
    );
  }
  return items[i];
}

function accumMethod(
  cx: Cx,
  e: Method,
  name: string,
  acc: { t: AccumT; get: (ctx: RunContext) => Accum },
): Typed {
  const { t, get } = acc;
  const kind = t.accum;
  const collection = ['ListAccum', 'SetAccum', 'BagAccum', 'MapAccum', 'HeapAccum', 'GroupByAccum'].includes(
    kind,
  );
  const fail = (): never => {
    throw compileError(e.namePos, `${kind} has no method ${e.name}()`);
  };
  switch (name) {
    case 'size':
      if (!collection) fail();
      arity(e, 0);
      return {
        t: T.INT,
        f: (ctx) => {
          const a = get(ctx);
          if (a instanceof MapAccum) return a.entries.size;
          if (a instanceof GroupByAccum) return a.groups.size;
          return collectionItems(a).length;
        },
      };
    case 'contains': {
      if (kind !== 'ListAccum' && kind !== 'SetAccum' && kind !== 'BagAccum') fail();
      arity(e, 1);
      const x = compileExpr(cx, e.args[0]).f;
      return { t: T.BOOL, f: (ctx) => collectionContains(get(ctx), x(ctx)) };
    }
    case 'containskey': {
      if (kind !== 'MapAccum' && kind !== 'GroupByAccum') fail();
      const keys = e.args.map((a) => compileExpr(cx, a).f);
      return {
        t: T.BOOL,
        f: (ctx) => {
          const a = get(ctx);
          if (a instanceof GroupByAccum) return a.get(keys.map((k) => k(ctx))) !== undefined;
          return (a as MapAccum).has(keys[0](ctx));
        },
      };
    }
    case 'get': {
      arity(e, 1);
      if (kind === 'MapAccum') {
        const k = compileExpr(cx, e.args[0]).f;
        const vt = t.elem.kind === 'ACCUM' ? accumValueType(t.elem) : t.elem;
        return { t: vt, f: (ctx) => (get(ctx) as MapAccum).get(k(ctx)) };
      }
      if (kind === 'ListAccum') {
        const i = num(cx, e.args[0]);
        return { t: t.elem, f: (ctx) => listGet((get(ctx) as ListAccum).items, i(ctx)) };
      }
      return fail();
    }
    case 'clear':
      if (!collection) fail();
      arity(e, 0);
      return {
        t: T.VOID,
        f: (ctx) => {
          const a = get(ctx);
          if (a instanceof MapAccum) a.entries.clear();
          else if (a instanceof GroupByAccum) a.groups.clear();
          else if (a instanceof SetAccum) a.items.clear();
          else if (a instanceof ListAccum) a.items = [];
          else if (a instanceof HeapAccum) a.items = [];
          return null;
        },
      };
    case 'remove': {
      if (kind !== 'SetAccum') fail();
      arity(e, 1);
      const x = compileExpr(cx, e.args[0]).f;
      return { t: T.VOID, f: (ctx) => ((get(ctx) as SetAccum).remove(x(ctx)), null) };
    }
    case 'top':
    case 'pop':
      if (kind !== 'HeapAccum') fail();
      arity(e, 0);
      return {
        t: t.elem,
        f: name === 'top' ? (ctx) => (get(ctx) as HeapAccum).top() : (ctx) => (get(ctx) as HeapAccum).pop(),
      };
    case 'resize': {
      if (kind !== 'HeapAccum') fail();
      arity(e, 1);
      const n = num(cx, e.args[0]);
      return { t: T.VOID, f: (ctx) => ((get(ctx) as HeapAccum).resize(n(ctx)), null) };
    }
  }
  return fail();
}

function vertexMethod(cx: Cx, e: Method, name: string, tf: Eval): Typed {
  if (name === 'outdegree' || name === 'neighbors') {
    arity(e, 0, 1);
    let edgeType: string | undefined;
    if (e.args.length === 1) {
      const a = e.args[0];
      if (a.kind !== 'string')
        throw compileError(a.pos, `${e.name}() edge types named at run time are not supported yet`);
      if (!cx.edgeType(a.value))
        throw compileError(a.pos, `"${a.value}" is not an edge type of graph ${cx.graphName}`);
      edgeType = a.value;
    }
    const filter = edgeType ? { edgeType, direction: 'out' as const } : { direction: 'out' as const };
    if (name === 'outdegree') {
      return {
        t: T.INT,
        f: (ctx) => {
          const v = tf(ctx) as Vtx;
          return ctx.graph.edges(v.type, v.row, filter).length;
        },
      };
    }
    return {
      t: { kind: 'BAG', elem: T.VERTEX },
      f: (ctx) => {
        const v = tf(ctx) as Vtx;
        return ctx.graph.edges(v.type, v.row, filter).map((h) => ctx.vertex(h.tgtType, h.tgtRow));
      },
    };
  }
  throw compileError(e.namePos, `a vertex has no method ${e.name}()`);
}
