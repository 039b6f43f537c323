/**
 * Epochs: which shared arrays a running worker task may be reading.
 *
 * A task handed to a worker gets the next epoch number (`begin`); its snapshot holds the store's
 * arrays as they are at that moment. An array records the epoch counter when it was created
 * (`born`). Every task that started after it was created may read it, so while such a task runs the
 * writer must not overwrite a value any pinned version can see: it copies the array first
 * (copy-on-write) and writes the copy, which no running task has seen. Appends (rows and edges newer
 * than every pinned version) need no copy: readers never look past their version's counts.
 *
 * Memory is reclaimed by the garbage collector of each thread: a replaced array lives as long as a
 * task (or an idle worker's cached mirror, see workers/pool.ts) still references it.
 */
export class Epochs {
  private counter = 0;
  private readonly running = new Set<number>();
  private newest = -1;

  /** The epoch an array created now is born in. */
  get current(): number {
    return this.counter;
  }

  /** A task starts reading the store as it is now; returns its epoch (pass it to `end`). */
  begin(): number {
    const e = ++this.counter;
    this.running.add(e);
    this.newest = e;
    return e;
  }

  end(epoch: number): void {
    if (!this.running.delete(epoch) || epoch !== this.newest) return;
    this.newest = -1;
    for (const e of this.running) if (e > this.newest) this.newest = e;
  }

  /** Whether a running task may read an array born in epoch `born`. */
  exposed(born: number): boolean {
    return this.newest > born;
  }

  /** Number of running tasks (tests). */
  get active(): number {
    return this.running.size;
  }
}

/** The process's (or worker thread's) one registry: workers never write, so theirs stays empty. */
export const epochs = new Epochs();
