/**
 * Bounds the work of one path-finding request: a deadline (GSQL-TIMEOUT) checked while it runs, and
 * regular yields to the event loop so that other requests, timeouts and aborts are served meanwhile.
 */
import { PathError } from './errors.js';

/** Work between yields: long enough to keep the loop fast, short enough to stay responsive. */
const SLICE_MS = 15;

export class Budget {
  private readonly until: number;
  private sliceStart = Date.now();
  private ticks = 0;
  /** Set by tick when the current slice is used up; the caller then awaits `pause()`. */
  due = false;

  constructor(readonly timeoutMs: number) {
    this.until = Date.now() + timeoutMs;
  }

  /**
   * Counts `units` of work; every so often reads the clock and throws REST-3000 past the deadline.
   * Sets `due` when the current slice is used up. (Synchronous so that inner loops pay no promise
   * per step.)
   */
  tick(units = 1): void {
    this.ticks += units;
    if (this.ticks < 4096) return;
    this.ticks = 0;
    const now = Date.now();
    if (now > this.until) throw this.expired();
    if (now - this.sliceStart >= SLICE_MS) this.due = true;
  }

  /** Lets the event loop run, then checks the deadline again. */
  async pause(): Promise<void> {
    this.due = false;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.sliceStart = Date.now();
    if (this.sliceStart > this.until) throw this.expired();
  }

  expired(): PathError {
    return new PathError(
      `The path finding request timed out after ${this.timeoutMs} ms (GSQL-TIMEOUT); use a smaller maxLength or fewer sources and targets, or raise the timeout.`,
      'REST-3000',
    );
  }
}
