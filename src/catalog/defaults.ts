/**
 * Attribute default values: the DEFAULT literal of the DDL parsed into a Value, and the value an
 * attribute gets when none is given (0, "", false, epoch 0, empty collections — TigerGraph's
 * defaults). Used when vertices are inserted without an attribute and when ALTER … ADD ATTRIBUTE
 * fills existing vertices and edges.
 */
import { parseDatetime } from '../util/datetime.js';
import { typeText } from './attr-types.js';
import { CatalogError } from './errors.js';
import { findTuple } from './lookup.js';
import type { AttrType, Attribute, Catalog } from './types.js';
import { Tuple, VertexRef, canonicalInt, type Value } from './value.js';

const INT_MIN = -(2n ** 63n);
const INT_MAX = 2n ** 63n - 1n;
const UINT_MAX = 2n ** 64n - 1n;

/**
 * Parses a DEFAULT literal (strings already unquoted) for an attribute type, or throws a
 * CatalogError saying why it does not fit.
 */
export function parseDefaultLiteral(type: AttrType, text: string): Value {
  const bad = (why: string): never => {
    throw new CatalogError(`default value "${text}" is not a valid ${typeText(type)}${why}.`);
  };
  switch (type.kind) {
    case 'INT':
    case 'UINT': {
      const s = text.trim();
      if (!/^[+-]?\d+$/.test(s)) return bad('');
      const n = BigInt(s);
      if (type.kind === 'INT' && (n < INT_MIN || n > INT_MAX)) return bad(' (out of the 64-bit range)');
      if (type.kind === 'UINT' && (n < 0n || n > UINT_MAX)) return bad(' (UINT is 0 to 2^64-1)');
      return canonicalInt(n);
    }
    case 'FLOAT':
    case 'DOUBLE': {
      const s = text.trim();
      if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return bad('');
      return type.kind === 'FLOAT' ? Math.fround(Number(s)) : Number(s);
    }
    case 'BOOL': {
      const s = text.trim().toLowerCase();
      if (s === 'true' || s === '1') return true;
      if (s === 'false' || s === '0') return false;
      return bad(' (use true or false)');
    }
    case 'STRING':
      return text;
    case 'DATETIME': {
      const secs = parseDatetime(text);
      return secs === undefined ? bad(' (expected "YYYY-MM-DD hh:mm:ss")') : secs;
    }
    default:
      throw new CatalogError(`a ${typeText(type)} attribute cannot have a DEFAULT value.`);
  }
}

/** The value of a type when nothing is given. */
export function zeroValue(catalog: Pick<Catalog, 'tuples'>, type: AttrType): Value {
  switch (type.kind) {
    case 'INT':
    case 'UINT':
    case 'FLOAT':
    case 'DOUBLE':
    case 'DATETIME':
      return 0;
    case 'BOOL':
      return false;
    case 'STRING':
      return '';
    case 'FIXED_BINARY':
      return new Uint8Array(type.length);
    case 'LIST':
    case 'SET':
      return [];
    case 'MAP':
      return new Map();
    case 'UDT': {
      const t = findTuple(catalog, type.name);
      if (!t) throw new CatalogError(`Unknown tuple type '${type.name}'.`);
      return new Tuple(
        t.name,
        t.fields.map((f) => zeroValue(catalog, f.type)),
      );
    }
    case 'VERTEX':
      // No vertex yet: a reference to nothing (the schema language refuses VERTEX attributes, but
      // the engine stores them for catalogs built through its API).
      return new VertexRef(type.vertexType ?? '', '');
  }
}

/** The value an attribute takes when none is given: its DEFAULT, else the type's zero value. */
export function attributeDefault(catalog: Pick<Catalog, 'tuples'>, attr: Attribute): Value {
  return attr.defaultLiteral === undefined
    ? zeroValue(catalog, attr.type)
    : parseDefaultLiteral(attr.type, attr.defaultLiteral);
}
