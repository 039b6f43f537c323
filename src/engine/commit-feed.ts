/**
 * Commit listeners: told of every committed transaction once it is published (durable and
 * visible), in commit order. A listener runs inside the commit's publication, so it must be quick
 * and must not throw (one that throws is ignored); a reader pinned there sees exactly the
 * committed version. A data commit comes with its WAL record (wal-record.ts reads it, e.g.
 * `vertexTouches`).
 */

export type CommittedChange =
  | { kind: 'data'; version: number; record: Uint8Array }
  | { kind: 'catalog'; version: number }
  | { kind: 'clear'; version: number };

export type CommitListener = (change: CommittedChange) => void;

export class CommitFeed {
  private readonly listeners = new Set<CommitListener>();

  /** Adds a listener; the returned function removes it. */
  listen(fn: CommitListener): () => void {
    this.listeners.add(fn);
    return () => {
      this.listeners.delete(fn);
    };
  }

  get active(): boolean {
    return this.listeners.size > 0;
  }

  publish(change: CommittedChange): void {
    for (const fn of this.listeners) {
      try {
        fn(change);
      } catch {
        // A listener's failure is its own: the commit has happened.
      }
    }
  }
}
