/**
 * A small ZIP archive writer and reader (PKWARE APPNOTE: local headers, central directory, end
 * record; entries deflated or stored), enough for GSQL's EXPORT GRAPH / IMPORT GRAPH archive.
 * Entries are written one at a time straight to the file; each is held in memory while it is
 * compressed. No ZIP64: an archive or entry of 4 GiB or more is refused.
 */
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
const LIMIT = 0xffffffff;

export class ZipError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZipError';
  }
}

interface Written {
  name: Buffer;
  method: number;
  crc: number;
  size: number;
  compressed: number;
  offset: number;
}

/** DOS date and time of `d` (the archive's entries all carry the writer's start time). */
function dosTime(d: Date): { time: number; date: number } {
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((Math.max(1980, d.getFullYear()) - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

export class ZipWriter {
  private readonly entries: Written[] = [];
  private offset = 0;
  private readonly stamp = dosTime(new Date());

  private constructor(private readonly fh: FileHandle) {}

  /** Creates (or truncates) the archive file. */
  static async create(path: string): Promise<ZipWriter> {
    return new ZipWriter(await open(path, 'w'));
  }

  /** Adds one entry; `name` uses `/` between folders. */
  async add(name: string, data: Buffer | string): Promise<void> {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    const deflated = deflateRawSync(bytes);
    const stored = deflated.length >= bytes.length;
    const body = stored ? bytes : deflated;
    if (bytes.length >= LIMIT || this.offset + body.length >= LIMIT) {
      throw new ZipError(`the archive would reach 4 GiB at ${name} (ZIP64 is not supported)`);
    }
    const entry: Written = {
      name: Buffer.from(name, 'utf8'),
      method: stored ? 0 : 8,
      crc: crc32(bytes) >>> 0,
      size: bytes.length,
      compressed: body.length,
      offset: this.offset,
    };
    const h = Buffer.alloc(30);
    h.writeUInt32LE(LOCAL, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE(0x0800, 6); // names are UTF-8
    h.writeUInt16LE(entry.method, 8);
    h.writeUInt16LE(this.stamp.time, 10);
    h.writeUInt16LE(this.stamp.date, 12);
    h.writeUInt32LE(entry.crc, 14);
    h.writeUInt32LE(entry.compressed, 18);
    h.writeUInt32LE(entry.size, 22);
    h.writeUInt16LE(entry.name.length, 26);
    await this.fh.write(Buffer.concat([h, entry.name, body]));
    this.offset += h.length + entry.name.length + body.length;
    this.entries.push(entry);
  }

  /** Writes the central directory, syncs and closes the file. */
  async close(): Promise<void> {
    const parts: Buffer[] = [];
    for (const e of this.entries) {
      const c = Buffer.alloc(46);
      c.writeUInt32LE(CENTRAL, 0);
      c.writeUInt16LE(20, 4);
      c.writeUInt16LE(20, 6);
      c.writeUInt16LE(0x0800, 8);
      c.writeUInt16LE(e.method, 10);
      c.writeUInt16LE(this.stamp.time, 12);
      c.writeUInt16LE(this.stamp.date, 14);
      c.writeUInt32LE(e.crc, 16);
      c.writeUInt32LE(e.compressed, 20);
      c.writeUInt32LE(e.size, 24);
      c.writeUInt16LE(e.name.length, 28);
      c.writeUInt32LE(e.offset, 42);
      parts.push(c, e.name);
    }
    const directory = Buffer.concat(parts);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(END, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(this.offset, 16);
    try {
      await this.fh.write(Buffer.concat([directory, end]));
      await this.fh.sync();
    } finally {
      await this.fh.close();
    }
  }
}

/** Every entry of an archive, by name, decompressed and checked against its CRC. */
export async function readZip(path: string): Promise<Map<string, Buffer>> {
  const file = await readFile(path);
  const bad = (why: string) => new ZipError(`${path} is not a usable ZIP archive: ${why}`);
  let endAt = -1;
  for (let i = file.length - 22; i >= Math.max(0, file.length - 22 - 0xffff); i--) {
    if (file.readUInt32LE(i) === END) {
      endAt = i;
      break;
    }
  }
  if (endAt < 0) throw bad('no end of central directory');
  const count = file.readUInt16LE(endAt + 10);
  let at = file.readUInt32LE(endAt + 16);
  const out = new Map<string, Buffer>();
  for (let n = 0; n < count; n++) {
    if (at + 46 > file.length || file.readUInt32LE(at) !== CENTRAL) throw bad('damaged central directory');
    const method = file.readUInt16LE(at + 10);
    const crc = file.readUInt32LE(at + 16);
    const compressed = file.readUInt32LE(at + 20);
    const nameLength = file.readUInt16LE(at + 28);
    const extra = file.readUInt16LE(at + 30);
    const comment = file.readUInt16LE(at + 32);
    const local = file.readUInt32LE(at + 42);
    const name = file.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    at += 46 + nameLength + extra + comment;
    if (local + 30 > file.length || file.readUInt32LE(local) !== LOCAL) throw bad(`damaged entry ${name}`);
    const start = local + 30 + file.readUInt16LE(local + 26) + file.readUInt16LE(local + 28);
    const body = file.subarray(start, start + compressed);
    let data: Buffer;
    if (method === 0) data = body;
    else if (method === 8) {
      try {
        data = inflateRawSync(body);
      } catch {
        throw bad(`entry ${name} does not inflate`);
      }
    } else throw bad(`entry ${name} uses compression method ${method}`);
    if (crc32(data) >>> 0 !== crc) throw bad(`entry ${name} fails its checksum`);
    out.set(name, data);
  }
  return out;
}
