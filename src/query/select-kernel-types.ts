/**
 * The shapes SELECT kernels share with the code that runs them (select-kernel.ts builds them;
 * parallel.ts, select-run.ts and the workers read them): the run's state, the phases, and how a
 * split ACCUM or POST-ACCUM group is described.
 */
import type { AdjacencyView } from '../engine/api.js';
import type { Expr, Stmt } from '../gsql/ast-query.js';
import type { RunContext } from './context.js';
import type { RowStmt } from './scope.js';
import type { AccumT } from './types.js';

/** One adjacency walked from a source vertex type: the view, and the target type's run-index base. */
export interface KernelHop {
  view: AdjacencyView;
  base: number;
}

/** The state of one SELECT run that the generated code reads and fills. */
export interface SelectRun {
  stamp: number;
  resultMark: Uint8Array;
  sourceMark: Uint8Array;
  targetMark: Uint8Array;
  /**
   * The run indexes collected for the result and for the source and target aliases: run-sized
   * arrays filled up to their counts.
   */
  result: Int32Array;
  resultCount: number;
  /** A split by sources ran the block's POST-ACCUM group as it listed the targets (AccumJob's `fusedPost`). */
  postsFused: boolean;
  /** Makes the SELECT's own result list of exactly n cells (RunContext's resultList). */
  newList(n: number): Int32Array;
  /** The result's marks were zeroed by the threads that listed them (a split, see parallel.ts). */
  resultMarksClear: boolean;
  sources: Int32Array;
  sourceCount: number;
  targets: Int32Array;
  targetCount: number;
  /** Per run index, the number of matched paths a source stands for (null: one each). */
  counts: Float64Array | null;
  /** Per edge step of the block, the adjacencies of a source vertex type. */
  plan(sourceType: string): KernelHop[][];
  /** The plan of the type run index `gid` belongs to; sets `start`/`end` to the type's run indexes. */
  locate(gid: number): KernelHop[][];
  start: number;
  end: number;
  /** The targets of `row` in a view that is not compacted yet; their count is `collected`. */
  collect(view: AdjacencyView, row: number): Int32Array;
  collected: number;
  /** The target run indexes `[lo, hi)` a partitioned ACCUM phase (ParallelAccum) works on. */
  lo: number;
  hi: number;
  /**
   * For a pulled ACCUM (ParallelAccum's `pull`): the hops from the target type run index `gid`
   * belongs to back to the source type, over the reverse adjacencies (the base is the source
   * type's); sets `start`/`end` to the target type's run indexes. Empty: no row reaches the type.
   */
  pullPlan(gid: number): KernelHop[];
  /** For a pulled ACCUM: the vertex type of every source in the list. */
  pullSource: string;
  /**
   * For a pulled ACCUM: `stamp` at the run index of each source in the list (null: every vertex of
   * the type is one); for a bottom-up step (ParallelAccum's `exists`), one bit per run index.
   */
  member: Int32Array | null;
  /** For a pulled ACCUM with `hoist`: per hoisted value, its value at each source's run index. */
  hoisted?: Float64Array[];
  /** For a label propagation's `owned` walk: this thread's proposals (see parallel-labels.ts). */
  owned?: { proposals: Int32Array };
}

/** A phase over the vertices with run indexes `list[from..to)`. */
export type KernelPhase = (
  ctx: RunContext,
  list: Int32Array,
  from: number,
  to: number,
  st: SelectRun,
) => void;

/**
 * The ACCUM phase of a wide kernel split by target vertex, for several threads (see parallel.ts):
 * each call does the rows whose target run index is in `[st.lo, st.hi)`, in the order one thread
 * does them, so every target cell sees the same updates in the same order at any thread count.
 * Only for a clause whose code a helper thread computes the same (select-kernel's `fallbacks`),
 * that updates only the target's cells (copy-on-write snapshots for what it also reads) and
 * globals whose updates give the same value in any order.
 */
export interface ParallelAccum {
  accum: KernelPhase;
  /**
   * The same rows walked from each target of `[st.lo, st.hi)` back over its in-edges (reverse
   * adjacency, `st.pullPlan`) to the sources marked in `st.member`: a thread touches only its
   * targets' edges instead of every source's. A target's rows come in ascending source order, which
   * is the push order when the list is in storage order and one hop reaches the target type;
   * otherwise only an `orderFree` clause may pull (parallel.ts decides).
   */
  pull: KernelPhase;
  /**
   * Fills `st.hoisted` for the sources `list[from..to)` before `pull` runs: the values over the
   * source alone that `pull` reads per row instead of computing them (KernelSource's `hoist`;
   * a computation that throws leaves NaN, and the row computes it again). `count`: how many.
   */
  hoist?: { fill: KernelPhase; count: number };
  /**
   * A bottom-up step for a clause where only whether some row reaches a target matters
   * (KernelBlock's `exists`): for each target of `[st.lo, st.hi)`, its in-edges until the first
   * source whose bit is set in `st.member` (one bit per run index), then WHERE once; writes only
   * the marks of its own targets (select-bottom-up.ts).
   */
  exists?: KernelPhase;
  /** `exists` also runs the block's POST-ACCUM group over the targets it lists (fusedPost). */
  existsPosts?: boolean;
  /** Whether the clause's effects do not depend on the order of a target's rows (see orderFree). */
  orderFree: boolean;
  /**
   * The rows of the sources `list[from..to)` (a range of the SELECT's sources per call) for a
   * clause whose every cell update is one that threads may make at once on the same cell (see
   * kernel-stmt.ts's atomicUpdate): each thread walks only its own sources. `writes`: the columns
   * it updates, which must keep no `@x'` in the run; no integer cell the clause touches may have
   * spilled (parallel.ts checks both).
   */
  bySource?: {
    accum: KernelPhase;
    writes: number[];
    labels?: LabelAccum;
    /**
     * The clause collects its targets on their cell's change (KernelSource's `collectOnChange`):
     * `accum` collects nothing, and only the label walk may run (listing the changed cells).
     */
    onlyLabels: boolean;
  };
  /** The global accumulators the phase updates: slot and type. */
  globals: [number, AccumT][];
}

/**
 * A label propagation split by sources (`WHERE s.@a < t.@a ACCUM t.@a += s.@a` on a 32-bit Min
 * column, or `>` on a Max one, and nothing else per row): its result is exactly the targets whose
 * cell changed, so its rows set no result marks, and the targets are listed by comparing the
 * cells with the clause's snapshot once every source range is done (parallel-labels.ts). `accum`:
 * the rows of the sources `list[from..to)` with compare-and-swap on the shared cells. `owned`: the
 * same rows where each thread keeps the best value for each target in proposals of its own
 * (`st.owned`), applied range by range before the listing, so no cache line is written by two
 * threads during the rows.
 */
export interface LabelAccum {
  accum: KernelPhase;
  owned: KernelPhase;
  /** The accumulator index of the column. */
  column: number;
  /** A Min column (else Max). */
  min: boolean;
}

/**
 * A POST-ACCUM group of a wide kernel that threads may split by ranges of its vertex list (see
 * parallel.ts): its code is all inline or helper-safe, so each vertex touches only its own cells,
 * and it updates only globals whose updates give the same value in any order.
 */
export interface ParallelPost {
  /** The global accumulators the group updates: slot and type. */
  globals: [number, AccumT][];
}

/** The phases of one variant of a SELECT's kernel. */
export interface KernelVariant {
  accum: KernelPhase;
  /** The wide variant's ACCUM phase split by target, when the clause allows it. */
  parallel?: ParallelAccum;
  posts: KernelPhase[];
  /** Per POST-ACCUM group of the wide variant, how threads may split it (undefined: they may not). */
  parallelPosts: (ParallelPost | undefined)[];
  /**
   * HAVING over the result list (called once with the whole list): keeps the vertices that pass,
   * in order, sets `resultCount`, and clears the marks of those it drops.
   */
  having: KernelPhase | undefined;
  /**
   * Prepares the columns before the SELECT runs (the wide variant reads them without checks).
   * `reads`: the run-index ranges of the vertex types whose cells the clause may read (its
   * sources' and targets' types), where snapshots keep spilled cells (DenseColumn.snapshotAll).
   */
  begin(ctx: RunContext, stamp: number, reads: readonly (readonly [number, number])[]): void;
}

export interface SelectKernel {
  /** Its place among the query's kernels in compile order (-1: compiled while the query ran). */
  index: number;
  /** For SELECTs from a few sources: columns are prepared and copied a chunk at a time. */
  narrow: KernelVariant;
  /** For SELECTs from many sources (see KernelSource.wide). */
  wide: KernelVariant;
  /** Whether this run can use the kernel (every accumulator it inlines is dense in this run). */
  usable(ctx: RunContext): boolean;
}

/** What the SELECT compiler tells the kernel about the block. */
export interface KernelBlock {
  sourceSlot: number;
  targetSlot: number;
  hasEdge: boolean;
  resultIsTarget: boolean;
  needSources: boolean;
  needTargets: boolean;
  /** Sources come with path counts (`st.counts`): the row's ACCUM runs that many times. */
  counted: boolean;
  where?: Expr;
  accum: { stmts: readonly Stmt[]; rows: readonly RowStmt[]; deferred: boolean };
  posts: { slot: number; stmts: readonly Stmt[]; rows: readonly RowStmt[] }[];
  having?: Expr;
  /**
   * Only whether some row reaches a target matters: the result is the target, no ACCUM, WHERE reads
   * only the target (and query state), nothing lists the sources (select-bottom-up.ts).
   */
  exists?: boolean;
  /** Slots below this belong to the query body. */
  querySlots: number;
}
