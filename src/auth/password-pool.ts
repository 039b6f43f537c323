/**
 * The bounded pool of password-hashing threads. scrypt is deliberately slow (tens of ms); run on
 * libuv's thread pool it would queue the write-ahead log's fsyncs behind a flood of wrong
 * passwords, so it runs on worker threads of its own instead: at most `size` at a time, with at
 * most `maxWaiting` more queued. Beyond that a check is refused at once with 429 rather than
 * waiting. Workers start on first use and do not keep the process alive while idle.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { throttled } from './errors.js';
import type { DeriveReply, DeriveRequest } from './password-worker.js';

export interface DeriveJob {
  password: string;
  salt: Buffer;
  keyLength: number;
  N: number;
  r: number;
  p: number;
}

interface Pending {
  job: DeriveJob;
  resolve: (key: Buffer) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  busy?: { id: number; pending: Pending };
}

export class PasswordPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: Pending[] = [];
  private nextId = 1;

  constructor(
    readonly size = Math.max(1, Math.min(2, availableParallelism() - 1)),
    readonly maxWaiting = 64,
  ) {}

  /** The scrypt key of `job`, computed on a pool thread. */
  derive(job: DeriveJob): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const pending = { job, resolve, reject };
      const slot = this.freeSlot();
      if (slot) return this.start(slot, pending);
      if (this.waiting.length >= this.maxWaiting) {
        reject(throttled('Too many password checks are in progress; try again shortly.', 1));
        return;
      }
      this.waiting.push(pending);
    });
  }

  /** Stops every thread (tests; a server lets idle threads be). */
  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private freeSlot(): Slot | undefined {
    const idle = this.slots.find((s) => !s.busy);
    if (idle) return idle;
    if (this.slots.length >= this.size) return undefined;
    const slot: Slot = { worker: new Worker(new URL('./password-worker.js', import.meta.url)) };
    slot.worker.unref();
    slot.worker.on('message', (m: DeriveReply) => this.finished(slot, m));
    slot.worker.on('error', (e) => this.crashed(slot, e));
    slot.worker.on('exit', () => this.crashed(slot, new Error('the password thread stopped')));
    this.slots.push(slot);
    return slot;
  }

  private start(slot: Slot, pending: Pending): void {
    const id = this.nextId++;
    slot.busy = { id, pending };
    // A thread with work keeps the process alive until it answers.
    slot.worker.ref();
    const { password, salt, keyLength, N, r, p } = pending.job;
    slot.worker.postMessage({ id, password, salt, keyLength, N, r, p } satisfies DeriveRequest);
  }

  private finished(slot: Slot, m: DeriveReply): void {
    const busy = slot.busy;
    if (!busy || busy.id !== m.id) return;
    slot.busy = undefined;
    slot.worker.unref();
    if ('error' in m) busy.pending.reject(new Error(m.error));
    else busy.pending.resolve(Buffer.from(m.key.buffer, m.key.byteOffset, m.key.byteLength));
    this.next(slot);
  }

  private crashed(slot: Slot, e: Error): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    this.slots.splice(i, 1);
    slot.busy?.pending.reject(e);
    slot.busy = undefined;
    void slot.worker.terminate();
    const next = this.waiting.shift();
    if (next) {
      const fresh = this.freeSlot();
      if (fresh) this.start(fresh, next);
      else this.waiting.unshift(next);
    }
  }

  private next(slot: Slot): void {
    const pending = this.waiting.shift();
    if (pending) this.start(slot, pending);
  }
}

/** The process's pool: password checks of every database share the same threads. */
export const passwordPool = new PasswordPool();
