/**
 * A file layer for crash and I/O-error tests (in the spirit of SQLite's crash-test VFS and LazyFS).
 * It wraps another layer (normally the real one, on a temporary directory) and:
 * - remembers what is durable: file contents as of each file's last successful fsync, and directory
 *   entries (creates, renames, unlinks) as of the directory's last successful fsync;
 * - on crash() rewrites the wrapped files to exactly that durable state, optionally keeping a prefix
 *   of un-synced writes (a torn write), and invalidates every open handle, like a power loss;
 * - fails operations with an error code (EIO by default) after N operations or on a predicate, and
 *   can tear a write (a prefix reaches the file, then EIO);
 * - counts operations.
 *
 * Model limits: directories created with mkdir are durable at once; files that exist when a
 * directory is first touched are taken as durable; a pending truncate is dropped by a crash.
 */
import { basename, dirname, join, resolve } from 'node:path';
import { ByteImage, Inode } from './faulty-inode.js';
import {
  type FileHandle,
  type FileLayer,
  type FileStat,
  type OpenMode,
  fsError,
  realFileLayer,
} from './file-layer.js';

export type FileOpKind =
  | 'open'
  | 'write'
  | 'read'
  | 'sync'
  | 'truncate'
  | 'size'
  | 'close'
  | 'readFile'
  | 'list'
  | 'mkdir'
  | 'rename'
  | 'unlink'
  | 'stat'
  | 'syncDir';

/** One operation, as fault predicates see it. */
export interface FileOp {
  kind: FileOpKind;
  path: string;
  /** rename: the destination. */
  to?: string;
  /** write: where and how many bytes. */
  position?: number;
  length?: number;
  /** Position of this operation among all operations of this layer (1-based). */
  seq: number;
}

/** An un-synced write, as the crash policy sees it. */
export interface PendingWrite {
  path: string;
  position: number;
  length: number;
  /** Order among the un-synced writes of that file (0-based). */
  index: number;
}

export interface CrashOptions {
  /**
   * How many bytes of each un-synced write reach the disk anyway (a prefix; 0 drops it, `length`
   * keeps it whole). Default: all are dropped.
   */
  keep?: (write: PendingWrite) => number;
}

export type FileOpCounts = Record<FileOpKind, number> & { bytesWritten: number };

interface Rule {
  pred: (op: FileOp) => boolean;
  code: string;
  /** Bytes of a matching write that still reach the file before the error. */
  tear?: (length: number) => number;
}

interface DirState {
  live: Map<string, Inode>;
  durable: Map<string, Inode>;
}

class FaultyHandle implements FileHandle {
  constructor(
    private readonly layer: FaultyFileLayer,
    private readonly inner: FileHandle,
    readonly path: string,
    private readonly inode: Inode,
    private readonly epoch: number,
  ) {}

  private live(): void {
    if (this.layer.epochNow() !== this.epoch)
      throw fsError('EBADF', `${this.path}: handle lost in a simulated crash`);
  }

  async write(data: Uint8Array | readonly Uint8Array[], position: number): Promise<void> {
    this.live();
    return this.layer.track(this.writeNow(data, position));
  }

  private async writeNow(data: Uint8Array | readonly Uint8Array[], position: number): Promise<void> {
    const bytes = data instanceof Uint8Array ? new Uint8Array(data) : new Uint8Array(Buffer.concat(data));
    const rule = this.layer.check({ kind: 'write', path: this.path, position, length: bytes.byteLength });
    await this.layer.materialize(this.inode);
    if (rule) {
      const kept = rule.tear ? Math.max(0, Math.min(bytes.byteLength, rule.tear(bytes.byteLength))) : 0;
      if (kept > 0) {
        await this.inner.write(bytes.subarray(0, kept), position);
        this.inode.pending.push({ kind: 'write', position, data: bytes.subarray(0, kept) });
        this.layer.counts.bytesWritten += kept;
      }
      throw fsError(
        rule.code,
        `write to ${this.path} failed (injected${kept > 0 ? `, ${kept} bytes torn in` : ''})`,
      );
    }
    await this.inner.write(bytes, position);
    this.inode.pending.push({ kind: 'write', position, data: bytes });
    this.layer.counts.bytesWritten += bytes.byteLength;
  }

  async writeAndSync(data: Uint8Array | readonly Uint8Array[], position: number): Promise<void> {
    await this.write(data, position);
    await this.sync();
  }

  async read(position: number, length: number): Promise<Buffer> {
    this.live();
    this.layer.fail({ kind: 'read', path: this.path, position, length });
    return this.inner.read(position, length);
  }

  async sync(): Promise<void> {
    this.live();
    return this.layer.track(
      (async () => {
        this.layer.fail({ kind: 'sync', path: this.path });
        await this.inner.sync();
        this.layer.syncInode(this.inode);
      })(),
    );
  }

  async truncate(length: number): Promise<void> {
    this.live();
    return this.layer.track(
      (async () => {
        this.layer.fail({ kind: 'truncate', path: this.path, length });
        await this.layer.materialize(this.inode);
        await this.inner.truncate(length);
        this.inode.pending.push({ kind: 'truncate', length });
      })(),
    );
  }

  async size(): Promise<number> {
    this.live();
    this.layer.fail({ kind: 'size', path: this.path });
    return this.inner.size();
  }

  async close(): Promise<void> {
    this.layer.counts.close++;
    this.layer.forget(this.inner);
    if (this.layer.epochNow() === this.epoch) await this.inner.close();
  }
}

export class FaultyFileLayer implements FileLayer {
  readonly counts: FileOpCounts = FaultyFileLayer.zeroCounts();
  private rules: Rule[] = [];
  private dirs = new Map<string, DirState>();
  private open_ = new Set<FileHandle>();
  private inflight = new Set<Promise<unknown>>();
  private epoch = 0;
  private seq = 0;

  constructor(private readonly inner: FileLayer = realFileLayer) {}

  private static zeroCounts(): FileOpCounts {
    return {
      open: 0,
      write: 0,
      read: 0,
      sync: 0,
      truncate: 0,
      size: 0,
      close: 0,
      readFile: 0,
      list: 0,
      mkdir: 0,
      rename: 0,
      unlink: 0,
      stat: 0,
      syncDir: 0,
      bytesWritten: 0,
    };
  }

  // ----- fault injection -------------------------------------------------------------------------

  /** Every operation matching `pred` fails with `code` and has no effect. */
  failWhen(pred: (op: FileOp) => boolean, code = 'EIO'): void {
    this.rules.push({ pred, code });
  }

  /** The first `n` operations of `kind` succeed; every later one fails with `code`. */
  failAfter(kind: FileOpKind, n: number, code = 'EIO'): void {
    let seen = 0;
    this.rules.push({ pred: (op) => op.kind === kind && ++seen > n, code });
  }

  /** A write matching `pred` puts only its first `keep(length)` bytes in the file, then fails with EIO. */
  tearWhen(pred: (op: FileOp) => boolean, keep: (length: number) => number): void {
    this.rules.push({ pred: (op) => op.kind === 'write' && pred(op), code: 'EIO', tear: keep });
  }

  clearFaults(): void {
    this.rules = [];
  }

  resetCounts(): void {
    Object.assign(this.counts, FaultyFileLayer.zeroCounts());
  }

  /** @internal Counts the operation and returns the fault rule that matches it, if any. */
  check(op: Omit<FileOp, 'seq'>): Rule | undefined {
    this.counts[op.kind]++;
    const full: FileOp = { ...op, seq: ++this.seq };
    return this.rules.find((r) => r.pred(full));
  }

  /** @internal Counts the operation and throws if a fault rule matches it. */
  fail(op: Omit<FileOp, 'seq'>): void {
    const rule = this.check(op);
    if (rule) throw fsError(rule.code, `${op.kind} ${op.path} failed (injected)`);
  }

  // ----- simulated power loss --------------------------------------------------------------------

  /**
   * Power loss: every wrapped file returns to its durable state (plus kept prefixes, see
   * CrashOptions) and every open handle becomes unusable. The layer stays usable, like a reboot.
   */
  async crash(options: CrashOptions = {}): Promise<void> {
    this.epoch++;
    // Operations already under way finish first (a power cut after them): closing their file
    // descriptors under them could let a late write land in a reused descriptor.
    await Promise.allSettled(this.inflight);
    for (const h of this.open_) await h.close().catch(() => undefined);
    this.open_.clear();
    const untouched = new Set<string>();
    const targets: Array<{ path: string; content: Uint8Array }> = [];
    for (const [dir, state] of this.dirs) {
      for (const [name, inode] of state.durable) {
        const path = join(dir, name);
        const hasKept = options.keep !== undefined && inode.pending.some((p) => p.kind === 'write');
        if (inode.livePath === path && inode.pending.length === 0) {
          untouched.add(path);
          continue;
        }
        const image = inode.durable
          ? inode.durable.clone()
          : new ByteImage(await this.inner.readFile(inode.livePath ?? path));
        if (hasKept) {
          let index = 0;
          for (const p of inode.pending) {
            if (p.kind !== 'write') continue;
            const want = options.keep!({
              path,
              position: p.position,
              length: p.data.byteLength,
              index: index++,
            });
            const kept = Math.max(0, Math.min(p.data.byteLength, want));
            if (kept > 0) image.write(p.position, p.data.subarray(0, kept));
          }
        }
        targets.push({ path, content: image.bytes() });
      }
    }
    for (const [dir, state] of this.dirs) {
      for (const name of state.live.keys()) {
        const path = join(dir, name);
        if (!untouched.has(path)) await this.inner.unlink(path);
      }
    }
    for (const t of targets) {
      const h = await this.inner.open(t.path, 'create');
      try {
        await h.write(t.content, 0);
      } finally {
        await h.close();
      }
    }
    // Start afresh: what is on disk now is the durable state.
    this.dirs.clear();
  }

  /** Bytes written but not yet fsynced, over all files (for tests that check what a crash loses). */
  unsyncedWrites(): number {
    let n = 0;
    for (const state of this.dirs.values()) {
      for (const inode of state.live.values()) {
        for (const p of inode.pending) if (p.kind === 'write') n += p.data.byteLength;
      }
    }
    return n;
  }

  // ----- @internal: bookkeeping used by this file's handles, not by tests ---------------------------------------------------------------

  /** Remembers a handle operation until it settles, so that crash() can wait for it. */
  track<T>(op: Promise<T>): Promise<T> {
    this.inflight.add(op);
    const done = (): void => {
      this.inflight.delete(op);
    };
    op.then(done, done);
    return op;
  }

  epochNow(): number {
    return this.epoch;
  }

  forget(h: FileHandle): void {
    this.open_.delete(h);
  }

  /** Loads a file's durable content before it is first changed, so a crash can restore it. */
  async materialize(inode: Inode): Promise<void> {
    if (inode.durable || inode.livePath === undefined) return;
    inode.durable = new ByteImage(await this.inner.readFile(inode.livePath));
  }

  syncInode(inode: Inode): void {
    if (inode.pending.length === 0) return;
    const image = inode.durable!;
    for (const p of inode.pending) image.apply(p);
    inode.pending = [];
  }

  private async dirState(dir: string): Promise<DirState> {
    const key = resolve(dir);
    let state = this.dirs.get(key);
    if (state) return state;
    state = { live: new Map(), durable: new Map() };
    const st = await this.inner.stat(key);
    if (st?.isDirectory) {
      for (const name of await this.inner.list(key)) {
        const path = join(key, name);
        if ((await this.inner.stat(path))?.isFile) {
          const inode = new Inode(path, undefined);
          state.live.set(name, inode);
          state.durable.set(name, inode);
        }
      }
    }
    this.dirs.set(key, state);
    return state;
  }

  private async locate(path: string): Promise<{ state: DirState; name: string; path: string }> {
    const full = resolve(path);
    return { state: await this.dirState(dirname(full)), name: basename(full), path: full };
  }

  // ----- FileLayer ---------------------------------------------------------------------------------

  async open(path: string, mode: OpenMode): Promise<FileHandle> {
    this.fail({ kind: 'open', path });
    const loc = await this.locate(path);
    let inode = loc.state.live.get(loc.name);
    if (inode && mode === 'create') await this.materialize(inode);
    const inner = await this.inner.open(path, mode);
    if (!inode) {
      inode = new Inode(loc.path, new ByteImage(new Uint8Array(0)));
      loc.state.live.set(loc.name, inode);
    } else if (mode === 'create') {
      inode.pending.push({ kind: 'truncate', length: 0 });
    }
    this.open_.add(inner);
    return new FaultyHandle(this, inner, path, inode, this.epoch);
  }

  async readFile(path: string): Promise<Buffer> {
    this.fail({ kind: 'readFile', path });
    return this.inner.readFile(path);
  }

  async list(dir: string): Promise<string[]> {
    this.fail({ kind: 'list', path: dir });
    return this.inner.list(dir);
  }

  async mkdir(dir: string): Promise<void> {
    this.fail({ kind: 'mkdir', path: dir });
    return this.inner.mkdir(dir);
  }

  async rename(from: string, to: string): Promise<void> {
    this.fail({ kind: 'rename', path: from, to });
    const src = await this.locate(from);
    const dst = await this.locate(to);
    const inode = src.state.live.get(src.name);
    const replaced = dst.state.live.get(dst.name);
    // Its durable content must be saved before the rename overwrites it; a crash may bring it back.
    if (replaced && replaced !== inode) await this.materialize(replaced);
    await this.inner.rename(from, to);
    if (replaced && replaced !== inode) replaced.livePath = undefined;
    if (inode) {
      src.state.live.delete(src.name);
      dst.state.live.set(dst.name, inode);
      inode.livePath = dst.path;
    }
  }

  async unlink(path: string): Promise<void> {
    this.fail({ kind: 'unlink', path });
    const loc = await this.locate(path);
    const inode = loc.state.live.get(loc.name);
    if (inode) await this.materialize(inode);
    await this.inner.unlink(path);
    if (inode) inode.livePath = undefined;
    loc.state.live.delete(loc.name);
  }

  async stat(path: string): Promise<FileStat | undefined> {
    this.fail({ kind: 'stat', path });
    return this.inner.stat(path);
  }

  async truncate(path: string, length: number): Promise<void> {
    this.fail({ kind: 'truncate', path, length });
    const loc = await this.locate(path);
    const inode = loc.state.live.get(loc.name);
    if (inode) await this.materialize(inode);
    await this.inner.truncate(path, length);
    inode?.pending.push({ kind: 'truncate', length });
  }

  async syncDir(dir: string): Promise<void> {
    this.fail({ kind: 'syncDir', path: dir });
    const state = await this.dirState(dir);
    await this.inner.syncDir(dir);
    state.durable = new Map(state.live);
  }
}
