/**
 * The types of GSQL query values as the type checker sees them: base types, vertices and edges,
 * collections, tuples, accumulators and vertex sets.
 */
import type { AttrType } from '../catalog/types.js';
import type { AccumKind, BaseTypeName } from '../gsql/ast-query.js';

export interface TupleT {
  kind: 'TUPLE';
  name: string;
  fields: { name: string; type: QType }[];
}

export interface AccumT {
  kind: 'ACCUM';
  accum: AccumKind;
  /** Element (Sum/Min/Max/Avg/List/Set/Bag/Heap) or value (Map) type. */
  elem: QType;
  /** MapAccum key type. */
  key?: QType;
  /** HeapAccum: capacity is evaluated at declaration; order by tuple field indexes. */
  heapOrder?: { field: number; descending: boolean }[];
  /** GroupByAccum: key fields and accumulator fields. */
  groupKeys?: { name: string; type: QType }[];
  groupAccums?: { name: string; type: AccumT }[];
  /** ArrayAccum: the number of dimensions (elem is the cells' accumulator type). */
  dims?: number;
}

export type QType =
  | { kind: BaseTypeName }
  | { kind: 'VERTEX'; vertexType?: string }
  | { kind: 'EDGE'; edgeType?: string }
  | { kind: 'SET' | 'BAG' | 'LIST'; elem: QType }
  | { kind: 'MAP'; key: QType; value: QType }
  | TupleT
  | AccumT
  /** A vertex set variable; vertexType when every member is known to be of one type. */
  | { kind: 'VSET'; vertexType?: string }
  | { kind: 'NULL' }
  /** A server-side output file (`FILE f (path)` or a FILE parameter). */
  | { kind: 'FILE' }
  /** A parsed JSON object or array (JsonValue at run time). */
  | { kind: 'JSONOBJECT' | 'JSONARRAY' }
  /** Statements and methods without a value. */
  | { kind: 'VOID' };

export const T = {
  INT: { kind: 'INT' } as QType,
  UINT: { kind: 'UINT' } as QType,
  FLOAT: { kind: 'FLOAT' } as QType,
  DOUBLE: { kind: 'DOUBLE' } as QType,
  STRING: { kind: 'STRING' } as QType,
  BOOL: { kind: 'BOOL' } as QType,
  DATETIME: { kind: 'DATETIME' } as QType,
  VERTEX: { kind: 'VERTEX' } as QType,
  VSET: { kind: 'VSET' } as QType,
  NULL: { kind: 'NULL' } as QType,
  VOID: { kind: 'VOID' } as QType,
  FILE: { kind: 'FILE' } as QType,
};

export function isNumeric(t: QType): boolean {
  return t.kind === 'INT' || t.kind === 'UINT' || t.kind === 'FLOAT' || t.kind === 'DOUBLE';
}

export function isInteger(t: QType): boolean {
  return t.kind === 'INT' || t.kind === 'UINT';
}

export function isFloat(t: QType): boolean {
  return t.kind === 'FLOAT' || t.kind === 'DOUBLE';
}

/** The value type an accumulator reads as (SumAccum<INT> reads as INT, SetAccum<T> as SET<T>…). */
export function accumValueType(a: AccumT): QType {
  switch (a.accum) {
    case 'SumAccum':
    case 'MinAccum':
    case 'MaxAccum':
      return a.elem;
    case 'AvgAccum':
      return T.DOUBLE;
    case 'OrAccum':
    case 'AndAccum':
      return T.BOOL;
    case 'BitwiseAndAccum':
    case 'BitwiseOrAccum':
      return T.INT;
    case 'ArrayAccum': {
      let v = accumValueType(a.elem as AccumT);
      for (let d = 0; d < (a.dims ?? 1); d++) v = { kind: 'LIST', elem: v };
      return v;
    }
    case 'ListAccum':
    case 'HeapAccum':
      return { kind: 'LIST', elem: a.elem };
    case 'SetAccum':
      return { kind: 'SET', elem: a.elem };
    case 'BagAccum':
      return { kind: 'BAG', elem: a.elem };
    case 'MapAccum':
      return { kind: 'MAP', key: a.key ?? T.STRING, value: a.elem };
    case 'GroupByAccum':
      return a;
  }
}

/** The type as a GSQL user writes it, for error messages. */
export function typeText(t: QType): string {
  switch (t.kind) {
    case 'VERTEX':
      return t.vertexType ? `VERTEX<${t.vertexType}>` : 'VERTEX';
    case 'EDGE':
      return t.edgeType ? `EDGE<${t.edgeType}>` : 'EDGE';
    case 'SET':
    case 'BAG':
    case 'LIST':
      return `${t.kind}<${typeText(t.elem)}>`;
    case 'MAP':
      return `MAP<${typeText(t.key)}, ${typeText(t.value)}>`;
    case 'TUPLE':
      return t.name;
    case 'ACCUM':
      if (t.accum === 'MapAccum') return `MapAccum<${typeText(t.key ?? T.STRING)}, ${typeText(t.elem)}>`;
      if (t.accum === 'GroupByAccum') return 'GroupByAccum';
      return `${t.accum}<${typeText(t.elem)}>`;
    case 'VSET':
      return 'vertex set';
    case 'NULL':
      return 'NULL';
    case 'VOID':
      return 'no value';
    default:
      return t.kind;
  }
}

/** Whether a value of type `from` may be stored where `to` is declared (numeric widening included). */
export function assignable(to: QType, from: QType): boolean {
  if (from.kind === 'NULL') return true;
  if (isNumeric(to) && isNumeric(from)) return true;
  if (to.kind === 'DATETIME' && from.kind === 'DATETIME') return true;
  switch (to.kind) {
    case 'VERTEX':
      return (
        from.kind === 'VERTEX' && (!to.vertexType || !from.vertexType || to.vertexType === from.vertexType)
      );
    case 'EDGE':
      return from.kind === 'EDGE';
    case 'SET':
    case 'BAG':
    case 'LIST':
      return (
        (from.kind === 'SET' || from.kind === 'BAG' || from.kind === 'LIST') && assignable(to.elem, from.elem)
      );
    case 'MAP':
      return from.kind === 'MAP' && assignable(to.key, from.key) && assignable(to.value, from.value);
    case 'TUPLE':
      return from.kind === 'TUPLE' && from.name === to.name;
    case 'VSET':
      return from.kind === 'VSET';
    default:
      return to.kind === from.kind;
  }
}

/** The query type of a schema attribute type. */
export function attrTypeToQ(a: AttrType, tuples: readonly TupleDefLike[] = []): QType {
  switch (a.kind) {
    case 'INT':
      return T.INT;
    case 'UINT':
      return T.UINT;
    case 'LIST':
    case 'SET':
      return { kind: a.kind, elem: attrTypeToQ(a.element, tuples) };
    case 'MAP':
      return { kind: 'MAP', key: attrTypeToQ(a.key, tuples), value: attrTypeToQ(a.value, tuples) };
    case 'UDT': {
      const def = tuples.find((t) => t.name === a.name);
      return {
        kind: 'TUPLE',
        name: a.name,
        fields: (def?.fields ?? []).map((f) => ({ name: f.name, type: attrTypeToQ(f.type, tuples) })),
      };
    }
    case 'VERTEX':
      return { kind: 'VERTEX', vertexType: a.vertexType };
    case 'FIXED_BINARY':
      return T.STRING;
    default:
      return { kind: a.kind };
  }
}

interface TupleDefLike {
  name: string;
  fields: { name: string; type: AttrType }[];
}
