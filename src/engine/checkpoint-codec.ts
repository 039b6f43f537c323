/**
 * Checkpoint (snapshot) encoding: the whole GraphStore after a rebuild merge, so every block is pure
 * base (no delta, no tombstones). The durability layer wraps these bytes with its own header and
 * checksum. Big arrays are written as raw little-endian bytes aligned to 8, so loading them is a view,
 * not a parse.
 *
 *   "OCELSNAP" | u32 SNAPSHOT_FORMAT (=2) | varuint version | str catalog JSON
 *   varuint #tables, per table:
 *     str name | varuint rows | array u8 deleted flags (1 = deleted) | column id
 *     varuint #columns, per column: str attribute name | column
 *     varuint #permanently deleted ids | value...
 *   varuint #blocks, per block:
 *     str stored edge type | str FROM type | str TO type | varuint edges
 *     array outOffsets u32 | array outTargets u32 | array inOffsets u32 | array inSources u32 | array inEids u32
 *     varuint #columns, per column: str attribute name | column (indexed by edge id)
 *   column := u8 kind, then
 *     1 numbers: array f64 | varuint #exact | (varuint row, value)...   (INT/UINT beyond ±2^53)
 *     2 bool:    array u8
 *     3 dict:    varuint #dict | str... | array u32 codes
 *     4 values:  value...   (count = rows or edges; format 1, and columns not folded into a heap)
 *     5 heap:    u8 width (4 or 8) | array starts (u32 or f64, rows + 1) | array bytes (values)
 *   array := varuint byte length | zero padding to a multiple of 8 from the start | bytes
 *
 * Format 2 added the heap kind: a value column is written as the shared heap the rebuild built
 * (store/value-heap.ts) and read back as views of it. Format 1 files are still read.
 *
 * The body is read into shared memory once, so every array decoded from it is a view workers can
 * read (store/shared.ts).
 */
import type { Catalog } from '../catalog/types.js';
import { BoolColumn, type Column, DictStringColumn, NumberColumn, ValueColumn } from '../store/columns.js';
import { newCounter } from '../store/counter.js';
import { EdgeBlock } from '../store/edge-block.js';
import { GraphStore } from '../store/graph-store.js';
import { sharedU8, toShared } from '../store/shared.js';
import { ValueHeap } from '../store/value-heap.js';
import { EngineError } from './api.js';
import { ByteReader, ByteWriter } from '../store/bytes.js';
import { keyOfIdValue } from './tx-changes.js';

const MAGIC = 'OCELSNAP';
export const SNAPSHOT_FORMAT = 2;
/** The oldest format this build reads. */
const OLDEST_FORMAT = 1;

/** Emits small fields into a scratch buffer and large typed arrays as their own chunks. */
class ChunkWriter {
  readonly chunks: Uint8Array[] = [];
  private w = new ByteWriter(4096);
  private offset = 0;

  get small(): ByteWriter {
    return this.w;
  }

  private flush(): void {
    if (this.w.pos === 0) return;
    const b = this.w.result();
    this.chunks.push(b);
    this.offset += b.length;
    this.w = new ByteWriter(4096);
  }

  array(a: Uint8Array | Uint32Array | Float64Array, n: number): void {
    // A view of exactly the bytes to write (shared or not).
    const bytes = new Uint8Array(a.buffer, a.byteOffset, n * a.BYTES_PER_ELEMENT);
    this.w.varuint(bytes.length);
    const pad = (8 - ((this.offset + this.w.pos) % 8)) % 8;
    for (let i = 0; i < pad; i++) this.w.u8(0);
    if (bytes.length === 0) return;
    this.flush();
    this.chunks.push(bytes);
    this.offset += bytes.length;
  }

  finish(): Uint8Array[] {
    this.flush();
    return this.chunks;
  }
}

function writeColumn(cw: ChunkWriter, c: Column, n: number): void {
  if (c instanceof NumberColumn) {
    cw.small.u8(1);
    cw.array(c.data, n);
    const big = c.big ? [...c.big].filter(([r]) => r < n) : [];
    cw.small.varuint(big.length);
    for (const [r, v] of big) {
      cw.small.varuint(r);
      cw.small.value(v);
    }
  } else if (c instanceof BoolColumn) {
    cw.small.u8(2);
    cw.array(c.data, n);
  } else if (c instanceof DictStringColumn) {
    cw.small.u8(3);
    cw.small.varuint(c.dict.length);
    for (const s of c.dict) cw.small.str(s);
    cw.array(c.codes, n);
  } else if (c instanceof ValueColumn && c.heap !== null && c.over.size === 0 && c.base >= n) {
    const h = c.heap;
    cw.small.u8(5);
    cw.small.u8(h.starts.BYTES_PER_ELEMENT);
    cw.array(h.starts, n + 1);
    cw.array(h.bytes, h.starts[n]);
  } else {
    cw.small.u8(4);
    for (let i = 0; i < n; i++) cw.small.value(c.get(i));
  }
}

/** Encodes a merged store (every block without delta or tombstones) as checkpoint chunks. */
export function encodeSnapshot(store: GraphStore, version: number): Uint8Array[] {
  const cw = new ChunkWriter();
  const w = (): ByteWriter => cw.small;
  for (let i = 0; i < MAGIC.length; i++) w().u8(MAGIC.charCodeAt(i));
  w().u32(SNAPSHOT_FORMAT);
  w().varuint(version);
  w().str(JSON.stringify(store.catalog));
  w().varuint(store.tables.size);
  for (const [name, t] of store.tables) {
    w().str(name);
    w().varuint(t.count);
    const dead = new Uint8Array(t.count);
    for (let r = 0; r < t.count; r++) dead[r] = t.deleted[r] !== 0 ? 1 : 0;
    cw.array(dead, t.count);
    writeColumn(cw, t.idColumn, t.count);
    w().varuint(t.columns.size);
    for (const [an, c] of t.columns) {
      w().str(an);
      writeColumn(cw, c, t.count);
    }
    w().varuint(t.permanentlyDeleted.size);
    for (const k of t.permanentlyDeleted) w().value(k);
  }
  w().varuint(store.blocks.length);
  for (const b of store.blocks) {
    if (b.dCount !== 0 || b.tomb.size !== 0) throw new Error('encodeSnapshot: block not merged');
    w().str(b.edgeType.name);
    w().str(b.fromType);
    w().str(b.toType);
    w().varuint(b.nBase);
    cw.array(b.outOffsets, b.outOffsets.length);
    cw.array(b.outTargets, b.nBase);
    cw.array(b.inOffsets, b.inOffsets.length);
    cw.array(b.inSources, b.nBase);
    cw.array(b.inEids, b.nBase);
    w().varuint(b.columns.size);
    for (const [an, c] of b.columns) {
      w().str(an);
      writeColumn(cw, c, b.nBase);
    }
  }
  return cw.finish();
}

function u8(r: ByteReader): Uint8Array {
  const b = r.aligned();
  if (b.byteOffset % 8 === 0) return b;
  const c = sharedU8(b.length);
  c.set(b);
  return c;
}
function u32(r: ByteReader): Uint32Array {
  const b = u8(r);
  return new Uint32Array(b.buffer, b.byteOffset, b.length / 4);
}
function f64(r: ByteReader): Float64Array {
  const b = u8(r);
  return new Float64Array(b.buffer, b.byteOffset, b.length / 8);
}

function readColumn(r: ByteReader, c: Column, n: number): void {
  const kind = r.u8();
  if (kind === 1 && c instanceof NumberColumn) {
    c.load(f64(r));
    const nb = r.varuint();
    for (let i = 0; i < nb; i++) {
      const row = r.varuint();
      c.init(row, r.value());
    }
  } else if (kind === 2 && c instanceof BoolColumn) {
    c.load(u8(r));
  } else if (kind === 3 && c instanceof DictStringColumn) {
    const nd = r.varuint();
    const dict: string[] = [];
    for (let i = 0; i < nd; i++) dict.push(r.str());
    c.load(dict, u32(r));
  } else if (kind === 4 && c instanceof ValueColumn) {
    c.ensure(n);
    for (let i = 0; i < n; i++) c.init(i, r.value());
    c.rebase(n);
  } else if (kind === 5 && c instanceof ValueColumn) {
    const width = r.u8();
    const starts = width === 4 ? u32(r) : f64(r);
    c.loadHeap(new ValueHeap(starts, u8(r)));
  } else {
    throw new EngineError('DATA-DIR', `Checkpoint column kind ${kind} does not match the catalog.`);
  }
  c.ensure(n);
}

export interface DecodedSnapshot {
  version: number;
  catalog: Catalog;
  store: GraphStore;
}

export function decodeSnapshot(body: Uint8Array): DecodedSnapshot {
  const bytes = toShared(body);
  const r = new ByteReader(bytes);
  let magic = '';
  for (let i = 0; i < MAGIC.length; i++) magic += String.fromCharCode(r.u8());
  if (magic !== MAGIC) throw new EngineError('DATA-DIR', 'The checkpoint is not an Ocelot graph snapshot.');
  const format = r.u32();
  if (format < OLDEST_FORMAT || format > SNAPSHOT_FORMAT) {
    throw new EngineError(
      'DATA-DIR',
      `Checkpoint snapshot format ${format} is not supported (this build reads ${OLDEST_FORMAT} to ${SNAPSHOT_FORMAT}).`,
    );
  }
  const version = r.varuint();
  const catalog = JSON.parse(r.str()) as Catalog;
  const store = new GraphStore(catalog, version);
  const nt = r.varuint();
  for (let i = 0; i < nt; i++) {
    const name = r.str();
    const t = store.tables.get(name);
    if (!t) throw new EngineError('DATA-DIR', `Checkpoint table '${name}' is not in its catalog.`);
    const n = r.varuint();
    const dead = u8(r);
    t.ensure(n);
    t.count = n;
    readColumn(r, t.idColumn, n);
    let live = 0;
    for (let row = 0; row < n; row++) {
      t.created[row] = version;
      const key = keyOfIdValue(t.idColumn.get(row));
      if (dead[row] === 1) {
        t.deleted[row] = version;
        // A newer row of the same id (re-inserted after deletion) replaces the entry below.
        t.prev[row] = -1;
        if (!t.index.has(key) || (t.index.get(key) as number) < 0) t.index.set(key, ~row);
      } else {
        t.prev[row] = -1;
        t.index.set(key, row);
        live++;
      }
    }
    t.live.current = live;
    t.live.log = [version, live];
    const nc = r.varuint();
    for (let k = 0; k < nc; k++) {
      const an = r.str();
      const c = t.columns.get(an);
      if (!c) throw new EngineError('DATA-DIR', `Checkpoint column '${name}.${an}' is not in its catalog.`);
      readColumn(r, c, n);
    }
    const np = r.varuint();
    for (let k = 0; k < np; k++) t.permanentlyDeleted.add(keyOfIdValue(r.value()));
    t.index.rebase();
  }
  const nb = r.varuint();
  for (let i = 0; i < nb; i++) {
    const etName = r.str();
    const from = r.str();
    const to = r.str();
    const et = catalog.edgeTypes.find((e) => e.name === etName);
    if (!et) throw new EngineError('DATA-DIR', `Checkpoint edge type '${etName}' is not in its catalog.`);
    const b = new EdgeBlock(et, from, to, version);
    const n = r.varuint();
    b.nBase = n;
    b.outOffsets = u32(r);
    b.outTargets = u32(r);
    b.inOffsets = u32(r);
    b.inSources = u32(r);
    b.inEids = u32(r);
    const nc = r.varuint();
    for (let k = 0; k < nc; k++) {
      const an = r.str();
      const c = b.columns.get(an);
      if (!c) throw new EngineError('DATA-DIR', `Checkpoint column '${etName}.${an}' is not in its catalog.`);
      readColumn(r, c, n);
    }
    const live = newCounter(version, n);
    b.live.current = live.current;
    b.live.log = live.log;
    store.addBlock(b);
  }
  return { version, catalog, store };
}
