/**
 * Subscriptions (`subscription { <V>_changed(where) { op id version node { … } } }`), fed from
 * the engine's commit stream. At each commit the hub pins the committed snapshot (inside the
 * commit's publication, so it is exactly that version) beside the previous one, reads which
 * vertices the commit wrote, and classifies each as an insert, update or delete by looking it up
 * in both snapshots. A subscriber gets the changes of its vertex type whose vertex matches its
 * filter — the new vertex for inserts and updates (or the old one, so a vertex leaving the filter
 * shows as an update), the old one for deletes — rendered by its plan over that snapshot.
 *
 * Buffers are bounded: a subscription ends with an error when its connection has more than its
 * budget of events waiting or one commit writes more than MAX_COMMIT_CHANGES vertices of its type,
 * and the hub gives up (ending every subscription) when it falls more than MAX_BACKLOG commits (or
 * MAX_BACKLOG_BYTES of records) behind. A schema change or a cleared graph ends every subscription
 * (their plans were made for the old schema).
 */
import type { ExternalId, ReadTx } from '../engine/api.js';
import type { CommitListener, CommittedChange } from '../engine/commit-feed.js';
import { vertexTouches } from '../engine/wal-record.js';
import type { FormattedError } from './exec-state.js';
import { vertexTexts } from './selection-texts.js';
import { textOf } from './texts.js';
import { GraphQLRequestError } from './filter.js';
import { Cooperation, isFieldError } from './limits.js';
import type { ChangeField } from './plan.js';
import { stringifyJson } from '../util/json.js';

/** The database side subscriptions need. */
export interface CommitSource {
  read(): ReadTx;
  onCommit(fn: CommitListener): () => void;
}

/** Events a connection may have waiting, over all its subscriptions. */
export class EventBudget {
  pending = 0;
  constructor(readonly max: number) {}
}

/** Commits the hub may have waiting before it gives up, and their record bytes. */
const MAX_BACKLOG = 10_000;
const MAX_BACKLOG_BYTES = 64 * 1024 * 1024;
/** Vertices of one type one commit may write for its subscribers to be told each change. */
export const MAX_COMMIT_CHANGES = 100_000;
/** Milliseconds one event's node may take to render. */
const RENDER_MS = 16_000;

type Op = 'insert' | 'update' | 'delete';

interface Event {
  op: Op;
  version: number;
  /** The snapshot the node is read from, and its row there. */
  tx: ReadTx;
  row: number;
  /** For an update: the old row, for matching a vertex that left the filter. */
  old?: { tx: ReadTx; row: number };
}

/** One subscriber's stream of response texts, as an async iterator graphql-ws can end. */
export class ChangeStream implements AsyncIterableIterator<string> {
  private readonly queue: string[] = [];
  private waiting: { resolve: (r: IteratorResult<string>) => void; reject: (e: Error) => void } | undefined;
  private failure: Error | undefined;
  private done = false;
  /** Set by the hub: removes the subscriber. */
  detach: () => void = () => {};

  constructor(
    readonly field: ChangeField,
    private readonly budget: EventBudget,
    private readonly maxRows: number,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** Whether the stream takes no more events (its queue may still hold some). */
  get ended(): boolean {
    return this.done;
  }

  push(text: string): void {
    if (this.done) return;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = undefined;
      w.resolve({ value: text, done: false });
      return;
    }
    if (this.budget.pending >= this.budget.max) {
      this.fail(
        new GraphQLRequestError(
          `The subscription fell behind: more than ${this.budget.max} events were waiting on this connection; subscribe again.`,
          'SUBSCRIPTION-OVERFLOW',
        ),
      );
      return;
    }
    this.budget.pending++;
    this.queue.push(text);
  }

  /** Ends the stream: the client gets `e` as the operation's error after what is queued. */
  fail(e: Error): void {
    if (this.done) return;
    this.failure = e;
    this.end();
    const w = this.waiting;
    this.waiting = undefined;
    if (w) {
      this.failure = undefined;
      w.reject(e);
    }
  }

  private end(): void {
    this.done = true;
    this.detach();
  }

  next(): Promise<IteratorResult<string>> {
    const text = this.queue.shift();
    if (text !== undefined) {
      this.budget.pending--;
      return Promise.resolve({ value: text, done: false });
    }
    if (this.failure) {
      const e = this.failure;
      this.failure = undefined;
      return Promise.reject(e);
    }
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  return(): Promise<IteratorResult<string>> {
    this.budget.pending -= this.queue.length;
    this.queue.length = 0;
    this.failure = undefined;
    if (!this.done) this.end();
    const w = this.waiting;
    this.waiting = undefined;
    w?.resolve({ value: undefined, done: true });
    return Promise.resolve({ value: undefined, done: true });
  }

  /** The response text of one event for this subscriber, or undefined when it does not match. */
  async render(e: Event, catalog: Parameters<typeof vertexTexts>[0]['catalog']): Promise<string | undefined> {
    const f = this.field;
    if (!f.ops.has(e.op)) return undefined;
    if (f.filter) {
      const now = f.filter.bind(e.tx)(e.row);
      const before = e.old ? f.filter.bind(e.old.tx)(e.old.row) : false;
      if (!now && !before) return undefined;
    }
    const errors: FormattedError[] = [];
    const x = {
      catalog,
      tx: e.tx,
      coop: new Cooperation(Date.now() + RENDER_MS, RENDER_MS, this.maxRows),
      errors,
      introspect: async () => 'null',
      mutation: {
        write: () => Promise.reject(new Error('no writes in a subscription')),
        fresh: () => e.tx,
      },
    };
    let s = '{';
    for (const [i, p] of f.fields.entries()) {
      s += `${i > 0 ? ',' : ''}${JSON.stringify(p.key)}:`;
      if (p.k === 'const') s += p.json;
      else if (p.k === 'op') s += JSON.stringify(e.op);
      else if (p.k === 'version') s += String(e.version);
      else if (p.k === 'id') s += JSON.stringify(e.tx.vertexId(f.vm.type.name, e.row));
      else if (p.k === 'node') {
        try {
          s += textOf(await vertexTexts(x, e.tx, p.sel, [e.row]), 0);
        } catch (err) {
          if (!isFieldError(err)) throw err;
          errors.push({ message: err.message, path: [f.key, p.key] });
          s += 'null';
        }
      }
    }
    const data = `{${JSON.stringify(f.key)}:${s}}}`;
    return errors.length > 0 ? `{"errors":${stringifyJson(errors)},"data":${data}}` : `{"data":${data}}`;
  }
}

interface Pending {
  change: CommittedChange;
  prev: ReadTx;
  next: ReadTx;
}

export class ChangeHub {
  private readonly streams = new Set<ChangeStream>();
  private stop: (() => void) | undefined;
  /** The snapshot of the last commit seen: the "before" of the next one. */
  private last: ReadTx | undefined;
  private readonly backlog: Pending[] = [];
  private backlogBytes = 0;
  private draining = false;
  /** Snapshots to release once the drain is done with them. */
  private readonly retired: ReadTx[] = [];

  constructor(
    private readonly db: CommitSource,
    private readonly catalog: () => Parameters<ChangeStream['render']>[1],
  ) {}

  get subscribers(): number {
    return this.streams.size;
  }

  add(stream: ChangeStream): void {
    this.streams.add(stream);
    stream.detach = () => {
      this.streams.delete(stream);
      if (this.streams.size === 0) this.close();
    };
    if (!this.stop) {
      this.last = this.db.read();
      this.stop = this.db.onCommit(this.onCommit);
    }
  }

  /** Stops listening once nobody subscribes; queued commits are dropped by the drain. */
  private close(): void {
    this.stop?.();
    this.stop = undefined;
    if (this.last) this.retired.push(this.last);
    this.last = undefined;
    if (!this.draining) this.releaseRetired();
  }

  private releaseRetired(): void {
    for (const tx of this.retired.splice(0)) tx.release();
  }

  private readonly onCommit = (change: CommittedChange): void => {
    const prev = this.last;
    if (!prev) return;
    const next = this.db.read();
    this.last = next;
    this.backlog.push({ change, prev, next });
    this.backlogBytes += change.kind === 'data' ? change.record.length : 0;
    if (this.backlog.length > MAX_BACKLOG || this.backlogBytes > MAX_BACKLOG_BYTES) {
      this.endAll(
        new GraphQLRequestError(
          `Subscriptions fell more than ${MAX_BACKLOG} commits (or 64 MiB of changes) behind and were ended; subscribe again.`,
          'SUBSCRIPTION-OVERFLOW',
        ),
      );
    }
    if (!this.draining) {
      this.draining = true;
      setImmediate(() => void this.drain());
    }
  };

  private endAll(e: Error): void {
    for (const s of [...this.streams]) s.fail(e);
  }

  /**
   * Delivers queued commits in order. Each pinned snapshot is the "after" of one commit and the
   * "before" of the next, and is released once that next commit is delivered.
   */
  private async drain(): Promise<void> {
    try {
      for (let p = this.backlog.shift(); p; p = this.backlog.shift()) {
        this.backlogBytes -= p.change.kind === 'data' ? p.change.record.length : 0;
        try {
          if (this.streams.size > 0) await this.deliver(p);
        } finally {
          p.prev.release();
        }
      }
    } finally {
      this.draining = false;
      this.releaseRetired();
    }
  }

  /**
   * The changes a commit made to vertices of `types`, per type (each vertex once, in the order the
   * commit first wrote it): an insert (absent before), a delete (absent after) or an update (present
   * in both, written — not only named as an edge's endpoint). A type with more than
   * MAX_COMMIT_CHANGES written vertices is left out (its subscribers end).
   */
  private changesOf(
    record: Uint8Array,
    version: number,
    types: ReadonlySet<string>,
    prev: ReadTx,
    next: ReadTx,
  ): Map<string, Event[]> {
    const written = new Map<string, Map<string, { id: ExternalId; real: boolean }>>();
    for (const t of types) written.set(t, new Map());
    for (const t of vertexTouches(record)) {
      const ids = written.get(t.type);
      if (!ids) continue;
      const key = String(t.id);
      const seen = ids.get(key);
      if (seen) seen.real ||= t.how !== 'endpoint';
      else if (ids.size >= MAX_COMMIT_CHANGES) written.delete(t.type);
      else ids.set(key, { id: t.id, real: t.how !== 'endpoint' });
    }
    const out = new Map<string, Event[]>();
    for (const [type, ids] of written) {
      const events: Event[] = [];
      for (const { id, real } of ids.values()) {
        const before = prev.lookup(type, id);
        const after = next.lookup(type, id);
        if (after !== undefined && before === undefined)
          events.push({ op: 'insert', version, tx: next, row: after });
        else if (after === undefined && before !== undefined)
          events.push({ op: 'delete', version, tx: prev, row: before });
        else if (after !== undefined && before !== undefined && real) {
          events.push({ op: 'update', version, tx: next, row: after, old: { tx: prev, row: before } });
        }
      }
      out.set(type, events);
    }
    return out;
  }

  private async deliver(p: Pending): Promise<void> {
    const { change, prev, next } = p;
    if (change.kind !== 'data') {
      this.endAll(
        new GraphQLRequestError(
          change.kind === 'catalog'
            ? 'The schema changed; the subscription ended (subscribe again).'
            : 'The graph was cleared; the subscription ended (subscribe again).',
          'SUBSCRIPTION-ENDED',
        ),
      );
      return;
    }
    const types = new Set([...this.streams].map((s) => s.field.vm.type.name));
    const events = this.changesOf(change.record, change.version, types, prev, next);
    const catalog = this.catalog();
    for (const s of [...this.streams]) {
      const type = s.field.vm.type.name;
      if (!events.has(type)) {
        s.fail(
          new GraphQLRequestError(
            `A commit changed more than ${MAX_COMMIT_CHANGES} ${type} vertices; the subscription ended (subscribe again).`,
            'SUBSCRIPTION-OVERFLOW',
          ),
        );
        continue;
      }
      for (const e of events.get(type) ?? []) {
        try {
          const text = await s.render(e, catalog);
          if (text !== undefined) s.push(text);
        } catch (err) {
          s.fail(err instanceof Error ? err : new Error(String(err)));
          break;
        }
      }
    }
  }
}
