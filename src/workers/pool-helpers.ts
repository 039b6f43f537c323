/**
 * The pool's helper reservations: which idle workers serve a task's SELECTs, on which links. A
 * query task that will split gets its helpers with the task (forTask): a kept helper still on a
 * link the owner's last query parked, or an idle worker on a new link over the channel the two
 * workers keep. A running query that asks for helpers gets idle ones (idle, attach). The pool
 * (pool.ts) owns the slots and calls this for every helper it gives or takes back.
 */
import { MessageChannel, type Worker } from 'node:worker_threads';
import { epochs } from '../store/epochs.js';
import { dismiss, KeptChannels, release, reopen } from './pool-links.js';
import { type Running, type Slot, unpin } from './pool-slot.js';
import { type HelpLink, type HelpRequest, LINK, type ToWorker } from './protocol.js';

/** A slot whose worker is started. */
export type LiveSlot = Slot & { worker: Worker };

/** An idle worker reserved as a task's helper, with both ends of its link. */
export interface Reserved {
  slot: LiveSlot;
  helpers: HelpLink;
  owners: HelpLink;
  /** The pair (owner's slot, helper's) whose channel is made for this link: kept once both ports were sent. */
  fresh?: [number, number];
}

/** What the reservations need of the pool. */
export interface HelperPool {
  /** Whether tasks wait for a worker (helpers are not given then). */
  waiting(): boolean;
  /** Starts a fresh worker on the slot. */
  spawn(slot: Slot): Worker;
  readonly stats: { helped: number; kept: number };
  log?: (line: string) => void;
}

export class PoolHelpers {
  /** Pairs of slots whose workers keep a channel between them for helper links. */
  private readonly channels = new KeptChannels();

  constructor(
    private readonly slots: readonly Slot[],
    private readonly pool: HelperPool,
  ) {}

  /** The slot's worker was replaced: the other workers' ports to it lead nowhere now. */
  forget(slot: Slot): void {
    this.channels.forget(this.slots.indexOf(slot));
  }

  /**
   * An idle worker that may help a query: none when none is free or tasks are waiting. A free slot
   * whose worker was lost gets a fresh one (it takes the help once it has started).
   */
  idle(): LiveSlot | undefined {
    if (this.pool.waiting()) return undefined;
    let parked: LiveSlot | undefined;
    for (const s of this.slots) {
      if (s.running || s.worker === undefined) continue;
      if (!s.parked) return s as LiveSlot;
      parked ??= s as LiveSlot;
    }
    if (parked) {
      this.unpark(parked);
      return parked;
    }
    const free = this.slots.find((s) => !s.running);
    if (!free) return undefined;
    this.pool.spawn(free);
    return free as LiveSlot;
  }

  /**
   * Links the idle worker `h` to the task (it serves the task's SELECTs on the task's version until
   * released).
   */
  attach(h: LiveSlot, task: Running, query: HelpRequest['query'], link: HelpLink): void {
    h.running = { kind: 'help', task, link: link.state, epoch: epochs.begin() };
    this.postHelp(h, task, query, link);
  }

  private postHelp(h: LiveSlot, task: Running, query: HelpRequest['query'], link: HelpLink): void {
    const image = h.exporter.image(task.pin.graphStore, task.pin.version);
    h.imaged = task.pin.version;
    const msg: ToWorker = { kind: 'help', image, owner: task.id, query, link };
    h.worker.postMessage(msg, link.port ? [link.port] : []);
    this.pool.stats.helped++;
  }

  /**
   * Helpers for a query task that will split SELECTs, given with the task so that they are ready
   * for its first split: idle workers reserved for it, each with the two ends of its link, on the
   * channel the two workers keep (made now, `fresh`, for a pair that has none yet).
   */
  forTask(owner: Slot, run: Running): Reserved[] {
    const out: Reserved[] = [];
    const task = run.task;
    const me = this.slots.indexOf(owner);
    if (task.kind !== 'query' || !task.split || me < 0) return out;
    const threads = Math.min(this.slots.length, task.run.threadLimit ?? this.slots.length);
    for (let i = 1; i < threads; i++) {
      const kept = this.kept(me, run);
      if (kept) {
        out.push(kept);
        continue;
      }
      const h = this.idle();
      if (!h) break;
      const peer = this.slots.indexOf(h);
      const state = new Int32Array(new SharedArrayBuffer(LINK.WORDS * 4));
      h.running = { kind: 'help', task: run, link: state, epoch: epochs.begin() };
      if (this.channels.has(me, peer)) {
        out.push({ slot: h, helpers: { state, peer: me }, owners: { state, peer } });
        continue;
      }
      const { port1, port2 } = new MessageChannel();
      out.push({
        slot: h,
        helpers: { state, port: port2, peer: me },
        owners: { state, port: port1, peer },
        fresh: [me, peer],
      });
    }
    return out;
  }

  /**
   * A helper still on a link the owner (slot `me`) parked, reserved for its new task: the link
   * goes with the task (`resume`), and its 'help' brings the task's image and query.
   */
  private kept(me: number, run: Running): Reserved | undefined {
    if (this.pool.waiting()) return undefined;
    const h = this.slots.find((s) => s.parked?.owner === me && !s.running && s.worker !== undefined);
    if (!h?.parked || !h.worker) return undefined;
    const state = h.parked.link;
    h.parked = undefined;
    // A helper that left its parked link (it failed there) is free as it is.
    if (!reopen(state)) return undefined;
    h.running = { kind: 'help', task: run, link: state, epoch: epochs.begin() };
    this.pool.stats.kept++;
    const peer = this.slots.indexOf(h);
    return {
      slot: h as LiveSlot,
      helpers: { state, peer: me, resume: true },
      owners: { state, peer, resume: true },
    };
  }

  /** A kept helper leaves its parked link (it posts nothing: the pool counts it free already). */
  unpark(slot: Slot): void {
    const p = slot.parked;
    if (!p) return;
    slot.parked = undefined;
    release(p.link);
  }

  /** The helpers kept for the slot's worker leave their links (the worker was lost or replaced). */
  unparkFor(owner: Slot): void {
    const at = this.slots.indexOf(owner);
    if (at < 0) return;
    for (const s of this.slots) if (s.parked?.owner === at) this.unpark(s);
  }

  /** Sends a reserved helper its link; if that fails, the owner runs without it. */
  send(r: Reserved, run: Running): void {
    const task = run.task as HelpRequest['query'];
    try {
      this.postHelp(r.slot, run, task, r.helpers);
    } catch (e) {
      this.pool.log?.(`query helper not linked: ${e instanceof Error ? e.message : String(e)}`);
      this.unreserve(r);
      return;
    }
    // Both workers of a new pair now have their port.
    if (r.fresh) this.channels.add(...r.fresh);
  }

  /**
   * A reserved helper is free again, its link released: one that got no link message, or a kept
   * one (still on its link: it leaves it and posts nothing) whose task did not start.
   */
  unreserve(r: Reserved): void {
    const h = r.slot.running;
    if (h?.kind === 'help') unpin(h);
    r.slot.running = undefined;
    if (r.helpers.resume) dismiss(r.helpers.state);
    else release(r.helpers.state);
    r.helpers.port?.close();
  }
}
