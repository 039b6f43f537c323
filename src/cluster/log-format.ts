/**
 * How WAL records travel through the cluster log (a JetStream stream). A record becomes one message,
 * or several consecutive parts when it is larger than the servers' message limit. Headers:
 *   Ocelot-Version  the record's commit version (every node's version history is the log's)
 *   Ocelot-Part     `i/n`, 1-based
 *   Ocelot-Term     the lease revision of the leader that published it
 * Stream sequences and versions differ only where a record has several parts or a deposed leader
 * left an incomplete record behind; versions never decrease along the stream.
 */
export const LOG_STREAM = 'OCELOT_LOG';
export const LOG_SUBJECT = 'ocelot.log';
export const CLUSTER_BUCKET = 'ocelot_cluster';
export const LEASE_KEY = 'leader';
export const MEMBER_PREFIX = 'members.';

export const HEADER_VERSION = 'Ocelot-Version';
export const HEADER_PART = 'Ocelot-Part';
export const HEADER_TERM = 'Ocelot-Term';

/** Room left in a message for its headers and the protocol's framing. */
const HEADER_ROOM = 4096;

export interface PartMeta {
  version: number;
  part: number;
  parts: number;
  term: number;
}

/** The record split into parts that each fit a message of at most `maxPayload` bytes. */
export function splitRecord(record: Uint8Array, maxPayload: number): Uint8Array[] {
  const size = Math.max(1024, maxPayload - HEADER_ROOM);
  if (record.length <= size) return [record];
  const parts: Uint8Array[] = [];
  for (let at = 0; at < record.length; at += size) parts.push(record.subarray(at, at + size));
  return parts;
}

/** A part's headers; throws when they are missing or malformed (the message is not Ocelot's). */
export function readPartMeta(get: (name: string) => string): PartMeta {
  const version = Number(get(HEADER_VERSION));
  const term = Number(get(HEADER_TERM));
  const m = /^(\d+)\/(\d+)$/.exec(get(HEADER_PART));
  const part = m ? Number(m[1]) : NaN;
  const parts = m ? Number(m[2]) : NaN;
  if (
    !Number.isSafeInteger(version) ||
    version < 1 ||
    !Number.isSafeInteger(term) ||
    !(part >= 1 && part <= parts)
  ) {
    throw new Error(
      `a cluster log message without valid ${HEADER_VERSION}/${HEADER_PART}/${HEADER_TERM} headers`,
    );
  }
  return { version, part, parts, term };
}

/**
 * Puts records back together from consecutive parts. A first part discards an incomplete record
 * (its leader was deposed before finishing it: it was never acknowledged); a part that does not
 * continue the record being built is ignored for the same reason.
 */
export class Reassembler {
  private building: { meta: PartMeta; chunks: Uint8Array[] } | undefined;

  /** The whole record once its last part arrived, else undefined. */
  push(meta: PartMeta, data: Uint8Array): { version: number; record: Uint8Array } | undefined {
    if (meta.part === 1) this.building = { meta, chunks: [] };
    const b = this.building;
    if (!b || b.meta.version !== meta.version || b.meta.term !== meta.term || b.meta.parts !== meta.parts)
      return undefined;
    if (b.chunks.length !== meta.part - 1) return undefined;
    b.chunks.push(data);
    if (meta.part < meta.parts) return undefined;
    this.building = undefined;
    return { version: meta.version, record: b.chunks.length === 1 ? b.chunks[0] : concat(b.chunks) };
  }

  /** Whether a record is half-built (the log's tail may be an abandoned one). */
  get pending(): boolean {
    return this.building !== undefined;
  }
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const c of chunks) n += c.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * The stream sequence to start reading at for a node whose data is at `version`: the first message
 * whose version is higher. Versions never decrease along the stream, so this is a binary search;
 * the first probe, `version + 1`, is right whenever every record so far was one message.
 */
export async function findStartSeq(
  version: number,
  firstSeq: number,
  lastSeq: number,
  versionAt: (seq: number) => Promise<number>,
): Promise<number> {
  if (lastSeq < firstSeq) return Math.max(firstSeq, lastSeq + 1);
  let lo = Math.max(firstSeq, 1);
  let hi = lastSeq + 1;
  // Invariant: the answer is in [lo, hi]; hi = lastSeq + 1 means "after the whole stream".
  const guess = version + 1;
  if (guess >= lo && guess <= lastSeq) {
    if ((await versionAt(guess)) > version) {
      if (guess === lo || (await versionAt(guess - 1)) <= version) return guess;
      hi = guess - 1;
    } else lo = guess + 1;
  }
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if ((await versionAt(mid)) > version) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
