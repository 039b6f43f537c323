/**
 * Attribute types: their GSQL spelling and where each may be used (TigerGraph's rules from
 * "Attribute Data Types": collection elements, map keys, tuple fields, primary ids).
 */
import { CatalogError } from './errors.js';
import { findTuple } from './lookup.js';
import type { AttrType, Catalog } from './types.js';

/** The type as GSQL writes it, e.g. `LIST<INT>`, `MAP<STRING, tuple2_simple>`, `INT(2)`. */
export function typeText(t: AttrType): string {
  switch (t.kind) {
    case 'INT':
    case 'UINT':
      return t.bytes === 8 ? t.kind : `${t.kind}(${t.bytes})`;
    case 'STRING':
      return (
        (t.maxLength === undefined ? 'STRING' : `STRING(${t.maxLength})`) + (t.compress ? ' COMPRESS' : '')
      );
    case 'FIXED_BINARY':
      return `FIXED_BINARY(${t.length})`;
    case 'LIST':
    case 'SET':
      return `${t.kind}<${typeText(t.element)}>`;
    case 'MAP':
      return `MAP<${typeText(t.key)}, ${typeText(t.value)}>`;
    case 'UDT':
      return t.name;
    case 'VERTEX':
      return t.vertexType === undefined ? 'VERTEX' : `VERTEX<${t.vertexType}>`;
    default:
      return t.kind;
  }
}

const ELEMENT_KINDS = new Set(['INT', 'DOUBLE', 'STRING', 'DATETIME', 'UDT']);
const MAP_KEY_KINDS = new Set(['INT', 'STRING', 'DATETIME']);
const PRIMARY_ID_KINDS = new Set(['STRING', 'INT', 'UINT', 'DATETIME']);
const TUPLE_FIELD_KINDS = new Set(['INT', 'UINT', 'FLOAT', 'DOUBLE', 'DATETIME', 'BOOL', 'STRING']);

function checkUdt(catalog: Catalog, t: AttrType, where: string): void {
  if (t.kind === 'UDT' && !findTuple(catalog, t.name)) {
    throw new CatalogError(`${where}: unknown type '${t.name}' (not a built-in type or a defined tuple).`);
  }
}

function checkScalarWidth(t: AttrType, where: string): void {
  if ((t.kind === 'INT' || t.kind === 'UINT') && t.bytes !== 8) {
    throw new CatalogError(`${where}: ${typeText(t)} is only allowed in a tuple field; use ${t.kind}.`);
  }
  if (t.kind === 'STRING' && t.maxLength !== undefined) {
    throw new CatalogError(`${where}: ${typeText(t)} is only allowed in a tuple field; use STRING.`);
  }
}

/** Checks a vertex or edge attribute's type. `where` names it, e.g. "Attribute 'a' of vertex type 'V'". */
export function checkAttributeType(catalog: Catalog, t: AttrType, where: string): void {
  checkScalarWidth(t, where);
  checkUdt(catalog, t, where);
  if (t.kind === 'VERTEX') throw new CatalogError(`${where}: VERTEX is not an attribute type.`);
  if (t.kind === 'LIST' || t.kind === 'SET') {
    if (!ELEMENT_KINDS.has(t.element.kind)) {
      throw new CatalogError(
        `${where}: ${typeText(t.element)} is not a valid ${t.kind} element type (INT, DOUBLE, STRING, DATETIME or a tuple).`,
      );
    }
    checkScalarWidth(t.element, where);
    checkUdt(catalog, t.element, where);
  }
  if (t.kind === 'MAP') {
    if (!MAP_KEY_KINDS.has(t.key.kind)) {
      throw new CatalogError(
        `${where}: ${typeText(t.key)} is not a valid MAP key type (INT, STRING or DATETIME).`,
      );
    }
    if (!ELEMENT_KINDS.has(t.value.kind)) {
      throw new CatalogError(
        `${where}: ${typeText(t.value)} is not a valid MAP value type (INT, DOUBLE, STRING, DATETIME or a tuple).`,
      );
    }
    checkScalarWidth(t.key, where);
    checkScalarWidth(t.value, where);
    checkUdt(catalog, t.value, where);
  }
}

export function checkPrimaryIdType(t: AttrType, where: string): void {
  if (!PRIMARY_ID_KINDS.has(t.kind) || (t.kind === 'STRING' && t.compress)) {
    throw new CatalogError(
      `${where}: a primary id must be STRING, INT, UINT or DATETIME, not ${typeText(t)}.`,
    );
  }
  checkScalarWidth(t, where);
}

export function checkTupleFieldType(t: AttrType, where: string): void {
  if (!TUPLE_FIELD_KINDS.has(t.kind) || (t.kind === 'STRING' && t.compress)) {
    throw new CatalogError(
      `${where}: ${typeText(t)} is not a valid tuple field type (INT, UINT, FLOAT, DOUBLE, DATETIME, BOOL or STRING).`,
    );
  }
}

export function sameType(a: AttrType, b: AttrType): boolean {
  return typeText(a) === typeText(b);
}
