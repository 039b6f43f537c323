/**
 * Statements of a SELECT kernel (see select-kernel.ts) as JavaScript source: updates of dense
 * vertex accumulators and of numeric or boolean global accumulators inline, with `@x'` kept before
 * a cell's first change; any other statement calls the closure compile-stmt.ts made for it.
 */
import type { Stmt } from '../gsql/ast-query.js';
import { DenseKind, INT32_SPILL } from './accum-dense.js';
import { compileExpr } from './expr-support.js';
import { emitExpr, heldTest, use, type KernelScope, type KernelSource } from './kernel-expr.js';
import type { RowStmt } from './scope.js';
import { accumValueType, isFloat, isInteger, isNumeric, type AccumT, type QType } from './types.js';
import { toNumber } from './values.js';

const KINDS_FLOAT = [DenseKind.SumFloat, DenseKind.SumFloat32, DenseKind.MinFloat, DenseKind.MaxFloat];

/** The input conversion compile-expr's coerce() applies for a value of type `from` stored as `to`. */
function coerceSrc(out: KernelSource, to: QType, from: QType, src: string): string {
  if (isInteger(to) && isFloat(from)) return `Math.trunc(${src})`;
  if (to.kind === 'FLOAT' && from.kind !== 'FLOAT') return `Math.fround(${out.constant(toNumber)}(${src}))`;
  if (isFloat(to) && isInteger(from)) return `${out.constant(toNumber)}(${src})`;
  return src;
}

/** Inline code for `alias.@acc += v` / `= v` on a dense column, or undefined when it has none. */
function emitAccumUpdate(ks: KernelScope, s: Stmt, deferred: boolean): string | undefined {
  if (s.kind !== 'assign') return undefined;
  const target = s.target;
  if (target.kind !== 'vattach' || target.index || target.prev || target.target?.kind !== 'name')
    return undefined;
  const va = ks.cx.vaccs.get(target.name);
  const alias = ks.cx.lookup(target.target.name);
  const g = alias?.aliasTypes ? ks.cells.get(alias.slot) : undefined;
  if (!va || va.dense === undefined || g === undefined || s.value.kind === 'arrow') return undefined;
  const add = s.op === '+=';
  const kind = va.dense;
  const bool = kind === DenseKind.Or || kind === DenseKind.And;
  const x = compileExpr(ks.cx, s.value);
  if (bool ? x.t.kind !== 'BOOL' : !isNumeric(x.t)) return undefined;
  const to = add && bool ? x.t : add ? (va.t as AccumT).elem : accumValueType(va.t);
  const code = emitExpr(ks, s.value);
  const v = ks.out.temp();
  const i = ks.out.column(va);
  if (g !== 'tg') ks.out.sourceWrites = true;
  const int = kind === DenseKind.SumInt || kind === DenseKind.MinInt || kind === DenseKind.MaxInt;
  // A SELECT that collects its targets on change (KernelSource.collectOnChange) does it here.
  const collect =
    ks.out.collectOnChange === i && g === 'tg'
      ? ` if (resultMark[tg] === 0) { resultMark[tg] = 1; result[st.resultCount++] = tg; }`
      : '';
  /**
   * `@x'` keeps the value from before the SELECT's first change of the cell. `cell` reads it; an
   * integer cell may have spilled, so DenseColumn.remember keeps those.
   */
  const remember = (cell: string): string =>
    int
      ? `if (PA${i} !== null && PA${i}[${g}] !== stamp) { C${i}.remember(${g}, stamp);${collect} }`
      : `if (PA${i} !== null && PA${i}[${g}] !== stamp) { PA${i}[${g}] = stamp; PV${i}[${g}] = ${cell};${collect} }`;
  const value = `${v} = ${coerceSrc(ks.out, to, x.t, use(ks, code))};`;
  const snap = ks.out.snapshot.has(i);
  if (deferred && !snap) {
    ks.out.deferredWrites.add(i);
    if (ks.out.atomic) ks.out.notAtomic = true;
    return `${value} ${remember(ks.out.cell(i, g, false))} P.pushDense(C${i}, ${g}, ${add}, ${v});`;
  }
  if (ks.out.atomic) return atomicUpdate(ks, s, { kind, i, g, v, value, add });
  const cell = ks.out.wide ? ks.out.stored(i, g) : `V${i}[${g}]`;
  // With a snapshot the clause's reads see the copy, so the update can happen at once.
  const prep = ks.out.wide
    ? ''
    : (snap ? `if (SA${i}[${g} >> 10] !== stamp) C${i}.snapshotChunk(${g} >> 10, stamp); ` : '') +
      `if (R${i}[${g} >> 10] === 0) C${i}.prepare(${g});`;
  // After prep the cell holds its value. Min, Max, Or and And remember only when the cell changes:
  // a cell no row changes still holds its value from before the SELECT (one random read fewer).
  const r = remember(cell);
  let apply: string;
  if (!add) {
    if (bool) apply = `${r} ${cell} = ${v} === true ? 1 : 0;`;
    else if (kind === DenseKind.SumFloat32) apply = `${r} ${cell} = Math.fround(${v});`;
    else if (KINDS_FLOAT.includes(kind)) apply = `${r} ${cell} = ${v};`;
    else apply = `${r} C${i}.set(${g}, ${v});`;
    return `${value} ${prep} ${apply}`;
  }
  const c = ks.out.temp();
  switch (kind) {
    case DenseKind.SumFloat:
      apply = `${r} ${cell} += ${v};`;
      break;
    case DenseKind.SumFloat32:
      apply = `${r} ${cell} = Math.fround(${cell} + ${v});`;
      break;
    case DenseKind.MinFloat:
      apply = `if (${v} < ${cell}) { ${r} ${cell} = ${v}; }`;
      break;
    case DenseKind.MaxFloat:
      apply = `if (${v} > ${cell}) { ${r} ${cell} = ${v}; }`;
      break;
    case DenseKind.Or:
      apply = `if (${v} === true && ${cell} !== 1) { ${r} ${cell} = 1; }`;
      break;
    case DenseKind.And:
      apply = `if (${v} !== true && ${cell} !== 0) { ${r} ${cell} = 0; }`;
      break;
    case DenseKind.SumInt: {
      const sum = ks.out.temp();
      apply =
        `${r} if (typeof ${v} === 'number' && (${c} = ${cell}) === ${c} && Number.isSafeInteger(${sum} = ${c} + Math.trunc(${v}))) ` +
        `${cell} = ${sum}; else C${i}.add(${g}, ${v});`;
      break;
    }
    case DenseKind.MinInt:
    case DenseKind.MaxInt: {
      const better = kind === DenseKind.MinInt ? '<' : '>';
      // 32-bit cells: a value outside the 32-bit range goes through add(), which spills it.
      apply =
        `if (typeof ${v} === 'number' && (${c} = ${cell}) ${heldTest(kind, c)} && (${v} | 0) === ${v} && ${v} !== ${INT32_SPILL}) ` +
        `{ if (${v} ${better} ${c}) { ${r} ${cell} = ${v}; } } else { ${r} C${i}.add(${g}, ${v}); }`;
      break;
    }
  }
  return `${value} ${prep} ${apply}`;
}

/**
 * `t.@acc += v` when threads walking their own sources update the same cells at once (KernelSource's
 * `atomic`): Or and And store the one value they can change a cell to (every store of it alike),
 * Min and Max of 32-bit integers change a cell by compare-and-swap until their value is no better
 * than the cell's. Anything else marks the code `notAtomic`. A Min or Max value must be a 32-bit
 * integer for sure (a literal, or a cell of a Min or Max integer column, which parallel.ts checks
 * has not spilled), and the column keeps no `@x'` this run (parallel.ts checks too): nothing
 * spills, and no thread remembers a value another has already changed.
 */
function atomicUpdate(
  ks: KernelScope,
  s: Stmt & { kind: 'assign' },
  u: { kind: DenseKind; i: number; g: string; v: string; value: string; add: boolean },
): string {
  const { kind, i, g, v } = u;
  const cell = `V${i}[${g}]`;
  const int32 =
    (s.value.kind === 'int' && typeof s.value.value === 'number' && (s.value.value | 0) === s.value.value) ||
    (s.value.kind === 'vattach' &&
      !s.value.index &&
      [DenseKind.MinInt, DenseKind.MaxInt].includes(ks.cx.vaccs.get(s.value.name)?.dense as DenseKind));
  if (!u.add || g !== 'tg' || !ks.out.wide) {
    ks.out.notAtomic = true;
    return '';
  }
  ks.out.atomicWrites.add(i);
  switch (kind) {
    case DenseKind.Or:
      return `${u.value} if (${v} === true && ${cell} !== 1) ${cell} = 1;`;
    case DenseKind.And:
      return `${u.value} if (${v} !== true && ${cell} !== 0) ${cell} = 0;`;
    case DenseKind.MinInt:
    case DenseKind.MaxInt: {
      if (!int32) break;
      const better = kind === DenseKind.MinInt ? '<' : '>';
      const c = ks.out.temp();
      return (
        `${u.value} ${int32Check(v)} ` +
        `for (;;) { ${c} = ${cell}; if (!(${v} ${better} ${c}) || Atomics.compareExchange(V${i}, ${g}, ${c}, ${v}) === ${c}) break; }`
      );
    }
  }
  ks.out.notAtomic = true;
  return '';
}

/** Code that stops a split clause whose Min or Max value `v` is not a 32-bit integer (see atomicUpdate). */
export const int32Check = (v: string): string =>
  `if ((${v} | 0) !== ${v} || ${v} === ${INT32_SPILL}) throw new RangeError('parallel SELECT: not a 32-bit value');`;

const GLOBAL_INLINE = new Set(['SumAccum', 'MinAccum', 'MaxAccum', 'OrAccum', 'AndAccum']);

/**
 * Inline code for `@@g += v` / `@@g = v` on a numeric or boolean global accumulator: as in
 * compile-assign's update(), it waits in the clause's pending list when there is one.
 */
function emitGlobalUpdate(ks: KernelScope, s: Stmt): string | undefined {
  if (s.kind !== 'assign' || s.target.kind !== 'global' || s.target.index || s.value.kind === 'arrow')
    return undefined;
  const g = ks.cx.globals.get(s.target.name);
  if (!g || !GLOBAL_INLINE.has(g.t.accum)) return undefined;
  if (s.op === '=' && ks.cx.clause === 'ACCUM') return undefined;
  const bool = g.t.accum === 'OrAccum' || g.t.accum === 'AndAccum';
  const x = compileExpr(ks.cx, s.value);
  if (bool ? x.t.kind !== 'BOOL' : !isNumeric(x.t) || !isNumeric(g.t.elem)) return undefined;
  const add = s.op === '+=';
  const to = add && bool ? x.t : add ? g.t.elem : accumValueType(g.t);
  const v = ks.out.temp();
  const a = ks.out.temp();
  ks.out.globals.set(g.slot, g.t);
  if (!add) ks.out.globalAssigns = true;
  return (
    `${v} = ${coerceSrc(ks.out, to, x.t, use(ks, emitExpr(ks, s.value)))}; ${a} = vars[${g.slot}]; ` +
    `if (ctx.pending !== null) ctx.pending.push(${a}, ${add}, ${v}); else ${a}.${add ? 'add' : 'set'}(${v});`
  );
}

/** The statements of a clause: inline where possible, otherwise their closures. */
export function emitStmts(
  ks: KernelScope,
  stmts: readonly Stmt[],
  rows: readonly RowStmt[],
  deferred: boolean,
): string {
  return stmts
    .map((s, k) => {
      const inline = emitAccumUpdate(ks, s, deferred) ?? emitGlobalUpdate(ks, s);
      if (inline !== undefined) return inline;
      ks.out.rowClosures = true;
      ks.out.closures = true;
      ks.out.stmtClosures = true;
      return `${ks.out.constant(rows[k])}(ctx);`;
    })
    .join('\n');
}
