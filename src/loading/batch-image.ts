/**
 * A loading batch's operations as they cross threads (a parse worker to the committing thread):
 * built from a batch (imageOf) on the parse thread, cloned, and applied from its own arrays on the
 * committing thread (apply-image.ts).
 */
import type { Value } from '../catalog/value.js';
import type { EdgeRun, ExternalId, UpsertOp } from '../engine/api.js';
import { ByteReader, ByteWriter } from '../store/bytes.js';
import { OpKind, type AttrMap, type BatchOps } from './batch-ops.js';
import type { IdSegment } from './edge-lines.js';
import type { NewWords, WordCoder } from './id-words.js';
import type { LoadStatistics, ObjectKind, ObjectStatistics } from './statistics.js';

/** An attribute value as it crosses threads in `BatchImage.values` (see `encoded`). */
export type PlainValue = number | string | boolean | bigint;

/**
 * A batch's operations as they cross threads (a parse worker to the committing thread), flat so
 * that cloning them is cheap: types by index into `names`, counters by index into `counters`, ids
 * as numbers in a Float64Array when they all are, and attribute maps as a shape (names and
 * operators, shared by the operations of one statement) plus their values in `values`, one after
 * another. Values that are not primitives (a LIST, a SET, a tuple) are encoded one after another
 * into the one buffer `encoded` (bytes.ts), their places in `values` listed in `encodedAt`, so a
 * piece with many of them crosses as two arrays rather than an object and a buffer each.
 */
export interface BatchImage {
  size: number;
  kinds: Uint8Array;
  types: Uint16Array;
  fromTypes: Uint16Array;
  toTypes: Uint16Array;
  names: string[];
  /** Int32Array: STRING ids coded by the parse thread (id-words.ts), decoded on arrival. */
  fromIds: ExternalId[] | Float64Array | Int32Array;
  toIds: ExternalId[] | Float64Array | Int32Array;
  words: NewWords | null;
  /** Set on arrival when both ends were coded (WordTable.take): edge runs pass them on (EdgeRun.codes). */
  codes?: EdgeRun['codes'];
  /** Per operation: its attribute shape, or -1 for none, and where its values start. */
  shape: Int32Array;
  valueAt: Int32Array;
  shapes: { names: string[]; ops: UpsertOp[] }[];
  /**
   * The values, one after another; a Float64Array (transferred) when every one is a number (a
   * DATETIME, an INT, a DOUBLE), so that they cross without a clone of each.
   */
  values: PlainValue[] | Float64Array;
  encoded: Uint8Array;
  encodedAt: Int32Array;
  stats: Uint16Array;
  counters: [ObjectKind, string][];
  /** The segments of the EdgeIds operations, in order. */
  segments: IdSegment[];
}

/**
 * A batch's operations as a BatchImage (segment buffers listed in `transfer`), with the counters
 * they count into named by kind and type as in `stats`.
 */
export function imageOf(
  ops: BatchOps,
  stats: LoadStatistics,
  transfer: ArrayBuffer[],
  coder?: WordCoder,
): BatchImage {
  const n = ops.size;
  const names: string[] = [];
  const nameIndex = new Map<string, number>();
  // Operations come in runs of one type: the last name asked for is usually asked again.
  let lastName = '';
  let lastIndex = -1;
  const name = (t: string): number => {
    if (t === lastName && lastIndex >= 0) return lastIndex;
    let i = nameIndex.get(t);
    if (i === undefined) nameIndex.set(t, (i = names.push(t) - 1));
    lastName = t;
    lastIndex = i;
    return i;
  };
  const counters: [ObjectKind, string][] = [];
  const counterIndex = new Map<ObjectStatistics, number>();
  for (const [kind, o] of stats.entries()) counterIndex.set(o, counters.push([kind, o.typeName]) - 1);
  const shapes: BatchImage['shapes'] = [];
  const enc = new ByteWriter(256);
  const encodedAt: number[] = [];
  /** The image's shape index of each of the batch's own shapes (ops.shapeList). */
  const shapeAt: number[] = [];
  const values: PlainValue[] = [];
  const img: BatchImage = {
    size: n,
    kinds: Uint8Array.from(ops.kinds.slice(0, n)),
    types: new Uint16Array(n),
    fromTypes: new Uint16Array(n),
    toTypes: new Uint16Array(n),
    names,
    fromIds: idsImage(ops.fromIds, ops.fromCodes, n, transfer, coder),
    toIds: idsImage(ops.toIds, ops.toCodes, n, transfer, coder),
    words: coder ? coder.takeNew() : null,
    shape: new Int32Array(n),
    valueAt: new Int32Array(n),
    shapes,
    values,
    encoded: new Uint8Array(0),
    encodedAt: new Int32Array(0),
    stats: new Uint16Array(n),
    counters,
    segments: [],
  };
  // Every value given by shape, in one Float64Array, and no attribute map: the image's values are
  // the batch's, copied at once at the end (no push per value; the social load's edge files).
  const numbers = ops.values instanceof Float64Array && onlyShapes(ops, n) ? ops.values : null;
  let valueCount = 0;
  for (let i = 0; i < n; i++) {
    if (i > 0 && ops.types[i] === ops.types[i - 1] && ops.stats[i] === ops.stats[i - 1]) {
      img.types[i] = img.types[i - 1];
      img.stats[i] = img.stats[i - 1];
    } else {
      img.types[i] = name(ops.types[i]);
      img.stats[i] = counterIndex.get(ops.stats[i]) as number;
    }
    if (i > 0 && ops.fromTypes[i] === ops.fromTypes[i - 1] && ops.toTypes[i] === ops.toTypes[i - 1]) {
      img.fromTypes[i] = img.fromTypes[i - 1];
      img.toTypes[i] = img.toTypes[i - 1];
    } else {
      img.fromTypes[i] = name(ops.fromTypes[i]);
      img.toTypes[i] = name(ops.toTypes[i]);
    }
    img.valueAt[i] = numbers === null ? values.length : valueCount;
    const k = ops.shapeOf[i];
    if (k >= 0) {
      // Attributes given as values: the batch's shape, once per image, and its values.
      let s = shapeAt[k];
      if (s === undefined) {
        const shape = ops.shapeList[k];
        shapeAt[k] = s = shapes.push({ names: [...shape.names], ops: [...shape.ops] }) - 1;
      }
      img.shape[i] = s;
      const at = ops.valueAt[i];
      const count = shapes[s].names.length;
      if (numbers !== null) valueCount = at + count;
      else for (let j = 0; j < count; j++) pushValue(ops.values[at + j], values, enc, encodedAt);
    } else
      img.shape[i] = attrsImage(ops.attrs[i], shapes, values, enc, encodedAt, i > 0 ? img.shape[i - 1] : -1);
    const seg = ops.segments[i];
    if (ops.kinds[i] === OpKind.EdgeIds && seg) {
      img.segments.push(seg);
      transfer.push(seg.from.buffer as ArrayBuffer, seg.to.buffer as ArrayBuffer);
      ops.segments[i] = null;
    }
  }
  if (numbers !== null) {
    if (valueCount > 0) {
      const copy = new Float64Array(valueCount);
      copy.set(numbers.subarray(0, valueCount));
      img.values = copy;
      transfer.push(copy.buffer);
    }
  } else if (encodedAt.length === 0 && values.length > 0 && values.every((v) => typeof v === 'number')) {
    const numbers = Float64Array.from(values as number[]);
    img.values = numbers;
    transfer.push(numbers.buffer);
  }
  if (encodedAt.length > 0) {
    img.encoded = enc.result().slice();
    img.encodedAt = Int32Array.from(encodedAt);
    transfer.push(img.encoded.buffer as ArrayBuffer, img.encodedAt.buffer as ArrayBuffer);
  }
  return img;
}

/**
 * Whether the first n operations give their attributes by shape only (an attribute map, when
 * there is one, is empty): the image's values are then the batch's own, which a batch writes one
 * operation after another from its first (Batch.upsertEdgeValues).
 */
function onlyShapes(ops: BatchOps, n: number): boolean {
  for (let i = 0; i < n; i++) {
    const a = ops.attrs[i];
    if (ops.shapeOf[i] < 0 && a !== null) for (const _k in a) return false;
  }
  return true;
}

/**
 * Decodes the values an image carries encoded (`encoded`, `encodedAt`) into their places in its
 * `values`, on the committing thread.
 */
export function decodeValues(img: BatchImage): void {
  if (img.encodedAt.length === 0) return;
  const values = img.values as Value[];
  const r = new ByteReader(img.encoded);
  for (const k of img.encodedAt) values[k] = r.value();
}

/**
 * Ids as they cross threads: a Float64Array (transferred) when every one is a number, coded by
 * `coder` when every one is a string.
 */
function idsImage(
  ids: readonly ExternalId[],
  /** The codes the lines gave the ids (-1: none), in `coder`'s dictionary. */
  codes: readonly number[],
  n: number,
  transfer: ArrayBuffer[],
  coder: WordCoder | undefined,
): ExternalId[] | Float64Array | Int32Array {
  let numbers = true;
  for (let i = 0; i < n && numbers; i++) numbers = typeof ids[i] === 'number';
  if (!numbers) {
    const coded = coder?.code(ids, n, codes);
    if (!coded) return ids.slice(0, n);
    transfer.push(coded.buffer as ArrayBuffer);
    return coded;
  }
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = ids[i] as number;
  transfer.push(out.buffer);
  return out;
}

/**
 * Adds an attribute map's values to `values` (those that are not primitives encoded into `enc`,
 * their places listed in `encodedAt`); returns its shape's index (-1: none or empty).
 */
function attrsImage(
  a: AttrMap | null,
  shapes: BatchImage['shapes'],
  values: PlainValue[],
  enc: ByteWriter,
  encodedAt: number[],
  /** The shape of the operation before (most often this one's too). */
  previous: number,
): number {
  if (a === null) return -1;
  // A batch holds few shapes (one per statement, and its lines with unset attributes).
  let s =
    previous >= 0 && sameShape(a, shapes[previous])
      ? previous
      : shapes.findIndex((shape) => sameShape(a, shape));
  if (s < 0) {
    const names = Object.keys(a);
    if (names.length === 0) return -1;
    s = shapes.push({ names, ops: names.map((k) => a[k].op) }) - 1;
  }
  for (const k in a) pushValue(a[k].value, values, enc, encodedAt);
  return s;
}

/** Adds a value to an image's `values`: a primitive as it is, any other encoded into `enc`. */
function pushValue(v: Value, values: PlainValue[], enc: ByteWriter, encodedAt: number[]): void {
  if (v !== null && typeof v === 'object') {
    encodedAt.push(values.length);
    enc.value(v);
    values.push(0);
  } else values.push(v as PlainValue);
}

function sameShape(a: AttrMap, shape: BatchImage['shapes'][number]): boolean {
  let j = 0;
  for (const k in a) {
    if (shape.names[j] !== k || shape.ops[j] !== a[k].op) return false;
    j++;
  }
  return j === shape.names.length;
}
