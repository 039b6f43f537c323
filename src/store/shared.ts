/**
 * Typed arrays over SharedArrayBuffers: every array of the store lives in shared memory, so the
 * query workers (src/workers) read the same bytes the main thread writes, without copying. An
 * array is never resized in place: growing allocates a new one and copies, so a reader holding the
 * old array keeps a consistent, frozen view of everything written before the switch (see
 * docs/architecture.md, "Shared memory").
 */

export type SharedArray = Uint8Array | Int32Array | Uint32Array | Float64Array;

type ArrayCtor<T extends SharedArray> = {
  new (buffer: SharedArrayBuffer, byteOffset?: number, length?: number): T;
  readonly BYTES_PER_ELEMENT: number;
};

/** A zeroed typed array of `n` elements in a new SharedArrayBuffer. */
export function sharedArray<T extends SharedArray>(ctor: ArrayCtor<T>, n: number): T {
  return new ctor(new SharedArrayBuffer(Math.max(0, n) * ctor.BYTES_PER_ELEMENT));
}

export const sharedU8 = (n: number): Uint8Array => sharedArray(Uint8Array, n);
export const sharedI32 = (n: number): Int32Array => sharedArray(Int32Array, n);
export const sharedU32 = (n: number): Uint32Array => sharedArray(Uint32Array, n);
export const sharedF64 = (n: number): Float64Array => sharedArray(Float64Array, n);

/** The plain typed-array class of `a` (a Node Buffer is a Uint8Array). */
function ctorOf<T extends SharedArray>(a: T): ArrayCtor<T> {
  const c =
    a instanceof Uint8Array
      ? Uint8Array
      : a instanceof Int32Array
        ? Int32Array
        : a instanceof Uint32Array
          ? Uint32Array
          : Float64Array;
  return c as unknown as ArrayCtor<T>;
}

/** The doubling capacity (at least 16) that holds `needed` elements. */
export function grownLength(current: number, needed: number): number {
  let n = Math.max(current, 16);
  while (n < needed) n *= 2;
  return n;
}

/**
 * A copy of `a` in new shared memory with room for `needed` elements (doubling), the new tail set
 * to `fill` when given. Returns `a` itself when it is already large enough and `force` is unset.
 */
export function grownShared<T extends SharedArray>(a: T, needed: number, fill?: number, force = false): T {
  if (needed <= a.length && !force) return a;
  const ctor = ctorOf(a);
  const b = sharedArray(ctor, needed <= a.length ? a.length : grownLength(a.length, needed));
  b.set(a);
  if (fill !== undefined && b.length > a.length) b.fill(fill, a.length);
  return b;
}

/** A copy of `a` in new shared memory (copy-on-write of an array a worker may be reading). */
export function copyShared<T extends SharedArray>(a: T): T {
  return grownShared(a, a.length, undefined, true);
}

/** `a` itself when it is in shared memory, otherwise a shared copy (arrays read from a file). */
export function toShared<T extends SharedArray>(a: T): T {
  if (a.buffer instanceof SharedArrayBuffer) return a;
  const b = sharedArray(ctorOf(a), a.length);
  b.set(a);
  return b;
}
