/**
 * The query worker pool: `threads` worker threads (started with the pool) that run GSQL queries,
 * path searches, /builtins and GraphQL on snapshots of the store, so the event loop only parses
 * requests, routes them and writes answers.
 *
 * A task pins the last published version (Database.pin), starts an epoch (store/epochs.ts: from
 * now on the writer copies what it would overwrite in place), and sends the worker the store image
 * of that version (store/mirror.ts). The pin and the epoch end when the worker answers. A query's
 * changes come back as records and are committed here in one write transaction, as before; its
 * FILE output is written by the worker once the commit succeeded.
 *
 * Control: at the deadline (GSQL-TIMEOUT) the worker is asked to stop and, if it has not answered
 * a moment later, terminated; an abort does the same. A worker that dies (a crash, or the per-query
 * memory limit: `resourceLimits`) fails its task only; the pool starts a fresh one on demand.
 * A task with a heap limit of its own below the workers' (GSQL-QueryLocalMemLimitMB) runs alone,
 * without helpers, on a worker started for it with that limit and ended after it.
 * Idle workers are refreshed with the current image now and then, so that arrays the writer
 * replaced are not kept alive by them.
 *
 * The slot records are pool-slot.ts, stop reasons and errors pool-stop.ts, the deadline timer
 * pool-deadline.ts, helper links and kept channels pool-links.ts, which idle workers help which
 * task pool-helpers.ts, turns of workers started for one task pool-turns.ts.
 */
import { getHeapStatistics } from 'node:v8';
import { type MessagePort, Worker } from 'node:worker_threads';
import type { Database } from '../engine/database.js';
import { epochs } from '../store/epochs.js';
import { replayDml } from './dml.js';
import { errorFromImage } from './errors.js';
import { DeadlineTimer } from './pool-deadline.js';
import { PoolHelpers, type Reserved } from './pool-helpers.js';
import { endLink, release } from './pool-links.js';
import {
  abortedBefore,
  type Helping,
  newSlot,
  type Queued,
  type Running,
  type Slot,
  type TaskControl,
  unpin,
} from './pool-slot.js';
import { type StopReason, TaskStopped, taskStopped } from './pool-stop.js';
import { Turns } from './pool-turns.js';
import { type FromWorker, LINK, type TaskResult, type TaskSpec, type ToWorker } from './protocol.js';

export type { TaskControl } from './pool-slot.js';
export { queryStopError, type StopReason, TaskStopped } from './pool-stop.js';

export interface PoolOptions {
  /** Worker threads (at least 1). */
  threads: number;
  /** The script of a worker thread (server/workers/thread.ts, compiled). */
  entry: URL;
  /** Each worker's JavaScript heap limit in MiB (`--query-memory-mb`); none: V8's default. */
  memoryMb?: number;
  /** Operational log (worker crashes). */
  log?: (line: string) => void;
  /** How often idle workers are refreshed when the store moved on, ms (default 1000; tests). */
  refreshMs?: number;
  /** Thresholds of parallel SELECTs in the workers (tests lower them; query/parallel.ts). */
  parallelSelect?: {
    minSources?: number;
    minPartition?: number;
    sourceCost?: number;
    pullCost?: number;
    tailParts?: number;
    bottomUpAlpha?: number;
  };
}

/** How long a worker may take to stop on its own after a timeout or abort before it is terminated. */
const STOP_GRACE_MS = 250;
/** The abort listener's options (one object for every task). */
const ONCE = { once: true } as const;
/** Idle workers are refreshed at most this often. */
const REFRESH_MS = 1000;

export class QueryPool {
  private readonly slots: Slot[] = [];
  /** Workers started for one task each (see runAlone). */
  private readonly alone = new Set<Slot>();
  /** Turns for tasks on a worker of their own: at most `threads` such tasks hold one at once. */
  private readonly turns: Turns;
  private readonly queue: Queued[] = [];
  /** Which idle workers serve which task's SELECTs (pool-helpers.ts). */
  private readonly helpers: PoolHelpers;
  /** Links of answered tasks whose helpers are released after the answer (releaseSoon). */
  private readonly releasing: Int32Array[] = [];
  private nextId = 1;
  private closed = false;
  /**
   * Tasks dispatched to a worker so far, workers started, helpers given to SELECTs (`kept` of them
   * on a link their owner's last query parked), and requests for helpers from running queries (a
   * splitting query that got none with its task asks).
   */
  readonly stats = { tasks: 0, started: 0, helped: 0, kept: 0, asked: 0 };
  private readonly refresher: NodeJS.Timeout;
  /** A task's own heap limit below this runs alone (runAlone): the workers' limit in MiB. */
  private readonly heapCap: number;
  private readonly deadlines = new DeadlineTimer((now) => this.checkDeadlines(now));

  constructor(
    private readonly db: Database,
    readonly opts: PoolOptions,
  ) {
    this.heapCap = opts.memoryMb ?? getHeapStatistics().heap_size_limit / 2 ** 20;
    const n = Math.max(1, Math.floor(opts.threads));
    for (let i = 0; i < n; i++) this.slots.push(newSlot());
    this.turns = new Turns(n);
    this.helpers = new PoolHelpers(this.slots, {
      waiting: () => this.queue.length > 0,
      spawn: (slot) => this.spawn(slot),
      stats: this.stats,
      ...(opts.log ? { log: opts.log } : {}),
    });
    this.refresher = setInterval(() => this.refreshIdle(), opts.refreshMs ?? REFRESH_MS);
    this.refresher.unref();
    // Workers load their code now, so the first query does not wait for it.
    setImmediate(() => {
      if (this.closed) return;
      for (const s of this.slots) if (!s.worker) this.spawn(s);
    });
  }

  get threads(): number {
    return this.slots.length;
  }

  /** Workers started for one task each that are running now (at most `threads`). */
  get ownWorkers(): number {
    return this.alone.size;
  }

  /** Tasks running or waiting. */
  get load(): number {
    return this.queue.length + this.slots.filter((s) => s.running).length;
  }

  /** Runs a task on a worker; rejects with TaskStopped, or with the error the task threw. */
  run(task: TaskSpec, control: TaskControl = {}): Promise<TaskResult> {
    if (this.closed) return Promise.reject(new TaskStopped('closed', 'The server is shutting down.'));
    if (abortedBefore(control)) return Promise.reject(this.stopped('aborted'));
    const mb = control.memoryMb;
    if (mb !== undefined && mb > 0 && mb < this.heapCap) return this.runAlone(task, control, mb);
    return new Promise((resolve, reject) => {
      this.queue.push({ task, control, resolve, reject });
      this.pump();
    });
  }

  /**
   * Runs a task by itself, its SELECTs unsplit, on a worker started with a heap limit of `mb` MiB,
   * which ends with the task.
   */
  private async runAlone(task: TaskSpec, control: TaskControl, mb: number): Promise<TaskResult> {
    await this.turns.take();
    if (abortedBefore(control)) {
      this.turns.give();
      throw this.stopped('aborted');
    }
    const slot = newSlot(mb);
    this.alone.add(slot);
    const single: TaskSpec = task.kind === 'call' ? task : { ...task, run: { ...task.run, threadLimit: 1 } };
    const done = new Promise<TaskResult>((resolve, reject) =>
      this.dispatch(slot, { task: single, control, resolve, reject }),
    );
    return done.finally(() => {
      this.alone.delete(slot);
      const w = slot.worker;
      slot.worker = undefined;
      if (w) void w.terminate();
      this.turns.give();
    });
  }

  private stopped(reason: StopReason, own?: number): TaskStopped {
    return taskStopped(reason, own, this.opts.memoryMb);
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((s) => s.running === undefined);
      if (!slot) {
        // Tasks wait: workers serving another task's SELECTs come back (that task runs on alone).
        for (const s of this.slots) if (s.running?.kind === 'help') release(s.running.link);
        return;
      }
      const q = this.queue.shift() as Queued;
      if (abortedBefore(q.control)) {
        q.reject(this.stopped('aborted'));
        continue;
      }
      this.dispatch(slot, q);
    }
  }

  private spawn(slot: Slot): Worker {
    const w = new Worker(this.opts.entry, {
      workerData: { threads: this.slots.length, parallelSelect: this.opts.parallelSelect ?? {} },
      ...((slot.memoryMb ?? this.opts.memoryMb)
        ? { resourceLimits: { maxOldGenerationSizeMb: slot.memoryMb ?? this.opts.memoryMb } }
        : {}),
    });
    slot.worker = w;
    this.stats.started++;
    this.helpers.forget(slot);
    this.helpers.unparkFor(slot);
    slot.parked = undefined;
    slot.exporter.reset();
    slot.imaged = -1;
    slot.helpsEnding = 0;
    w.on('message', (m: FromWorker) => this.onMessage(slot, m));
    w.on('error', (e: Error & { code?: string }) => {
      const memory = e.code === 'ERR_WORKER_OUT_OF_MEMORY';
      if (!memory) this.opts.log?.(`query worker failed: ${e.message}`);
      this.lost(slot, w, memory ? 'memory' : 'crashed');
    });
    w.on('exit', () => this.lost(slot, w, 'crashed'));
    return w;
  }

  private dispatch(slot: Slot, q: Queued): void {
    if (this.releasing.length > 0) this.flushReleases();
    if (slot.parked) this.helpers.unpark(slot);
    const worker = slot.worker ?? this.spawn(slot);
    const id = this.nextId++;
    this.stats.tasks++;
    const pin = this.db.pin();
    const run: Running = {
      kind: 'task',
      id,
      pin,
      epoch: epochs.begin(),
      task: q.task,
      control: q.control,
      resolve: q.resolve,
      reject: q.reject,
    };
    slot.running = run;
    let helpers: Reserved[] = [];
    try {
      helpers = this.helpers.forTask(slot, run);
      const image = slot.exporter.image(pin.graphStore, pin.version);
      slot.imaged = pin.version;
      const links = helpers.map((h) => h.owners);
      const msg: ToWorker = { kind: 'task', id, image, task: q.task, ...(links.length ? { links } : {}) };
      const ports: MessagePort[] = [];
      for (const l of links) if (l.port) ports.push(l.port);
      worker.postMessage(msg, ports);
    } catch (e) {
      for (const h of helpers) this.helpers.unreserve(h);
      this.finish(slot, run);
      q.reject(e instanceof Error ? e : new Error(String(e)));
      return;
    }
    // The owner starts on its task first; its helpers are needed at its first split only. A kept
    // helper's 'help' waits in its port (it wakes nobody) until the owner wakes it at its start or
    // first split.
    for (const h of helpers) this.helpers.send(h, run);
    const { deadline, signal, abort } = q.control;
    if (deadline !== undefined) this.deadlines.watch(deadline);
    if (abort) {
      run.onAbort = () => this.stop(slot, run, 'aborted');
      abort.onAbort = run.onAbort;
    } else if (signal) {
      run.onAbort = () => this.stop(slot, run, 'aborted');
      signal.addEventListener('abort', run.onAbort, ONCE);
    }
  }

  /** Stops the tasks past their deadline; the next deadline of the others. */
  private checkDeadlines(now: number): number {
    let next = Infinity;
    for (const slot of [...this.slots, ...this.alone]) {
      const run = slot.running;
      const at = run?.kind === 'task' ? run.control.deadline : undefined;
      if (run?.kind !== 'task' || at === undefined || run.stopping) continue;
      if (at <= now) this.stop(slot, run, 'timeout');
      else next = Math.min(next, at);
    }
    return next;
  }

  /** Asks the worker to stop the task, and terminates it if it does not in time. */
  private stop(slot: Slot, run: Running, reason: StopReason): void {
    if (slot.running !== run || run.stopping) return;
    run.stopping = reason;
    slot.worker?.postMessage({ kind: 'abort', id: run.id } satisfies ToWorker);
    run.grace = setTimeout(() => {
      const w = slot.worker;
      if (slot.running !== run || !w) return;
      this.lost(slot, w, reason);
      void w.terminate();
    }, STOP_GRACE_MS);
  }

  /**
   * Releases the task's helper links and frees the helpers that read nothing of the task any more,
   * ready to come with the next task (a query that splits gets them as it starts) instead of after
   * their 'helped' comes back: those whose owner settled the link (protocol.ts's LINK.END), and,
   * once the owner answered 'done' (`settled`: it had waited for every job a helper joined,
   * parallel-host.ts), all of them. The others (a failed owner may have stopped waiting when one
   * helper died while another still worked) are freed by their 'helped'.
   */
  private endHelpers(owner: Slot, run: Running, settled: boolean): void {
    for (const s of this.slots) {
      const h = s.running;
      if (h?.kind !== 'help' || h.task !== run) continue;
      const end = endLink(h.link, settled);
      if (end === 'parked') {
        const at = this.slots.indexOf(owner);
        if (at >= 0) s.parked = { owner: at, link: h.link };
        else release(h.link);
      } else if (settled) this.releaseSoon(h.link);
      if (end === 'busy') continue;
      // Its 'helped' is on the way and ends nothing.
      if (end === 'late') s.helpsEnding = (s.helpsEnding ?? 0) + 1;
      unpin(h);
      s.running = undefined;
    }
  }

  /**
   * Releases a settled link once the answer being handled now went on (setImmediate runs after the
   * reply's write): the helper it wakes would take a core from the main thread meanwhile. Anything
   * that gives a worker new work first releases the links still waiting (flushReleases).
   */
  private releaseSoon(link: Int32Array): void {
    if (this.releasing.push(link) === 1) setImmediate(this.flushReleases);
  }

  private readonly flushReleases = (): void => {
    for (const link of this.releasing.splice(0)) release(link);
  };

  /** The slot's task is over: timers, pin, abort listener, helpers; the slot takes the next task. */
  private finish(slot: Slot, run: Running): void {
    if (run.grace) clearTimeout(run.grace);
    this.endHelpers(slot, run, false);
    unpin(run);
    const { abort, signal } = run.control;
    if (abort) {
      if (abort.onAbort === run.onAbort) abort.onAbort = undefined;
    } else if (run.onAbort) signal?.removeEventListener('abort', run.onAbort);
    if (slot.running === run) slot.running = undefined;
    if (this.queue.length > 0) setImmediate(() => this.pump());
  }

  /** A worker died or was terminated: its task fails with `reason`; a fresh worker starts on demand. */
  private lost(slot: Slot, w: Worker, reason: StopReason): void {
    if (slot.worker !== w) return;
    slot.worker = undefined;
    w.removeAllListeners('message');
    this.helpers.unparkFor(slot);
    slot.parked = undefined;
    const run = slot.running;
    if (!run) return;
    if (run.kind === 'help') {
      // Its owner, waiting for a job this helper joined, sees that and fails its query.
      Atomics.store(run.link, LINK.DEAD, 1);
      release(run.link);
      this.helped(slot, run);
      return;
    }
    this.finish(slot, run);
    const why = run.stopping ?? reason;
    if (run.writing) run.writing.reject(this.stopped(why, slot.memoryMb));
    else run.reject(this.stopped(why, slot.memoryMb));
  }

  private onMessage(slot: Slot, m: FromWorker): void {
    const run = slot.running;
    if (m.kind === 'helped') {
      // The worker serves links in order: this one ends a link already freed, if any is pending.
      if (slot.helpsEnding) slot.helpsEnding--;
      else if (run?.kind === 'help') this.helped(slot, run);
      return;
    }
    if (!run || run.kind !== 'task') return;
    if (m.kind === 'log') {
      run.control.onLog?.(m.line);
      return;
    }
    if (run.id !== m.id) return;
    if (m.kind === 'help') {
      this.help(run, m);
      return;
    }
    if (m.kind === 'failed') {
      this.finish(slot, run);
      // A task stopped at our request failed because of it (the worker saw an abort either way).
      run.reject(run.stopping ? this.stopped(run.stopping) : errorFromImage(m.error));
      return;
    }
    if (m.kind === 'written') {
      const w = run.writing;
      this.finish(slot, run);
      if (!w) return;
      if (m.error) w.reject(errorFromImage(m.error));
      else w.resolve();
      return;
    }
    // done: the worker no longer reads the snapshot.
    unpin(run);
    this.endHelpers(slot, run, true);
    const result = m.result;
    if (result.kind !== 'query' || (result.dml.length === 0 && !result.files)) {
      this.finish(slot, run);
      run.resolve(result);
      return;
    }
    void this.commit(slot, run, result);
  }

  /**
   * Gives idle workers to a task's SELECTs, each on one of the links the owner made; links no
   * worker is free for are released at once.
   */
  private help(task: Running, m: FromWorker & { kind: 'help' }): void {
    this.stats.asked++;
    if (this.releasing.length > 0) this.flushReleases();
    for (const link of m.help.links) {
      const h = this.helpers.idle();
      if (h) {
        this.helpers.attach(h, task, m.help.query, link);
        continue;
      }
      release(link.state);
      link.port?.close();
    }
  }

  /** A helper left its link: it is free again. */
  private helped(slot: Slot, run: Helping): void {
    unpin(run);
    slot.running = undefined;
    if (this.queue.length > 0) setImmediate(() => this.pump());
  }

  /** Commits a query's changes, then lets the worker write its FILE output. */
  private async commit(slot: Slot, run: Running, result: TaskResult & { kind: 'query' }): Promise<void> {
    let ok = true;
    let failure: Error | undefined;
    if (result.dml.length > 0) {
      try {
        await this.db.write((tx) => replayDml(tx, result.dml));
      } catch (e) {
        ok = false;
        failure = e instanceof Error ? e : new Error(String(e));
      }
    }
    if (!result.files) {
      this.finish(slot, run);
      if (failure) run.reject(failure);
      else run.resolve(result);
      return;
    }
    const written = new Promise<void>((resolve, reject) => (run.writing = { result, resolve, reject }));
    slot.worker?.postMessage({ kind: 'commit', id: run.id, ok } satisfies ToWorker);
    try {
      await written;
      if (failure) throw failure;
      run.resolve(result);
    } catch (e) {
      run.reject(failure ?? (e instanceof Error ? e : new Error(String(e))));
    }
  }

  /** Sends idle workers the current image when the store moved on (see the file's header). */
  private refreshIdle(): void {
    if (this.closed) return;
    for (const slot of this.slots) {
      // A worker that never got an image holds no arrays.
      if (slot.running || !slot.worker || slot.imaged < 0 || slot.imaged === this.db.version) continue;
      this.helpers.unpark(slot);
      const pin = this.db.pin();
      try {
        const msg: ToWorker = {
          kind: 'refresh',
          image: slot.exporter.image(pin.graphStore, pin.version, false),
        };
        slot.imaged = pin.version;
        slot.worker.postMessage(msg);
      } finally {
        pin.release();
      }
    }
  }

  /** Stops every worker; running and waiting tasks fail with 'closed'. */
  async close(): Promise<void> {
    this.closed = true;
    this.flushReleases();
    for (const s of this.slots) this.helpers.unpark(s);
    clearInterval(this.refresher);
    this.deadlines.close();
    for (const q of this.queue.splice(0)) q.reject(this.stopped('closed'));
    this.turns.close(() => this.stopped('closed'));
    await Promise.all(
      [...this.slots, ...this.alone].map(async (slot) => {
        const w = slot.worker;
        if (!w) return;
        this.lost(slot, w, 'closed');
        await w.terminate();
      }),
    );
  }
}
