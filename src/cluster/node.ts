/**
 * One Ocelot node of a cluster: a state machine between follower and leader, driven by one loop
 * that ticks every `tickMs`.
 *
 * - Follower: consumes the log (LogFollower), refuses local writes, and reads the lease. When nobody
 *   holds the lease and it has applied the whole stream, it takes the lease, checks that the stream
 *   did not grow meanwhile, and becomes leader.
 * - Leader: publishes each commit before logging it locally (LogPublisher), renews the lease every
 *   quarter of its lifetime, and steps down when a renewal is refused, when the lease lapses by its
 *   own clock, or when a publish fails. Stepping down waits for commits in flight, reloads the data
 *   directory if a publish failed (staged commits the log did not confirm are dropped), gives the
 *   lease up and follows the log from where its data ends.
 */
import type { Database } from '../engine/database.js';
import { Lease, readLeader, type LeaderInfo } from './lease.js';
import { LogFollower, LogMismatchError } from './log-follower.js';
import { LOG_STREAM } from './log-format.js';
import { LogPublisher } from './log-publisher.js';
import { LoopSteps } from './loop-steps.js';
import { deleteMember, putMember, readMembers } from './members.js';
import { connectCluster, errorText, type ClusterConnection } from './nats.js';
import { renderMetrics } from './metrics.js';
import type { ClusterRole, ClusterStatus, MemberInfo } from './status.js';

export interface ClusterNodeOptions {
  /** NATS server urls (`nats://host:port`). */
  servers: readonly string[];
  nodeId: string;
  db: Database;
  log: (line: string) => void;
  /** Lifetime of the lease without renewal (default 4 s). */
  leaseTtlMs?: number;
  /** How often the node looks at the lease and the log (default 250 ms). */
  tickMs?: number;
  /** Replicas of the log stream and the bucket (default: the number of servers, at most 3). */
  replicas?: number;
  /** This node cannot go on (its data does not fit the log, or its disk failed). */
  onFatal?: (err: Error) => void;
}

const FOLLOWER_REFUSAL =
  'This node is a cluster follower and does not write locally; the request should have been forwarded to the leader.';
const MEMBER_EVERY_MS = 1_000;

export class ClusterNode {
  readonly nodeId: string;
  private roleNow: ClusterRole = 'follower';
  private conn: ClusterConnection | undefined;
  private lease: Lease | undefined;
  private publisher: LogPublisher | undefined;
  private follower: LogFollower | undefined;
  private leaderInfo: LeaderInfo | undefined;
  private urls: Record<string, string> = {};
  /** Reads wait until the log was applied up to here (its last sequence when this node joined). */
  private joinSeq = Number.POSITIVE_INFINITY;
  private caughtUpOnce = false;
  /** Reads wait for this version (a write acknowledged here that was not applied in time). */
  private minReadVersion = 0;
  private confirmedSeq = 0;
  private logSeq = 0;
  private members: MemberInfo[] = [];
  private nextMemberAt = 0;
  private refreshing = false;
  private nextRenewAt = 0;
  private renewing = false;
  private leaseLost = false;
  private waiters = new Set<() => void>();
  private closed = false;
  private readonly abort = new AbortController();
  private loopDone: Promise<void> = Promise.resolve();
  private wake: (() => void) | undefined;
  private lastTickError = '';
  /** When this node last confirmed its view of the lease with JetStream (performance.now()). */
  private syncedAt: number | undefined;
  private readonly steps: LoopSteps;
  private readonly leaseTtlMs: number;
  private readonly tickMs: number;
  readonly counters = { terms: 0, stepDowns: 0, forwarded: 0, forwardFailures: 0 };

  constructor(private readonly opts: ClusterNodeOptions) {
    this.nodeId = opts.nodeId;
    this.leaseTtlMs = opts.leaseTtlMs ?? 4_000;
    this.tickMs = opts.tickMs ?? 250;
    this.steps = new LoopSteps(opts.nodeId, opts.log);
    opts.db.follow('This node is joining its cluster and does not accept writes yet.');
  }

  /** Connects and starts following; `urls` are this node's listeners as other nodes reach them. */
  start(urls: Record<string, string>): void {
    this.urls = urls;
    this.loopDone = this.run();
  }

  get role(): ClusterRole {
    return this.roleNow;
  }

  /** The leader's node id and listener urls, when known. */
  get leader(): LeaderInfo | undefined {
    return this.roleNow === 'leader'
      ? { nodeId: this.nodeId, urls: this.urls, revision: this.lease?.revision ?? 0 }
      : this.leaderInfo;
  }

  /** Nodes that reported themselves in the last few seconds (at least this one). */
  get memberCount(): number {
    return Math.max(1, this.members.length);
  }

  /** Whether reads may be served: caught up with the log as it was at joining, and with our acknowledgements. */
  get readable(): boolean {
    const db = this.opts.db;
    if (this.roleNow !== 'leader' && !this.caughtUpOnce) {
      const f = this.follower;
      if (!f) return false;
      const applied =
        f.appliedSeq >= this.joinSeq || (f.processedSeq >= this.joinSeq && db.version === db.stagedVersion);
      if (!applied) return false;
      this.caughtUpOnce = true;
    }
    return db.version >= this.minReadVersion;
  }

  status(): ClusterStatus {
    const leader = this.leader;
    const connected = this.conn?.connected() ?? false;
    const syncedMsAgo = this.syncedAt === undefined ? null : Math.round(performance.now() - this.syncedAt);
    return {
      nodeId: this.nodeId,
      role: this.roleNow,
      leader: leader?.nodeId ?? null,
      appliedSeq: this.appliedSeq,
      version: this.opts.db.version,
      logSeq: Math.max(this.logSeq, this.appliedSeq),
      caughtUp: this.readable,
      leaseRevision: leader?.revision ?? 0,
      connected,
      inSync: connected && syncedMsAgo !== null && syncedMsAgo <= this.leaseTtlMs,
      syncedMsAgo,
      members: this.members.length > 0 ? this.members : [this.selfMember()],
    };
  }

  metrics(): string {
    return renderMetrics(this.status(), this.counters);
  }

  private get appliedSeq(): number {
    return this.roleNow === 'leader' ? this.confirmedSeq : (this.follower?.appliedSeq ?? 0);
  }

  /** Resolves true once `cond` holds, false after `timeoutMs`. Re-checked whenever the node moves on. */
  waitUntil(cond: () => boolean, timeoutMs: number): Promise<boolean> {
    if (cond()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const check = () => {
        if (!cond()) return;
        finish(true);
      };
      const finish = (ok: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(ok);
      };
      const timer = setTimeout(() => finish(cond()), timeoutMs);
      this.waiters.add(check);
    });
  }

  /** Waits until this node applied `version` (read-your-writes after a forwarded write). */
  async waitForVersion(version: number, timeoutMs: number): Promise<boolean> {
    const ok = await this.waitUntil(() => this.opts.db.version >= version, timeoutMs);
    // Acknowledged but not applied in time: reads here wait for it from now on.
    if (!ok && version > this.minReadVersion) this.minReadVersion = version;
    return ok;
  }

  private notify(): void {
    for (const w of [...this.waiters]) w();
  }

  private async run(): Promise<void> {
    try {
      this.conn = await this.connect();
    } catch (e) {
      if (!this.closed) this.fatal(e);
      return;
    }
    if (!this.conn) return;
    this.lease = new Lease(this.conn.kv, this.leaseTtlMs);
    this.steps.watchEvery(this.leaseTtlMs);
    while (!this.closed) {
      try {
        await this.tick();
        this.lastTickError = '';
      } catch (e) {
        this.reportTickError(e);
      }
      this.notify();
      if (!this.closed) await this.sleep(this.tickMs);
    }
  }

  /** Logs a failed step once, not at every tick while it keeps failing. */
  private reportTickError(e: unknown): void {
    const text = errorText(e);
    if (text !== this.lastTickError && !this.closed) this.opts.log(`cluster: ${text}`);
    this.lastTickError = text;
  }

  private async connect(): Promise<ClusterConnection | undefined> {
    const { opts } = this;
    const connecting = connectCluster({
      servers: opts.servers,
      nodeId: opts.nodeId,
      replicas: opts.replicas ?? Math.min(3, opts.servers.length),
      leaseTtlMs: this.leaseTtlMs,
      log: opts.log,
      signal: this.abort.signal,
    });
    const aborted = new Promise<undefined>((resolve) =>
      this.abort.signal.addEventListener('abort', () => resolve(undefined), { once: true }),
    );
    const conn = await Promise.race([connecting, aborted]);
    if (!conn) {
      // Closed while connecting: close the connection whenever it comes.
      void connecting.then(
        (c) => c.nc.close(),
        () => undefined,
      );
      return undefined;
    }
    opts.log(`cluster: node ${opts.nodeId} connected to NATS at ${conn.nc.getServer()}`);
    return conn;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  private async tick(): Promise<void> {
    if (this.roleNow === 'leader') await this.leaderTick();
    else await this.followerTick();
    if (performance.now() >= this.nextMemberAt && !this.refreshing) {
      // Beside the loop: a slow answer about members must never hold up the lease.
      this.nextMemberAt = performance.now() + MEMBER_EVERY_MS;
      this.refreshing = true;
      void this.steps
        .run('refresh the member list', () => this.refreshMembers())
        .catch((e: unknown) => this.reportTickError(e))
        .finally(() => (this.refreshing = false));
    }
  }

  private async leaderTick(): Promise<void> {
    const lease = this.lease!;
    const failed = this.publisher?.failed;
    if (failed) return this.stepDown(`a publish to the cluster log failed (${failed.message})`);
    if (this.leaseLost) return this.stepDown('another node took the lease');
    if (!lease.held) return this.stepDown('the lease lapsed: no renewal was confirmed in time');
    if (!this.renewing && performance.now() >= this.nextRenewAt) {
      // Beside the loop: an unanswered renewal must not keep the lapse above from being noticed.
      this.renewing = true;
      void lease
        .renew(this.leaseValue())
        .then((r) => {
          if (r === 'renewed') {
            this.nextRenewAt = performance.now() + lease.renewEveryMs;
            this.syncedAt = lease.confirmedAt;
          } else if (r === 'lost' && this.roleNow === 'leader') this.leaseLost = true;
        })
        .finally(() => (this.renewing = false));
    }
  }

  private async followerTick(): Promise<void> {
    const conn = this.conn!;
    if (!this.follower) await this.steps.run('start following the log', () => this.follow());
    const follower = this.follower!;
    const info = await this.steps.run('read the log state', () => conn.jsm.streams.info(LOG_STREAM));
    this.logSeq = info.state.last_seq;
    follower.watch(this.logSeq);
    const asked = performance.now();
    this.leaderInfo = await this.steps.run('read the lease', () => readLeader(conn.jsm));
    this.syncedAt = asked;
    const db = this.opts.db;
    const applied = follower.processedSeq >= this.logSeq && db.version === db.stagedVersion;
    if (this.leaderInfo === undefined && applied && this.readable)
      await this.steps.run('take the lease', () => this.takeOver());
  }

  private async follow(): Promise<void> {
    const f = new LogFollower(this.conn!, this.opts.db, {
      applied: () => this.notify(),
      failed: (e) => this.fatal(e),
      log: this.opts.log,
    });
    try {
      await f.start();
    } catch (e) {
      // Data the log does not have: following would diverge, so this node stops.
      if (e instanceof LogMismatchError) this.fatal(e);
      throw e;
    }
    this.follower = f;
    if (!this.caughtUpOnce) this.joinSeq = f.lastSeqAtStart;
  }

  private async takeOver(): Promise<void> {
    const conn = this.conn!;
    const lease = this.lease!;
    const db = this.opts.db;
    if (!(await lease.acquire(this.leaseValue()))) return;
    try {
      const follower = this.follower;
      await follower?.stop();
      this.follower = undefined;
      const last = (await conn.jsm.streams.info(LOG_STREAM)).state.last_seq;
      if (db.version !== db.stagedVersion || last !== (follower?.processedSeq ?? 0)) {
        // The next tick follows the log again.
        this.opts.log('cluster: the log moved on while taking the lease; staying a follower');
        await lease.release();
        return;
      }
      this.publisher = new LogPublisher(conn, {
        lastSeq: last,
        term: lease.revision,
        timeoutMs: this.leaseTtlMs,
        holdsLease: () => lease.held,
        onFailure: () => this.wake?.(),
        onConfirmed: (seq) => {
          if (seq > this.confirmedSeq) this.confirmedSeq = seq;
        },
      });
      this.confirmedSeq = last;
      this.logSeq = last;
      this.roleNow = 'leader';
      this.leaderInfo = undefined;
      this.caughtUpOnce = true;
      this.nextRenewAt = performance.now() + lease.renewEveryMs;
      this.leaseLost = false;
      this.counters.terms++;
      this.syncedAt = lease.confirmedAt;
      db.lead(this.publisher);
      this.opts.log(
        `cluster: node ${this.nodeId} is the leader (lease revision ${lease.revision}, log sequence ${last}, version ${db.version})`,
      );
      await putMember(this.conn!, this.selfMember());
    } catch (e) {
      if (this.roleNow !== 'leader') await lease.release();
      throw e;
    }
  }

  private async stepDown(reason: string): Promise<void> {
    const db = this.opts.db;
    this.opts.log(`cluster: node ${this.nodeId} steps down: ${reason}`);
    this.roleNow = 'follower';
    this.counters.stepDowns++;
    db.follow(FOLLOWER_REFUSAL);
    this.publisher = undefined;
    this.leaderInfo = undefined;
    await this.steps.run('wait for the commits in flight', () => db.settled());
    if (db.replicationFailed) {
      this.opts.log('cluster: dropping commits the log did not confirm; reloading the data directory');
      await this.steps.run('reload the data directory', () => db.reload());
    }
    await this.steps.run('give the lease up', () => this.lease!.release());
    await this.steps.run('start following the log', () => this.follow());
  }

  private leaseValue(): Uint8Array {
    return new TextEncoder().encode(JSON.stringify({ nodeId: this.nodeId, urls: this.urls }));
  }

  private selfMember(): MemberInfo {
    return {
      nodeId: this.nodeId,
      role: this.roleNow,
      version: this.opts.db.version,
      appliedSeq: this.appliedSeq,
      urls: this.urls,
    };
  }

  private async refreshMembers(): Promise<void> {
    await putMember(this.conn!, this.selfMember());
    this.members = await readMembers(this.conn!);
  }

  private fatal(e: unknown): void {
    const err = e instanceof Error ? e : new Error(String(e));
    this.opts.log(`cluster: node ${this.nodeId} cannot go on: ${err.message}`);
    void this.close();
    this.opts.onFatal?.(err);
  }

  /** Leaves the cluster: a leader hands the lease back at once so another node need not wait for it. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.abort.abort();
    this.steps.stop();
    this.wake?.();
    await this.loopDone;
    const db = this.opts.db;
    db.follow('This node is leaving its cluster.');
    await db.settled();
    await this.follower?.stop().catch(() => undefined);
    const conn = this.conn;
    if (!conn) return;
    await this.lease?.release();
    await deleteMember(conn, this.nodeId).catch(() => undefined);
    await conn.nc.close().catch(() => undefined);
    this.notify();
  }
}
