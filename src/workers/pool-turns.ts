/**
 * Turns for tasks that run on a worker of their own (the pool's runAlone): at most `limit` hold
 * one at once, each such worker costing a thread and its heap; the others wait in order.
 */
export class Turns {
  private held = 0;
  private readonly waiting: { start: () => void; reject: (e: Error) => void }[] = [];
  private closed = false;

  constructor(private readonly limit: number) {}

  /** Resolves once the caller holds a turn (give it back with `give`). */
  async take(): Promise<void> {
    if (this.held < this.limit) {
      this.held++;
      return;
    }
    // A finishing task hands its turn over (give).
    await new Promise<void>((start, reject) => this.waiting.push({ start, reject }));
  }

  /** Hands a finished task's turn to the next one waiting, or frees it. */
  give(): void {
    const next = this.closed ? undefined : this.waiting.shift();
    if (next) next.start();
    else this.held--;
  }

  /** No more turns: the waiting callers fail with `error`. */
  close(error: () => Error): void {
    this.closed = true;
    for (const w of this.waiting.splice(0)) w.reject(error());
  }
}
