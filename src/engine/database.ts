/**
 * Database: the embedded entry point. Catalog + store + transactions + durability behind one API.
 *
 * Writes: `write(fn)` runs fn synchronously on a WriteTx (so writers are naturally serialized), then
 * appends the transaction's WAL record; the record's fsync is shared with concurrent writes (group
 * commit in the WAL). Versions are published strictly in commit order once durable; readers pin the
 * last published version and never wait for writers.
 *
 * Two store references: `store` receives staged writes, `readStore` is what new readers pin. They
 * differ only while a schema change or clear is waiting for its log record to be durable.
 *
 * In a cluster (src/cluster) a leader's commits go to the replicated log before the local WAL
 * (`lead`), a follower refuses local writes and applies the leader's records through the recovery
 * code path (`follow`, `applyReplicated`), and `reload` puts a leader whose replication failed back
 * to what its own WAL holds.
 */
import { join } from 'node:path';
import { type Catalog, EMPTY_CATALOG } from '../catalog/types.js';
import { DataDir, type FileLayer, MAX_PAYLOAD, type WriteAheadLog } from '../durability/index.js';
import type { BuiltBase } from '../store/base-builder.js';
import { type BaseBuild, buildOnThread } from '../store/base-thread.js';
import type { Column } from '../store/columns.js';
import type { EdgeBlock } from '../store/edge-block.js';
import { type Counter, publishCount, trimCount } from '../store/counter.js';
import { GraphStore } from '../store/graph-store.js';
import {
  type CatalogStore,
  type CommitReplicator,
  type DeletedVertexCheckOptions,
  type DeletedVertexCheckResult,
  EngineError,
  type ReadTx,
  type RebuildOptions,
  type RebuildResult,
  type SyncMode,
  type WriteTx,
} from './api.js';
import { decodeSnapshot, encodeSnapshot } from './checkpoint-codec.js';
import { CommitFeed, type CommitListener } from './commit-feed.js';
import { deletedVertexCheck } from './deleted-check.js';
import { migrateStore } from './migrate.js';
import { ReadTxImpl } from './read-tx.js';
import {
  installMerged,
  installTables,
  type MergeJob,
  type MergePolicy,
  planMerge,
  planTables,
  prepareMerged,
  prepareTables,
  type TableFold,
} from './fresh-merge.js';
import { mergeAll, rebuildSummary, writeSummaryFile } from './rebuild.js';
import { replayRecord } from './replay.js';
import { catalogRecord, clearRecord, decodeRecord } from './wal-record.js';
import { WriteTxImpl } from './write-tx.js';
import { silentLogger, type Logger } from '../util/logger.js';

export interface DatabaseOptions {
  dataDir: string;
  sync?: SyncMode;
  /** Automatic rebuild period when there is new data; 0 disables it. Default 30 000. */
  rebuildIntervalMs?: number;
  /** Recovery, rebuild and fatal-error lines; none: nothing is logged. */
  logger?: Logger;
  /** Called once when a write to disk fails; the Database then refuses writes. */
  onFatal?: (err: Error) => void;
  /** The file layer (tests pass the durability layer's fault-injecting one). */
  fileLayer?: FileLayer;
  /** Fewest delta edges of a block that the background merge after a load merges. Default 16 384. */
  freshMergeMinEdges?: number;
  /**
   * Quiet time after the last write before any delta left (small loads, REST++ upserts,
   * deletions) is merged in the background; 0 disables it. Default 1 000.
   */
  idleMergeMs?: number;
}

const FRESH_MERGE_MIN_EDGES = 16_384;
const IDLE_MERGE_MS = 1000;
/** An idle merge starts at least this many times its predecessor's duration after it ended. */
const IDLE_MERGE_SPACING = 4;
/** What an idle merge takes on: any delta of at least a 32nd of its base (see MergePolicy). */
const IDLE_MERGE: MergePolicy = { minDelta: 1, share: 32, idle: true };
/**
 * An idle merge that finds more writes made meanwhile (edges, tombstones, vertex rows) is dropped
 * rather than re-apply them while writes wait: writes did not pause after all (a load).
 */
const IDLE_MERGE_MAX_LATER = 16_384;

export const DEFAULT_REBUILD_PATH = '/tmp/rebuildnow';

/** What recovery did when the Database was opened (for the server's startup log and status). */
export interface RecoverySummary {
  /** LSN covered by the checkpoint loaded (0: none). */
  checkpointLsn: number;
  /** WAL records replayed after it. */
  replayedRecords: number;
  /** Version the database opened at. */
  version: number;
  /** A torn or corrupt WAL tail that was cut off: where and why. */
  tailCut?: { segment: string; offset: number; bytes: number; reason: string };
  /** Damaged checkpoints skipped (file: reason). */
  skippedCheckpoints: string[];
}

/** What recovering a data directory produced. */
interface Recovered {
  dir: DataDir;
  wal: WriteAheadLog;
  store: GraphStore;
  version: number;
  lsn: number;
  summary: RecoverySummary;
}

/** A commit's record that the cluster log refused or did not confirm. */
class ReplicationFailure extends Error {
  constructor(readonly reason: unknown) {
    super(reason instanceof Error ? reason.message : String(reason));
    this.name = 'ReplicationFailure';
  }
}

export class Database implements CatalogStore {
  private store: GraphStore;
  private readStore: GraphStore;
  private published: number;
  private staged: number;
  private lastLsn = 0;
  private checkpointLsn: number;
  private readers = new Map<number, number>();
  private historyColumns = new Set<Column>();
  private counters = new Set<Counter>();
  /** Resolves when every staged commit is published (or failed). */
  private tail: Promise<void> = Promise.resolve();
  private pending = 0;
  private fatal: Error | undefined;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  private rebuilding: Promise<unknown> = Promise.resolve();
  /** Background merges run one after another (see `mergeFresh`); the thread of the one running. */
  private merging: Promise<void> = Promise.resolve();
  private mergeBuild: BaseBuild | undefined;
  /** The idle merge's timer, the last write's time and the earliest next idle merge (performance.now()). */
  private idleTimer: NodeJS.Timeout | undefined;
  private lastWriteAt = 0;
  private idleMergeAfter = 0;
  /** Set when close() starts: no merge starts or reports after it. */
  private stopping = false;
  /** Checkpoint files are written one at a time, outside the writers' pause. */
  private checkpointing: Promise<void> = Promise.resolve();
  /** Listeners told of each published commit (see commit-feed.ts). */
  private readonly commits = new CommitFeed();
  /** Filled in by open(). */
  recovery: RecoverySummary = { checkpointLsn: 0, replayedRecords: 0, version: 0, skippedCheckpoints: [] };
  /** A cluster leader's replication of each commit (see `lead`). */
  private replicator: CommitReplicator | undefined;
  /** Set on a cluster follower: why local writes are refused. */
  private followerReason: string | undefined;
  /** The first replication failure; writes are refused until `reload`. */
  private replicationFailure: ReplicationFailure | undefined;
  /** Settles when the last replicated commit may be appended to the WAL (rejects after a failure). */
  private appendGate: Promise<void> = Promise.resolve();
  /** Commits queued behind the append gate (appends must then keep going through it, in order). */
  private gated = 0;
  private dir: DataDir;
  private wal: WriteAheadLog;

  private constructor(
    r: Recovered,
    private readonly opts: DatabaseOptions,
  ) {
    this.dir = r.dir;
    this.wal = r.wal;
    this.store = r.store;
    this.readStore = r.store;
    this.published = r.version;
    this.staged = r.version;
    this.lastLsn = r.lsn;
    this.checkpointLsn = r.summary.checkpointLsn;
    this.recovery = r.summary;
  }

  /** The data directory this Database was opened on. */
  get dataDir(): string {
    return this.opts.dataDir;
  }

  /** Opens (creating if needed) a data directory and recovers it: newest checkpoint + WAL replay. */
  static async open(opts: DatabaseOptions): Promise<Database> {
    // A fatal error during recovery has no Database to stop yet; one after it stops this one.
    const opened: { db?: Database } = {};
    const recovered = await Database.recover(opts, (err) => opened.db?.fail(err));
    const db = new Database(recovered, opts);
    opened.db = db;
    db.startTimer();
    // What recovery replayed sits in deltas: merge it while the server starts serving.
    void db.mergeFresh();
    return db;
  }

  private static async recover(opts: DatabaseOptions, onFatal: (err: Error) => void): Promise<Recovered> {
    const log = opts.logger ?? silentLogger;
    const dir = await DataDir.open({
      path: opts.dataDir,
      ...(opts.fileLayer ? { fs: opts.fileLayer } : {}),
      syncMode: opts.sync ?? 'always',
      onFatal,
    });
    try {
      const rec = await dir.recover();
      let store: GraphStore;
      let version = 0;
      let lsn = 0;
      if (rec.checkpoint) {
        const snap = decodeSnapshot(rec.checkpoint.bytes);
        store = snap.store;
        version = snap.version;
        lsn = rec.checkpoint.lsn;
      } else {
        store = new GraphStore(EMPTY_CATALOG, 0);
      }
      const checkpointLsn = lsn;
      let replayed = 0;
      for await (const r of rec.records) {
        const d = decodeRecord(r.payload);
        const applied = replayRecord(store, d);
        store = applied.store;
        if (applied.tx) {
          for (const c of applied.tx.touchedCounters) publishCount(c, d.version);
          for (const c of applied.tx.historyColumns) c.history = null;
        }
        version = d.version;
        lsn = r.lsn;
        replayed++;
      }
      const cut = rec.report.wal.tailCut;
      if (cut)
        log.warn(
          `recovery: cut a torn WAL tail in ${cut.segment} at offset ${cut.offset} (${cut.bytes} bytes): ${cut.reason}`,
        );
      for (const s of rec.report.skippedCheckpoints)
        log.warn(`recovery: skipped damaged checkpoint ${s.file}: ${s.reason}`);
      log.info(
        `recovery: checkpoint LSN ${checkpointLsn}, replayed ${replayed} WAL records, version ${version}`,
      );
      const summary: RecoverySummary = {
        checkpointLsn,
        replayedRecords: replayed,
        version,
        skippedCheckpoints: rec.report.skippedCheckpoints.map((c) => `${c.file}: ${c.reason}`),
        ...(cut
          ? { tailCut: { segment: cut.segment, offset: cut.offset, bytes: cut.bytes, reason: cut.reason } }
          : {}),
      };
      return { dir, wal: rec.wal, store, version, lsn, summary };
    } catch (err) {
      await dir.close();
      throw err;
    }
  }

  get catalog(): Catalog {
    return this.store.catalog;
  }

  /** Write-ahead log counters (appends, writes, fsyncs): group commit shows as fewer syncs than appends. */
  get walStats(): Readonly<{ appends: number; writes: number; syncs: number; rolls: number }> {
    return this.wal.stats;
  }

  /** The last published (visible) version. */
  get version(): number {
    return this.published;
  }

  private fail(err: Error): void {
    if (this.fatal) return;
    this.fatal = err;
    this.opts.logger?.error(`fatal: ${err.message}`);
    this.opts.onFatal?.(err);
  }

  /** Throws unless writes are possible; `local` also refuses them on a cluster follower. */
  private checkWritable(local = true): void {
    if (this.fatal)
      throw new EngineError('SYS-FATAL', `The database stopped accepting writes: ${this.fatal.message}`);
    if (this.closed) throw new EngineError('SYS-CLOSED', 'The database is closed.');
    if (this.replicationFailure)
      throw new EngineError(
        'SYS-0001',
        'This node is not accepting writes: it is returning to the cluster log after a failed replication; retry.',
      );
    if (local && this.followerReason !== undefined) throw new EngineError('SYS-0001', this.followerReason);
  }

  private startTimer(): void {
    const ms = this.opts.rebuildIntervalMs ?? 30_000;
    if (ms <= 0) return;
    this.timer = setInterval(() => {
      if (this.lastLsn > this.checkpointLsn && !this.fatal && !this.closed) {
        this.runRebuild({}, false).catch((err: unknown) =>
          this.opts.logger?.error(`automatic rebuild failed: ${String(err)}`),
        );
      }
    }, ms);
    this.timer.unref();
  }

  read(): ReadTx {
    return this.pin();
  }

  /** A read transaction with access to the store it pins (worker threads mirror it). */
  pin(): ReadTxImpl {
    const v = this.published;
    this.readers.set(v, (this.readers.get(v) ?? 0) + 1);
    return new ReadTxImpl(this.readStore, v, () => {
      const n = (this.readers.get(v) ?? 1) - 1;
      if (n === 0) this.readers.delete(v);
      else this.readers.set(v, n);
      this.trim();
    });
  }

  /** Drops column history and count history no pinned reader can need any more. */
  private trim(): void {
    let min = this.published;
    for (const v of this.readers.keys()) if (v < min) min = v;
    for (const c of this.historyColumns) {
      c.trimHistory(min);
      if (c.history === null) this.historyColumns.delete(c);
    }
    for (const c of this.counters) trimCount(c, min);
    this.counters.clear();
  }

  /** Appends a record and publishes `version` once it is durable and every earlier one is published. */
  private commit(bytes: Uint8Array, version: number, onPublish: () => void): Promise<void> {
    this.staged = version;
    this.pending++;
    const durable = this.logRecord(bytes, version);
    const prev = this.tail;
    const done = (async () => {
      try {
        const lsn = await durable;
        await prev;
        if (this.fatal) throw this.fatal;
        this.lastLsn = lsn;
        this.published = version;
        onPublish();
        this.trim();
      } catch (err) {
        if (err instanceof ReplicationFailure) {
          this.replicationFailure ??= err;
          throw new EngineError(
            'SYS-0001',
            `The cluster log did not confirm this write (${err.message}); its outcome is unknown: it is ` +
              'applied on every node if the log holds it, and nowhere otherwise.',
          );
        }
        this.fail(err instanceof Error ? err : new Error(String(err)));
        throw new EngineError('SYS-FATAL', `The write could not be made durable: ${String(err)}`);
      } finally {
        this.pending--;
      }
    })();
    this.tail = done.catch(() => undefined);
    return done;
  }

  /**
   * Writes a commit's record to the WAL. On a cluster leader the record goes to the cluster log
   * first and the local append waits for its confirmation, so the local log never holds what the
   * cluster log does not; appends stay in commit order, and once one replication fails no later
   * record is appended.
   */
  private logRecord(bytes: Uint8Array, version: number): Promise<number> {
    const replicator = this.replicator;
    if (!replicator && this.gated === 0) return this.wal.append(bytes);
    // Settled at once into a value, so a refusal is never an unhandled rejection while it waits.
    const outcome = (replicator ? replicator.replicate(bytes, version) : Promise.resolve()).then(
      () => undefined,
      (e: unknown) => new ReplicationFailure(e),
    );
    const gate = this.appendGate.then(async () => {
      const failure = await outcome;
      if (failure) throw failure;
    });
    this.appendGate = gate;
    this.gated++;
    return gate.then(() => this.wal.append(bytes)).finally(() => this.gated--);
  }

  /** Cluster leader: every later commit is replicated through `replicator` before it is logged. */
  lead(replicator: CommitReplicator): void {
    this.replicator = replicator;
    this.followerReason = undefined;
  }

  /** Cluster follower: local writes are refused with `reason`; the leader's records come through `applyReplicated`. */
  follow(reason: string): void {
    this.replicator = undefined;
    this.followerReason = reason;
  }

  /** Whether a replication failed since the last `reload`. */
  get replicationFailed(): boolean {
    return this.replicationFailure !== undefined;
  }

  /** The version of the last commit started (visible once durable). */
  get stagedVersion(): number {
    return this.staged;
  }

  /** Resolves once no commit is in flight. */
  settled(): Promise<void> {
    return this.quiesce();
  }

  /**
   * Applies a record of the cluster log (a follower): the same replay as recovery, then the local
   * WAL, as a commit of its own. It must be the next version. Resolves once it is staged (the next
   * record may follow at once); `durable` resolves when it is durable and visible.
   */
  async applyReplicated(record: Uint8Array): Promise<{ version: number; durable: Promise<void> }> {
    this.checkWritable(false);
    await this.afterRebuild();
    this.checkWritable(false);
    const d = decodeRecord(record);
    if (d.version !== this.staged + 1) {
      throw new EngineError(
        'SYS-0001',
        `The cluster log record of version ${d.version} does not follow this node's version ${this.staged}.`,
      );
    }
    if (d.kind === 'data') {
      const { tx } = replayRecord(this.store, d);
      if (!tx) throw new EngineError('SYS-0001', 'A data record replayed without a transaction.');
      for (const c of tx.historyColumns) this.historyColumns.add(c);
      this.scheduleIdleMerge();
      const durable = this.commit(record, d.version, () => {
        this.publishCounters(tx, d.version);
        if (this.commits.active) this.commits.publish({ kind: 'data', version: d.version, record });
      });
      return { version: d.version, durable };
    }
    let durable: Promise<void> = Promise.resolve();
    await this.exclusive(async () => {
      const { store } = replayRecord(this.store, d);
      this.store = store;
      durable = this.commit(record, d.version, () => {
        this.readStore = store;
        this.commits.publish({ kind: d.kind, version: d.version });
      });
      await durable;
    });
    return { version: d.version, durable };
  }

  private publishCounters(tx: WriteTxImpl, version: number): void {
    for (const c of tx.touchedCounters) {
      publishCount(c, version);
      this.counters.add(c);
    }
  }

  /**
   * Puts the database back to what its data directory holds (a leader whose replication failed:
   * commits staged after the last confirmed one are dropped). Readers already pinned keep their
   * snapshot.
   */
  async reload(): Promise<void> {
    if (this.fatal) throw new EngineError('SYS-FATAL', `The database stopped: ${this.fatal.message}`);
    await this.exclusive(async () => {
      await this.checkpointing;
      await this.dir.close();
      const r = await Database.recover(this.opts, (err) => this.fail(err));
      this.dir = r.dir;
      this.wal = r.wal;
      this.store = r.store;
      this.readStore = r.store;
      this.published = r.version;
      this.staged = r.version;
      this.lastLsn = r.lsn;
      this.checkpointLsn = r.summary.checkpointLsn;
      this.recovery = r.summary;
      this.historyColumns = new Set();
      this.counters = new Set();
      this.tail = Promise.resolve();
      this.appendGate = Promise.resolve();
      this.replicationFailure = undefined;
    });
  }

  /** Waits out a rebuild or schema change, including one that starts while we wait. */
  private async afterRebuild(): Promise<void> {
    for (let r = this.rebuilding; ; r = this.rebuilding) {
      await r;
      if (r === this.rebuilding) break;
    }
  }

  async write<T>(fn: (tx: WriteTx) => T): Promise<T> {
    this.checkWritable();
    await this.afterRebuild();
    this.checkWritable();
    const tx = new WriteTxImpl(this.store, this.staged + 1);
    let result: T;
    try {
      result = fn(tx);
    } catch (err) {
      tx.abort();
      throw err;
    }
    for (const c of tx.historyColumns) this.historyColumns.add(c);
    if (!tx.changed) {
      await this.tail;
      return result;
    }
    const bytes = tx.record.bytes();
    if (bytes.length > MAX_PAYLOAD) {
      // Too large for one log record: refuse this transaction only; the log itself is fine.
      tx.abort();
      throw new EngineError(
        'REST-30000',
        `The transaction is too large (${bytes.length} bytes logged, at most ${MAX_PAYLOAD}); split it.`,
      );
    }
    await this.commit(bytes, tx.commitVersion, () => {
      this.publishCounters(tx, tx.commitVersion);
      if (this.commits.active)
        this.commits.publish({ kind: 'data', version: tx.commitVersion, record: bytes });
    });
    this.scheduleIdleMerge();
    return result;
  }

  /**
   * Calls `fn` for every commit published from now on, in commit order (inside the publication:
   * `read()` there pins exactly the committed version). Returns the function that stops it.
   */
  onCommit(fn: CommitListener): () => void {
    return this.commits.listen(fn);
  }

  /** Waits until no commit is in flight. */
  private async quiesce(): Promise<void> {
    while (this.pending > 0) await this.tail;
  }

  /** Runs `fn` exclusively: no write starts until it finishes. */
  private async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const prev = this.rebuilding;
    let release!: () => void;
    this.rebuilding = new Promise<void>((r) => (release = r));
    try {
      await prev;
      await this.quiesce();
      return await fn();
    } finally {
      release();
    }
  }

  /**
   * Replaces the catalog. `next` must be derived from the catalog current at the call: if another
   * change lands first (changes queue behind each other and behind a rebuild), this one is refused
   * with CATALOG-CONFLICT instead of silently undoing the other. A change that leaves the stored
   * schema alone (queries, jobs, users, tokens) keeps the data structures as they are.
   */
  async changeCatalog(next: Catalog): Promise<void> {
    this.checkWritable();
    const base = this.catalog;
    const catalog = next.version > base.version ? next : { ...next, version: base.version + 1 };
    await this.exclusive(async () => {
      if (this.store.catalog !== base) {
        throw new EngineError(
          'CATALOG-CONFLICT',
          'The catalog was changed by another request meanwhile; nothing was changed, run the statement again.',
        );
      }
      const version = this.staged + 1;
      const store = migrateStore(this.store, catalog, version);
      this.store = store;
      await this.commit(catalogRecord(version, catalog), version, () => {
        this.readStore = store;
        this.commits.publish({ kind: 'catalog', version });
      });
    });
  }

  async clearGraphStore(): Promise<void> {
    this.checkWritable();
    await this.exclusive(async () => {
      const version = this.staged + 1;
      const store = new GraphStore(this.store.catalog, version);
      this.store = store;
      await this.commit(clearRecord(version), version, () => {
        this.readStore = store;
        this.commits.publish({ kind: 'clear', version });
      });
    });
  }

  /**
   * Merges the deltas `policy` chooses (by default a load's large ones) into new bases on a merge
   * thread, and folds vertex tables' written values and keys into new shared bases a slice at a
   * time, without pausing writes or the event loop for long; then, in one short pause of writes,
   * readers switch to the merged store, with the writes made meanwhile kept as deltas and overlays
   * over it (fresh-merge.ts). Nothing is logged: the merge changes how data are stored, not what
   * they are. Resolves once
   * readers see the merge (or it was not needed, or a rebuild, schema change or clear came first);
   * never rejects. Calls queue behind each other.
   */
  mergeFresh(policy: MergePolicy = this.loadPolicy()): Promise<void> {
    const run = this.merging.then(() => this.mergeOnce(policy));
    this.merging = run.catch((err: unknown) => {
      if (!this.stopping) this.opts.logger?.error(`background merge failed: ${String(err)}`);
    });
    return this.merging;
  }

  /** After a load: the large deltas (see planMerge). */
  private loadPolicy(): MergePolicy {
    return { minDelta: this.opts.freshMergeMinEdges ?? FRESH_MERGE_MIN_EDGES, share: 8 };
  }

  /**
   * Merges whatever delta is left once writes have been quiet for `idleMergeMs` (each write moves
   * the moment on), no sooner than IDLE_MERGE_SPACING times the last idle merge's duration after
   * it, so the merge thread and the slices on the event loop take a bounded share of the time.
   */
  private scheduleIdleMerge(): void {
    const quiet = this.opts.idleMergeMs ?? IDLE_MERGE_MS;
    if (quiet <= 0 || this.stopping) return;
    this.lastWriteAt = performance.now();
    if (this.idleTimer) return;
    const arm = (ms: number): void => {
      this.idleTimer = setTimeout(fire, ms);
      this.idleTimer.unref();
    };
    const fire = (): void => {
      this.idleTimer = undefined;
      const wait = Math.max(this.lastWriteAt + quiet, this.idleMergeAfter) - performance.now();
      if (wait > 0) return arm(wait);
      if (this.stopping || this.fatal) return;
      const t0 = performance.now();
      void this.mergeFresh(IDLE_MERGE).then(() => {
        const t1 = performance.now();
        this.idleMergeAfter = t1 + IDLE_MERGE_SPACING * (t1 - t0);
      });
    };
    arm(quiet);
  }

  private async mergeOnce(policy: MergePolicy): Promise<void> {
    const store = this.store;
    if (this.stopping || this.fatal || store !== this.readStore) return;
    // Pinned for the merge: the columns keep the history of values changed after `version`,
    // which the switch re-copies.
    const pin = this.pin();
    try {
      const version = pin.version;
      const jobs = planMerge(store, version, policy);
      const folds = planTables(store, policy);
      if (jobs.length === 0 && folds.length === 0) return;
      const written = (): number => {
        let n = 0;
        for (const j of jobs) n += j.block.dCount + j.block.tombLog.length / 2;
        for (const t of store.tables.values()) n += t.count;
        return n;
      };
      const before = written();
      // An idle merge stops as soon as writes turn out not to have paused (see IDLE_MERGE_MAX_LATER).
      const busy = (): boolean => policy.idle === true && written() - before > IDLE_MERGE_MAX_LATER;
      const dropped = (): void =>
        this.opts.logger?.info(`background merge at version ${version} dropped: writes went on meanwhile`);
      const t0 = performance.now();
      const merged = await this.buildMerge(jobs, folds, version, busy);
      if (!merged) return dropped();
      const { built, prepared } = merged;
      const t1 = performance.now();
      await this.exclusive(() => {
        // The current store: a catalog change that kept the stored schema shares the blocks.
        const current = this.store;
        if (this.stopping || current !== this.readStore) return Promise.resolve();
        if (busy()) return Promise.resolve(dropped());
        installTables(current, folds);
        const next =
          jobs.length > 0
            ? installMerged(current, version, this.published, jobs, built, prepared)
            : undefined;
        if (next) {
          this.store = next;
          this.readStore = next;
        }
        this.opts.logger?.info(
          `background merge: ${next ? jobs.length : 0} block(s) at version ${version}, ${built.reduce((n, b) => n + b.n, 0)} edges, ` +
            `${folds.length} vertex table(s); built in ${(t1 - t0).toFixed(0)} ms, switched in ${(performance.now() - t1).toFixed(0)} ms`,
        );
        return Promise.resolve();
      });
    } finally {
      pin.release();
    }
  }

  /**
   * The merge's new bases: blocks built on the merge thread (their attribute columns carried
   * after) while the vertex folds are built on the event loop; undefined when `busy` stopped it.
   */
  private async buildMerge(
    jobs: MergeJob[],
    folds: TableFold[],
    version: number,
    busy: () => boolean,
  ): Promise<{ built: BuiltBase[]; prepared: EdgeBlock[] } | undefined> {
    if (jobs.length === 0)
      return (await prepareTables(folds, busy)) ? { built: [], prepared: [] } : undefined;
    const build = buildOnThread(jobs.map((j) => j.source));
    this.mergeBuild = build;
    const watch = setInterval(() => {
      if (busy()) build.cancel();
    }, 50);
    const folding = prepareTables(folds, busy);
    let built: BuiltBase[];
    try {
      built = await build.done;
    } catch (err) {
      if (busy()) return undefined;
      throw err;
    } finally {
      clearInterval(watch);
      this.mergeBuild = undefined;
      await folding;
    }
    if (busy()) return undefined;
    return { built, prepared: await prepareMerged(jobs, built, version) };
  }

  /**
   * Merges every changed block's delta into a new base, writes a checkpoint covering the log so far
   * (the durability layer then drops the log before the previous checkpoint) and, when called with a
   * summary path (the REST /rebuildnow), writes the per-segment summary file.
   */
  rebuild(opts: RebuildOptions = {}): Promise<RebuildResult> {
    return this.runRebuild(opts, true);
  }

  private async runRebuild(opts: RebuildOptions, writeSummary: boolean): Promise<RebuildResult> {
    this.checkWritable(false);
    // Large deltas are merged first on the merge thread, so the pause below merges only the rest.
    await this.mergeFresh();
    // Writes pause only for the in-memory merge and the snapshot encoding. The snapshot's big
    // arrays are immutable base arrays; values a later write changes in place may reach the file,
    // which is harmless: the WAL after the checkpoint re-applies every such write's final value.
    const staged = await this.exclusive(() => {
      const t0 = performance.now();
      const version = this.published;
      const summary = rebuildSummary(this.store, opts, version, this.lastLsn);
      const merged = mergeAll(this.store, version, opts.force === true);
      this.store = merged;
      this.readStore = merged;
      const lsn = this.lastLsn;
      const chunks = lsn > this.checkpointLsn ? encodeSnapshot(merged, version) : undefined;
      return Promise.resolve({ version, summary, lsn, chunks, mergeMs: performance.now() - t0 });
    });
    const { version, summary, lsn, chunks, mergeMs } = staged;
    const t1 = performance.now();
    if (chunks) {
      const write = this.checkpointing.then(async () => {
        if (lsn <= this.checkpointLsn) return;
        await this.dir.writeCheckpoint(lsn, chunks);
        this.checkpointLsn = lsn;
      });
      this.checkpointing = write.catch(() => undefined);
      await write;
    }
    const path = opts.path ?? DEFAULT_REBUILD_PATH;
    const summaryFile = writeSummary
      ? await writeSummaryFile(path, summary.text)
      : join(path, `rebuild_summary_${Date.now()}.txt`);
    this.opts.logger?.info(
      `rebuild: version ${version}, ${summary.selected} segments selected, ${summary.skipped} skipped; ` +
        `merge ${mergeMs.toFixed(0)} ms, checkpoint ${chunks ? `${(performance.now() - t1).toFixed(0)} ms` : 'not needed'}`,
    );
    return { path, summaryFile, selected: summary.selected, skipped: summary.skipped, version };
  }

  /**
   * The whole database (catalog with users, secrets and queries, and every vertex and edge) as of
   * the last commit, for an online backup. Writes pause while the store is merged and copied (a
   * copy, because later writes change columns in place), then go on; every write acknowledged
   * before the call is in it.
   */
  snapshot(): Promise<{ version: number; chunks: Uint8Array[] }> {
    this.checkWritable();
    return this.exclusive(() => {
      const version = this.published;
      const merged = mergeAll(this.store, version, false);
      this.store = merged;
      this.readStore = merged;
      return Promise.resolve({ version, chunks: encodeSnapshot(merged, version).map((c) => c.slice()) });
    });
  }

  deletedVertexCheck(opts: DeletedVertexCheckOptions = {}): DeletedVertexCheckResult {
    return deletedVertexCheck(this.readStore, opts);
  }

  /** Stops the automatic rebuild, waits for in-flight commits and closes the data directory. */
  async close(): Promise<void> {
    if (this.closed) return;
    if (this.timer) clearInterval(this.timer);
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.stopping = true;
    this.mergeBuild?.cancel();
    await this.merging;
    await this.rebuilding.catch(() => undefined);
    await this.checkpointing;
    await this.quiesce();
    this.closed = true;
    await this.dir.close();
  }
}
