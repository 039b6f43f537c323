/**
 * Expressions of a SELECT kernel (see select-kernel.ts) as JavaScript source. Numbers, booleans,
 * dense accumulator cells of the SELECT's aliases and the operators on them become inline code;
 * any other expression calls the closure compile-expr.ts makes for it, so a kernel computes exactly
 * what the closures compute. An expression over the source vertex alone (`s.@score / s.outdegree()`)
 * is computed once per source vertex instead of once per edge.
 */
import type { Expr } from '../gsql/ast-query.js';
import { cellArray, DenseKind, INT32_SPILL } from './accum-dense.js';
import { compileExpr } from './expr-support.js';
import { vidOfGid } from './vid.js';
import { edgeFilters, outdegreeOfGid } from './methods.js';
import type { Cx, VertexAccum } from './scope.js';
import { type AccumT, isFloat, isInteger, isNumeric, T, type QType } from './types.js';
import { compareValues, intArith, QueryRuntimeError, toNumber, valuesEqual } from './values.js';

/** Source code with the constants it refers to (`k0`, `k1`, … in the generated function). */
export class KernelSource {
  readonly consts: unknown[] = [];
  private temps = 0;
  private memos = 0;
  /** Dense columns the code reads or writes, by accumulator index. */
  readonly columns = new Map<number, VertexAccum>();
  /** Columns whose previous values (`@x'`) the code reads. */
  readonly primed = new Set<number>();
  /** How many reads and updates of each column are inline (the rest happen in closures). */
  readonly inlineUses = new Map<number, number>();
  /** Columns updated inline in a clause whose updates wait for its end. */
  readonly deferredWrites = new Set<number>();
  /**
   * Whether some closure the code calls may read an alias other than the source (bound per row);
   * closures over the source alone see it bound once per source vertex.
   */
  rowClosures = false;
  /**
   * Whether the code calls any closure that may read an alias through ctx.vars/ctx.gids (the
   * source's included): a pull binds the source per in-edge only then.
   */
  closures = false;
  /** Whether some statement runs as its closure (it may update anything). */
  stmtClosures = false;
  /** Expressions run as closures that a helper thread may not compute the same (see parallel.ts). */
  fallbacks = 0;
  /** Whether some update writes a cell of the source vertex. */
  sourceWrites = false;
  /** The global accumulators the code updates (by slot). */
  readonly globals = new Map<number, AccumT>();
  /** Whether some global accumulator is assigned (`@@g = v`: the last row's value wins). */
  globalAssigns = false;
  /**
   * For code several threads run over their own sources at once (select-kernel.ts's `bySource`):
   * cell updates are made so that concurrent ones on one cell all take effect (see kernel-stmt.ts).
   */
  atomic = false;
  /** With `atomic`: whether some statement has no such form (the code must not run that way). */
  notAtomic = false;
  /** With `atomic`: the columns the code updates. */
  readonly atomicWrites = new Set<number>();
  /**
   * For a pulled ACCUM (select-kernel.ts's `hoist`): floating-point values over the source alone
   * are read from per-source arrays (`H<j>`, filled once per source before the rows) instead of
   * being computed per row; `hoisted[j]` is the code that computes `H<j>`.
   */
  hoist = false;
  readonly hoisted: string[] = [];
  /**
   * For a pulled ACCUM, whose rows come target by target: the target's floating-point and boolean
   * cells are kept in locals (`L<i>`) while its rows run and stored when they are done (the same
   * updates in the same order, without a memory round trip per row); `locals` lists them.
   */
  targetLocals = false;
  readonly locals = new Set<number>();

  constructor(
    /**
     * The code for a SELECT that touches much of the graph: every column it uses is prepared and
     * every snapshot taken whole before it runs, so cells are read without per-chunk checks.
     */
    readonly wide: boolean,
    /** Columns read from the clause's copy-on-write snapshot (see DenseColumn.snapshotChunk). */
    readonly snapshot: ReadonlySet<number> = new Set(),
    /**
     * Snapshot columns whose target cell (`tg`) is read live: the clause is a monotone filter
     * (see select-kernel.ts's monotoneFilter), where the live value gives the same rows' effects.
     */
    readonly liveTargets: ReadonlySet<number> = new Set(),
    /**
     * A column whose first change of a target's cell collects the target (see select-kernel.ts's
     * changeCollected); the target is then not collected per row.
     */
    readonly collectOnChange: number | undefined = undefined,
  ) {}

  /** Code reading cell g as stored (`V<i>`), or as the snapshot holds it (`SV<i>`) for a snapshot column. */
  cell(i: number, g: string, snapshot: boolean): string {
    const live = this.wide ? this.stored(i, g) : `(R${i}[${g} >> 10] === 1 ? V${i}[${g}] : I${i})`;
    if (!snapshot) return live;
    return this.wide ? `SV${i}[${g}]` : `(SA${i}[${g} >> 10] === stamp ? SV${i}[${g}] : ${live})`;
  }

  /** A wide kernel's cell g of column i, as updates write it: `V<i>[g]`, or the target's local. */
  stored(i: number, g: string): string {
    const kind = this.columns.get(i)?.dense;
    if (!this.targetLocals || g !== 'tg' || kind === undefined || INTEGER_KINDS.includes(kind))
      return `V${i}[${g}]`;
    this.locals.add(i);
    return `L${i}`;
  }

  constant(v: unknown): string {
    let i = this.consts.indexOf(v);
    if (i < 0) i = this.consts.push(v) - 1;
    return `k${i}`;
  }

  temp(): string {
    return `t${this.temps++}`;
  }

  memo(): string {
    return `m${this.memos++}`;
  }

  /** Declarations of the temporaries, for the top of a generated function. */
  tempDecls(): string {
    return this.temps === 0 ? '' : `let ${Array.from({ length: this.temps }, (_, i) => `t${i}`).join(', ')};`;
  }

  /** Names of the memo variables a source vertex resets (`m0 = undefined`). */
  memoNames(): string[] {
    return Array.from({ length: this.memos }, (_, i) => `m${i}`);
  }

  /**
   * The column's locals: cells `V<i>`, chunk-ready flags `R<i>`, initial value `I<i>`, column `C<i>`,
   * and for `@x'` the stamps `PA<i>` and previous values `PV<i>`.
   */
  column(va: VertexAccum): number {
    this.columns.set(va.index, va);
    this.inlineUses.set(va.index, (this.inlineUses.get(va.index) ?? 0) + 1);
    return va.index;
  }
}

/** Integer kinds: their cells may spill to objects, which column methods read and write. */
const INTEGER_KINDS = [DenseKind.SumInt, DenseKind.MinInt, DenseKind.MaxInt];

/** Where the aliases' run indexes are while a kernel runs: alias slot -> JS variable. */
export type AliasCells = Map<number, string>;

export interface Code {
  src: string;
  t: QType;
  /** A value over the source alias, parameters, query variables and literals only, with no side effects. */
  perSource: boolean;
  /** A literal or a variable read: not worth remembering. */
  trivial: boolean;
}

/** What kernel expression compilation needs to know about the SELECT. */
export interface KernelScope {
  cx: Cx;
  out: KernelSource;
  cells: AliasCells;
  /** The source alias's slot (for per-source values), or -1 when values are not kept per source. */
  sourceSlot: number;
  /** Slots below this belong to the query body (parameters, variables declared before the SELECT). */
  querySlots: number;
}

/** Functions without side effects whose result depends on their arguments only. */
const PURE_CALLS = new Set([
  'abs',
  'sqrt',
  'pow',
  'exp',
  'log',
  'log10',
  'ceil',
  'floor',
  'round',
  'getvid',
  'to_string',
  'float_to_int',
]);

const isFloatKind = (k: DenseKind): boolean =>
  k === DenseKind.SumFloat ||
  k === DenseKind.SumFloat32 ||
  k === DenseKind.MinFloat ||
  k === DenseKind.MaxFloat;

/**
 * The test (to follow the temporary `t` holding an integer cell's stored number) that the cell
 * holds its value rather than its spill mark.
 */
export function heldTest(kind: DenseKind, t: string): string {
  return cellArray(kind) === 'i32' ? `!== ${INT32_SPILL}` : `=== ${t}`;
}

/** Code reading cell `g` of a dense column (chunks not yet written hold the initial value). */
export function cellRead(ks: KernelScope, va: VertexAccum, g: string): string {
  const i = ks.out.column(va);
  const snap = ks.out.snapshot.has(i) && !(g === 'tg' && ks.out.liveTargets.has(i));
  const kind = va.dense!;
  const bool = kind === DenseKind.Or || kind === DenseKind.And;
  if (isFloatKind(kind) || bool) {
    const raw = ks.out.cell(i, g, snap);
    return bool ? `(${raw} === 1)` : raw;
  }
  // An integer cell holding its spill mark spilled to an object (see accum-dense.ts).
  const t = ks.out.temp();
  const held = heldTest(kind, t);
  const liveInt = `((${t} = ${ks.out.cell(i, g, false)}) ${held} ? ${t} : C${i}.get(${g}))`;
  if (!snap) return liveInt;
  const fromSnapshot = `((${t} = SV${i}[${g}]) ${held} ? ${t} : C${i}.snapshotValue(${g}))`;
  if (ks.out.wide) return fromSnapshot;
  return `(SA${i}[${g} >> 10] === stamp ? ${fromSnapshot} : ${liveInt})`;
}

/** Code reading the value cell `g` had before the running SELECT changed it (`@x'`). */
function previousRead(ks: KernelScope, va: VertexAccum, g: string): string {
  const i = va.index;
  ks.out.primed.add(i);
  const kind = va.dense!;
  const bool = kind === DenseKind.Or || kind === DenseKind.And;
  let prev = bool ? `(PV${i}[${g}] === 1)` : `PV${i}[${g}]`;
  if (!bool && !isFloatKind(kind)) {
    // An integer cell that had spilled keeps its spill mark here (DenseColumn.previous has its value).
    const t = ks.out.temp();
    prev = `((${t} = PV${i}[${g}]) ${heldTest(kind, t)} ? ${t} : C${i}.previous(${g}, stamp))`;
  }
  return `(PA${i}[${g}] === stamp ? ${prev} : ${cellRead(ks, va, g)})`;
}

/** The code of `e` as a value: remembered per source vertex when it can be. */
export function use(ks: KernelScope, c: Code): string {
  if (!c.perSource || c.trivial || ks.sourceSlot < 0) return c.src;
  if (ks.out.hoist && isFloat(c.t)) {
    // NaN: the value, or a source for which computing it threw; computed here again (same value,
    // or the error at the row where one thread meets it).
    const j = ks.out.hoisted.push(c.src) - 1;
    const x = ks.out.temp();
    return `((${x} = H${j}[sg]) === ${x} ? ${x} : ${c.src})`;
  }
  const m = ks.out.memo();
  return `(${m} === undefined ? (${m} = ${c.src}) : ${m})`;
}

/** Types of query variables a helper thread receives (parallel.ts): plain values and lists of them. */
function shippedType(t: QType): boolean {
  const plain = (k: string): boolean =>
    ['INT', 'UINT', 'FLOAT', 'DOUBLE', 'BOOL', 'STRING', 'DATETIME'].includes(k);
  if (plain(t.kind)) return true;
  return (t.kind === 'SET' || t.kind === 'BAG' || t.kind === 'LIST') && plain(t.elem.kind);
}

/**
 * Whether the closure of `e` computes the same on a helper thread running part of the SELECT
 * (parallel.ts): it reads only literals, the row's aliases and their attributes, query variables
 * the helper receives, outdegree() and pure functions. Anything else (accumulators, vertex-set
 * variables, other methods) may read state only the owner's run has.
 */
function helperSafe(ks: KernelScope, e: Expr): boolean {
  const safe = (x: Expr): boolean => helperSafe(ks, x);
  switch (e.kind) {
    case 'int':
    case 'float':
    case 'string':
    case 'bool':
    case 'null':
      return true;
    case 'name': {
      const b = ks.cx.lookup(e.name);
      if (!b) return false;
      if (b.aliasTypes) return ks.cells.has(b.slot);
      return b.slot < ks.querySlots && shippedType(b.t);
    }
    case 'field':
      return safe(e.target);
    case 'method':
      return e.name.toLowerCase() === 'outdegree' && safe(e.target) && e.args.every(safe);
    case 'call':
      return PURE_CALLS.has(e.name.toLowerCase()) && !ks.cx.tuples.has(e.name) && e.args.every(safe);
    case 'unary':
      return safe(e.operand);
    case 'binary':
      return safe(e.left) && safe(e.right);
    case 'between':
      return safe(e.operand) && safe(e.low) && safe(e.high);
    case 'isnull':
      return safe(e.operand);
    case 'case':
      return (
        (e.subject === undefined || safe(e.subject)) &&
        e.whens.every((w) => safe(w.when) && safe(w.then)) &&
        (e.otherwise === undefined || safe(e.otherwise))
      );
    default:
      return false;
  }
}

function fallback(ks: KernelScope, e: Expr, perSource: boolean): Code {
  const x = compileExpr(ks.cx, e);
  if (!helperSafe(ks, e)) ks.out.fallbacks++;
  if (!perSource) ks.out.rowClosures = true;
  ks.out.closures = true;
  return { src: `${ks.out.constant(x.f)}(ctx)`, t: x.t, perSource, trivial: false };
}

/** Whether `e` mentions no alias but the source and no clause-local variable. */
function overSourceOnly(ks: KernelScope, e: unknown): boolean {
  if (ks.sourceSlot < 0) return false;
  if (Array.isArray(e)) return e.every((x) => overSourceOnly(ks, x));
  if (!e || typeof e !== 'object') return true;
  const o = e as { kind?: string; name?: string };
  if (o.kind === 'name' && typeof o.name === 'string') {
    const b = ks.cx.lookup(o.name);
    if (!b) return true;
    return b.slot === ks.sourceSlot || (!b.aliasTypes && b.slot < ks.querySlots);
  }
  if (o.kind === 'call' && !PURE_CALLS.has(String(o.name))) return false;
  if (o.kind === 'method' && o.name !== 'outdegree') return false;
  if (o.kind === 'select' || o.kind === 'seed') return false;
  if ((o.kind === 'vattach' || o.kind === 'global') && (e as { prev?: boolean }).prev) return false;
  for (const [k, v] of Object.entries(o)) if (k !== 'pos' && !overSourceOnly(ks, v)) return false;
  return true;
}

export function emitExpr(ks: KernelScope, e: Expr): Code {
  const perSource = overSourceOnly(ks, e);
  switch (e.kind) {
    case 'int':
      if (typeof e.value === 'number' && Number.isSafeInteger(e.value))
        return { src: `${e.value}`, t: T.INT, perSource, trivial: true };
      return fallback(ks, e, perSource);
    case 'float':
      if (Number.isFinite(e.value) && !Object.is(e.value, -0))
        return { src: `${e.value}`, t: T.DOUBLE, perSource, trivial: true };
      return fallback(ks, e, perSource);
    case 'bool':
      return { src: `${e.value}`, t: T.BOOL, perSource, trivial: true };
    case 'name': {
      const b = ks.cx.lookup(e.name);
      if (!b || b.aliasTypes || !(isNumeric(b.t) || b.t.kind === 'BOOL')) return fallback(ks, e, perSource);
      return { src: `vars[${b.slot}]`, t: b.t, perSource, trivial: true };
    }
    case 'vattach': {
      const va = ks.cx.vaccs.get(e.name);
      const alias = e.target?.kind === 'name' ? ks.cx.lookup(e.target.name) : undefined;
      const g = alias?.aliasTypes ? ks.cells.get(alias.slot) : undefined;
      if (!va || va.dense === undefined || e.index || g === undefined) return fallback(ks, e, perSource);
      const x = compileExpr(ks.cx, e);
      const src = e.prev ? previousRead(ks, va, g) : cellRead(ks, va, g);
      return { src, t: x.t, perSource, trivial: false };
    }
    case 'unary': {
      const x = emitExpr(ks, e.operand);
      const xs = perSource ? x.src : use(ks, x);
      if (e.op === 'NOT') return { src: `!(${xs})`, t: T.BOOL, perSource, trivial: false };
      if (isFloat(x.t)) return { src: `(-(${xs}))`, t: x.t, perSource, trivial: false };
      return fallback(ks, e, perSource);
    }
    case 'binary':
      return emitBinary(ks, e, perSource);
    case 'method': {
      // outdegree() of an alias: from its run index, without making its Vtx.
      const b = e.target.kind === 'name' ? ks.cx.lookup(e.target.name) : undefined;
      const g = b?.aliasTypes ? ks.cells.get(b.slot) : undefined;
      if (e.name.toLowerCase() !== 'outdegree' || g === undefined) return fallback(ks, e, perSource);
      const x = compileExpr(ks.cx, e);
      // The edge types may be an expression: its closure reads what the row binds.
      if (!perSource) ks.out.rowClosures = true;
      ks.out.closures = true;
      const filters = ks.out.constant(edgeFilters(ks.cx, e));
      return {
        src: `${ks.out.constant(outdegreeOfGid)}(ctx, ${filters}(ctx), ${g})`,
        t: x.t,
        perSource,
        trivial: false,
      };
    }
    case 'call': {
      const name = e.name.toLowerCase();
      if (e.args.length !== 1 || ks.cx.tuples.has(e.name)) return fallback(ks, e, perSource);
      if (name === 'getvid') {
        // Of an alias: from its run index, without making its Vtx.
        const arg = e.args[0];
        const b = arg.kind === 'name' ? ks.cx.lookup(arg.name) : undefined;
        const g = b?.aliasTypes ? ks.cells.get(b.slot) : undefined;
        if (g === undefined) return fallback(ks, e, perSource);
        const types = ks.out.constant(ks.cx.vertexTypeNames());
        return {
          src: `${ks.out.constant(vidOfGid)}(ctx, ${g}, ${types})`,
          t: T.INT,
          perSource,
          trivial: false,
        };
      }
      // abs() of a FLOAT/DOUBLE is Math.abs (functions.ts; integers may be 64-bit, so not those).
      if (name !== 'abs') return fallback(ks, e, perSource);
      const x = emitExpr(ks, e.args[0]);
      if (!isFloat(x.t)) return fallback(ks, e, perSource);
      return { src: `Math.abs(${perSource ? x.src : use(ks, x)})`, t: x.t, perSource, trivial: false };
    }
    default:
      return fallback(ks, e, perSource);
  }
}

function emitBinary(ks: KernelScope, e: Expr & { kind: 'binary' }, perSource: boolean): Code {
  const l = emitExpr(ks, e.left);
  const r = emitExpr(ks, e.right);
  const ls = perSource ? l.src : use(ks, l);
  const rs = perSource ? r.src : use(ks, r);
  const bool = (src: string): Code => ({ src, t: T.BOOL, perSource, trivial: false });
  const op = e.op;
  switch (op) {
    case 'AND':
      return bool(`(${ls} === true && ${rs} === true)`);
    case 'OR':
      return bool(`(${ls} === true || ${rs} === true)`);
    case '==':
    case '!=': {
      const kind = l.t.kind === r.t.kind ? l.t.kind : '';
      const neq = op === '!=';
      if (kind === 'BOOL') return bool(`((${ls} === ${rs}) !== ${neq})`);
      if (isNumeric(l.t) && isNumeric(r.t))
        return bool(`(${ks.out.constant(VALUES_EQUAL)}(${ls}, ${rs}) !== ${neq})`);
      return fallback(ks, e, perSource);
    }
    case '<':
    case '<=':
    case '>':
    case '>=': {
      if (!isNumeric(l.t) || !isNumeric(r.t)) return fallback(ks, e, perSource);
      // As compile-binary: `a <= b` is `!(a > b)` for two numbers (NaN compares as there).
      const test = (a: string, b: string): string =>
        op === '<'
          ? `${a} < ${b}`
          : op === '>'
            ? `${a} > ${b}`
            : op === '<='
              ? `!(${a} > ${b})`
              : `!(${a} < ${b})`;
      if (isFloat(l.t) && isFloat(r.t)) return bool(`(${test(`(${ls})`, `(${rs})`)})`);
      const a = ks.out.temp();
      const b = ks.out.temp();
      const cmp = ks.out.constant(COMPARE_OP[op]);
      return bool(
        `((${a} = ${ls}), (${b} = ${rs}), typeof ${a} === 'number' && typeof ${b} === 'number' ? ${test(a, b)} : ${cmp}(${a}, ${b}))`,
      );
    }
    case '+':
    case '-':
    case '*':
    case '/':
    case '%': {
      if (!isNumeric(l.t) || !isNumeric(r.t)) return fallback(ks, e, perSource);
      if (isInteger(l.t) && isInteger(r.t)) {
        const t = l.t.kind === 'UINT' && r.t.kind === 'UINT' && op !== '-' ? T.UINT : T.INT;
        return { src: `${ks.out.constant(INT_ARITH)}('${op}', ${ls}, ${rs})`, t, perSource, trivial: false };
      }
      const t = l.t.kind !== 'DOUBLE' && r.t.kind !== 'DOUBLE' ? T.FLOAT : T.DOUBLE;
      const num = (c: Code, s: string): string =>
        isFloat(c.t) ? `(${s})` : `${ks.out.constant(TO_NUMBER)}(${s})`;
      let src: string;
      if (op === '/' || op === '%') {
        // compile-binary evaluates the divisor first.
        const d = ks.out.temp();
        src = `((${d} = ${num(r, rs)}) === 0 ? ${ks.out.constant(DIVIDE_BY_ZERO)}() : ${num(l, ls)} ${op} ${d})`;
      } else src = `(${num(l, ls)} ${op} ${num(r, rs)})`;
      return { src: t === T.FLOAT ? `Math.fround(${src})` : src, t, perSource, trivial: false };
    }
    default:
      return fallback(ks, e, perSource);
  }
}

/** Run-time helpers the generated code calls, with the semantics of the closures. */
const VALUES_EQUAL = valuesEqual;
const INT_ARITH = intArith;
const TO_NUMBER = toNumber;
const DIVIDE_BY_ZERO = (): never => {
  throw new QueryRuntimeError('Runtime Error: divider is zero.', 'GSQL-2500');
};
const COMPARE_OP: Record<string, (a: unknown, b: unknown) => boolean> = {
  '<': (a, b) => compareValues(a, b) < 0,
  '<=': (a, b) => compareValues(a, b) <= 0,
  '>': (a, b) => compareValues(a, b) > 0,
  '>=': (a, b) => compareValues(a, b) >= 0,
};
