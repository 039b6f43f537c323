/**
 * Checkpoints: a snapshot of opaque bytes tagged with the LSN it covers (every record up to and
 * including that LSN is reflected in it).
 *
 * File `checkpoint-<lsn, 16 digits>.ckpt`: a 40-byte header, then the body.
 *   magic "OCELCKPT" | u32 format version | u32 0 | u64 LSN | u64 body length | u32 CRC32 of body |
 *   u32 CRC32 of header bytes 0..36
 * Writing goes to `<name>.tmp`, is fsynced, renamed to its final name and the directory fsynced, so
 * a crash at any step leaves either no new checkpoint or a complete one; older checkpoints are only
 * deleted afterwards (prune), so the previous one is there to fall back to.
 */
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { TEMP_SUFFIX, makeDirDurable } from './durable-ops.js';
import { type FileLayer, realFileLayer } from './file-layer.js';
import { crc32Update } from './wal-format.js';

export const CHECKPOINT_MAGIC = 'OCELCKPT';
export const CHECKPOINT_FORMAT_VERSION = 1;
export const CHECKPOINT_HEADER_SIZE = 40;

/** Chunks are coalesced into writes of about this size (fewer syscalls for many small chunks). */
const WRITE_BUFFER = 4 * 1024 * 1024;
/** Chunks from this size on are written as they come instead of being copied. */
const COPY_LIMIT = 64 * 1024;

const CHECKPOINT_NAME = /^checkpoint-(\d{16})\.ckpt$/;

export type CheckpointChunks = Iterable<Uint8Array> | AsyncIterable<Uint8Array>;

export interface CheckpointInfo {
  /** File name inside the checkpoint directory. */
  file: string;
  lsn: number;
}

export interface LoadedCheckpoint extends CheckpointInfo {
  /** The body: a view into the one buffer the file was read into (slice sections without copying). */
  bytes: Buffer;
}

export interface CheckpointReadReport {
  /** The checkpoint used, if any. */
  used?: CheckpointInfo;
  /** Newer checkpoints that were damaged and skipped, newest first, with the reason. */
  skipped: Array<CheckpointInfo & { reason: string }>;
  /** Leftover temporary files from an interrupted write (ignored; deleted by the next write). */
  incomplete: string[];
}

export function checkpointName(lsn: number): string {
  return `checkpoint-${String(lsn).padStart(16, '0')}.ckpt`;
}

function putU64(buf: Buffer, value: number, offset: number): void {
  buf.writeUInt32LE(value % 0x1_0000_0000, offset);
  buf.writeUInt32LE(Math.floor(value / 0x1_0000_0000), offset + 4);
}

function getU64(buf: Buffer, offset: number): number {
  return buf.readUInt32LE(offset) + buf.readUInt32LE(offset + 4) * 0x1_0000_0000;
}

function encodeHeader(lsn: number, length: number, bodyCrc: number): Buffer {
  const h = Buffer.alloc(CHECKPOINT_HEADER_SIZE);
  h.write(CHECKPOINT_MAGIC, 0, 'latin1');
  h.writeUInt32LE(CHECKPOINT_FORMAT_VERSION, 8);
  putU64(h, lsn, 16);
  putU64(h, length, 24);
  h.writeUInt32LE(bodyCrc, 32);
  h.writeUInt32LE(crc32(h.subarray(0, 36)), 36);
  return h;
}

/** The body of a checkpoint file, or why it is not valid. */
export function decodeCheckpoint(buf: Buffer, expectLsn: number): { bytes: Buffer } | { error: string } {
  if (buf.length < CHECKPOINT_HEADER_SIZE) return { error: `file too short (${buf.length} bytes)` };
  if (buf.toString('latin1', 0, 8) !== CHECKPOINT_MAGIC) return { error: 'bad magic' };
  if (buf.readUInt32LE(36) !== crc32(buf.subarray(0, 36))) return { error: 'header checksum mismatch' };
  const version = buf.readUInt32LE(8);
  if (version !== CHECKPOINT_FORMAT_VERSION)
    return { error: `unsupported checkpoint format version ${version}` };
  const lsn = getU64(buf, 16);
  if (lsn !== expectLsn) return { error: `header says LSN ${lsn}, file name says ${expectLsn}` };
  const length = getU64(buf, 24);
  if (length !== buf.length - CHECKPOINT_HEADER_SIZE) {
    return { error: `body is ${buf.length - CHECKPOINT_HEADER_SIZE} bytes, header says ${length}` };
  }
  const bytes = buf.subarray(CHECKPOINT_HEADER_SIZE);
  if (crc32(bytes) !== buf.readUInt32LE(32)) return { error: 'body checksum mismatch' };
  return { bytes };
}

/** The checkpoints of one directory. Writes are serialized. */
export class CheckpointStore {
  private writing: Promise<unknown> = Promise.resolve();

  constructor(
    readonly dir: string,
    private readonly fs: FileLayer = realFileLayer,
  ) {}

  /** Complete checkpoint files (by name; not validated), newest first. */
  async list(): Promise<CheckpointInfo[]> {
    const out: CheckpointInfo[] = [];
    for (const file of await this.files()) {
      const m = CHECKPOINT_NAME.exec(file);
      if (m) out.push({ file, lsn: Number(m[1]) });
    }
    return out.sort((a, b) => b.lsn - a.lsn);
  }

  /**
   * Writes a checkpoint covering `lsn` from `chunks` (streamed: never held in memory as a whole),
   * atomically and durably. Resolves when it is durable under its final name.
   */
  write(lsn: number, chunks: CheckpointChunks): Promise<CheckpointInfo> {
    const run = this.writing.then(() => this.writeNow(lsn, chunks));
    this.writing = run.catch(() => undefined);
    return run;
  }

  /** File names in the directory; none if it does not exist yet. */
  private async files(): Promise<string[]> {
    return (await this.fs.stat(this.dir)) ? this.fs.list(this.dir) : [];
  }

  private async writeNow(lsn: number, chunks: CheckpointChunks): Promise<CheckpointInfo> {
    await makeDirDurable(this.fs, this.dir);
    for (const f of await this.fs.list(this.dir)) {
      if (f.endsWith(TEMP_SUFFIX)) await this.fs.unlink(join(this.dir, f));
    }
    const file = checkpointName(lsn);
    const tmp = join(this.dir, file + TEMP_SUFFIX);
    const h = await this.fs.open(tmp, 'create');
    try {
      let pos = CHECKPOINT_HEADER_SIZE;
      let crc = 0;
      let pending: Uint8Array[] = [];
      let pendingBytes = 0;
      const flush = async (): Promise<void> => {
        if (pendingBytes === 0) return;
        await h.write(pending, pos);
        pos += pendingBytes;
        pending = [];
        pendingBytes = 0;
      };
      for await (const chunk of chunks) {
        crc = crc32Update(chunk, crc);
        pending.push(chunk);
        pendingBytes += chunk.byteLength;
        // The producer may reuse a chunk once asked for the next one: large chunks are written
        // before that, small ones are copied and written together.
        if (pendingBytes >= WRITE_BUFFER || pending.length >= 512 || chunk.byteLength >= COPY_LIMIT)
          await flush();
        else pending[pending.length - 1] = new Uint8Array(chunk);
      }
      await flush();
      await h.write(encodeHeader(lsn, pos - CHECKPOINT_HEADER_SIZE, crc), 0);
      await h.sync();
    } finally {
      await h.close();
    }
    await this.fs.rename(tmp, join(this.dir, file));
    await this.fs.syncDir(this.dir);
    return { file, lsn };
  }

  /**
   * Reads the newest valid checkpoint (one read of the whole file). A damaged newer one is skipped
   * and reported, falling back to the previous one.
   */
  async readNewest(): Promise<{ checkpoint?: LoadedCheckpoint; report: CheckpointReadReport }> {
    const report: CheckpointReadReport = { skipped: [], incomplete: [] };
    report.incomplete = (await this.files()).filter((f) => f.endsWith(TEMP_SUFFIX));
    for (const info of await this.list()) {
      const decoded = decodeCheckpoint(await this.fs.readFile(join(this.dir, info.file)), info.lsn);
      if ('error' in decoded) {
        report.skipped.push({ ...info, reason: decoded.error });
        continue;
      }
      report.used = info;
      return { checkpoint: { ...info, bytes: decoded.bytes }, report };
    }
    return { report };
  }

  /** Deletes all but the newest `keep` checkpoints. Returns the ones kept, newest first. */
  async prune(keep: number): Promise<CheckpointInfo[]> {
    const all = await this.list();
    const drop = all.slice(keep);
    for (const info of drop) await this.fs.unlink(join(this.dir, info.file));
    if (drop.length > 0) await this.fs.syncDir(this.dir);
    return all.slice(0, keep);
  }
}
