/**
 * Type checks GSQL expressions and compiles them to closures over a RunContext. The compiler
 * registers itself in expr-support.ts's table, through which the operator, function and method
 * compilers it dispatches to compile their operands.
 */
import type { AttrType } from '../catalog/types.js';
import type { Expr, Pos } from '../gsql/ast-query.js';
import type { Accum } from './accumulators.js';
import { checkComparable, compileBinary } from './compile-binary.js';
import { compileFunctionCall } from './function-call.js';
import { compileCall } from './functions.js';
import { accumRef, arrayCell, compileMethod } from './methods.js';
import { compileSeed } from './compile-vset.js';
import { compileError } from './errors.js';
import {
  compileExpr,
  compileNullTest,
  edgeAccumRef,
  edgeTypesOf,
  edgeTypesWith,
  expectType,
  fromStored,
  prevValue,
  registerExprCompiler,
  vaccOf,
  vertexAccumRef,
  vertexAttribute,
  vertexTypesOf,
} from './expr-support.js';
import type { Cx, Typed } from './scope.js';
import {
  accumValueType,
  attrTypeToQ,
  isFloat,
  isInteger,
  isNumeric,
  T,
  typeText,
  type QType,
} from './types.js';
import {
  compareValues,
  EdgeVal,
  intArith,
  QueryRuntimeError,
  toNumber,
  TupleVal,
  valuesEqual,
  Vtx,
} from './values.js';

/** TigerGraph's predefined integer limits (`MinAccum<INT> @dist = GSQL_INT_MAX`). */
const GSQL_CONSTANTS: Record<string, { t: QType; v: bigint }> = {
  GSQL_INT_MAX: { t: T.INT, v: 2n ** 63n - 1n },
  GSQL_INT_MIN: { t: T.INT, v: -(2n ** 63n) },
  GSQL_UINT_MAX: { t: T.UINT, v: 2n ** 64n - 1n },
};

function compileExprImpl(cx: Cx, e: Expr): Typed {
  switch (e.kind) {
    case 'int':
    case 'float':
    case 'string':
    case 'bool': {
      const v = e.value;
      const t =
        e.kind === 'int' ? T.INT : e.kind === 'float' ? T.DOUBLE : e.kind === 'string' ? T.STRING : T.BOOL;
      return { t, f: () => v };
    }
    case 'null':
      return { t: T.NULL, f: () => null };
    case 'name': {
      const b = cx.lookup(e.name);
      if (!b) {
        const k = GSQL_CONSTANTS[e.name];
        if (k) return { t: k.t, f: () => k.v };
        if (cx.vertexType(e.name) || cx.edgeType(e.name)) {
          throw compileError(e.pos, `the type name "${e.name}" cannot be used as a value here`);
        }
        throw compileError(e.pos, `"${e.name}" is not defined`);
      }
      const slot = b.slot;
      // A SELECT alias's Vtx is created on first read (see RunContext.aliasVertex).
      if (b.aliasTypes) return { t: b.t, f: (ctx) => ctx.vars[slot] ?? ctx.aliasVertex(slot) };
      if (b.t.kind === 'VSET')
        return { t: b.t, f: (ctx) => ctx.vertexList(ctx.vars[slot]), raw: (ctx) => ctx.vars[slot] };
      return { t: b.t, f: (ctx) => ctx.vars[slot] };
    }
    case 'global': {
      const g = cx.globals.get(e.name);
      if (!g) throw compileError(e.pos, `the global accumulator @@${e.name} is not declared`);
      if (e.prev) throw compileError(e.pos, `the previous value @@${e.name}' is not supported yet`);
      if (e.index) {
        const cell = accumRef(cx, e)!;
        return { t: accumValueType(cell.t), f: (ctx) => cell.get(ctx).value() };
      }
      const slot = g.slot;
      return { t: accumValueType(g.t), f: (ctx) => (ctx.vars[slot] as Accum).value() };
    }
    case 'vattach': {
      if (cx.eaccs.has(e.name)) {
        const { t, accums, edge } = edgeAccumRef(cx, e);
        return { t: accumValueType(t), f: (ctx) => accums(ctx).value(edge(ctx)) };
      }
      if (e.index) {
        const { va, target } = vertexAccumRef(cx, e);
        const cell = arrayCell(cx, e, '@', va.t, (ctx) => vaccOf(ctx, target(ctx), va));
        return { t: accumValueType(cell.t), f: (ctx) => cell.get(ctx).value() };
      }
      const { va, target, aliasSlot } = vertexAccumRef(cx, e);
      if (e.prev) {
        va.primed = true;
        return { t: accumValueType(va.t), f: (ctx) => prevValue(ctx, target(ctx), va) };
      }
      const index = va.index;
      if (aliasSlot !== undefined) {
        // On a SELECT alias: the cell is read by the alias's run index, without its Vtx.
        return {
          t: accumValueType(va.t),
          f: (ctx) => {
            const col = ctx.dense[index] ?? ctx.column(va);
            return col !== null ? col.get(ctx.gids[aliasSlot]) : vaccOf(ctx, target(ctx), va).value();
          },
        };
      }
      return {
        t: accumValueType(va.t),
        f: (ctx) => {
          const v = ctx.own(target(ctx));
          const col = ctx.dense[index] ?? ctx.column(va);
          return col !== null ? col.get(v.gid) : vaccOf(ctx, v, va).value();
        },
      };
    }
    case 'field':
      return compileField(cx, e);
    case 'method':
      return compileFunctionCall(cx, e) ?? compileMethod(cx, e);
    case 'call':
      return compileCall(cx, e);
    case 'unary': {
      const x = compileExpr(cx, e.operand);
      if (e.op === 'NOT') {
        expectType(x, T.BOOL, e.operand.pos, 'NOT');
        return { t: T.BOOL, f: (ctx) => !x.f(ctx) };
      }
      if (!isNumeric(x.t)) throw compileError(e.pos, `unary "-" needs a number, not ${typeText(x.t)}`);
      const t = x.t.kind === 'UINT' ? T.INT : x.t;
      return isInteger(t)
        ? { t, f: (ctx) => intArith('-', 0, x.f(ctx) as number | bigint) }
        : { t, f: (ctx) => -(x.f(ctx) as number) };
    }
    case 'binary':
      return compileBinary(cx, e);
    case 'between': {
      const x = compileExpr(cx, e.operand);
      const lo = compileExpr(cx, e.low);
      const hi = compileExpr(cx, e.high);
      checkComparable(x, lo, e.pos);
      checkComparable(x, hi, e.pos);
      const neg = e.negated;
      return {
        t: T.BOOL,
        f: (ctx) => {
          const v = x.f(ctx);
          const inside = compareValues(v, lo.f(ctx)) >= 0 && compareValues(v, hi.f(ctx)) <= 0;
          return neg ? !inside : inside;
        },
      };
    }
    case 'isnull': {
      const isNull = compileNullTest(cx, e.operand);
      const neg = e.negated;
      return { t: T.BOOL, f: (ctx) => isNull(ctx) !== neg };
    }
    case 'case':
      return compileCase(cx, e);
    case 'list': {
      const items = e.items.map((i) => compileExpr(cx, i));
      const elem = items.length > 0 ? unify(items.map((i) => i.t)) : T.NULL;
      return { t: { kind: 'LIST', elem }, f: (ctx) => items.map((i) => i.f(ctx)) };
    }
    case 'arrow':
      throw compileError(e.pos, '"(key -> value)" can only be added to a MapAccum or GroupByAccum with "+="');
    case 'tuple': {
      // `(1, 2, 3)`: a set/bag literal (`@@s += (1, 2)`, `x IN ("a", "b")`).
      const items = e.items.map((i) => compileExpr(cx, i));
      const elem = items.length > 0 ? unify(items.map((i) => i.t)) : T.NULL;
      return { t: { kind: 'BAG', elem }, f: (ctx) => items.map((i) => i.f(ctx)) };
    }
    case 'interval':
      throw compileError(
        e.pos,
        'INTERVAL is only allowed as the second argument of datetime_add() or datetime_sub()',
      );
    case 'seed':
      return compileSeed(cx, e);
    case 'select':
      return cx.compileSelect(cx, e.select, e.pos);
  }
}

function unify(ts: QType[]): QType {
  if (ts.every(isNumeric)) return ts.some(isFloat) ? T.DOUBLE : ts[0];
  return ts[0];
}

function compileField(cx: Cx, e: Expr & { kind: 'field' }): Typed {
  const target = compileExpr(cx, e.target);
  const name = e.name;
  const tf = target.f;
  if (target.t.kind === 'TUPLE') {
    const idx = target.t.fields.findIndex((f) => f.name === name);
    if (idx < 0) throw compileError(e.namePos, `the tuple ${target.t.name} has no field "${name}"`);
    return { t: target.t.fields[idx].type, f: (ctx) => (tf(ctx) as TupleVal | null)?.values[idx] ?? null };
  }
  if (target.t.kind === 'VERTEX') {
    if (name.toLowerCase() === 'type') return { t: T.STRING, f: (ctx) => (tf(ctx) as Vtx).type };
    const types = vertexTypesOf(cx, e.target, target.t);
    let found: AttrType | undefined;
    const owners = new Map<string, AttrType>();
    for (const tn of types) {
      const a = vertexAttribute(cx.vertexType(tn), name);
      if (a) {
        owners.set(tn, a.type);
        found ??= a.type;
      }
    }
    if (!found) {
      throw compileError(e.namePos, `"${name}" is not an attribute of vertex type ${types.join(' or ')}`);
    }
    const qt = attrTypeToQ(found, cx.catalog.tuples);
    const tuples = cx.tuples;
    return {
      t: qt,
      f: (ctx) => {
        const v = tf(ctx);
        if (!(v instanceof Vtx))
          throw new QueryRuntimeError(`Runtime Error: attribute ${name} of a NULL vertex.`, 'GSQL-1001');
        if (!owners.has(v.type)) return null;
        return fromStored(ctx, ctx.graph.attr(v.type, v.row, name), tuples);
      },
    };
  }
  if (target.t.kind === 'EDGE') {
    if (name.toLowerCase() === 'type')
      return { t: T.STRING, f: (ctx) => (tf(ctx) as EdgeVal).handle.edgeType };
    // An alias over several edge types reads the matched edge's own attribute; an edge whose type
    // lacks it reads NULL, as a vertex alias over several types does.
    const types = edgeTypesOf(cx, e.target, target.t);
    const owners = edgeTypesWith(cx, types, name);
    if (owners.size === 0)
      throw compileError(e.namePos, `"${name}" is not an attribute of edge type ${types.join(' or ')}`);
    const t = edgeAttrType(cx, owners, name, e.namePos);
    const toDouble =
      isFloat(t) && [...owners.values()].some((a) => !isFloat(attrTypeToQ(a, cx.catalog.tuples)));
    const tuples = cx.tuples;
    return {
      t,
      f: (ctx) => {
        const { handle } = tf(ctx) as EdgeVal;
        if (!owners.has(handle.edgeType)) return null;
        const v = fromStored(ctx, ctx.graph.edgeAttr(handle, name), tuples);
        return toDouble && v !== null ? toNumber(v) : v;
      },
    };
  }
  throw compileError(e.namePos, `"${name}" cannot be read from a value of type ${typeText(target.t)}`);
}

/**
 * The type of an attribute read through an edge alias over several types: the one type they
 * share, or DOUBLE where they mix numeric types (`amount INT` in one, `amount DOUBLE` in another).
 */
function edgeAttrType(cx: Cx, owners: Map<string, AttrType>, name: string, pos: Pos): QType {
  // One entry per edge type (a reverse type shares its forward type's attribute).
  const byAttr = new Map<AttrType, string>();
  for (const [n, a] of owners) if (!byAttr.has(a)) byAttr.set(a, n);
  const types = [...byAttr.keys()].map((a) => attrTypeToQ(a, cx.catalog.tuples));
  const first = typeText(types[0]);
  if (types.every((t) => typeText(t) === first)) return types[0];
  if (types.every(isNumeric)) return T.DOUBLE;
  const each = [...byAttr.values()].map((n, i) => `${typeText(types[i])} in ${n}`).join(', ');
  throw compileError(pos, `attribute "${name}" has different types in the alias's edge types: ${each}`);
}

function compileCase(cx: Cx, e: Expr & { kind: 'case' }): Typed {
  const subject = e.subject ? compileExpr(cx, e.subject) : undefined;
  const whens = e.whens.map((w) => {
    const cond = compileExpr(cx, w.when);
    if (subject) checkComparable(subject, cond, w.when.pos);
    else expectType(cond, T.BOOL, w.when.pos, 'WHEN');
    return { cond: cond.f, then: compileExpr(cx, w.then) };
  });
  const otherwise = e.otherwise ? compileExpr(cx, e.otherwise) : undefined;
  const t = unify([...whens.map((w) => w.then.t), ...(otherwise ? [otherwise.t] : [])]);
  const sf = subject?.f;
  const of = otherwise?.f;
  return {
    t,
    f: (ctx) => {
      const s = sf ? sf(ctx) : undefined;
      for (const w of whens) {
        const c = w.cond(ctx);
        if (sf ? valuesEqual(s, c) : c === true) return w.then.f(ctx);
      }
      return of ? of(ctx) : null;
    },
  };
}

registerExprCompiler(compileExprImpl);
