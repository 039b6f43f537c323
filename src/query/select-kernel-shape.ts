/**
 * What a SELECT clause's shape allows its kernel (select-kernel.ts): the analyses over the bound
 * block that decide which walks and shortcuts give the same answers as the closures.
 */
import type { Expr } from '../gsql/ast-query.js';
import { DenseKind } from './accum-dense.js';
import type { KernelSource } from './kernel-expr.js';
import type { Cx, VertexAccum } from './scope.js';
import { conjuncts } from './select-clauses.js';
import type { KernelBlock, LabelAccum } from './select-kernel-types.js';

/** How many times the accumulator `name` appears in `node` (reads, updates, `@x'`). */
export function mentions(node: unknown, name: string): number {
  if (Array.isArray(node)) return node.reduce((n: number, x) => n + mentions(x, name), 0);
  if (!node || typeof node !== 'object') return 0;
  const o = node as { kind?: string; name?: string };
  let n = o.kind === 'vattach' && o.name === name ? 1 : 0;
  for (const [k, v] of Object.entries(o)) if (k !== 'pos') n += mentions(v, name);
  return n;
}

const ORDER_FREE_KINDS = [
  DenseKind.MinInt,
  DenseKind.MinFloat,
  DenseKind.MaxInt,
  DenseKind.MaxFloat,
  DenseKind.Or,
  DenseKind.And,
];

/**
 * Whether a split clause's effects on a target do not depend on the order of its rows: every
 * column it reads or updates is a Min, Max, Or or And (its globals combine exactly already, see
 * splittable). Each row's update then commutes, a target is collected when some row passes (a
 * live monotone filter passes for some row in any order, see monotoneFilter), and a cell's first
 * change happens in any order when one happens at all.
 */
export function orderFree(out: KernelSource): boolean {
  return [...out.columns.values()].every(
    (va) => va.dense !== undefined && ORDER_FREE_KINDS.includes(va.dense),
  );
}

/**
 * The column whose changes alone decide the result, as in the algorithm library's label
 * propagation: `SELECT t … ACCUM t.@a … HAVING t.@a != t.@a'`, every update of @a inline and on t,
 * no POST-ACCUM. A target whose cell no row changes has @a' equal to @a and fails the HAVING, so
 * collecting targets on their cell's first change (instead of on every row) gives the same result;
 * HAVING still runs on what was collected (a cell may change and change back).
 */
export function changeCollected(
  cx: Cx,
  b: KernelBlock,
  columns: Map<number, VertexAccum>,
  stmtClosures: boolean,
): number | undefined {
  const h = b.having;
  if (!b.resultIsTarget || b.posts.length > 0 || stmtClosures || h?.kind !== 'binary' || h.op !== '!=')
    return undefined;
  const onTarget = (e: Expr | undefined): e is Expr & { kind: 'vattach' } =>
    e?.kind === 'vattach' &&
    !e.index &&
    e.target?.kind === 'name' &&
    cx.lookup(e.target.name)?.slot === b.targetSlot;
  const [l, r] = [h.left, h.right];
  if (!onTarget(l) || !onTarget(r) || l.name !== r.name || !l.prev === !r.prev) return undefined;
  const va = cx.vaccs.get(l.name);
  if (!va || !columns.has(va.index)) return undefined;
  for (const s of b.accum.stmts) {
    if (s.kind !== 'assign') {
      if (mentions(s, va.name) > 0) return undefined;
      continue;
    }
    const t = s.target;
    if (t.kind === 'vattach' && t.name === va.name && (!onTarget(t) || t.prev)) return undefined;
  }
  return va.index;
}

const MIN_KINDS = [DenseKind.MinInt, DenseKind.MinFloat];

/** Whether `e` reads `va` (now, not `@x'`) of the alias in `slot`. */
function readsOf(cx: Cx, va: VertexAccum, e: Expr | undefined, slot: number): boolean {
  return (
    e?.kind === 'vattach' &&
    e.name === va.name &&
    !e.prev &&
    !e.index &&
    e.target?.kind === 'name' &&
    cx.lookup(e.target.name)?.slot === slot
  );
}

/** Whether the clause's ACCUM is `t.@a += s.@a` on `va` and nothing else (t the target, s the source). */
function propagates(cx: Cx, b: KernelBlock, va: VertexAccum): boolean {
  const [s] = b.accum.stmts;
  if (b.accum.stmts.length !== 1 || s.kind !== 'assign' || s.op !== '+=') return false;
  return readsOf(cx, va, s.target, b.targetSlot) && readsOf(cx, va, s.value, b.sourceSlot);
}
const MAX_KINDS = [DenseKind.MaxInt, DenseKind.MaxFloat];

/**
 * Whether the clause is `WHERE s.@a < t.@a [AND …] ACCUM t.@a += s.@a` on a MinAccum (or `>` on a
 * MaxAccum), as label propagation (connected components) writes it: then WHERE may read t.@a live
 * instead of from the snapshot, saving one random read per row. Proof: the live value only moves
 * towards the rows' values, so a row that passes on the snapshot but not on the live value has a
 * value that no longer changes t, and t was already collected by the earlier row that moved it; the
 * first row that collects t passes either way. With no other ACCUM statement, results, their
 * order and the final values are the same.
 */
export function monotoneFilter(cx: Cx, b: KernelBlock, va: VertexAccum): boolean {
  const min = MIN_KINDS.includes(va.dense!);
  if (!min && !MAX_KINDS.includes(va.dense!)) return false;
  const aliasRead = (e: Expr | undefined, slot: number): boolean => readsOf(cx, va, e, slot);
  if (!propagates(cx, b, va) || !b.where) return false;
  const terms = conjuncts(b.where);
  const filters = terms.filter((e) => mentions(e, va.name) > 0);
  if (filters.length !== 1) return false;
  const f = filters[0];
  if (f.kind !== 'binary' || (f.op !== '<' && f.op !== '>')) return false;
  // Source value first: `<` for Min, `>` for Max; target first: the other way round.
  const sourceFirst = (f.op === '<') === min;
  return sourceFirst
    ? aliasRead(f.left, b.sourceSlot) && aliasRead(f.right, b.targetSlot)
    : aliasRead(f.left, b.targetSlot) && aliasRead(f.right, b.sourceSlot);
}

/**
 * The column of a label propagation (ParallelAccum's bySource `labels`): `t.@a += s.@a` on a
 * 32-bit Min or Max column as the only statement, whose result is the target alone (no other
 * alias kept, no POST-ACCUM, no path counts), and either a monotone filter (see monotoneFilter)
 * as the whole WHERE, or no WHERE and the algorithm library's `HAVING t.@a != t.@a'` (see
 * changeCollected). A target is then collected exactly when its cell changes: a row that passes
 * the live filter changes it; without the filter, HAVING keeps exactly the changed targets, and
 * `@a'` of a changed target is its snapshot value (the listing records it, parallel-labels.ts).
 */
export function labelColumn(
  cx: Cx,
  b: KernelBlock,
  out: KernelSource,
): Omit<LabelAccum, 'accum' | 'owned'> | undefined {
  if (!b.resultIsTarget || b.needSources || b.needTargets || b.counted || b.posts.length > 0)
    return undefined;
  if (out.rowClosures || out.notAtomic) return undefined;
  const [s] = b.accum.stmts;
  if (s?.kind !== 'assign' || s.target.kind !== 'vattach') return undefined;
  const va = cx.vaccs.get(s.target.name);
  if (!va || (va.dense !== DenseKind.MinInt && va.dense !== DenseKind.MaxInt)) return undefined;
  const filtered =
    b.where !== undefined &&
    conjuncts(b.where).length === 1 &&
    out.liveTargets.has(va.index) &&
    monotoneFilter(cx, b, va);
  const kept = b.where === undefined && out.collectOnChange === va.index && propagates(cx, b, va);
  if (!filtered && !kept) return undefined;
  return { column: va.index, min: va.dense === DenseKind.MinInt };
}
