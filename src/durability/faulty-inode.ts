/**
 * The file model behind FaultyFileLayer: each file is an inode that follows renames, with its
 * durable content (as of the last fsync) and the operations made since.
 */

export type PendingOp =
  { kind: 'write'; position: number; data: Uint8Array } | { kind: 'truncate'; length: number };

/** A growable byte array: the durable content of one file. */
export class ByteImage {
  private buf: Uint8Array;
  private len: number;

  constructor(initial: Uint8Array) {
    this.buf = new Uint8Array(Math.max(64, initial.byteLength));
    this.buf.set(initial);
    this.len = initial.byteLength;
  }

  private ensure(size: number): void {
    if (size <= this.buf.byteLength) return;
    const next = new Uint8Array(Math.max(size, this.buf.byteLength * 2));
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }

  write(position: number, data: Uint8Array): void {
    this.ensure(position + data.byteLength);
    this.buf.set(data, position);
    this.len = Math.max(this.len, position + data.byteLength);
  }

  truncate(length: number): void {
    if (length < this.len) this.buf.fill(0, length, this.len);
    else this.ensure(length);
    this.len = length;
  }

  apply(op: PendingOp): void {
    if (op.kind === 'write') this.write(op.position, op.data);
    else this.truncate(op.length);
  }

  bytes(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }

  clone(): ByteImage {
    return new ByteImage(this.bytes());
  }
}

/** A file's identity, followed across renames like an inode. */
export class Inode {
  /** Content as of the last fsync; undefined while the file is unchanged since first seen. */
  durable: ByteImage | undefined;
  pending: PendingOp[] = [];

  constructor(
    /** Where the file currently is; undefined once unlinked or replaced. */
    public livePath: string | undefined,
    durable: ByteImage | undefined,
  ) {
    this.durable = durable;
  }
}
