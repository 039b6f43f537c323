/**
 * The owner's side of a SELECT run on several workers (query/parallel.ts's ParallelHost).
 *
 * The first split of a query asks the main thread once for helpers, each on a link of its own (a
 * MessageChannel and a few shared words, protocol.ts's LINK). A helper that gets a link stays with
 * the query (help-loop.ts) until the owner releases it at the query's end or the pool needs the
 * worker for another task. Every later split posts its job on the links and wakes the helpers with
 * Atomics.notify: no message goes through the main thread or waits for an event loop. The owner
 * runs its own share, closes the job, waits (Atomics.wait) until no helper works on it any more,
 * and reads their outcomes from the links' ports (receiveMessageOnPort), so a split SELECT runs
 * start to end without returning to the event loop. Partitions are taken from a shared counter:
 * a helper that joins late takes what is left, and one that does not join at all costs nothing.
 */
import {
  MessageChannel,
  type MessagePort,
  receiveMessageOnPort,
  type TransferListItem,
} from 'node:worker_threads';
import type { AccumJob, CompiledQuery, HelperOutcome, ParallelHost } from '../query/index.js';
import { type ErrorImage, errorFromImage } from './errors.js';
import { release } from './pool-links.js';
import {
  type FromWorker,
  LINK,
  LINK_END,
  type LinkMessage,
  type LinkOutcome,
  type TaskSpec,
} from './protocol.js';

/** ctl words of a job: the next partition, and (helpers working) * 2 + (1 once closed). */
const NEXT = 0;
const JOINED = 1;
/** How often the owner, waiting for helpers, checks whether one of them was lost (ms). */
const WAIT_SLICE_MS = 50;

interface OwnerLink {
  state: Int32Array;
  port: MessagePort;
  /** A port kept between two workers (protocol.ts's HelpLink): not closed when the link ends. */
  kept?: boolean;
}

export class WorkerParallelHost implements ParallelHost {
  private ctl: Int32Array = new Int32Array(new SharedArrayBuffer(8));
  private parts = 0;
  private nextJob = 1;
  private links: OwnerLink[] = [];
  /** False once a job was left with a helper still on it (a helper thread was lost meanwhile). */
  private settled = true;
  /** The task this thread runs and its query (set by the worker for each query task). */
  task: { id: number; query: TaskSpec & { kind: 'query' | 'interpret' } } | undefined;

  constructor(
    readonly threads: number,
    private readonly send: (m: FromWorker, transfer?: readonly TransferListItem[]) => void,
  ) {}

  /** Threads the current task's SELECTs may use: the pool's, or fewer (GSQL-THREAD-LIMIT). */
  private allowed(): number {
    return Math.min(this.threads, this.task?.query.run.threadLimit ?? this.threads);
  }

  take(): number {
    const p = Atomics.add(this.ctl, NEXT, 1);
    return p < this.parts ? p : -1;
  }

  accum(_query: CompiledQuery, job: AccumJob, ownShare: () => void): HelperOutcome[] | undefined {
    const task = this.task;
    if (this.allowed() < 2 || !task || job.bounds.length < 3) return undefined;
    const links = this.live();
    if (links.length === 0) return undefined;
    const id = this.nextJob++;
    this.ctl = new Int32Array(new SharedArrayBuffer(8));
    this.parts = job.bounds.length - 1;
    const msg: LinkMessage = { id, task: task.id, job, ctl: this.ctl };
    for (const l of links) post(l, msg);
    let own: unknown;
    try {
      ownShare();
    } catch (e) {
      own = e;
      // Nothing more for the helpers: they stop at their next partition.
      Atomics.store(this.ctl, NEXT, this.parts);
    }
    const lost = this.close(this.ctl, links);
    const outcomes: HelperOutcome[] = [];
    let error: Error | undefined;
    for (const l of links) {
      for (let m = receiveMessageOnPort(l.port); m !== undefined; m = receiveMessageOnPort(l.port)) {
        const o = m.message as LinkOutcome | LinkMessage;
        // A kept port may hold an earlier task's messages (jobs too, when the roles were turned).
        if (o.id !== id || 'job' in o) continue;
        if (o.outcome) outcomes.push(o.outcome);
        if (o.error) error ??= errorFromImage(o.error as ErrorImage);
      }
    }
    if (own !== undefined) throw own;
    if (error) throw error;
    if (lost) throw new Error('A helper thread of a parallel SELECT failed; the query was stopped.');
    return outcomes;
  }

  /**
   * The links whose helpers may still take jobs (served or not yet: jobs wait in the port); asks
   * for helpers when there is none.
   */
  private live(): OwnerLink[] {
    const keep: OwnerLink[] = [];
    for (const l of this.links) {
      if (Atomics.load(l.state, LINK.RELEASE) === 0 && Atomics.load(l.state, LINK.DEAD) === 0) keep.push(l);
      else if (!l.kept) l.port.close();
    }
    this.links = keep;
    if (keep.length === 0 && this.task) {
      const theirs = [];
      for (let i = 1; i < this.allowed(); i++) {
        const { port1, port2 } = new MessageChannel();
        const state = new Int32Array(new SharedArrayBuffer(LINK.WORDS * 4));
        this.links.push({ state, port: port1 });
        theirs.push({ state, port: port2 });
      }
      this.send(
        { kind: 'help', id: this.task.id, help: { query: this.task.query, links: theirs } },
        theirs.map((l) => l.port),
      );
    }
    return this.links;
  }

  /**
   * Closes the job to helpers that have not joined yet and waits until the ones that did are done.
   * True when a helper thread was lost meanwhile (its share may be missing).
   */
  private close(ctl: Int32Array, links: OwnerLink[]): boolean {
    let s = Atomics.load(ctl, JOINED);
    while ((s & 1) === 0) {
      const was = Atomics.compareExchange(ctl, JOINED, s, s | 1);
      if (was === s) break;
      s = was;
    }
    for (s = Atomics.load(ctl, JOINED); s >> 1 > 0; s = Atomics.load(ctl, JOINED)) {
      if (links.some((l) => Atomics.load(l.state, LINK.DEAD) === 1)) {
        this.settled = false;
        return true;
      }
      Atomics.wait(ctl, JOINED, s, WAIT_SLICE_MS);
    }
    return false;
  }

  expect(): void {
    this.live();
  }

  /** Links to helpers the pool gave the task with it (their ends here). */
  adopt(links: readonly OwnerLink[]): void {
    this.links.push(...links);
  }

  /**
   * The task ended: its helpers go back to the pool. When it succeeded and no job was left with a
   * helper on it, the pool frees them on the task's answer, so they need not tell it
   * (protocol.ts's LINK.END), and releases their links itself, once the answer went on (a helper
   * woken here would take a core as the answer leaves), or, a link of a kept channel (PARKED),
   * gives it to this worker's next task. Otherwise they are released now.
   */
  endTask(succeeded: boolean): void {
    const settled = succeeded && this.settled;
    for (const l of this.links) {
      const end = l.kept ? LINK_END.PARKED : LINK_END.OWNER;
      const owned =
        settled && Atomics.compareExchange(l.state, LINK.END, LINK_END.OPEN, end) === LINK_END.OPEN;
      if (!owned) release(l.state);
      if (!l.kept) l.port.close();
    }
    this.links = [];
    this.task = undefined;
    this.settled = true;
  }
}

function post(l: OwnerLink, m: LinkMessage): void {
  l.port.postMessage(m);
  Atomics.add(l.state, LINK.MAIL, 1);
  Atomics.notify(l.state, LINK.MAIL);
}
