/**
 * Mirrors of the store in worker threads. The main thread (the one writer) describes the store at
 * a pinned version to one worker as a `StoreImage` (MirrorExporter, one per worker); the worker
 * turns images into a GraphStore of its own (MirrorImporter) whose arrays are the main thread's
 * SharedArrayBuffers, so nothing large is copied.
 *
 * An image carries, for every table, block and column:
 * - its shared arrays, only when the worker does not hold the current ones yet (`gen` changed);
 * - the counts at the version (rows, delta edges, live counters);
 * - what lives in thread-local memory, as the changes the worker has not seen: id index and
 *   value-column logs, tombstones, dictionary words, the rare exact big integers, and column
 *   history newer than the version (values staged but not yet visible when the task started).
 * Logs are sent whole since the worker's last image and replayed as versioned writes, so the
 * worker's view at any version equals the main thread's; the main thread trims them at rebuild.
 *
 * Values that are not primitives (tuples, vertex references, collections, binary) travel in the
 * tagged byte encoding (bytes.ts), because structured cloning drops their classes.
 */
import type { Catalog } from '../catalog/types.js';
import type { Value } from '../catalog/value.js';
import { ByteReader, ByteWriter } from './bytes.js';
import { BoolColumn, type Column, DictStringColumn, NumberColumn, ValueColumn } from './columns.js';
import { type Counter, countAt } from './counter.js';
import { EdgeBlock } from './edge-block.js';
import { GraphStore } from './graph-store.js';
import { KeyTable } from './id-index.js';
import { ValueHeap } from './value-heap.js';
import { type IdKey, VertexTable } from './vertex-table.js';

/** A Value as it crosses threads: primitives as they are, anything else encoded. */
export type PackedValue = number | string | boolean | bigint | { enc: Uint8Array };

export function packValue(v: Value): PackedValue {
  const t = typeof v;
  if (t === 'number' || t === 'string' || t === 'boolean' || t === 'bigint') return v as PackedValue;
  const w = new ByteWriter(64);
  w.value(v);
  return { enc: w.result().slice() };
}

export function unpackValue(p: PackedValue): Value {
  return typeof p === 'object' ? new ByteReader(p.enc).value() : p;
}

interface HeapParts {
  starts: Uint32Array | Float64Array;
  bytes: Uint8Array;
}

export interface ColumnImage {
  uid: number;
  /** The column's shared arrays, when they changed since the worker's last image. */
  data?: Float64Array | Uint8Array | Uint32Array;
  /** Value columns: the heap (null: none yet), when it changed; the overlay is then reset. */
  heap?: HeapParts | null;
  /** Value columns: rows from `tailFrom` on, as the version sees them. */
  tailFrom?: number;
  tail?: PackedValue[];
  /** Value columns: overwrites since the last image (row, value, version). */
  log?: [number[], PackedValue[], number[]];
  /** Dictionary columns: words from `dictFrom` on. */
  dictFrom?: number;
  dict?: string[];
  /** Number columns: the exact values past ±2^53, when they changed. */
  big?: [number, bigint][] | null;
  /** History newer than the version: row, version, value. */
  history: [number, number, PackedValue][];
}

export interface TableImage {
  uid: number;
  name: string;
  count: number;
  live: number;
  stamps?: [Uint32Array, Uint32Array, Int32Array];
  direct?: Int32Array;
  base?: { keys: HeapParts; entries: Int32Array; hashes: Int32Array; slots: Int32Array } | null;
  indexLog: [IdKey[], number[]];
  id: ColumnImage;
  columns: [string, ColumnImage][];
}

export interface BlockImage {
  uid: number;
  edgeType: string;
  from: string;
  to: string;
  live: number;
  nBase: number;
  dCount: number;
  base?: [Uint32Array, Uint32Array, Uint32Array, Uint32Array, Uint32Array];
  delta?: [Uint32Array, Uint32Array, Uint32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array];
  tombs: number[];
  columns: [string, ColumnImage][];
}

export interface StoreImage {
  /** Identity of the main thread's GraphStore (a rebuild or schema change makes a new one). */
  store: number;
  version: number;
  /** The catalog, when the worker's is not this one. */
  catalog?: Catalog;
  catalogVersion: number;
  tables: TableImage[];
  blocks: BlockImage[];
}

/** What a worker holds of one object: its array generation and how far it read each log. */
interface Held {
  gen: number;
  /** Second generation (id index, heap of a value column). */
  gen2: number;
  log: number;
  log2: number;
}

const heldZero = (): Held => ({ gen: -1, gen2: -1, log: 0, log2: 0 });

/** Builds the images of one worker (main thread). */
export class MirrorExporter {
  private held = new Map<number, Held>();
  private catalog: Catalog | undefined;

  /** Forgets what the worker holds (a new worker thread). */
  reset(): void {
    this.held = new Map();
    this.catalog = undefined;
  }

  /**
   * The image of `store` at `version`. Edges appended unchecked are settled first (edge-block.ts);
   * `settle` false (an idle worker's refresh, which runs nothing on it) leaves them and the image
   * stops before them, so that a refresh during a load does not do the load's duplicate checks.
   */
  image(store: GraphStore, version: number, settle = true): StoreImage {
    const next = new Map<number, Held>();
    const take = (uid: number): Held => {
      const h = this.held.get(uid) ?? heldZero();
      next.set(uid, h);
      return h;
    };
    const tables: TableImage[] = [];
    for (const [name, t] of store.tables) tables.push(this.table(name, t, version, take));
    const blocks = store.blocks.map((b) => this.block(b, version, take, settle));
    this.held = next;
    const img: StoreImage = {
      store: storeUid(store),
      version,
      catalogVersion: store.catalog.version,
      tables,
      blocks,
    };
    if (this.catalog !== store.catalog) {
      img.catalog = store.catalog;
      this.catalog = store.catalog;
    }
    return img;
  }

  private table(name: string, t: VertexTable, version: number, take: (uid: number) => Held): TableImage {
    const h = take(t.uid);
    const img: TableImage = {
      uid: t.uid,
      name,
      count: t.count,
      live: countOf(t.live, version),
      indexLog: [[], []],
      id: column(t.idColumn, t.count, version, take),
      columns: [...t.columns].map(([n, c]) => [n, column(c, t.count, version, take)]),
    };
    if (h.gen !== t.gen) {
      img.stamps = [t.created, t.deleted, t.prev];
      h.gen = t.gen;
    }
    const ix = t.index;
    if (h.gen2 !== ix.gen) {
      img.direct = ix.direct;
      const b = ix.base;
      img.base =
        b === null
          ? null
          : {
              keys: { starts: b.keys.starts, bytes: b.keys.bytes },
              entries: b.entries,
              hashes: b.hashes,
              slots: b.slots,
            };
      h.gen2 = ix.gen;
      h.log = 0;
    }
    img.indexLog = [ix.logKeys.slice(h.log), ix.logEntries.slice(h.log)];
    h.log = ix.logKeys.length;
    return img;
  }

  private block(b: EdgeBlock, version: number, take: (uid: number) => Held, settle: boolean): BlockImage {
    if (settle) b.settle();
    const h = take(b.uid);
    const img: BlockImage = {
      uid: b.uid,
      edgeType: b.edgeType.name,
      from: b.fromType,
      to: b.toType,
      live: countOf(b.live, version),
      nBase: b.nBase,
      dCount: b.settled,
      tombs: b.tombLog.slice(h.log),
      columns: [...b.columns].map(([n, c]) => [n, column(c, b.edgeLimit, version, take)]),
    };
    h.log = b.tombLog.length;
    if (h.gen2 < 0) {
      img.base = [b.outOffsets, b.outTargets, b.inOffsets, b.inSources, b.inEids];
      h.gen2 = 0;
    }
    if (h.gen !== b.gen) {
      img.delta = [b.dSrc, b.dDst, b.dVersion, b.outNext, b.inNext, b.outHead, b.inHead, b.hash];
      h.gen = b.gen;
    }
    return img;
  }
}

function countOf(c: Counter, version: number): number {
  return countAt(c, version);
}

const storeUids = new WeakMap<GraphStore, number>();
let nextStoreUid = 1;
function storeUid(s: GraphStore): number {
  let u = storeUids.get(s);
  if (u === undefined) storeUids.set(s, (u = nextStoreUid++));
  return u;
}

function historyAfter(c: Column, version: number): [number, number, PackedValue][] {
  const out: [number, number, PackedValue][] = [];
  if (c.history === null) return out;
  for (const [row, list] of c.history)
    for (const e of list) if (e.version > version) out.push([row, e.version, packValue(e.old)]);
  return out;
}

/** One column's image: `rows` bounds the rows a worker may read (allocated rows or edge ids). */
function column(c: Column, rows: number, version: number, take: (uid: number) => Held): ColumnImage {
  const h = take(c.uid);
  const img: ColumnImage = { uid: c.uid, history: [] };
  if (c instanceof ValueColumn) {
    if (h.gen !== c.gen) {
      img.heap = c.heap === null ? null : { starts: c.heap.starts, bytes: c.heap.bytes };
      h.gen = c.gen;
      h.log = 0;
      h.log2 = c.base;
    }
    const from = Math.max(h.log2, c.base);
    if (rows > from) {
      img.tailFrom = from;
      img.tail = [];
      for (let r = from; r < rows; r++) img.tail.push(packValue(c.getAt(r, version)));
      h.log2 = rows;
    }
    if (c.logRows.length > h.log) {
      img.log = [c.logRows.slice(h.log), c.logValues.slice(h.log).map(packValue), c.logVersions.slice(h.log)];
      h.log = c.logRows.length;
    }
    return img;
  }
  img.history = historyAfter(c, version);
  if (c instanceof NumberColumn) {
    if (h.gen !== c.gen) img.data = c.data;
    if (h.gen2 !== c.bigGen) {
      img.big = c.big === null ? null : [...c.big];
      h.gen2 = c.bigGen;
    }
  } else if (c instanceof BoolColumn) {
    if (h.gen !== c.gen) img.data = c.data;
  } else if (c instanceof DictStringColumn) {
    if (h.gen !== c.gen) {
      img.data = c.codes;
      h.log = 0;
    }
    if (c.dict.length > h.log) {
      img.dictFrom = h.log;
      img.dict = c.dict.slice(h.log);
      h.log = c.dict.length;
    }
  }
  h.gen = c.gen;
  return img;
}

/** Applies images to the mirrored objects (worker thread). */
export class MirrorImporter {
  private tables = new Map<number, VertexTable>();
  private blocks = new Map<number, EdgeBlock>();
  private catalog: Catalog | undefined;
  private store: GraphStore | undefined;
  private storeId = -1;

  /** The store an image describes (reusing the mirrored objects it names). */
  apply(img: StoreImage): GraphStore {
    if (img.catalog) this.catalog = img.catalog;
    const catalog = this.catalog;
    if (!catalog || catalog.version !== img.catalogVersion)
      throw new Error('store image without its catalog (the worker missed an earlier image)');
    const tables = new Map<number, VertexTable>();
    const blocks = new Map<number, EdgeBlock>();
    const byName = new Map<string, VertexTable>();
    for (const ti of img.tables) {
      const t = this.table(ti, catalog, img.version);
      tables.set(ti.uid, t);
      byName.set(ti.name, t);
    }
    const list: EdgeBlock[] = [];
    for (const bi of img.blocks) {
      const b = this.block(bi, catalog, img.version);
      blocks.set(bi.uid, b);
      list.push(b);
    }
    this.tables = tables;
    this.blocks = blocks;
    const s = this.store;
    // The same main-thread store with the same tables and blocks: keep the GraphStore.
    if (
      s !== undefined &&
      this.storeId === img.store &&
      s.catalog === catalog &&
      s.blocks.length === list.length &&
      s.blocks.every((b, i) => b === list[i]) &&
      [...byName].every(([n, t]) => s.tables.get(n) === t)
    )
      return s;
    const next = new GraphStore(catalog, img.version, byName);
    for (const b of list) next.addBlock(b);
    this.store = next;
    this.storeId = img.store;
    return next;
  }

  private table(ti: TableImage, catalog: Catalog, version: number): VertexTable {
    let t = this.tables.get(ti.uid);
    if (!t) {
      const vt = catalog.vertexTypes.find((v) => v.name === ti.name);
      if (!vt) throw new Error(`store image names vertex type ${ti.name}, which its catalog does not have`);
      t = new VertexTable(vt, version);
      t.mirrored = true;
    }
    if (ti.stamps) [t.created, t.deleted, t.prev] = ti.stamps;
    t.count = ti.count;
    pinCount(t.live, ti.live, version);
    const ix = t.index;
    if (ti.direct) {
      const b = ti.base;
      ix.load(
        ti.direct,
        b ? new KeyTable(new ValueHeap(b.keys.starts, b.keys.bytes), b.entries, b.hashes, b.slots) : null,
      );
    }
    const [keys, entries] = ti.indexLog;
    for (let i = 0; i < keys.length; i++) ix.applyKeyed(keys[i], entries[i]);
    this.column(t.idColumn, ti.id, version);
    for (const [name, ci] of ti.columns) {
      const c = t.columns.get(name);
      if (c) this.column(c, ci, version);
    }
    return t;
  }

  private block(bi: BlockImage, catalog: Catalog, version: number): EdgeBlock {
    let b = this.blocks.get(bi.uid);
    if (!b) {
      const et = catalog.edgeTypes.find((e) => e.name === bi.edgeType);
      if (!et) throw new Error(`store image names edge type ${bi.edgeType}, which its catalog does not have`);
      b = new EdgeBlock(et, bi.from, bi.to, version);
    }
    if (bi.base) [b.outOffsets, b.outTargets, b.inOffsets, b.inSources, b.inEids] = bi.base;
    if (bi.delta) [b.dSrc, b.dDst, b.dVersion, b.outNext, b.inNext, b.outHead, b.inHead, b.hash] = bi.delta;
    b.nBase = bi.nBase;
    b.dCount = bi.dCount;
    b.settled = bi.dCount;
    pinCount(b.live, bi.live, version);
    for (let i = 0; i < bi.tombs.length; i += 2) {
      const v = bi.tombs[i + 1];
      if (v !== v) b.tomb.delete(bi.tombs[i]);
      else b.tomb.set(bi.tombs[i], v);
    }
    for (const [name, ci] of bi.columns) {
      const c = b.columns.get(name);
      if (c) this.column(c, ci, version);
    }
    return b;
  }

  private column(c: Column, ci: ColumnImage, version: number): void {
    if (c instanceof ValueColumn) {
      c.mirrored = true;
      if (ci.heap !== undefined) {
        if (ci.heap === null) c.heap = null;
        else c.loadHeap(new ValueHeap(ci.heap.starts, ci.heap.bytes));
        c.over.clear();
        c.tail = [];
        c.history = null;
      }
      if (ci.tail && ci.tailFrom !== undefined) {
        const b = c.base;
        for (let i = 0; i < ci.tail.length; i++) c.tail[ci.tailFrom - b + i] = unpackValue(ci.tail[i]);
      }
      if (ci.log) {
        const [rows, values, versions] = ci.log;
        for (let i = 0; i < rows.length; i++) c.update(rows[i], unpackValue(values[i]), versions[i]);
      }
      c.trimHistory(version);
      return;
    }
    if (c instanceof NumberColumn) {
      if (ci.data) c.data = ci.data as Float64Array;
      if (ci.big !== undefined) c.big = ci.big === null ? null : new Map(ci.big);
    } else if (c instanceof BoolColumn) {
      if (ci.data) c.data = ci.data as Uint8Array;
    } else if (c instanceof DictStringColumn) {
      if (ci.dict && ci.dictFrom !== undefined) {
        c.dict.length = ci.dictFrom;
        for (const w of ci.dict) c.dict.push(w);
      }
      if (ci.data) c.codes = ci.data as Uint32Array;
    }
    c.history = null;
    for (const [row, v, value] of ci.history) {
      c.history ??= new Map();
      const list = c.history.get(row) ?? [];
      list.push({ version: v, old: unpackValue(value) });
      list.sort((a, b) => a.version - b.version);
      c.history.set(row, list);
    }
  }
}

/** A mirrored counter reads `count` at `version` (the only version a task asks about). */
function pinCount(c: Counter, count: number, version: number): void {
  c.current = count;
  c.log = [version, count];
}
