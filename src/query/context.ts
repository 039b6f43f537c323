/**
 * The state of one query run: variable slots, PRINT results, pending DML, interned vertices, and
 * cancellation (an AbortSignal and a deadline, checked while the query runs).
 */
import type { AdjacencyView, EdgeFilter } from '../engine/api.js';
import type { JsonValue } from '../util/json.js';
import { cellArray, DenseColumn, type Cells, type DenseKind } from './accum-dense.js';
import type { ClauseUpdates } from './clause-updates.js';
import type { CompiledQuery } from './compile-query.js';
import type { EdgeAccums } from './edge-accums.js';
import type { ParallelHost } from './parallel.js';
import { openQueryFile, type QueryFile } from './file-output.js';
import type { QueryGraph, QueryWriter } from './graph.js';
import { newStamp, RunBuffers, typeGidList } from './run-buffers.js';
import { fillCells } from './shared-fill.js';
import type { VertexAccum } from './scope.js';
import { QueryRuntimeError, VertexGids, Vtx } from './values.js';

export interface RunOptions {
  signal?: AbortSignal;
  /** Epoch milliseconds after which the query stops with a timeout error. */
  deadline?: number;
  /** The directory FILE objects write into (`ocelot serve --output-dir`); none: FILE is refused. */
  outputDir?: string;
  /** Directories SelectVertex()/LOADACCUM() may also read from (`--import-dir`). */
  importDirs?: readonly string[];
  /** The server's log, for LOG statements; none: LOG writes nothing. */
  log?: (line: string) => void;
  /** Other threads that may run part of a SELECT (a query worker's pool, see parallel.ts). */
  parallel?: ParallelHost;
  /** The most threads, the query's own included, its split SELECTs use (GSQL-THREAD-LIMIT). */
  threadLimit?: number;
  /** The query's own heap limit in MiB (GSQL-QueryLocalMemLimitMB; workers/pool.ts). */
  memoryMb?: number;
}

/** Per-run arrays of the breadth-first search of repeated pattern steps (select-expand.ts). */
export interface BfsScratch {
  /** The search that last reached each run index. */
  seen: Int32Array;
  dist: Int32Array;
  paths: Float64Array;
  /** The number of the last search. */
  search: number;
}

/** A change the query makes, applied in order when the query ends. */
export type DmlOp = (tx: QueryWriter) => void;

/** What internedOf gives for a type without a row-sized array: never written. */
const NONE: readonly Vtx[] = [];

/** How long synchronous work may run before the query yields to the event loop. */
const YIELD_EVERY_MS = 10;

export class RunContext {
  readonly vars: unknown[];
  readonly results: { [key: string]: JsonValue }[] = [];
  readonly dml: DmlOp[] = [];
  /** FILE objects opened by the run, written when it ends. */
  readonly files: QueryFile[] = [];
  /** While an ACCUM or POST-ACCUM clause runs: accumulator updates applied at the clause's end. */
  pending: ClauseUpdates | null = null;
  /**
   * Whether vertex-attached updates wait too (ACCUM). In POST-ACCUM each vertex is processed on its
   * own, so its accumulators change at once (`s.@score = …, @@diff += s.@score - s.@score'`).
   */
  deferVertexUpdates = false;
  /** Slots of the parameters given as NULL (`_`) or left out without a default: IS NULL holds. */
  readonly nullParams = new Set<number>();
  /** Run-time warnings, shown in the response's message (`Runtime Warning: …`). */
  readonly warnings: string[] = [];
  /** The run's edge-attached accumulators, in declaration order (a printed edge shows them). */
  readonly edgeAccums: EdgeAccums[] = [];
  /** The value of a RETURN statement. */
  returned: unknown = undefined;
  /** Interned vertices by type: few in a map, many in an array indexed by row (see internedOf). */
  private readonly sparse = new Map<string, Map<number, Vtx>>();
  private readonly rowArrays = new Map<string, Vtx[]>();
  /** The run index of the vertex each SELECT alias slot is bound to (see aliasVertex). */
  readonly gids: Int32Array;
  private bases: Map<string, number> | null = null;
  private readonly gidTypes: string[] = [];
  private readonly gidStarts: number[] = [];
  private gidEnd = 0;
  private markArrays: Uint8Array[] | null = null;
  private gidLists: Int32Array[] | null = null;
  private frontierMark: Uint8Array | null = null;
  private memberMark: Int32Array | null = null;
  private memberBitArray: Int32Array | null = null;
  private countArrays: Float64Array[] | null = null;
  private hoistArrays: Float64Array[] = [];
  private bfs: BfsScratch | null = null;
  /** SELECTs that marked vertices and have not cleared their marks yet (see marks()). */
  marksOpen = 0;
  private readonly buffers = new RunBuffers();
  private readonly degreeViews = new Map<string, Map<string, AdjacencyView[]>>();
  /** Per out-edge filter list of outdegree(): per vertex type index, the views it counts. */
  private readonly degreeViewsByFilters = new WeakMap<EdgeFilter[], AdjacencyView[][]>();
  /** Per vertex-attached accumulator index: its dense column, or null when it keeps objects. */
  readonly dense: (DenseColumn | null)[] = [];
  private lastYield = Date.now();
  private ops = 0;
  private nextCheck = 4096;

  constructor(
    readonly graph: QueryGraph,
    readonly graphName: string,
    slots: number,
    readonly opts: RunOptions = {},
  ) {
    this.vars = new Array<unknown>(slots).fill(undefined);
    this.gids = new Int32Array(slots);
  }

  /** The stamp of the running (or last) SELECT: `@x'` reads the value from before it. */
  selectStamp = 0;

  /** The compiled query this run runs (a top-level run; its kernels are named by index, parallel.ts). */
  query: CompiledQuery | undefined = undefined;

  /**
   * Takes another run's vertex index layout (a helper thread running part of its SELECT must use
   * the same run indexes, see parallel.ts).
   */
  adoptLayout(types: readonly string[], starts: readonly number[], end: number): void {
    this.bases = new Map(types.map((t, i) => [t, starts[i]]));
    this.gidTypes.length = 0;
    this.gidTypes.push(...types);
    this.gidStarts.length = 0;
    this.gidStarts.push(...starts);
    this.gidEnd = end;
  }

  /** This run's layout (see adoptLayout). */
  layoutOf(): { types: string[]; starts: number[]; end: number } {
    const end = this.gidLimit();
    return { types: [...this.gidTypes], starts: [...this.gidStarts], end };
  }

  /** A number no earlier SELECT (of any run) used, for marking collected vertices. */
  nextStamp(): number {
    return newStamp();
  }

  /** Opens a FILE object of this run (see file-output.ts). */
  openFile(path: string): QueryFile {
    const f = openQueryFile(path, this.opts.outputDir);
    this.files.push(f);
    return f;
  }

  /** The one Vtx object of (type, row) in this run. */
  vertex(type: string, row: number): Vtx {
    return this.internedOf(type)[row] ?? this.intern(type, row);
  }

  /**
   * This run's Vtx for `v`. A vertex kept from another run (a STATIC accumulator, a subquery's
   * result) carries that run's run index and accumulators, which are not this run's.
   */
  own(v: Vtx): Vtx {
    return v.run === this ? v : this.vertex(v.type, v.row);
  }

  /**
   * The interned vertices of one type by row, for loops that look many up: an array sized to the
   * type's rows once the run uses many of the type's vertices, else an empty array (every lookup
   * misses and goes through intern()). A small query does not allocate a slot per row, and a large
   * one does not fill an array at scattered rows (which V8 turns into a slow dictionary).
   */
  internedOf(type: string): Vtx[] {
    return this.rowArrays.get(type) ?? (NONE as Vtx[]);
  }

  /** The interned vertices of one type in an array sized to the type's rows (see internedOf). */
  internedDense(type: string): Vtx[] {
    let arr = this.rowArrays.get(type);
    if (arr) return arr;
    arr = new Array<Vtx>(this.graph.rowLimit(type));
    const few = this.sparse.get(type);
    if (few) for (const [row, v] of few) arr[row] = v;
    this.sparse.delete(type);
    this.rowArrays.set(type, arr);
    return arr;
  }

  /** The Vtx of (type, row), created on first use. */
  intern(type: string, row: number): Vtx {
    const arr = this.rowArrays.get(type);
    if (arr) return (arr[row] ??= new Vtx(type, row, this.base(type) + row, this));
    let few = this.sparse.get(type);
    if (!few) this.sparse.set(type, (few = new Map()));
    let v = few.get(row);
    if (v === undefined) {
      v = new Vtx(type, row, this.base(type) + row, this);
      few.set(row, v);
      if (few.size * 64 >= this.graph.rowLimit(type)) this.internedDense(type);
    }
    return v;
  }

  /**
   * The run index of row 0 of a vertex type: vertex types take consecutive ranges of run indexes
   * (`Vtx.gid`), sized by their row limits in the pinned snapshot, so the index of (type, row) is
   * known without a Vtx object.
   */
  base(type: string): number {
    const b = (this.bases ?? this.layout()).get(type);
    if (b === undefined) throw new QueryRuntimeError(`Runtime Error: unknown vertex type ${type}.`);
    return b;
  }

  /** One past the largest run index. */
  gidLimit(): number {
    if (!this.bases) this.layout();
    return this.gidEnd;
  }

  private layout(): Map<string, number> {
    const bases = new Map<string, number>();
    let next = 0;
    for (const vt of this.graph.catalog.vertexTypes) {
      bases.set(vt.name, next);
      this.gidTypes.push(vt.name);
      this.gidStarts.push(next);
      next += this.graph.rowLimit(vt.name);
    }
    this.gidEnd = next;
    this.bases = bases;
    return bases;
  }

  /** The Vtx of a run index. */
  vertexAt(gid: number): Vtx {
    const i = this.typeIndexAt(gid);
    return this.vertex(this.gidTypes[i], gid - this.gidStarts[i]);
  }

  /** The index (into the run's vertex types in catalog order) of the type run index `gid` belongs to. */
  typeIndexAt(gid: number): number {
    if (!this.bases) this.layout();
    let i = this.gidStarts.length - 1;
    while (i > 0 && this.gidStarts[i] > gid) i--;
    return i;
  }

  /** The index of a vertex type (see typeIndexAt). */
  typeIndexOf(type: string): number {
    if (!this.bases) this.layout();
    return this.gidTypes.indexOf(type);
  }

  /** The vertex type with index `i` (see typeIndexAt). */
  typeNameAt(i: number): string {
    return this.gidTypes[i];
  }

  /** The run index of row 0 of the vertex type with index `i` (see typeIndexAt). */
  typeStartAt(i: number): number {
    return this.gidStarts[i];
  }

  /** The vertex type with index `i` (see typeIndexAt), and its run indexes `[start, end)`. */
  typeRange(i: number): { type: string; start: number; end: number } {
    const start = this.gidStarts[i];
    const end = i + 1 < this.gidStarts.length ? this.gidStarts[i + 1] : this.gidEnd;
    return { type: this.gidTypes[i], start, end };
  }

  /** A vertex set as a list of Vtx: run indexes (VertexGids) get their objects, once. */
  vertexList(v: unknown): unknown {
    if (!(v instanceof VertexGids)) return v;
    if (v.run !== this) throw new QueryRuntimeError('Runtime Error: a vertex set was read outside its run.');
    if (v.list === undefined) {
      const gids = v.gids;
      const list = new Array<Vtx>(gids.length);
      for (let n = 0; n < gids.length; n++) list[n] = this.vertexAt(gids[n]);
      v.list = list;
    }
    return v.list;
  }

  /** The run indexes of a vertex set (a Vtx list or VertexGids), for SELECT kernels. */
  gidsOf(v: Vtx[] | VertexGids): Int32Array {
    if (v instanceof VertexGids) return v.gids;
    const out = new Int32Array(v.length);
    for (let n = 0; n < v.length; n++) out[n] = this.own(v[n]).gid;
    return out;
  }

  /** Every live vertex of the given types, as run indexes in type then row order. */
  typeGids(typeNames: Iterable<string>): VertexGids {
    const parts = [...new Set(typeNames)].map((tn) => typeGidList(this.graph.rows(tn), this.base(tn)));
    if (parts.length === 1) return new VertexGids(this, parts[0]);
    const out = new Int32Array(parts.reduce((n, p) => n + p.length, 0));
    let n = 0;
    for (const p of parts) {
      out.set(p, n);
      n += p.length;
    }
    return new VertexGids(this, out);
  }

  /**
   * Per-run lists a SELECT kernel collects run indexes in (result, sources, targets), one cell per
   * run index: a vertex is collected at most once per SELECT, so a list never outgrows its array.
   */
  gidBuffers(): Int32Array[] {
    if (!this.gidLists) {
      const n = this.gidLimit();
      this.gidLists = [this.buffers.int32Cells(n), this.buffers.int32Cells(n), this.buffers.int32Cells(n)];
    }
    return this.gidLists;
  }

  /**
   * The vertex a SELECT alias is bound to. SELECT binds an alias by run index (`gids[slot]`) and
   * creates its Vtx only when something reads the alias as a value.
   */
  aliasVertex(slot: number): Vtx {
    const v = this.vertexAt(this.gids[slot]);
    this.vars[slot] = v;
    return v;
  }

  /** A SELECT's result list of exactly n run indexes, valid while the run lasts (RunBuffers's resultList). */
  resultList(n: number): Int32Array {
    return this.buffers.resultList(n, this.gidLimit());
  }

  /**
   * Per-run marks by run index for the vertices a SELECT collects (result, sources, targets): 1 for
   * collected. A SELECT counts itself in `marksOpen` and zeroes what it marked when it ends.
   */
  marks(): Uint8Array[] {
    if (!this.markArrays) {
      const n = this.gidLimit();
      this.markArrays = [this.buffers.marks(n), this.buffers.marks(n), this.buffers.marks(n)];
    }
    return this.markArrays;
  }

  /**
   * Marks by run index for the vertex sets of a chain's steps (select-chain.ts): handed out zeroed,
   * and zeroed again by the step that marked them (a run that ends otherwise zeroes them on release).
   */
  chainMarks(): Uint8Array {
    return (this.frontierMark ??= this.buffers.marks(this.gidLimit()));
  }

  /**
   * A pulled ACCUM's sources by run index (parallel.ts): the SELECT's stamp marks its sources, so
   * that nothing needs clearing (zeroed when the run first asks).
   */
  memberStamps(): Int32Array {
    return (this.memberMark ??= this.zeroedInt32(this.gidLimit()));
  }

  /**
   * A bottom-up step's sources as one bit per run index (select-bottom-up.ts): zero between steps
   * (a step clears the words it set).
   */
  memberBits(): Int32Array {
    return (this.memberBitArray ??= this.zeroedInt32((this.gidLimit() >>> 5) + 1));
  }

  /**
   * A kept Int32Array whose first n cells are zero: only those are filled, since the kept array
   * may be far longer (the bottom-up step's 32,769 words at 2^20 came in a million-cell list,
   * 0.5 ms to zero whole).
   */
  private zeroedInt32(n: number): Int32Array {
    return fillCells(this.buffers.int32Cells(n), 0, 0, n);
  }

  /**
   * `count` arrays of a pulled ACCUM's hoisted values by run index (parallel.ts), the same ones for
   * every SELECT of the run and taken from the arrays earlier runs left: a pull writes a cell
   * before any thread reads it.
   */
  hoistCells(count: number): Float64Array[] {
    const n = this.gidLimit();
    while (this.hoistArrays.length < count) this.hoistArrays.push(this.buffers.cells(n));
    return this.hoistArrays.slice(0, count);
  }

  /** Two arrays of path counts by run index (a chain step reads one and fills the other). */
  pathCounts(): Float64Array[] {
    const n = this.gidLimit();
    return (this.countArrays ??= [this.buffers.cells(n), this.buffers.cells(n)]);
  }

  /** The arrays of breadth-first searches (select-expand.ts's shortestReach), made once per run. */
  bfsScratch(): BfsScratch {
    if (!this.bfs) {
      const n = this.gidLimit();
      this.bfs = {
        seen: this.zeroedInt32(n),
        dist: this.buffers.int32Cells(n),
        paths: this.buffers.cells(n),
        search: 0,
      };
    }
    return this.bfs;
  }

  /**
   * The number of edges of one type leaving (type, row), as `graph.edges(…).length` counts them,
   * read from the adjacency views (no edge handles are listed).
   */
  outDegree(edgeType: string, type: string, row: number): number {
    return this.degreeIn(this.outViews(edgeType, type), row);
  }

  /**
   * outdegree() over out-edge filters that all name their edge type, of the vertex with run index
   * gid (SELECT kernels call it once per source vertex, so the views are looked up once per type).
   */
  outDegreeOfGid(filters: EdgeFilter[], gid: number): number {
    const i = this.typeIndexAt(gid);
    let byType = this.degreeViewsByFilters.get(filters);
    if (!byType) this.degreeViewsByFilters.set(filters, (byType = []));
    let views = byType[i];
    if (views === undefined) {
      const type = this.typeNameAt(i);
      views = byType[i] = filters.flatMap((f) => this.outViews(f.edgeType!, type));
    }
    return this.degreeIn(views, gid - this.typeStartAt(i));
  }

  /** The out-adjacency views of one edge type from one source vertex type, to every target type. */
  private outViews(edgeType: string, type: string): AdjacencyView[] {
    let bySource = this.degreeViews.get(edgeType);
    if (!bySource) this.degreeViews.set(edgeType, (bySource = new Map()));
    let views = bySource.get(type);
    if (!views) {
      views = this.graph.catalog.vertexTypes.flatMap((t) =>
        this.graph.adjacency(edgeType, type, t.name, 'out'),
      );
      bySource.set(type, views);
    }
    return views;
  }

  private degreeIn(views: AdjacencyView[], row: number): number {
    let n = 0;
    for (const view of views) {
      const offsets = view.offsets;
      if (view.clean && !view.skipSelfLoops && row + 1 < offsets.length) n += offsets[row + 1] - offsets[row];
      else n += view.degree(row);
    }
    return n;
  }

  /** Returns the run's reusable arrays; called once the run has ended. */
  release(): void {
    this.buffers.release(this.marksOpen !== 0);
    this.markArrays = null;
    this.gidLists = null;
    this.hoistArrays = [];
    this.frontierMark = null;
    this.memberMark = null;
    this.memberBitArray = null;
    this.countArrays = null;
    this.bfs = null;
    this.dense.length = 0;
  }

  /** The dense column of a vertex-attached accumulator in this run (null: it keeps objects). */
  column(va: VertexAccum): DenseColumn | null {
    let c = this.dense[va.index];
    if (c === undefined) {
      c =
        va.dense !== undefined
          ? new DenseColumn(va.dense, () => va.make(this), this.cellsFor(va.dense))
          : null;
      if (c !== null && va.primed) c.keepPrevious();
      this.dense[va.index] = c;
    }
    return c;
  }

  /** Reusable cells of the typed array a dense kind keeps its values in. */
  private cellsFor(kind: DenseKind): Cells {
    const n = this.gidLimit();
    const a = cellArray(kind);
    return a === 'u8'
      ? this.buffers.byteCells(n)
      : a === 'f32'
        ? this.buffers.float32Cells(n)
        : a === 'i32'
          ? this.buffers.int32Cells(n)
          : this.buffers.cells(n);
  }

  /** Throws when the query was aborted or ran past its deadline. */
  check(): void {
    if (this.opts.signal?.aborted) throw new QueryRuntimeError('The query was aborted.', 'GSQL-6500');
    if (this.opts.deadline !== undefined && Date.now() > this.opts.deadline) {
      throw new QueryRuntimeError('The query exceeded its time limit and was stopped.', 'GSQL-7002');
    }
  }

  /** Called in tight loops: checks cancellation every few thousand steps. */
  step(): void {
    if (++this.ops >= this.nextCheck) this.checkNow();
  }

  /** Counts n steps at once (a whole adjacency list), checking cancellation as step() does. */
  steps(n: number): void {
    this.ops += n;
    if (this.ops >= this.nextCheck) this.checkNow();
  }

  private checkNow(): void {
    this.nextCheck = this.ops + 4096;
    this.check();
  }

  /** Called between statements and loop iterations: yields to the event loop now and then. */
  async tick(): Promise<void> {
    this.check();
    const now = Date.now();
    if (now - this.lastYield >= YIELD_EVERY_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      this.lastYield = Date.now();
      this.check();
    }
  }
}
