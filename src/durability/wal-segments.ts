/**
 * WAL segment files on disk: creating them, and the recovery scan that validates them at open,
 * cuts a torn tail off the last one and refuses damage anywhere else.
 */
import { join } from 'node:path';
import { WalDamageError } from './errors.js';
import type { FileHandle, FileLayer } from './file-layer.js';
import {
  SEGMENT_HEADER_SIZE,
  decodeSegmentHeader,
  encodeSegmentHeader,
  parseSegmentName,
  scanFrames,
} from './wal-format.js';

export interface Segment {
  name: string;
  firstLsn: number;
}

export interface WalTailCut {
  segment: string;
  /** Offset in the segment where the valid log ends. */
  offset: number;
  /** Bytes cut off after it. */
  bytes: number;
  /** The LSN the first dropped record would have had. */
  lsn: number;
  reason: string;
}

export interface ScannedLog {
  /** Segments holding only records up to afterLsn: not read. */
  stale: Segment[];
  /** Validated segments, oldest first (possibly none). */
  segments: Segment[];
  /** A last segment deleted because its creation was torn. */
  removedSegments: string[];
  tailCut?: WalTailCut;
  /** The LSN the next record gets. */
  nextLsn: number;
  /** Valid size of the last validated segment. */
  lastSize: number;
}

/** Creates a segment: header written and fsynced, then the directory fsynced, before any record. */
export async function createSegment(fs: FileLayer, dir: string, seg: Segment): Promise<FileHandle> {
  const h = await fs.open(join(dir, seg.name), 'create');
  try {
    await h.write(encodeSegmentHeader(seg.firstLsn), 0);
    await h.sync();
    await fs.syncDir(dir);
  } catch (err) {
    await h.close();
    throw err;
  }
  return h;
}

async function syncFile(fs: FileLayer, path: string): Promise<void> {
  const h = await fs.open(path, 'write');
  try {
    await h.sync();
  } finally {
    await h.close();
  }
}

/**
 * Validates the segments needed after `afterLsn` (one read per segment), cutting a torn tail of
 * the last one (truncate + fsync). A segment is fsynced completely before the next is created, so
 * any damage in an earlier segment, a gap between segments or a log that starts after
 * `afterLsn + 1` cannot come from a crash: WalDamageError.
 */
export async function scanSegments(fs: FileLayer, dir: string, afterLsn: number): Promise<ScannedLog> {
  const all: Segment[] = [];
  for (const name of await fs.list(dir)) {
    const firstLsn = parseSegmentName(name);
    if (firstLsn !== undefined) all.push({ name, firstLsn });
  }
  all.sort((a, b) => a.firstLsn - b.firstLsn);

  // The first needed segment is the last one starting at or before afterLsn + 1. Older ones are
  // kept unread so that an older checkpoint stays usable (truncateBefore deletes them later).
  let k = 0;
  while (k + 1 < all.length && all[k + 1]!.firstLsn <= afterLsn + 1) k++;
  const stale = all.slice(0, k);
  const segments = all.slice(k);
  const removedSegments: string[] = [];
  if (segments.length > 0 && segments[0]!.firstLsn > afterLsn + 1) {
    throw new WalDamageError(
      `the log starts at LSN ${segments[0]!.firstLsn} but the checkpoint covers only up to LSN ${afterLsn}: ` +
        `records ${afterLsn + 1}..${segments[0]!.firstLsn - 1} are missing`,
      segments[0]!.name,
      0,
      afterLsn + 1,
    );
  }

  let tailCut: WalTailCut | undefined;
  let nextLsn = segments.length > 0 ? segments[0]!.firstLsn : afterLsn + 1;
  let lastSize = 0;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const isLast = i === segments.length - 1;
    const path = join(dir, seg.name);
    const buf = await fs.readFile(path);
    const header = decodeSegmentHeader(buf);
    if ('error' in header || header.firstLsn !== seg.firstLsn) {
      // The header is fsynced before any record is written, so a bad header is a torn creation
      // only in the last segment, holding nothing beyond the header.
      if (!isLast || buf.length > SEGMENT_HEADER_SIZE) {
        const why = 'error' in header ? header.error : `header says first LSN ${header.firstLsn}`;
        throw new WalDamageError(
          `WAL segment ${seg.name} has an invalid header (${why})`,
          seg.name,
          0,
          nextLsn,
        );
      }
      await fs.unlink(path);
      await fs.syncDir(dir);
      removedSegments.push(seg.name);
      segments.pop();
      break;
    }
    if (seg.firstLsn !== nextLsn) {
      throw new WalDamageError(
        `WAL segment ${seg.name} starts at LSN ${seg.firstLsn} but LSN ${nextLsn} was expected (a segment is missing)`,
        seg.name,
        0,
        nextLsn,
      );
    }
    const scan = scanFrames(buf, SEGMENT_HEADER_SIZE, seg.firstLsn, false);
    if (scan.stop !== undefined) {
      if (!isLast) {
        throw new WalDamageError(
          `WAL segment ${seg.name} is damaged at offset ${scan.validLength} (LSN ${scan.nextLsn}: ${scan.stop}), ` +
            `but later segments exist, so this is not a torn tail; refusing to skip records`,
          seg.name,
          scan.validLength,
          scan.nextLsn,
        );
      }
      tailCut = {
        segment: seg.name,
        offset: scan.validLength,
        bytes: buf.length - scan.validLength,
        lsn: scan.nextLsn,
        reason: scan.stop,
      };
      await fs.truncate(path, scan.validLength);
      await syncFile(fs, path);
    }
    nextLsn = scan.nextLsn;
    lastSize = scan.validLength;
  }
  return { stale, segments, removedSegments, ...(tailCut ? { tailCut } : {}), nextLsn, lastSize };
}
