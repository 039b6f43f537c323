/**
 * Compiles GSQL's binary operators: arithmetic (64-bit integer and 32/64-bit float rules), comparison,
 * boolean, string concatenation and LIKE, IN / NOT IN and the set operators on collections.
 */
import type { BinaryOp, Expr, Pos } from '../gsql/ast-query.js';
import { collectionContains, collectionItems } from './accumulators.js';
import { compileExpr, expectType } from './expr-support.js';
import { compileSetOp } from './compile-vset.js';
import type { RunContext } from './context.js';
import { compileError } from './errors.js';
import type { Cx, Eval, Typed } from './scope.js';
import { isFloat, isInteger, isNumeric, T, typeText } from './types.js';
import { compareValues, intArith, QueryRuntimeError, toNumber, valuesEqual, type IntOp } from './values.js';

/** Refuses a comparison of two values of kinds GSQL cannot compare. */
export function checkComparable(a: Typed, b: Typed, pos: Pos): void {
  const ok =
    (isNumeric(a.t) && isNumeric(b.t)) ||
    a.t.kind === 'NULL' ||
    b.t.kind === 'NULL' ||
    (a.t.kind === b.t.kind && ['STRING', 'DATETIME', 'BOOL', 'VERTEX', 'EDGE', 'TUPLE'].includes(a.t.kind));
  if (!ok) throw compileError(pos, `cannot compare ${typeText(a.t)} with ${typeText(b.t)}`);
}

export function compileBinary(cx: Cx, e: Expr & { kind: 'binary' }): Typed {
  const l = compileExpr(cx, e.left);
  const r = compileExpr(cx, e.right);
  const lf = l.f;
  const rf = r.f;
  const op = e.op;
  switch (op) {
    case 'AND':
    case 'OR':
      expectType(l, T.BOOL, e.left.pos, op);
      expectType(r, T.BOOL, e.right.pos, op);
      return op === 'AND'
        ? { t: T.BOOL, f: (ctx) => lf(ctx) === true && rf(ctx) === true }
        : { t: T.BOOL, f: (ctx) => lf(ctx) === true || rf(ctx) === true };
    case '==':
    case '!=': {
      checkComparable(l, r, e.opPos);
      const neq = op === '!=';
      // BOOL and STRING values are equal exactly when they are identical.
      const kind = l.t.kind === r.t.kind ? l.t.kind : '';
      if (kind === 'BOOL' || kind === 'STRING')
        return { t: T.BOOL, f: (ctx) => (lf(ctx) === rf(ctx)) !== neq };
      return { t: T.BOOL, f: (ctx) => valuesEqual(lf(ctx), rf(ctx)) !== neq };
    }
    case '<':
    case '<=':
    case '>':
    case '>=': {
      checkComparable(l, r, e.opPos);
      // Two JS numbers compare as compareValues does (NaN included) with the operators themselves.
      const num = (a: unknown, b: unknown): boolean => typeof a === 'number' && typeof b === 'number';
      let f: Eval;
      if (op === '<')
        f = (ctx) => {
          const a = lf(ctx);
          const b = rf(ctx);
          return num(a, b) ? (a as number) < (b as number) : compareValues(a, b) < 0;
        };
      else if (op === '<=')
        f = (ctx) => {
          const a = lf(ctx);
          const b = rf(ctx);
          return num(a, b) ? !((a as number) > (b as number)) : compareValues(a, b) <= 0;
        };
      else if (op === '>')
        f = (ctx) => {
          const a = lf(ctx);
          const b = rf(ctx);
          return num(a, b) ? (a as number) > (b as number) : compareValues(a, b) > 0;
        };
      else
        f = (ctx) => {
          const a = lf(ctx);
          const b = rf(ctx);
          return num(a, b) ? !((a as number) < (b as number)) : compareValues(a, b) >= 0;
        };
      return { t: T.BOOL, f };
    }
    case 'LIKE':
    case 'NOT LIKE': {
      expectType(l, T.STRING, e.left.pos, op);
      expectType(r, T.STRING, e.right.pos, op);
      const neg = op === 'NOT LIKE';
      const cache = new Map<string, RegExp>();
      return {
        t: T.BOOL,
        f: (ctx) => {
          const p = rf(ctx) as string;
          let re = cache.get(p);
          if (!re) cache.set(p, (re = likeRegex(p)));
          return re.test(lf(ctx) as string) !== neg;
        },
      };
    }
    case 'IN':
    case 'NOT IN': {
      const neg = op === 'NOT IN';
      if (!['LIST', 'SET', 'BAG', 'MAP', 'VSET'].includes(r.t.kind)) {
        // `x IN ("a")`: a one-value list is written as a parenthesised value.
        try {
          checkComparable(l, r, e.right.pos);
        } catch {
          throw compileError(e.right.pos, `${op} needs a collection on the right, not ${typeText(r.t)}`);
        }
        return { t: T.BOOL, f: (ctx) => valuesEqual(lf(ctx), rf(ctx)) !== neg };
      }
      return { t: T.BOOL, f: (ctx) => collectionContains(rf(ctx), lf(ctx)) !== neg };
    }
    case 'UNION':
    case 'INTERSECT':
    case 'MINUS':
      return compileSetOp(l, r, op, e.opPos);
    case '&':
    case '|':
    case '<<':
    case '>>':
      if (!isInteger(l.t) || !isInteger(r.t)) throw compileError(e.opPos, `"${op}" needs integers`);
      return {
        t: T.INT,
        f: (ctx) => {
          const a = BigInt(lf(ctx) as number | bigint);
          const b = BigInt(rf(ctx) as number | bigint);
          const v = BigInt.asIntN(
            64,
            op === '&' ? a & b : op === '|' ? a | b : op === '<<' ? a << b : a >> b,
          );
          return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
        },
      };
    default:
      return compileArith(l, r, op, e.opPos);
  }
}

function compileArith(l: Typed, r: Typed, op: BinaryOp, pos: Pos): Typed {
  const lf = l.f;
  const rf = r.f;
  if (op === '+' && l.t.kind === 'STRING' && r.t.kind === 'STRING') {
    return { t: T.STRING, f: (ctx) => (lf(ctx) as string) + (rf(ctx) as string) };
  }
  if (
    op === '+' &&
    (l.t.kind === 'LIST' || l.t.kind === 'BAG') &&
    ['LIST', 'BAG', 'SET'].includes(r.t.kind)
  ) {
    return { t: l.t, f: (ctx) => [...collectionItems(lf(ctx)), ...collectionItems(rf(ctx))] };
  }
  if (
    op === '*' &&
    l.t.kind === 'LIST' &&
    r.t.kind === 'LIST' &&
    l.t.elem.kind === 'STRING' &&
    r.t.elem.kind === 'STRING'
  ) {
    // Lists of strings multiply into every concatenation, the right list's order outermost as
    // TigerGraph's recorded examples show: [a, b] * [c, d] = [ac, bc, ad, bd].
    return {
      t: l.t,
      f: (ctx) => {
        const a = collectionItems(lf(ctx)) as string[];
        return (collectionItems(rf(ctx)) as string[]).flatMap((y) => a.map((x) => x + y));
      },
    };
  }
  if (!isNumeric(l.t) || !isNumeric(r.t)) {
    throw compileError(pos, `"${op}" cannot be applied to ${typeText(l.t)} and ${typeText(r.t)}`);
  }
  if (isInteger(l.t) && isInteger(r.t)) {
    const t = l.t.kind === 'UINT' && r.t.kind === 'UINT' && op !== '-' ? T.UINT : T.INT;
    const iop = op as IntOp;
    return { t, f: (ctx) => intArith(iop, lf(ctx) as number | bigint, rf(ctx) as number | bigint) };
  }
  // As in the C++ TigerGraph compiles to: FLOAT with FLOAT or an integer stays a 32-bit FLOAT
  // (`1 / log10(n)` is a FLOAT); anything with a DOUBLE is a DOUBLE.
  const t = l.t.kind !== 'DOUBLE' && r.t.kind !== 'DOUBLE' ? T.FLOAT : T.DOUBLE;
  // FLOAT/DOUBLE values are always JS numbers; only integers need converting.
  const ln = isFloat(l.t) ? (lf as (ctx: RunContext) => number) : (ctx: RunContext) => toNumber(lf(ctx));
  const rn = isFloat(r.t) ? (rf as (ctx: RunContext) => number) : (ctx: RunContext) => toNumber(rf(ctx));
  const typed = floatArith(op, ln, rn);
  return { t, f: t === T.FLOAT ? (ctx) => Math.fround(typed(ctx)) : typed };
}

function floatArith(
  op: string,
  ln: (ctx: RunContext) => number,
  rn: (ctx: RunContext) => number,
): (ctx: RunContext) => number {
  switch (op) {
    case '+':
      return (ctx) => ln(ctx) + rn(ctx);
    case '-':
      return (ctx) => ln(ctx) - rn(ctx);
    case '*':
      return (ctx) => ln(ctx) * rn(ctx);
    case '/':
      return (ctx) => {
        const d = rn(ctx);
        if (d === 0) throw new QueryRuntimeError('Runtime Error: divider is zero.', 'GSQL-2500');
        return ln(ctx) / d;
      };
    default:
      return (ctx) => {
        const d = rn(ctx);
        if (d === 0) throw new QueryRuntimeError('Runtime Error: divider is zero.', 'GSQL-2500');
        return ln(ctx) % d;
      };
  }
}

function likeRegex(p: string): RegExp {
  let re = '';
  for (let i = 0; i < p.length; i++) {
    const ch = p[i];
    if (ch === '%') re += '.*';
    else if (ch === '_') re += '.';
    else if (ch === '\\' && i + 1 < p.length) re += p[++i].replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (ch === '[') {
      const close = p.indexOf(']', i + 1);
      if (close > i) {
        const body = p.slice(i + 1, close).replace(/\\/g, '\\\\');
        re += '[' + (body.startsWith('^') ? body : body) + ']';
        i = close;
      } else re += '\\[';
    } else re += ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp('^' + re + '$', 's');
}
