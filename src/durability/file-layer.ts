/**
 * The one interface through which every durability file operation goes. Keeping it small lets the
 * crash tests swap in a layer that forgets un-fsynced data (see faulty-file-layer.ts) and lets every
 * component be tested for power loss and I/O errors without a special file system.
 *
 * Errors are Node-style: an `Error` with a `code` ('ENOENT', 'EEXIST', 'EIO', ...).
 */
import buffer from 'node:buffer';
import { constants, promises as fsp, writeSync, writevSync } from 'node:fs';
import type { FileHandle as NodeFileHandle } from 'node:fs/promises';

/**
 * How to open a file:
 * - 'read': read only; the file must exist.
 * - 'write': read and write; created empty if missing, existing content kept.
 * - 'create': read and write; created if missing, truncated to zero if present.
 * - 'createNew': read and write; fails with EEXIST if the file already exists (used for locks).
 */
export type OpenMode = 'read' | 'write' | 'create' | 'createNew';

export interface FileStat {
  size: number;
  isFile: boolean;
  isDirectory: boolean;
}

/** An open file. Writes are positional: the caller always says where (no O_APPEND surprises). */
export interface FileHandle {
  readonly path: string;
  /**
   * Writes all of `data` at byte `position`. Several buffers are gathered in one call (writev), so
   * a frame header and a large payload go out together without being copied into one buffer.
   */
  write(data: Uint8Array | readonly Uint8Array[], position: number): Promise<void>;
  /** Reads up to `length` bytes at `position`; shorter at the end of the file. */
  read(position: number, length: number): Promise<Buffer>;
  /** fsync: returns once everything written through this file is on stable storage. */
  sync(): Promise<void>;
  /**
   * write() then sync(), with the same outcome and errors; the real layer writes a small `data` on
   * the calling thread (into the page cache) so that only the fsync waits on the thread pool.
   */
  writeAndSync(data: Uint8Array | readonly Uint8Array[], position: number): Promise<void>;
  truncate(length: number): Promise<void>;
  size(): Promise<number>;
  close(): Promise<void>;
}

export interface FileLayer {
  open(path: string, mode: OpenMode): Promise<FileHandle>;
  /** The whole file in one buffer (one read for large files). */
  readFile(path: string): Promise<Buffer>;
  /** File names in a directory (not paths), unsorted. */
  list(dir: string): Promise<string[]>;
  /** Creates the directory and missing parents; no error if it exists. */
  mkdir(dir: string): Promise<void>;
  /** Atomic replace of `to` by `from` (durable only after syncDir of both directories). */
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  /** undefined when nothing exists at `path`. */
  stat(path: string): Promise<FileStat | undefined>;
  truncate(path: string, length: number): Promise<void>;
  /** fsync of a directory: makes creates, renames and unlinks inside it durable. */
  syncDir(dir: string): Promise<void>;
}

const OPEN_FLAGS: Record<OpenMode, number> = {
  read: constants.O_RDONLY,
  write: constants.O_RDWR | constants.O_CREAT,
  create: constants.O_RDWR | constants.O_CREAT | constants.O_TRUNC,
  createNew: constants.O_RDWR | constants.O_CREAT | constants.O_EXCL,
};

const READ_STEP = 1 << 30;
/** Up to this many bytes, writeAndSync writes on the calling thread: a page-cache copy of tens of µs. */
const INLINE_WRITE_LIMIT = 1 << 20;

class RealFileHandle implements FileHandle {
  constructor(
    readonly path: string,
    private readonly fh: NodeFileHandle,
  ) {}

  async write(data: Uint8Array | readonly Uint8Array[], position: number): Promise<void> {
    let chunks = (data instanceof Uint8Array ? [data] : data).filter((c) => c.byteLength > 0);
    // A regular file rarely writes short, but when it does (e.g. nearly full disk) the rest must
    // still go out, or be reported as an error.
    while (chunks.length > 0) {
      const { bytesWritten } =
        chunks.length === 1
          ? await this.fh.write(chunks[0]!, 0, chunks[0]!.byteLength, position)
          : await this.fh.writev(chunks, position);
      if (bytesWritten === 0) throw fsError('EIO', `write to ${this.path} made no progress`);
      position += bytesWritten;
      chunks = skipBytes(chunks, bytesWritten);
    }
  }

  async writeAndSync(data: Uint8Array | readonly Uint8Array[], position: number): Promise<void> {
    let chunks = (data instanceof Uint8Array ? [data] : data).filter((c) => c.byteLength > 0);
    let bytes = 0;
    for (const c of chunks) bytes += c.byteLength;
    if (bytes > INLINE_WRITE_LIMIT) await this.write(chunks, position);
    else {
      while (chunks.length > 0) {
        const written =
          chunks.length === 1
            ? writeSync(this.fh.fd, chunks[0]!, 0, chunks[0]!.byteLength, position)
            : writevSync(this.fh.fd, chunks, position);
        if (written === 0) throw fsError('EIO', `write to ${this.path} made no progress`);
        position += written;
        chunks = skipBytes(chunks, written);
      }
    }
    await this.fh.sync();
  }

  async read(position: number, length: number): Promise<Buffer> {
    const buf = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) {
      // One read() moves at most 2 GiB; larger ranges take several.
      const step = Math.min(length - done, READ_STEP);
      const { bytesRead } = await this.fh.read(buf, done, step, position + done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return done === length ? buf : buf.subarray(0, done);
  }

  sync(): Promise<void> {
    return this.fh.sync();
  }

  truncate(length: number): Promise<void> {
    return this.fh.truncate(length);
  }

  async size(): Promise<number> {
    return (await this.fh.stat()).size;
  }

  close(): Promise<void> {
    return this.fh.close();
  }
}

/** Drops the first `n` bytes from a list of chunks (views, no copies). */
export function skipBytes(chunks: readonly Uint8Array[], n: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const c of chunks) {
    if (n >= c.byteLength) {
      n -= c.byteLength;
      continue;
    }
    out.push(n > 0 ? c.subarray(n) : c);
    n = 0;
  }
  return out;
}

/**
 * The file layer over node:fs. Everything it creates is for the server's user only (files 0600,
 * directories 0700): the data holds users' password hashes and every graph's data.
 */
export const realFileLayer: FileLayer = {
  async open(path, mode) {
    return new RealFileHandle(path, await fsp.open(path, OPEN_FLAGS[mode], 0o600));
  },
  // Not fsp.readFile: it refuses files over 2 GiB, and checkpoints of large graphs get bigger.
  async readFile(path) {
    const fh = await fsp.open(path, constants.O_RDONLY);
    try {
      const size = (await fh.stat()).size;
      if (size > buffer.constants.MAX_LENGTH) {
        throw fsError('EFBIG', `${path} is ${size} bytes, more than one buffer can hold`);
      }
      return await new RealFileHandle(path, fh).read(0, size);
    } finally {
      await fh.close();
    }
  },
  list: (dir) => fsp.readdir(dir),
  async mkdir(dir) {
    await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  },
  rename: (from, to) => fsp.rename(from, to),
  unlink: (path) => fsp.unlink(path),
  async stat(path) {
    try {
      const s = await fsp.stat(path);
      return { size: s.size, isFile: s.isFile(), isDirectory: s.isDirectory() };
    } catch (err) {
      if (errorCode(err) === 'ENOENT') return undefined;
      throw err;
    }
  },
  truncate: (path, length) => fsp.truncate(path, length),
  async syncDir(dir) {
    const fh = await fsp.open(dir, constants.O_RDONLY);
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  },
};

/** The `code` of a Node-style error, if any. */
export function errorCode(err: unknown): string | undefined {
  if (typeof err === 'object' && err !== null && 'code' in err) {
    const code = (err as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}

/** Makes a Node-style error with a code, as the real layer would throw. */
export function fsError(code: string, message: string): Error & { code: string } {
  return Object.assign(new Error(`${code}: ${message}`), { code });
}
