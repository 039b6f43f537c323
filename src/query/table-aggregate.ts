/**
 * The aggregates of SQL-like SELECT columns and openCypher projections: count, sum, avg, min, max,
 * collect, stdev (sample) and stdevp (population), each optionally over DISTINCT values. NULL
 * arguments are skipped (count(*) counts rows); over no rows count and sum give 0, collect an
 * empty list, and min, max, avg and stdev NULL.
 */
import type { Expr, Pos } from '../gsql/ast-query.js';
import { compileError } from './errors.js';
import { isInteger, isNumeric, T, typeText, type QType } from './types.js';
import { compareValues, intArith, keyOf, toNumber, Vtx } from './values.js';

export const AGGREGATES: ReadonlySet<string> = new Set([
  'count',
  'sum',
  'avg',
  'min',
  'max',
  'collect',
  'stdev',
  'stdevp',
]);

type Call = Expr & { kind: 'call' };

/** Whether `e` is an aggregate call (by name, whatever the case). */
export function isAggregate(e: Expr): e is Call {
  return e.kind === 'call' && AGGREGATES.has(e.name.toLowerCase());
}

/** Whether an expression contains an aggregate call anywhere. */
export function hasAggregate(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasAggregate);
  if (!node || typeof node !== 'object') return false;
  const o = node as { kind?: unknown };
  if (typeof o.kind === 'string' && isAggregate(o as Expr)) return true;
  return Object.entries(node).some(([k, v]) => k !== 'pos' && hasAggregate(v));
}

/** The type of an aggregate's result over arguments of type `arg`. */
export function aggregateType(name: string, arg: QType | undefined, pos: Pos): QType {
  const fn = name.toLowerCase();
  if (fn === 'count') return T.INT;
  if (!arg) throw compileError(pos, `${name}() needs an argument`);
  switch (fn) {
    case 'sum':
      if (!isNumeric(arg)) throw compileError(pos, `sum() needs numbers, not ${typeText(arg)}`);
      return arg.kind === 'FLOAT' ? T.DOUBLE : arg;
    case 'avg':
    case 'stdev':
    case 'stdevp':
      if (!isNumeric(arg)) throw compileError(pos, `${name}() needs numbers, not ${typeText(arg)}`);
      return T.DOUBLE;
    case 'collect':
      return { kind: 'LIST', elem: arg };
    default:
      return arg;
  }
}

/** The running state of one aggregate over one group's rows. */
export interface AggState {
  add(v: unknown): void;
  result(): unknown;
}

/** A new state of the aggregate `name` (count(*) counts rows: add(true) per row). */
export function newAggState(name: string, distinct: boolean, argType: QType | undefined): AggState {
  const base = baseState(name.toLowerCase(), argType);
  if (!distinct) return base;
  const seen = new Set<unknown>();
  return {
    add(v) {
      if (v === null || v === undefined) return;
      const k = v instanceof Vtx ? v : keyOf(v);
      if (seen.has(k)) return;
      seen.add(k);
      base.add(v);
    },
    result: () => base.result(),
  };
}

function baseState(fn: string, argType: QType | undefined): AggState {
  const skip = (v: unknown): boolean => v === null || v === undefined;
  switch (fn) {
    case 'count': {
      let n = 0;
      return { add: (v) => void (skip(v) || n++), result: () => n };
    }
    case 'sum': {
      const integer = argType !== undefined && isInteger(argType);
      let s: number | bigint = 0;
      return {
        add: (v) => {
          if (skip(v)) return;
          s = integer ? intArith('+', s, v as number | bigint) : toNumber(s) + toNumber(v);
        },
        result: () => s,
      };
    }
    case 'avg': {
      let n = 0;
      let s = 0;
      return {
        add: (v) => void (skip(v) || (n++, (s += toNumber(v)))),
        result: () => (n === 0 ? null : s / n),
      };
    }
    case 'min':
    case 'max': {
      let best: unknown = null;
      const sign = fn === 'min' ? -1 : 1;
      return {
        add: (v) => {
          if (skip(v)) return;
          if (best === null || compareValues(v, best) * sign > 0) best = v;
        },
        result: () => best,
      };
    }
    case 'collect': {
      const items: unknown[] = [];
      return { add: (v) => void (skip(v) || items.push(v)), result: () => items };
    }
    default: {
      // stdev / stdevp: Welford's running mean and sum of squared deviations.
      let n = 0;
      let mean = 0;
      let m2 = 0;
      const population = fn === 'stdevp';
      return {
        add: (v) => {
          if (skip(v)) return;
          const x = toNumber(v);
          n++;
          const d = x - mean;
          mean += d / n;
          m2 += d * (x - mean);
        },
        result: () => {
          if (n === 0) return null;
          if (population) return Math.sqrt(m2 / n);
          return n < 2 ? 0 : Math.sqrt(m2 / (n - 1));
        },
      };
    }
  }
}
