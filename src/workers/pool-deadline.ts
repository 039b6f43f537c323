/**
 * The pool's one timer for every task's deadline (GSQL-TIMEOUT), set for the earliest deadline it
 * was told of: a task whose deadline is later than the timer's sets none, so a query costs no
 * timer of its own.
 */
export class DeadlineTimer {
  private timer: NodeJS.Timeout | undefined;
  private at = Infinity;

  /**
   * `due(now)` stops the tasks whose deadline is past and answers the earliest deadline of the
   * others (Infinity: none).
   */
  constructor(private readonly due: (now: number) => number) {}

  /** Makes the timer fire by `at` (epoch ms). */
  watch(at: number): void {
    if (this.at <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.at = at;
    this.timer = setTimeout(() => this.fire(), Math.max(0, at - Date.now()));
    // A pending deadline alone does not keep the process alive (the task's worker does).
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.at = Infinity;
  }

  private fire(): void {
    this.timer = undefined;
    this.at = Infinity;
    const next = this.due(Date.now());
    if (next < Infinity) this.watch(next);
  }
}
