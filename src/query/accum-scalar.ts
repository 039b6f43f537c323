/**
 * The scalar accumulators: SumAccum (INT, FLOAT/DOUBLE, STRING), MinAccum/MaxAccum, AvgAccum,
 * OrAccum/AndAccum, and the overwrite cell used for MapAccum values without a `+`.
 */
import type { Accum } from './accumulators.js';
import type { AccumT, QType } from './types.js';
import { compareValues, intArith, toNumber, TupleVal } from './values.js';

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;
const FLOAT_MAX = 3.4028234663852886e38;

/** The zero of a type: what SumAccum starts from and what a declared variable holds. */
export function zeroOf(t: QType): unknown {
  switch (t.kind) {
    case 'INT':
    case 'UINT':
    case 'FLOAT':
    case 'DOUBLE':
    case 'DATETIME':
      return 0;
    case 'STRING':
      return '';
    case 'BOOL':
      return false;
    case 'LIST':
    case 'BAG':
    case 'SET':
      return [];
    case 'MAP':
      return new Map();
    default:
      return null;
  }
}

function extreme(t: QType, max: boolean): unknown {
  switch (t.kind) {
    case 'INT':
      return max ? INT64_MAX : INT64_MIN;
    case 'UINT':
      return max ? UINT64_MAX : 0;
    case 'FLOAT':
      return max ? FLOAT_MAX : -FLOAT_MAX;
    case 'DOUBLE':
      return max ? Number.MAX_VALUE : -Number.MAX_VALUE;
    case 'STRING':
      return '';
    default:
      return null;
  }
}

/** SumAccum<INT|UINT>: exact 64-bit sums. */
export class SumIntAccum implements Accum {
  private v: number | bigint = 0;
  add(x: unknown): void {
    const y = typeof x === 'number' ? Math.trunc(x) : (x as bigint);
    if (typeof this.v === 'number' && typeof y === 'number') {
      const r = this.v + y;
      if (Number.isSafeInteger(r)) {
        this.v = r;
        return;
      }
    }
    this.v = intArith('+', this.v, y);
  }
  set(x: unknown): void {
    this.v = typeof x === 'number' ? Math.trunc(x) : (x as bigint);
  }
  value(): unknown {
    return this.v;
  }
  fresh(): Accum {
    return new SumIntAccum();
  }
}

/** SumAccum<FLOAT|DOUBLE>; FLOAT is single precision, as in TigerGraph. */
export class SumFloatAccum implements Accum {
  private v = 0;
  constructor(private readonly single: boolean) {}
  add(x: unknown): void {
    const r = this.v + (typeof x === 'number' ? x : toNumber(x));
    this.v = this.single ? Math.fround(r) : r;
  }
  set(x: unknown): void {
    const r = typeof x === 'number' ? x : toNumber(x);
    this.v = this.single ? Math.fround(r) : r;
  }
  value(): unknown {
    return this.v;
  }
  fresh(): Accum {
    return new SumFloatAccum(this.single);
  }
}

export class SumStringAccum implements Accum {
  private v = '';
  add(x: unknown): void {
    this.v += String(x);
  }
  set(x: unknown): void {
    this.v = String(x);
  }
  value(): unknown {
    return this.v;
  }
  fresh(): Accum {
    return new SumStringAccum();
  }
}

export class MinMaxAccum implements Accum {
  private v: unknown;
  constructor(
    private readonly t: AccumT,
    private readonly max: boolean,
  ) {
    this.v = extreme(t.elem, !max);
  }
  add(x: unknown): void {
    if (this.v === null || this.v === undefined) {
      this.v = x;
      return;
    }
    const c = compareValues(x, this.v);
    if (this.max ? c > 0 : c < 0) this.v = x;
  }
  set(x: unknown): void {
    this.v = x;
  }
  value(): unknown {
    // A tuple has no extreme to start from: the first value wins; before it, each field reads its zero.
    const e = this.t.elem;
    if (this.v === null && e.kind === 'TUPLE')
      return new TupleVal(
        e,
        e.fields.map((f) => zeroOf(f.type)),
      );
    return this.v;
  }
  fresh(): Accum {
    return new MinMaxAccum(this.t, this.max);
  }
}

export class AvgAccum implements Accum {
  private sum = 0;
  private count = 0;
  add(x: unknown): void {
    this.sum += toNumber(x);
    this.count++;
  }
  set(x: unknown): void {
    this.sum = toNumber(x);
    this.count = 1;
  }
  value(): unknown {
    return this.count === 0 ? 0 : this.sum / this.count;
  }
  fresh(): Accum {
    return new AvgAccum();
  }
}

export class BoolAccum implements Accum {
  private v: boolean;
  constructor(private readonly and: boolean) {
    this.v = and;
  }
  add(x: unknown): void {
    this.v = this.and ? this.v && x === true : this.v || x === true;
  }
  set(x: unknown): void {
    this.v = x === true;
  }
  value(): unknown {
    return this.v;
  }
  fresh(): Accum {
    return new BoolAccum(this.and);
  }
}

/**
 * BitwiseAndAccum (starting with every bit set, -1) and BitwiseOrAccum (starting at 0) over 64-bit
 * integers, kept as a BigInt so that no bit is lost.
 */
export class BitwiseAccum implements Accum {
  private v: bigint;
  constructor(private readonly and: boolean) {
    this.v = and ? -1n : 0n;
  }
  add(x: unknown): void {
    const b = BigInt.asIntN(64, BigInt(x as number | bigint));
    this.v = this.and ? this.v & b : this.v | b;
  }
  set(x: unknown): void {
    this.v = BigInt.asIntN(64, BigInt(x as number | bigint));
  }
  value(): unknown {
    const n = Number(this.v);
    return Number.isSafeInteger(n) ? n : this.v;
  }
  fresh(): Accum {
    return new BitwiseAccum(this.and);
  }
}

/** Values without a `+` (tuples, vertices, booleans): `+=` replaces. */
export class OverwriteAccum implements Accum {
  private v: unknown;
  constructor(private readonly t: QType) {
    this.v = zeroOf(t);
  }
  add(x: unknown): void {
    this.v = x;
  }
  set(x: unknown): void {
    this.v = x;
  }
  value(): unknown {
    return this.v;
  }
  fresh(): Accum {
    return new OverwriteAccum(this.t);
  }
}
