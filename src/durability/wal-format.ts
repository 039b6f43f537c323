/**
 * The on-disk format of the write-ahead log: segment headers and record frames, and a parser that
 * says exactly where and why a segment stops being valid.
 *
 * Segment file: a 32-byte header, then frames back to back.
 *   header: magic "OCWALSEG" | u32 format version | u32 0 | u64 first LSN | u32 0 | u32 CRC32 of bytes 0..28
 *   frame:  u32 CRC32 | u32 payload length | u64 LSN | payload
 * The frame CRC covers everything after it (length, LSN, payload: one contiguous range, one CRC call
 * per record when reading), so a frame from an older place in the file
 * (or zeros) can never pass for the record expected next. All integers are little-endian.
 */
import { crc32 } from 'node:zlib';

export const SEGMENT_MAGIC = 'OCWALSEG';
export const SEGMENT_FORMAT_VERSION = 1;
export const SEGMENT_HEADER_SIZE = 32;
export const FRAME_HEADER_SIZE = 16;
/** A length above this is treated as garbage rather than an attempt to read gigabytes. */
export const MAX_PAYLOAD = 1 << 30;

const SEGMENT_NAME = /^wal-(\d{16})\.log$/;

export function segmentName(firstLsn: number): string {
  return `wal-${String(firstLsn).padStart(16, '0')}.log`;
}

/** The first LSN encoded in a segment file name, or undefined for other files. */
export function parseSegmentName(name: string): number | undefined {
  const m = SEGMENT_NAME.exec(name);
  return m ? Number(m[1]) : undefined;
}

function putU64(buf: Buffer, value: number, offset: number): void {
  buf.writeUInt32LE(value % 0x1_0000_0000, offset);
  buf.writeUInt32LE(Math.floor(value / 0x1_0000_0000), offset + 4);
}

function getU64(buf: Uint8Array, offset: number): number {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  return b.readUInt32LE(offset) + b.readUInt32LE(offset + 4) * 0x1_0000_0000;
}

export function encodeSegmentHeader(firstLsn: number): Buffer {
  const h = Buffer.alloc(SEGMENT_HEADER_SIZE);
  h.write(SEGMENT_MAGIC, 0, 'latin1');
  h.writeUInt32LE(SEGMENT_FORMAT_VERSION, 8);
  putU64(h, firstLsn, 16);
  h.writeUInt32LE(crc32(h.subarray(0, 28)), 28);
  return h;
}

/** The first LSN of a segment header, or a reason why the header is not valid. */
export function decodeSegmentHeader(bytes: Uint8Array): { firstLsn: number } | { error: string } {
  if (bytes.byteLength < SEGMENT_HEADER_SIZE) return { error: `short header (${bytes.byteLength} bytes)` };
  const h = Buffer.from(bytes.buffer, bytes.byteOffset, SEGMENT_HEADER_SIZE);
  if (h.toString('latin1', 0, 8) !== SEGMENT_MAGIC) return { error: 'bad magic' };
  if (h.readUInt32LE(28) !== crc32(h.subarray(0, 28))) return { error: 'header checksum mismatch' };
  const version = h.readUInt32LE(8);
  if (version !== SEGMENT_FORMAT_VERSION) return { error: `unsupported segment format version ${version}` };
  return { firstLsn: getU64(h, 16) };
}

/**
 * crc32 continued over `data`. Node 20's zlib.crc32 returns 0 instead of the running value for a
 * zero-length view over a zero-length ArrayBuffer, so empty data must not reach it.
 */
export function crc32Update(data: Uint8Array, crc: number): number {
  return data.byteLength === 0 ? crc : crc32(data, crc);
}

/** The 16-byte frame header for a record; the payload follows it unchanged. */
export function encodeFrameHeader(lsn: number, payload: Uint8Array): Buffer {
  const h = Buffer.allocUnsafe(FRAME_HEADER_SIZE);
  h.writeUInt32LE(payload.byteLength, 4);
  putU64(h, lsn, 8);
  h.writeUInt32LE(crc32Update(payload, crc32(h.subarray(4, 16))), 0);
  return h;
}

export interface ParsedRecord {
  lsn: number;
  payload: Uint8Array;
}

export interface SegmentScan {
  /** Valid records, in order; payloads are views into the scanned buffer. */
  records: ParsedRecord[];
  /** Byte offset just past the last valid record. */
  validLength: number;
  /** The LSN the next record must carry. */
  nextLsn: number;
  /** Why parsing stopped before the end of the buffer (torn or corrupt frame). */
  stop?: string;
}

/**
 * Parses frames from `offset` expecting consecutive LSNs from `expectLsn`. Stops at the first frame
 * that is short, has an impossible length, a checksum mismatch or an unexpected LSN.
 * With `collect` false only validates (recovery scans whole segments without keeping records).
 */
export function scanFrames(
  buf: Uint8Array,
  offset: number,
  expectLsn: number,
  collect: boolean,
): SegmentScan {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  const records: ParsedRecord[] = [];
  let pos = offset;
  let lsn = expectLsn;
  while (pos < b.length) {
    if (b.length - pos < FRAME_HEADER_SIZE) {
      return { records, validLength: pos, nextLsn: lsn, stop: 'short frame header' };
    }
    const len = b.readUInt32LE(pos + 4);
    const end = pos + FRAME_HEADER_SIZE + len;
    if (len > MAX_PAYLOAD || end > b.length) {
      return { records, validLength: pos, nextLsn: lsn, stop: `frame length ${len} runs past the end` };
    }
    if (crc32(b.subarray(pos + 4, end)) !== b.readUInt32LE(pos)) {
      return { records, validLength: pos, nextLsn: lsn, stop: 'checksum mismatch' };
    }
    const got = b.readUInt32LE(pos + 8) + b.readUInt32LE(pos + 12) * 0x1_0000_0000;
    if (got !== lsn) {
      return { records, validLength: pos, nextLsn: lsn, stop: `LSN ${got} where ${lsn} was expected` };
    }
    if (collect) records.push({ lsn, payload: b.subarray(pos + FRAME_HEADER_SIZE, end) });
    pos = end;
    lsn++;
  }
  return { records, validLength: pos, nextLsn: lsn };
}
