/**
 * The shapes a split SELECT's threads share (parallel.ts): what the owner asks of the other
 * threads, the structured-cloneable job it posts them, and what a helper hands back.
 */
import type { EdgeFilter } from '../engine/api.js';
import type { Cells, DenseColumn, DenseKind } from './accum-dense.js';
import type { CompiledQuery } from './compile-query.js';
import type { LabelJob } from './parallel-labels.js';
import type { AccumT } from './types.js';

/** What the owner of a SELECT asks of the other threads (see parallel.ts's header). */
export interface ParallelHost {
  /**
   * Runs `job`'s partitions on other threads as well; `ownShare` runs partitions here (it returns
   * once the shared counter is exhausted). Returns the helpers' outcomes once every partition is
   * done and no helper touches the run's arrays any more. Undefined: nothing started (no helper
   * thread at hand).
   */
  accum(query: CompiledQuery, job: AccumJob, ownShare: () => void): HelperOutcome[] | undefined;
  /** Takes the next partition (from the shared counter): its index, or -1 when none is left. */
  take(): number;
  /** Threads that may work on one SELECT (this one included). */
  readonly threads: number;
  /** The query may split SELECTs (splitsSelects): find helpers now, so they are ready for the first. */
  expect(): void;
}

/** A dense column's shared arrays, by accumulator index. */
export interface SharedColumn {
  index: number;
  kind: DenseKind;
  vals: Cells;
  prevAt: Int32Array | null;
  prevVals: Float64Array | null;
  snapVals: Cells | null;
  /**
   * The owner's spilled cells (integer values past a cell's range, kept in objects, not in the
   * shared arrays): current values, `@x'` values and snapshot values, so that a helper reads and
   * updates them from their true values.
   */
  spill: [number, unknown][];
  prev: [number, unknown][];
  snap: [number, unknown][];
}

/** A structured-cloneable description of one partitioned ACCUM (see parallel.ts's header). */
export interface AccumJob {
  kernel: number;
  /** The wide variant's phase: -1 its ACCUM split by target, i >= 0 POST-ACCUM group i by ranges. */
  phase: number;
  stamp: number;
  gids: Int32Array;
  count: number;
  counts: Float64Array | null;
  marks: [Uint8Array, Uint8Array, Uint8Array];
  layout: { types: string[]; starts: number[]; end: number };
  steps: EdgeFilter[];
  targetTypes: string[];
  /** Query variables a kernel may read inline (numbers, booleans, strings and lists of them). */
  vars: [number, unknown][];
  columns: SharedColumn[];
  globals: [number, AccumT][];
  /**
   * Partition boundaries: partition p covers target run indexes [bounds[p], bounds[p + 1]) of a
   * split ACCUM, list positions of a split POST-ACCUM.
   */
  bounds: number[];
  /** The owner's deadline (epoch ms). */
  deadline?: number;
  /** A split ACCUM that pulls (ParallelAccum's `pull`): the sources' type and list marks. */
  pull?: PullJob;
  /**
   * A split ACCUM by ranges of its sources (ParallelAccum's `bySource`): partition p covers list
   * positions [bounds[p], bounds[p + 1]).
   */
  bySource?: boolean;
  /**
   * A split ACCUM whose result is its targets lists them where they lie, on the thread that did
   * the partition: partition p's targets go to `result` from `bounds[p]` on in ascending order
   * (a pull meets them in that order; after a push the thread lists its range's marks), and their
   * count to `listed[p]`. With `gathering`, the threads put the listed pieces together as they go.
   */
  listing?: { result: Int32Array; listed: Int32Array; gathering?: Gathering };
  /**
   * A split by sources whose result is its targets lists them the same way (into `listing`, range r
   * of `ranges` standing for partition r) once every source range is done: `progress[1]` counts
   * the source ranges done, `progress[0]` hands out the ranges of run indexes to list. A thread
   * that ends its share before the last source range is done waits a little for it (sourcesDone),
   * then lists with the others, or lists nothing if it does not come; the owner lists what is
   * left after the split.
   */
  listAfter?: { ranges: number[]; progress: Int32Array };
  /**
   * With `listAfter`, for an existence-only hop whose POST-ACCUM may be fused (ParallelAccum's
   * `existsPosts`): the listing runs that group over each range's targets as it lists them, so no
   * split POST-ACCUM (a round of messages and wake-ups) follows.
   */
  fusedPost?: boolean;
  /**
   * A label propagation split by sources with `listAfter` (ParallelAccum's bySource `labels`,
   * parallel-labels.ts): its rows set no marks, the listing lists the changed cells.
   */
  labels?: LabelJob;
}

/**
 * A split's result list put together from its partitions' listings while the split runs
 * (parallel-list.ts's gatherPieces), by whichever thread finds a piece's place known: `state[0]`
 * is the next piece to copy, `state[1 + p]` 1 once partition p is listed, `at[p]` where piece p
 * goes in `list` (written before the piece can be taken).
 */
export interface Gathering {
  list: Int32Array;
  state: Int32Array;
  at: Int32Array;
}

/** How a pulled ACCUM finds its sources (SelectRun's `pullSource` and `member`) and their hoisted values. */
export interface PullJob {
  source: string;
  member: Int32Array | null;
  /**
   * A bottom-up step (ParallelAccum's `exists`, select-bottom-up.ts) rather than the pulled ACCUM:
   * `member` holds one bit per run index.
   */
  exists?: boolean;
  /**
   * ParallelAccum's `hoist`: the arrays, filled by the threads before any pulls, for ranges of the
   * sources (list positions `fills[f]` to `fills[f + 1]`) taken from `filling[0]`; `filling[1 + f]`
   * is 1 once range f is filled.
   */
  hoisted?: { arrays: Float64Array[]; fills: number[]; filling: Int32Array };
  /**
   * With `exists`: `member`'s bits are set by the threads before any step (member-bits.ts), for
   * ranges of the sources taken as `hoisted`'s are.
   */
  members?: { fills: number[]; filling: Int32Array };
}

/** What a helper thread did besides writing shared cells and marks. */
export interface HelperOutcome {
  /** Its partial value of each global it updated (slot, value). */
  globals: [number, unknown][];
  /** Cells it spilled, by accumulator index. */
  spills: [number, ReturnType<DenseColumn['spills']>][];
}

/** Which lists besides the result a SELECT reads after its ACCUM (its POST-ACCUM's aliases). */
export interface Relisted {
  sources: boolean;
  targets: boolean;
  /** The result is the target alias (the threads list it per partition, see AccumJob's `listing`). */
  resultIsTarget: boolean;
}
