/**
 * In-memory values of attributes, ids and parameters. The schema type decides how a value is read:
 * - INT/UINT: a `number` when it is a safe integer, otherwise a `bigint` (never rounded).
 * - FLOAT/DOUBLE: number. BOOL: boolean. STRING: string.
 * - DATETIME: number of seconds since the Unix epoch (UTC).
 * - FIXED_BINARY: Uint8Array.
 * - LIST/SET: Value[] (a SET holds each element once, in insertion order).
 * - MAP: Map from primitive key to value, insertion-ordered.
 * - UDT: Tuple (field values in the tuple's declared order).
 * - VERTEX: VertexRef.
 */
export type Primitive = number | bigint | string | boolean;

export class Tuple {
  constructor(
    readonly typeName: string,
    readonly values: Value[],
  ) {}
}

export class VertexRef {
  constructor(
    readonly type: string,
    readonly id: string,
  ) {}
}

export type Value = Primitive | Uint8Array | Value[] | Map<Primitive, Value> | Tuple | VertexRef;

/** Normalises an integer to the canonical form: number when safe, bigint otherwise. */
export function canonicalInt(v: bigint): number | bigint {
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
}
