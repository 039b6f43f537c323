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
 *
 * This class keeps the public surface and the store references; its parts live beside it:
 * recovery.ts (open a data directory: checkpoint + WAL replay), commit-pipeline.ts (durable,
 * ordered publication, replication gate, exclusive sections), reader-pins.ts (pinned versions and
 * the history kept for them), background-merge.ts (merges after a load, after recovery, when idle)
 * and checkpoints.ts (rebuilds, checkpoint files, backup images).
 */
import type { Catalog } from '../catalog/types.js';
import { type DataDir, MAX_PAYLOAD } from '../durability/index.js';
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
  type WriteTx,
} from './api.js';
import { BackgroundMerge } from './background-merge.js';
import { Checkpoints } from './checkpoints.js';
import { CommitFeed, type CommitListener } from './commit-feed.js';
import { CommitPipeline } from './commit-pipeline.js';
import type { DatabaseOptions } from './database-options.js';
import { deletedVertexCheck } from './deleted-check.js';
import type { MergePolicy } from './fresh-merge.js';
import { migrateStore } from './migrate.js';
import type { ReadTxImpl } from './read-tx.js';
import { ReaderPins } from './reader-pins.js';
import { type Recovered, type RecoverySummary, recoverDataDir } from './recovery.js';
import { replayRecord } from './replay.js';
import { catalogRecord, clearRecord, decodeRecord } from './wal-record.js';
import { WriteTxImpl } from './write-tx.js';

export type { DatabaseOptions } from './database-options.js';
export type { RecoverySummary } from './recovery.js';

export class Database implements CatalogStore {
  /** Receives staged writes. */
  private store: GraphStore;
  /** What new readers pin; differs from `store` only while a schema change or clear waits. */
  private readStore: GraphStore;
  private fatal: Error | undefined;
  private closed = false;
  /** Listeners told of each published commit (see commit-feed.ts). */
  private readonly commits = new CommitFeed();
  private readonly log: CommitPipeline;
  private readonly pins: ReaderPins;
  private readonly merges: BackgroundMerge;
  private readonly checkpoints: Checkpoints;
  /** Filled in by open(). */
  recovery: RecoverySummary = { checkpointLsn: 0, replayedRecords: 0, version: 0, skippedCheckpoints: [] };
  /** Set on a cluster follower: why local writes are refused. */
  private followerReason: string | undefined;
  private dir: DataDir;

  private constructor(
    r: Recovered,
    private readonly opts: DatabaseOptions,
  ) {
    this.dir = r.dir;
    this.store = r.store;
    this.readStore = r.store;
    this.recovery = r.summary;
    this.log = new CommitPipeline(r, {
      fatal: () => this.fatal,
      fail: (err) => this.fail(err),
      afterPublish: () => this.pins.trim(),
    });
    this.pins = new ReaderPins(
      () => this.log.published,
      () => (this.store === this.readStore ? [this.store] : [this.store, this.readStore]),
    );
    const install = (next: GraphStore): void => {
      this.store = next;
      this.readStore = next;
    };
    this.merges = new BackgroundMerge(opts, {
      settledStore: () => (this.store === this.readStore ? this.store : undefined),
      install,
      published: () => this.log.published,
      pin: () => this.pin(),
      exclusive: (fn) => this.log.exclusive(fn),
      failed: () => this.fatal !== undefined,
    });
    this.checkpoints = new Checkpoints(r.dir, r.summary.checkpointLsn, opts, {
      log: this.log,
      store: () => this.store,
      install,
      mergeFresh: () => this.mergeFresh(),
      checkWritable: (local) => this.checkWritable(local),
      running: () => !this.fatal && !this.closed,
    });
  }

  /** The data directory this Database was opened on. */
  get dataDir(): string {
    return this.opts.dataDir;
  }

  /** Opens (creating if needed) a data directory and recovers it: newest checkpoint + WAL replay. */
  static async open(opts: DatabaseOptions): Promise<Database> {
    // A fatal error during recovery has no Database to stop yet; one after it stops this one.
    const opened: { db?: Database } = {};
    const recovered = await recoverDataDir(opts, (err) => opened.db?.fail(err));
    const db = new Database(recovered, opts);
    opened.db = db;
    db.checkpoints.startTimer();
    // What recovery replayed sits in deltas: merge it while the server starts serving.
    void db.mergeFresh();
    return db;
  }

  get catalog(): Catalog {
    return this.store.catalog;
  }

  /** Write-ahead log counters (appends, writes, fsyncs): group commit shows as fewer syncs than appends. */
  get walStats(): Readonly<{ appends: number; writes: number; syncs: number; rolls: number }> {
    return this.log.walStats;
  }

  /** The last published (visible) version. */
  get version(): number {
    return this.log.published;
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
    if (this.log.replicationFailed)
      throw new EngineError(
        'SYS-0001',
        'This node is not accepting writes: it is returning to the cluster log after a failed replication; retry.',
      );
    if (local && this.followerReason !== undefined) throw new EngineError('SYS-0001', this.followerReason);
  }

  read(): ReadTx {
    this.readStore.settle();
    return this.pin();
  }

  /** A read transaction with access to the store it pins (worker threads mirror it). */
  pin(): ReadTxImpl {
    return this.pins.pin(this.readStore, this.log.published);
  }

  /** Cluster leader: every later commit is replicated through `replicator` before it is logged. */
  lead(replicator: CommitReplicator): void {
    this.log.replicateThrough(replicator);
    this.followerReason = undefined;
  }

  /** Cluster follower: local writes are refused with `reason`; the leader's records come through `applyReplicated`. */
  follow(reason: string): void {
    this.log.replicateThrough(undefined);
    this.followerReason = reason;
  }

  /** Whether a replication failed since the last `reload`. */
  get replicationFailed(): boolean {
    return this.log.replicationFailed;
  }

  /** The version of the last commit started (visible once durable). */
  get stagedVersion(): number {
    return this.log.staged;
  }

  /** Resolves once no commit is in flight. */
  settled(): Promise<void> {
    return this.log.quiesce();
  }

  /**
   * Applies a record of the cluster log (a follower): the same replay as recovery, then the local
   * WAL, as a commit of its own. It must be the next version. Resolves once it is staged (the next
   * record may follow at once); `durable` resolves when it is durable and visible.
   */
  async applyReplicated(record: Uint8Array): Promise<{ version: number; durable: Promise<void> }> {
    this.checkWritable(false);
    await this.log.unpaused();
    this.checkWritable(false);
    const d = decodeRecord(record);
    if (d.version !== this.log.staged + 1) {
      throw new EngineError(
        'SYS-0001',
        `The cluster log record of version ${d.version} does not follow this node's version ${this.log.staged}.`,
      );
    }
    if (d.kind === 'data') {
      const { tx } = replayRecord(this.store, d);
      if (!tx) throw new EngineError('SYS-0001', 'A data record replayed without a transaction.');
      this.pins.keepHistory(tx);
      this.merges.scheduleIdleMerge();
      const durable = this.log.commit(record, d.version, () => {
        this.pins.publishCounters(tx, d.version);
        if (this.commits.active) this.commits.publish({ kind: 'data', version: d.version, record });
      });
      return { version: d.version, durable };
    }
    let durable: Promise<void> = Promise.resolve();
    await this.log.exclusive(async () => {
      const { store } = replayRecord(this.store, d);
      this.store = store;
      durable = this.log.commit(record, d.version, () => {
        this.readStore = store;
        this.commits.publish({ kind: d.kind, version: d.version });
      });
      await durable;
    });
    return { version: d.version, durable };
  }

  /**
   * Puts the database back to what its data directory holds (a leader whose replication failed:
   * commits staged after the last confirmed one are dropped). Readers already pinned keep their
   * snapshot.
   */
  async reload(): Promise<void> {
    if (this.fatal) throw new EngineError('SYS-FATAL', `The database stopped: ${this.fatal.message}`);
    await this.log.exclusive(async () => {
      await this.checkpoints.written();
      await this.dir.close();
      const r = await recoverDataDir(this.opts, (err) => this.fail(err));
      this.dir = r.dir;
      this.store = r.store;
      this.readStore = r.store;
      this.log.reset(r);
      this.checkpoints.reopen(r.dir, r.summary.checkpointLsn);
      this.recovery = r.summary;
      this.pins.forgetHistory();
    });
  }

  async write<T>(fn: (tx: WriteTx) => T): Promise<T> {
    this.checkWritable();
    await this.log.unpaused();
    this.checkWritable();
    const tx = new WriteTxImpl(this.store, this.log.staged + 1);
    let result: T;
    try {
      result = fn(tx);
    } catch (err) {
      tx.abort();
      throw err;
    }
    this.pins.keepHistory(tx);
    if (!tx.changed) {
      await this.log.allPublished();
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
    await this.log.commit(bytes, tx.commitVersion, () => {
      this.pins.publishCounters(tx, tx.commitVersion);
      if (this.commits.active)
        this.commits.publish({ kind: 'data', version: tx.commitVersion, record: bytes });
    });
    this.merges.scheduleIdleMerge();
    return result;
  }

  /**
   * Calls `fn` for every commit published from now on, in commit order (inside the publication:
   * `read()` there pins exactly the committed version). Returns the function that stops it.
   */
  onCommit(fn: CommitListener): () => void {
    return this.commits.listen(fn);
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
    await this.log.exclusive(async () => {
      if (this.store.catalog !== base) {
        throw new EngineError(
          'CATALOG-CONFLICT',
          'The catalog was changed by another request meanwhile; nothing was changed, run the statement again.',
        );
      }
      const version = this.log.staged + 1;
      const store = migrateStore(this.store, catalog, version);
      this.store = store;
      await this.log.commit(catalogRecord(version, catalog), version, () => {
        this.readStore = store;
        this.commits.publish({ kind: 'catalog', version });
      });
    });
  }

  async clearGraphStore(): Promise<void> {
    this.checkWritable();
    await this.log.exclusive(async () => {
      const version = this.log.staged + 1;
      const store = new GraphStore(this.store.catalog, version);
      this.store = store;
      await this.log.commit(clearRecord(version), version, () => {
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
   * over it (fresh-merge.ts, background-merge.ts). Nothing is logged: the merge changes how data
   * are stored, not what they are. Resolves once readers see the merge (or it was not needed, or a
   * rebuild, schema change or clear came first); never rejects. Calls queue behind each other.
   */
  mergeFresh(policy?: MergePolicy): Promise<void> {
    return this.merges.mergeFresh(policy);
  }

  /**
   * Merges every changed block's delta into a new base, writes a checkpoint covering the log so far
   * (the durability layer then drops the log before the previous checkpoint) and, when called with a
   * summary path (the REST /rebuildnow), writes the per-segment summary file.
   */
  rebuild(opts: RebuildOptions = {}): Promise<RebuildResult> {
    return this.checkpoints.rebuild(opts, true);
  }

  /**
   * The whole database (catalog with users, secrets and queries, and every vertex and edge) as of
   * the last commit, for an online backup. Writes pause while the store is merged and copied (a
   * copy, because later writes change columns in place), then go on; every write acknowledged
   * before the call is in it.
   */
  snapshot(): Promise<{ version: number; chunks: Uint8Array[] }> {
    this.checkWritable();
    return this.checkpoints.snapshot();
  }

  deletedVertexCheck(opts: DeletedVertexCheckOptions = {}): DeletedVertexCheckResult {
    return deletedVertexCheck(this.readStore, opts);
  }

  /** Stops the automatic rebuild, waits for in-flight commits and closes the data directory. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.checkpoints.stopTimer();
    await this.merges.stop();
    await this.log.lastExclusive();
    await this.checkpoints.written();
    await this.log.quiesce();
    this.closed = true;
    await this.dir.close();
  }
}
