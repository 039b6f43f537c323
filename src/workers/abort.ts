/**
 * A query run's stop switch (the running-query registry's, for /abortquery and closing servers):
 * the pool hooks its stop of the running task on it directly, where an AbortController would cost
 * a controller, a listener added and removed, and an event per run on the main thread. Code that
 * polls an AbortSignal (a query run on this thread, without a pool) gets one made on first use.
 */
export class QueryAbort {
  private stopped = false;
  private controller: AbortController | undefined;
  /** The pool's stop of the task running for this run; called once, at the abort. */
  onAbort: (() => void) | undefined = undefined;

  get aborted(): boolean {
    return this.stopped;
  }

  abort(): void {
    if (this.stopped) return;
    this.stopped = true;
    const stop = this.onAbort;
    this.onAbort = undefined;
    this.controller?.abort();
    stop?.();
  }

  /** An AbortSignal that aborts with this switch. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.stopped) this.controller.abort();
    }
    return this.controller.signal;
  }
}
