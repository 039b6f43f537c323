/**
 * Run-time values of GSQL queries. Scalars are JS primitives (INT/UINT: number when safe, bigint
 * beyond ±2^53; DATETIME: epoch seconds); vertices are interned per run so that identity is equality
 * and vertex-attached accumulators hang off the vertex object; tuples carry their type.
 */
import type { EdgeHandle } from '../engine/api.js';
import type { TupleT } from './types.js';

/**
 * One vertex during one query run; `acc[i]` holds its vertex-attached accumulator number i unless
 * that accumulator is dense (then `gid`, the vertex's run index, is its cell).
 */
export class Vtx {
  acc?: unknown[];
  /** Per accumulator index: the value before the SELECT stamped in `prevAt` first touched it (`@x'`). */
  prev?: unknown[];
  prevAt?: number[];
  constructor(
    readonly type: string,
    readonly row: number,
    readonly gid: number,
    /** The run that interned it: `gid` and `acc` are valid in that run only (see RunContext.own). */
    readonly run: object,
  ) {}
}

/**
 * A vertex set kept as run indexes (`Vtx.gid`) of one run: what SELECT kernels and whole-type seeds
 * produce, so that a traversal reaching many vertices makes no object per vertex. A vertex-set
 * variable may hold one; reading the variable as a value gives its Vtx list (RunContext.vertexList),
 * made once. Only the SELECT that reads it as its source and `.size()` take it as it is.
 */
export class VertexGids {
  list: Vtx[] | undefined = undefined;
  constructor(
    readonly run: object,
    readonly gids: Int32Array,
  ) {}

  get length(): number {
    return this.gids.length;
  }
}

export class EdgeVal {
  constructor(readonly handle: EdgeHandle) {}
}

export class TupleVal {
  constructor(
    readonly type: TupleT,
    readonly values: unknown[],
  ) {}
}

/** A run-time error that stops the query; nothing it changed is committed. */
export class QueryRuntimeError extends Error {
  constructor(
    message: string,
    /**
     * TigerGraph's error code for the REST envelope: GSQL-2500 division by zero, GSQL-2501 bad
     * DATETIME, GSQL-2620 index out of range, GSQL-1001 NULL value, GSQL-6500 aborted, GSQL-7002
     * timeout, GSQL-8001 other run-time errors; REST-30000 for parameters.
     */
    readonly code = 'GSQL-8001',
  ) {
    super(message);
    this.name = 'QueryRuntimeError';
  }
}

/** A value usable as a Map/Set key with GSQL equality (tuples compare by content). */
export function keyOf(v: unknown): unknown {
  if (v instanceof EdgeVal) return edgeKey(v.handle);
  if (v instanceof TupleVal) return 'T\u0000' + v.values.map(keyText).join('\u0001');
  if (Array.isArray(v)) return 'L\u0000' + v.map(keyText).join('\u0001');
  return v;
}

/**
 * An undirected edge is held once per direction it was reached in (as TigerGraph's SetAccum<EDGE>
 * holds J→K and K→J, printed each from its source); a self-loop reads the same both ways.
 */
function edgeKey(h: EdgeHandle): string {
  const flip = !h.directed && h.reversed && !(h.srcType === h.tgtType && h.srcRow === h.tgtRow);
  return `E\u0000${h.block}\u0001${h.eid}${flip ? '\u0001r' : ''}`;
}

function keyText(v: unknown): string {
  if (v instanceof Vtx) return `V${v.type}\u0002${v.row}`;
  const k = keyOf(v);
  return typeof k === 'string' ? 's' + k : typeof k + String(k);
}

/** Equality as GSQL's == sees it. */
export function valuesEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
    return compareValues(a, b) === 0;
  }
  if (a instanceof TupleVal || Array.isArray(a)) return keyOf(a) === keyOf(b);
  if (a instanceof EdgeVal && b instanceof EdgeVal) {
    return a.handle.block === b.handle.block && a.handle.eid === b.handle.eid;
  }
  return false;
}

/** Total order on comparable values: numbers (mixed number/bigint), strings, booleans, vertices. */
export function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
    if (typeof a === 'number' && !Number.isInteger(a)) return a < Number(b) ? -1 : a > Number(b) ? 1 : 0;
    if (typeof b === 'number' && !Number.isInteger(b)) return Number(a) < b ? -1 : Number(a) > b ? 1 : 0;
    const x = BigInt(a);
    const y = BigInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof Vtx && b instanceof Vtx) {
    if (a.type !== b.type) return a.type < b.type ? -1 : 1;
    return a.row - b.row;
  }
  if (a instanceof TupleVal && b instanceof TupleVal) {
    for (let i = 0; i < a.values.length; i++) {
      const c = compareValues(a.values[i], b.values[i]);
      if (c !== 0) return c;
    }
    return 0;
  }
  return 0;
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export function canonical(v: bigint): number | bigint {
  return v >= MIN_SAFE && v <= MAX_SAFE ? Number(v) : v;
}

/** Wraps a result to 64-bit two's complement as TigerGraph's C++ integers do. */
function wrap64(v: bigint): number | bigint {
  if (v < INT64_MIN || v > INT64_MAX) v = BigInt.asIntN(64, v);
  return canonical(v);
}

export type IntOp = '+' | '-' | '*' | '/' | '%';

/** Integer arithmetic: a fast path on safe numbers, exact 64-bit bigint otherwise. */
export function intArith(op: IntOp, a: number | bigint, b: number | bigint): number | bigint {
  if (typeof a === 'number' && typeof b === 'number') {
    let r: number;
    switch (op) {
      case '+':
        r = a + b;
        break;
      case '-':
        r = a - b;
        break;
      case '*':
        r = a * b;
        break;
      case '/':
        if (b === 0) throw new QueryRuntimeError('Runtime Error: divider is zero.', 'GSQL-2500');
        return Math.trunc(a / b) || 0;
      case '%':
        if (b === 0) throw new QueryRuntimeError('Runtime Error: divider is zero.', 'GSQL-2500');
        return a % b || 0;
    }
    if (Number.isSafeInteger(r)) return r;
  }
  const x = BigInt(a);
  const y = BigInt(b);
  switch (op) {
    case '+':
      return wrap64(x + y);
    case '-':
      return wrap64(x - y);
    case '*':
      return wrap64(x * y);
    case '/':
      if (y === 0n) throw new QueryRuntimeError('Runtime Error: divider is zero.', 'GSQL-2500');
      return wrap64(x / y);
    case '%':
      if (y === 0n) throw new QueryRuntimeError('Runtime Error: divider is zero.', 'GSQL-2500');
      return wrap64(x % y);
  }
}

export function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  return Number(v);
}
