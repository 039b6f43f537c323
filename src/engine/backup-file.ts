/**
 * Backup files: one consistent snapshot of a database (Database.snapshot) in a self-checking file,
 * and restoring one into a new data directory.
 *
 *   "OCELBKUP" | u32 header length | header JSON (BackupHeader) | snapshot (header.snapshotBytes)
 *   | u32 CRC32 of the snapshot | "OCELBEND"
 *
 * The snapshot is the engine's checkpoint encoding, so a restore writes it as the new directory's
 * only checkpoint: the restored server starts from exactly the backed-up commit.
 */
import { randomBytes } from 'node:crypto';
import { readFile, readdir, rename, rm, rmdir } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { crc32Update, DataDir, realFileLayer } from '../durability/index.js';
import { OCELOT_VERSION } from '../util/ocelot-version.js';
import { decodeSnapshot, SNAPSHOT_FORMAT } from './checkpoint-codec.js';

const MAGIC = Buffer.from('OCELBKUP', 'latin1');
const TRAILER = Buffer.from('OCELBEND', 'latin1');
export const BACKUP_FORMAT = 1;

export interface BackupHeader {
  format: number;
  /** The Ocelot release that wrote it. */
  ocelotVersion: string;
  /** ISO time the snapshot was taken. */
  createdAt: string;
  /** The commit (database version) the snapshot holds. */
  version: number;
  snapshotFormat: number;
  snapshotBytes: number;
}

/** A backup file that cannot be read or restored; the message says why. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

export function backupHeader(version: number, chunks: readonly Uint8Array[], now = new Date()): BackupHeader {
  return {
    format: BACKUP_FORMAT,
    ocelotVersion: OCELOT_VERSION,
    createdAt: now.toISOString(),
    version,
    snapshotFormat: SNAPSHOT_FORMAT,
    snapshotBytes: chunks.reduce((n, c) => n + c.byteLength, 0),
  };
}

/** The file's bytes in order (for streaming): prefix, the snapshot's chunks, then the trailer. */
export function* backupBytes(header: BackupHeader, chunks: readonly Uint8Array[]): Generator<Uint8Array> {
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const prefix = Buffer.alloc(MAGIC.length + 4);
  MAGIC.copy(prefix);
  prefix.writeUInt32LE(json.length, MAGIC.length);
  yield prefix;
  yield json;
  let crc = 0;
  for (const c of chunks) {
    crc = crc32Update(c, crc);
    yield c;
  }
  const end = Buffer.alloc(4 + TRAILER.length);
  end.writeUInt32LE(crc >>> 0, 0);
  TRAILER.copy(end, 4);
  yield end;
}

/** The total size of a backup file. */
export function backupSize(header: BackupHeader): number {
  return (
    MAGIC.length + 4 + Buffer.byteLength(JSON.stringify(header)) + header.snapshotBytes + 4 + TRAILER.length
  );
}

/** Checks a whole backup file's bytes; returns its header and the snapshot inside. */
export function parseBackup(bytes: Buffer, name = 'the backup'): { header: BackupHeader; snapshot: Buffer } {
  const bad = (why: string) => new BackupError(`${name} is not a usable Ocelot backup: ${why}.`);
  if (bytes.length < MAGIC.length + 4 || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw bad('it does not start with an Ocelot backup header');
  }
  const jsonLength = bytes.readUInt32LE(MAGIC.length);
  const at = MAGIC.length + 4;
  if (at + jsonLength > bytes.length) throw bad('it is cut short inside its header');
  let header: BackupHeader;
  try {
    header = JSON.parse(bytes.subarray(at, at + jsonLength).toString('utf8')) as BackupHeader;
  } catch {
    throw bad('its header is damaged');
  }
  if (header.format !== BACKUP_FORMAT) {
    throw bad(`it has format ${String(header.format)}; this build reads format ${BACKUP_FORMAT}`);
  }
  const start = at + jsonLength;
  const end = start + header.snapshotBytes;
  if (!Number.isSafeInteger(header.snapshotBytes) || end + 4 + TRAILER.length !== bytes.length) {
    throw bad(
      `it holds ${bytes.length} bytes where its header promises ${end + 4 + TRAILER.length} (cut short or extended)`,
    );
  }
  if (!bytes.subarray(end + 4).equals(TRAILER)) throw bad('its end marker is missing');
  const snapshot = bytes.subarray(start, end);
  if (crc32Update(snapshot, 0) >>> 0 !== bytes.readUInt32LE(end))
    throw bad('its checksum does not match (damaged)');
  return { header, snapshot };
}

/**
 * Restores a backup file into `dataDir`, which must not exist or be empty. The directory is built
 * beside it under a temporary name and renamed into place at the end, so a failed restore leaves
 * nothing that could be mistaken for a database.
 */
export async function restoreBackup(file: string, dataDir: string): Promise<BackupHeader> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (e) {
    throw new BackupError(`Cannot read ${file}: ${(e as Error).message}`);
  }
  const { header, snapshot } = parseBackup(bytes, file);
  try {
    decodeSnapshot(snapshot);
  } catch (e) {
    throw new BackupError(`${file} is not a usable Ocelot backup: ${(e as Error).message}`);
  }
  const target = resolve(dataDir);
  const entries = await readdir(target).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return undefined;
    throw new BackupError(`Cannot use ${dataDir} as the data directory: ${e.message}`);
  });
  if (entries !== undefined && entries.length > 0) {
    throw new BackupError(
      `The data directory ${dataDir} is not empty; restore into a new or empty directory.`,
    );
  }
  const building = join(dirname(target), `.${basename(target)}.restoring-${randomBytes(4).toString('hex')}`);
  try {
    const dir = await DataDir.open({ path: building, syncMode: 'always' });
    try {
      await dir.recover();
      await dir.writeCheckpoint(0, [snapshot]);
    } finally {
      await dir.close();
    }
    if (entries !== undefined) await rmdir(target);
    await rename(building, target);
    await realFileLayer.syncDir(dirname(target));
  } catch (e) {
    await rm(building, { recursive: true, force: true });
    throw e;
  }
  return header;
}
