/**
 * The embedded API of Ocelot: everything above engine/ (servers, GSQL, loading, tests) talks to a
 * Database through these interfaces. Nothing here knows about HTTP or GSQL text.
 *
 * Ids: an external vertex id is given as a string (REST form; composite keys joined by commas),
 * or as number/bigint for INT/UINT ids. Row ids are dense per vertex type and internal.
 */
import type { Catalog } from '../catalog/types.js';
import type { Value } from '../catalog/value.js';
import type { RowCache } from './row-cache.js';

export { RowCache } from './row-cache.js';

export type SyncMode = 'always' | 'batch' | 'none';

export type ExternalId = string | number | bigint;

/** The six upsert operation codes; `set` (the default) overwrites. */
export type UpsertOp = 'set' | 'ignore_if_exists' | 'add' | 'and' | 'or' | 'max' | 'min';

export interface AttrUpdate {
  value: Value;
  op: UpsertOp;
}

/** A vertex as the REST layer and PRINT show it. */
export interface VertexRecord {
  v_id: string;
  v_type: string;
  attributes: Record<string, Value>;
}

/** An edge as REST shows it. */
export interface EdgeRecord {
  e_type: string;
  directed: boolean;
  from_id: string;
  from_type: string;
  to_id: string;
  to_type: string;
  attributes: Record<string, Value>;
}

/** Thrown for a request that violates the schema; the write is abandoned and nothing changes. */
export class EngineError extends Error {
  constructor(
    /** A TigerGraph-style code the server layer maps to an envelope (e.g. REST-2004, REST-30200). */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

// ---------------------------------------------------------------------------------------------
// Transactions
// ---------------------------------------------------------------------------------------------

/**
 * One edge seen from the vertex it was reached from. `src*` is that vertex, `tgt*` the other end:
 * for a directed edge read forwards they are FROM and TO; read backwards (direction 'in') or through
 * the reverse edge type they are swapped relative to the stored edge. `edgeType` is the name the
 * reader asked for (the reverse edge's name when reached through it).
 */
export interface EdgeHandle {
  edgeType: string;
  directed: boolean;
  /** True when the edge was reached against its stored direction (in-edge, or a reverse edge type). */
  reversed: boolean;
  srcType: string;
  srcRow: number;
  tgtType: string;
  tgtRow: number;
  /** Internal: the storage block (stored edge type + FROM/TO vertex type pair) and edge id inside it. */
  block: number;
  eid: number;
}

export interface EdgeFilter {
  /** Edge type name (a reverse edge name is allowed); all edge types when absent. */
  edgeType?: string;
  /** Target vertex type; all when absent. */
  targetType?: string;
  /**
   * 'out' (default): edges leaving the vertex, undirected edges at either end, reverse edge types.
   * 'in': directed edges arriving at the vertex (and undirected edges at either end).
   * 'both': out-edges and in-edges; an arriving directed edge appears once, under its own type
   *   (under the reverse type only when that is the `edgeType` asked for).
   */
  direction?: 'out' | 'in' | 'both';
}

/**
 * Typed-array adjacency of one stored edge type between one FROM/TO pair, in one direction, for
 * tight query loops. The base is compressed sparse row: the neighbours of source row r are
 * `targets[offsets[r] .. offsets[r+1])` with edge ids `eids[i]` (or `i` itself when eids is null).
 * Rows beyond `offsets.length - 2` have no base edges. Recent edges live in a delta:
 * `deltaHead[r]` is the newest delta slot of row r (-1: none), `deltaNext[slot]` the next older one,
 * `deltaTarget[slot]` the neighbour, `deltaBase + slot` the edge id; only slots with
 * `deltaVersion[slot] <= version` are visible. `clean` means there is no visible tombstone and no
 * visible delta, so the base arrays alone are exact.
 */
export interface AdjacencyView {
  edgeType: string;
  sourceType: string;
  targetType: string;
  offsets: Uint32Array;
  targets: Uint32Array;
  eids: Uint32Array | null;
  deltaHead: Int32Array;
  deltaNext: Int32Array;
  deltaTarget: Uint32Array;
  deltaBase: number;
  deltaVersion: Uint32Array;
  deltaCount: number;
  version: number;
  clean: boolean;
  /**
   * The second half of an undirected edge type between vertices of one type: its self-loops were
   * listed by the first half already, so readers of `targets` skip `targetRow === row` (forEach and
   * degree do).
   */
  skipSelfLoops: boolean;
  /** Whether edge `eid` is visible at the pinned version (not tombstoned). */
  live(eid: number): boolean;
  /** Calls fn for every visible neighbour of `row`. */
  forEach(row: number, fn: (targetRow: number, eid: number) => void): void;
  /** Number of visible neighbours of `row`. */
  degree(row: number): number;
}

/**
 * Column-level access to one attribute of one vertex type. `numbers` is set for numeric, DATETIME
 * and BOOL attributes (BOOL as 0/1): values at the pinned version for every row whose value has not
 * changed since (see `exact`). INT/UINT values beyond ±2^53 are NaN in `numbers`; `get` is always exact.
 */
export interface ColumnView {
  numbers: Float64Array | Uint8Array | null;
  /** True when `numbers` holds exactly the pinned version's values (no later in-place update, no bigints). */
  exact: boolean;
  get(row: number): Value;
}

export interface AttrStat {
  attribute: string;
  /** Numbers (bigint beyond ±2^53) for numeric attributes; for BOOL: counts of true and false. */
  min?: number | bigint;
  max?: number | bigint;
  avg?: number;
  trueCount?: number;
  falseCount?: number;
}

/** One vertex type's rows at a transaction's version, for a reader of many rows (the type looked up once). */
export interface VertexRowsView {
  /** Upper bound of the type's row ids (rowLimit). */
  readonly limit: number;
  isLive(row: number): boolean;
  /** The external id as REST shows it (vertexId). */
  idText(row: number): string;
  /** The external id in its typed form (vertexIdValue). */
  idValue(row: number): Value;
  /** Numeric ids by row when every id is a number (INT, UINT, DATETIME ids within ±2^53), else null. */
  readonly idNumbers: Float64Array | null;
}

/** A pinned, consistent view of the graph at one committed version. Release it when done. */
export interface ReadTx {
  readonly catalog: Catalog;
  readonly version: number;
  release(): void;

  /** The row of the live vertex with this external id, or undefined. Throws REST-2004 for an unknown type. */
  lookup(vertexType: string, id: ExternalId): number | undefined;
  vertexExists(vertexType: string, id: ExternalId): boolean;
  /** The vertex as REST shows it; `attrs` limits the attributes returned. */
  vertex(vertexType: string, row: number, attrs?: readonly string[]): VertexRecord;
  /** The external id as REST shows it (composite keys comma-joined, DATETIME formatted). */
  vertexId(vertexType: string, row: number): string;
  /** The external id in its typed form (number/bigint for INT/UINT, epoch seconds for DATETIME). */
  vertexIdValue(vertexType: string, row: number): Value;
  attr(vertexType: string, row: number, attribute: string): Value;
  /** Live rows of a vertex type in ascending row order (insertion order). */
  rows(vertexType: string): Uint32Array;
  /** Upper bound of row ids of a vertex type (for sizing per-row arrays). */
  rowLimit(vertexType: string): number;
  isLive(vertexType: string, row: number): boolean;
  vertexRows(vertexType: string): VertexRowsView;
  vertexCount(vertexType?: string): number;

  edges(vertexType: string, row: number, filter?: EdgeFilter): EdgeHandle[];
  /** Edges between two vertices of an edge type, reading it the way `edges` does (all discriminator values). */
  edgesBetween(
    edgeType: string,
    srcType: string,
    srcRow: number,
    tgtType: string,
    tgtRow: number,
  ): EdgeHandle[];
  edgeRecord(edge: EdgeHandle, attrs?: readonly string[]): EdgeRecord;
  edgeAttr(edge: EdgeHandle, attribute: string): Value;
  /** Number of edges of a type (every stored edge once; a reverse edge type counts its forward edges). */
  edgeCount(edgeType?: string, fromType?: string, toType?: string): number;
  /** Adjacency of `edgeType` read from `sourceType` vertices towards `targetType` vertices: one view per storage block (empty: no such pair). */
  adjacency(
    edgeType: string,
    sourceType: string,
    targetType: string,
    direction?: 'out' | 'in',
  ): AdjacencyView[];
  column(vertexType: string, attribute: string): ColumnView;
  vertexAttrStats(vertexType: string): AttrStat[];
  edgeAttrStats(edgeType: string, fromType?: string, toType?: string): AttrStat[];
}

export interface UpsertVertexOptions {
  /** Insert only; an existing vertex is left unchanged ('skipped'). */
  newOnly?: boolean;
  /** Update only; a missing vertex is not created ('skipped'). */
  updateOnly?: boolean;
}

export interface UpsertEdgeOptions {
  /** Create missing endpoint vertices with default attributes (TigerGraph's default); otherwise skip the edge. */
  createMissingEndpoints: boolean;
  /**
   * Edges the caller expects to add to a run's block from this run on (a load's estimate from its
   * input's size; upsertEdges only): room for them is made at once rather than regrown as they
   * come. A hint only: what is written does not depend on it.
   */
  expectEdges?: number;
  /**
   * Edges of a directed type without discriminator, each setting every attribute of the type (op
   * `set`) if it has any, may be appended without looking for their pair first (upsertEdges only;
   * store/edge-block.ts `appendUnchecked`): a repeated pair is found later, when a reader or the
   * writer's next lookup settles the block, or dropped by the merge's sort, which keeps the last
   * repeat's values. What readers see is the same; counts say `inserted` for every such edge.
   */
  unchecked?: boolean;
}

export type UpsertResult = 'inserted' | 'updated' | 'skipped';

/**
 * A run of vertex upserts of one vertex type, given as columns: vertex i (start <= i < end) has id
 * `ids[i]` and attributes `attrs[i]` (none when `attrs` or `attrs[i]` is null), or, when `columns`
 * is given, the attributes of those columns that give vertex i a value (`attrs` is then unused).
 */
export interface VertexRun {
  vertexType: string;
  ids: ArrayLike<ExternalId>;
  attrs: ArrayLike<Record<string, AttrUpdate> | null> | null;
  columns?: readonly VertexRunColumn[];
  /**
   * Attributes given without an object per vertex (a loading batch), read as EdgeRun.shapes: where
   * `attrs` or `attrs[i]` is null and `shapes.of[i]` is not -1 (no `columns`).
   */
  shapes?: EdgeRunShapes;
  start: number;
  end: number;
}

/**
 * One attribute of a vertex run, as parallel arrays over the run's vertices: `values[i]` is vertex
 * i's value (undefined: not given) and `ops[i]` its op (`ops` null or `ops[i]` undefined: 'set').
 * Like an unknown record key, a name the type does not have is ignored; so is a key attribute.
 */
export interface VertexRunColumn {
  name: string;
  values: ArrayLike<Value | undefined>;
  ops: ArrayLike<UpsertOp | undefined> | null;
}

/** What upsertVertices did with the vertices of a run. */
export interface VertexRunCounts {
  inserted: number;
  updated: number;
  /** Deleted permanently: such an id is never inserted again. */
  skipped: number;
  /** Refused: a bad id or attribute value. */
  invalid: number;
}

/**
 * A run of edge upserts of one edge type between one FROM type and one TO type, given as columns:
 * edge i (start <= i < end) goes from `fromIds[i]` to `toIds[i]` with attributes `attrs[i]` (none
 * when `attrs` or `attrs[i]` is null).
 */
export interface EdgeRun {
  edgeType: string;
  fromType: string;
  toType: string;
  fromIds: ArrayLike<ExternalId>;
  toIds: ArrayLike<ExternalId>;
  attrs: ArrayLike<Record<string, AttrUpdate> | null> | null;
  /**
   * Attributes given without an object per edge (a loading batch taken from parse threads): where
   * `attrs` or `attrs[i]` is null and `shapes.of[i]` is not -1, edge i sets the names of shape
   * `shapes.list[shapes.of[i]]`, with its ops, to `shapes.values[shapes.at[i] + j]`.
   */
  shapes?: EdgeRunShapes;
  /**
   * The ids as codes of a dictionary whose rows `cache` remembers (a load's parse threads send
   * STRING ids so, loading/id-words.ts): `from[i]` and `to[i]` are the codes of `fromIds[i]` and
   * `toIds[i]`. The rows are hints, checked before use; the ids still decide.
   */
  codes?: { from: ArrayLike<number>; to: ArrayLike<number>; cache: RowCache };
  start: number;
  end: number;
}

/** Attribute names and ops shared by many edges of a run (EdgeRun.shapes). */
export interface AttrShape {
  names: readonly string[];
  ops: readonly UpsertOp[];
}

/** The attributes of a run's edges by shape: see EdgeRun.shapes. */
export interface EdgeRunShapes {
  list: readonly AttrShape[];
  of: ArrayLike<number>;
  values: ArrayLike<Value>;
  at: ArrayLike<number>;
}

/** What upsertEdges did with the edges of a run. */
export interface EdgeRunCounts {
  inserted: number;
  updated: number;
  /** An endpoint is missing (createMissingEndpoints off) or was deleted permanently. */
  skipped: number;
  /** Refused: a bad id or attribute value. */
  invalid: number;
}

/**
 * The staging side of a write. Every method validates first; an EngineError leaves this call without
 * effect and, thrown out of Database.write's function, abandons the whole transaction. Reads here see
 * the writes staged earlier in the same transaction.
 */
export interface WriteTx extends ReadTx {
  upsertVertex(
    vertexType: string,
    id: ExternalId,
    attrs: Record<string, AttrUpdate>,
    opts?: UpsertVertexOptions,
  ): UpsertResult;
  /**
   * Upserts a run of vertices of one type, with the outcome of upsertVertex (no options) on each in
   * order, logged as one WAL op. A vertex the engine refuses is counted as invalid and left out;
   * the caller decides whether that fails the transaction.
   */
  upsertVertices(run: VertexRun): VertexRunCounts;
  /**
   * Upsert one edge. For an edge type with a discriminator, an edge with the same discriminator
   * values is updated, otherwise a new one is added. Undirected edges may be given in either
   * orientation; a reverse edge type writes its forward edge.
   */
  upsertEdge(
    edgeType: string,
    fromType: string,
    fromId: ExternalId,
    toType: string,
    toId: ExternalId,
    attrs: Record<string, AttrUpdate>,
    opts?: UpsertEdgeOptions,
  ): UpsertResult;
  /**
   * Upserts a run of edges with the outcome of upsertEdge on each edge in order, at bulk speed (the
   * loading path). An edge the engine refuses is counted as invalid and changes nothing; the rest of
   * the run still applies. An unknown type or a pair the edge type does not connect throws for the
   * whole run, changing nothing.
   */
  upsertEdges(run: EdgeRun, opts?: UpsertEdgeOptions): EdgeRunCounts;
  /** Deletes a vertex and all its edges; returns false when it did not exist. */
  deleteVertex(vertexType: string, id: ExternalId, opts?: { permanent?: boolean }): boolean;
  /**
   * Deletes the edges of a type between two vertices (all discriminator values unless
   * `discriminator` names the attribute values to match). Returns the number deleted.
   */
  deleteEdge(
    edgeType: string,
    fromType: string,
    fromId: ExternalId,
    toType: string,
    toId: ExternalId,
    discriminator?: Record<string, Value>,
  ): number;
  /** Deletes one edge found through a read (e.g. by a filtered REST delete). */
  deleteEdgeHandle(edge: EdgeHandle): boolean;
  /** Sets attributes of a vertex found through a read (GSQL DML). */
  setVertexAttrs(vertexType: string, row: number, attrs: Record<string, AttrUpdate>): void;
  setEdgeAttrs(edge: EdgeHandle, attrs: Record<string, AttrUpdate>): void;
}

// ---------------------------------------------------------------------------------------------
// Maintenance
// ---------------------------------------------------------------------------------------------

export interface RebuildOptions {
  threadnum?: number;
  /** Vertex types whose segments are selected (default all). */
  vertextype?: string | readonly string[];
  /** Segment ids selected (default all). */
  segid?: number | readonly number[];
  /** Folder for the summary file (default /tmp/rebuildnow). */
  path?: string;
  /** Also select segments without new data. */
  force?: boolean;
}

export interface RebuildResult {
  /** Folder that holds the summary file. */
  path: string;
  /** Full path of the summary file written. */
  summaryFile: string;
  selected: number;
  skipped: number;
  /** Version covered by the checkpoint written. */
  version: number;
}

export interface DeletedVertexCheckOptions {
  vertextype?: string | readonly string[];
  threadnum?: number;
  segid?: number | readonly number[];
  verbose?: number;
}

export interface UnSyncEntry {
  Segid: number;
  IsRemote: boolean;
  VertexType: string;
  GPEDelHash: number;
  IDSDelHash: number;
}

export interface DeletedVertexCheckResult {
  PassCheck: boolean;
  UnSyncList: UnSyncEntry[];
}

/** The interface the GSQL shell needs to change the schema. */
export interface CatalogStore {
  readonly catalog: Catalog;
  changeCatalog(next: Catalog): Promise<void>;
  clearGraphStore(): Promise<void>;
}

/**
 * A cluster leader's replication of its commits (src/cluster). `replicate` is called in commit order
 * with each commit's WAL record and version; the commit is written to the local WAL, made visible
 * and acknowledged only after it resolves and every earlier commit's did. After a rejection the
 * Database refuses writes (their outcome is unknown: the record may be in the cluster log) until
 * `reload()` puts it back to what its own log holds.
 */
export interface CommitReplicator {
  replicate(record: Uint8Array, version: number): Promise<void>;
}
