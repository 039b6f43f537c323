/**
 * The JSON forms of TigerGraph's 4.x schema endpoints read back into catalog objects: vertex and
 * edge schema objects (as schema-json.ts writes them, e.g. `{"createVertices": [...]}`) and the
 * schema change document `{addVertexTypes, addEdgeTypes, alterVertexTypes, alterEdgeTypes,
 * dropVertexTypes, dropEdgeTypes}` (POST /gsql/v1/schema/change, JSON schema change jobs).
 * Every malformed field is reported with its path, e.g. `addVertexTypes[0].PrimaryId.AttributeName`.
 */
import { addAttributes, dropAttributes } from './alter.js';
import { createEdgeType, createVertexType, dropEdgeTypes, dropVertexTypes } from './ddl.js';
import { CatalogError } from './errors.js';
import type { AttrType, Attribute, Catalog, EdgePair, EdgeType, VertexType } from './types.js';

type Obj = { [key: string]: unknown };

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function obj(v: unknown, path: string): Obj {
  if (!isObj(v)) throw new CatalogError(`${path} must be a JSON object.`);
  return v;
}

function str(v: unknown, path: string): string {
  if (typeof v !== 'string' || v === '') throw new CatalogError(`${path} must be a non-empty string.`);
  return v;
}

function arr(v: unknown, path: string): unknown[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new CatalogError(`${path} must be a JSON array.`);
  return v;
}

/** true / "true" (any case); false, "false" or absent -> false. */
function flag(v: unknown, path: string): boolean {
  if (v === undefined || v === false) return false;
  if (v === true) return true;
  if (typeof v === 'string' && (v.toLowerCase() === 'true' || v.toLowerCase() === 'false')) {
    return v.toLowerCase() === 'true';
  }
  throw new CatalogError(`${path} must be true or false.`);
}

const SCALARS = new Set(['INT', 'UINT', 'FLOAT', 'DOUBLE', 'BOOL', 'STRING', 'STRING COMPRESS', 'DATETIME']);

/** A type name: a built-in scalar, or else the name of a tuple. */
function namedType(name: string, tuple: unknown, path: string): AttrType {
  const upper = name.toUpperCase();
  if (upper === 'UDT') return { kind: 'UDT', name: str(tuple, `${path} (tuple name)`) };
  if (!SCALARS.has(upper)) return { kind: 'UDT', name };
  switch (upper) {
    case 'INT':
    case 'UINT':
      return { kind: upper, bytes: 8 };
    case 'STRING':
      return { kind: 'STRING', compress: false };
    case 'STRING COMPRESS':
      return { kind: 'STRING', compress: true };
    default:
      return { kind: upper as 'FLOAT' | 'DOUBLE' | 'BOOL' | 'DATETIME' };
  }
}

/** `AttributeType` (`{Name, ValueTypeName?, KeyTypeName?, TupleName?, ValueTypeTupleName?, FixedSize?}`). */
export function attrTypeFromJson(v: unknown, path: string): AttrType {
  const o = obj(v, path);
  const name = str(o.Name, `${path}.Name`).toUpperCase();
  switch (name) {
    case 'LIST':
    case 'SET':
      return {
        kind: name,
        element: namedType(str(o.ValueTypeName, `${path}.ValueTypeName`), o.ValueTypeTupleName, path),
      };
    case 'MAP':
      return {
        kind: 'MAP',
        key: namedType(str(o.KeyTypeName, `${path}.KeyTypeName`), undefined, path),
        value: namedType(str(o.ValueTypeName, `${path}.ValueTypeName`), o.ValueTypeTupleName, path),
      };
    case 'FIXED_BINARY': {
      const n = o.FixedSize;
      if (typeof n !== 'number' || !Number.isInteger(n) || n <= 0) {
        throw new CatalogError(`${path}.FixedSize must be a positive integer.`);
      }
      return { kind: 'FIXED_BINARY', length: n };
    }
    default:
      return namedType(str(o.Name, `${path}.Name`), o.TupleName, path);
  }
}

function attributeFromJson(v: unknown, path: string): Attribute & { discriminator: boolean } {
  const o = obj(v, path);
  const a: Attribute & { discriminator: boolean } = {
    name: str(o.AttributeName, `${path}.AttributeName`),
    type: attrTypeFromJson(o.AttributeType, `${path}.AttributeType`),
    discriminator: flag(o.IsDiscriminator, `${path}.IsDiscriminator`),
  };
  if (o.DefaultValue !== undefined) {
    if (
      typeof o.DefaultValue !== 'string' &&
      typeof o.DefaultValue !== 'number' &&
      typeof o.DefaultValue !== 'boolean'
    ) {
      throw new CatalogError(`${path}.DefaultValue must be a string, number or boolean.`);
    }
    a.defaultLiteral = String(o.DefaultValue);
  }
  return a;
}

function plain(a: Attribute & { discriminator: boolean }): Attribute {
  const out: Attribute = { name: a.name, type: a.type };
  if (a.defaultLiteral !== undefined) out.defaultLiteral = a.defaultLiteral;
  return out;
}

/** A vertex schema object: `{Name, PrimaryId, Attributes, Config}` (the catalog checks the rules). */
export function vertexTypeFromJson(v: unknown, path: string, graph?: string): VertexType {
  const o = obj(v, path);
  const name = str(o.Name, `${path}.Name`);
  const pid = obj(o.PrimaryId, `${path}.PrimaryId`);
  const config = o.Config === undefined ? {} : obj(o.Config, `${path}.Config`);
  const attrs = arr(o.Attributes, `${path}.Attributes`).map((a, i) =>
    attributeFromJson(a, `${path}.Attributes[${i}]`),
  );
  const pidName = str(pid.AttributeName, `${path}.PrimaryId.AttributeName`);
  const pidType = attrTypeFromJson(pid.AttributeType, `${path}.PrimaryId.AttributeType`);
  const keys = arr(o.CompositeKeys, `${path}.CompositeKeys`).map((k, i) =>
    str(k, `${path}.CompositeKeys[${i}]`),
  );
  const stats =
    config.STATS === undefined ? 'OUTDEGREE_BY_EDGETYPE' : str(config.STATS, `${path}.Config.STATS`);
  const base = { name, attributes: attrs.map(plain), stats: stats.toUpperCase() };
  let vt: VertexType;
  if (keys.length > 0) {
    vt = {
      ...base,
      keyKind: 'composite',
      primaryId: { name: keys[0], type: { kind: 'STRING', compress: false } },
      keyAttributes: keys,
      primaryIdAsAttribute: true,
    };
  } else if (
    flag(pid.IsPrimaryKey, `${path}.PrimaryId.IsPrimaryKey`) ||
    flag(pid.IsUsingNewSyntax, `${path}.PrimaryId`)
  ) {
    // `id T PRIMARY KEY`: the key is one of the attributes (add it when the document lists it only as PrimaryId).
    const attributes = base.attributes.some((a) => a.name === pidName)
      ? base.attributes
      : [{ name: pidName, type: pidType }, ...base.attributes];
    vt = {
      ...base,
      attributes,
      keyKind: 'primary_key',
      primaryId: { name: pidName, type: pidType },
      keyAttributes: [pidName],
      primaryIdAsAttribute: true,
    };
  } else {
    vt = {
      ...base,
      keyKind: 'primary_id',
      primaryId: { name: pidName, type: pidType },
      keyAttributes: [],
      primaryIdAsAttribute:
        flag(config.PRIMARY_ID_AS_ATTRIBUTE, `${path}.Config.PRIMARY_ID_AS_ATTRIBUTE`) ||
        flag(pid.PrimaryIdAsAttribute, `${path}.PrimaryId.PrimaryIdAsAttribute`),
    };
  }
  if (graph !== undefined) vt.graph = graph;
  return vt;
}

/** An edge schema object: `{Name, IsDirected, FromVertexTypeName, ToVertexTypeName, EdgePairs?, Attributes, Config}`. */
export function edgeTypeFromJson(v: unknown, path: string, graph?: string): EdgeType {
  const o = obj(v, path);
  const name = str(o.Name, `${path}.Name`);
  const attrs = arr(o.Attributes, `${path}.Attributes`).map((a, i) =>
    attributeFromJson(a, `${path}.Attributes[${i}]`),
  );
  let pairs: EdgePair[] = arr(o.EdgePairs, `${path}.EdgePairs`).map((p, i) => {
    const po = obj(p, `${path}.EdgePairs[${i}]`);
    return {
      from: str(po.From, `${path}.EdgePairs[${i}].From`),
      to: str(po.To, `${path}.EdgePairs[${i}].To`),
    };
  });
  if (pairs.length === 0) {
    pairs = [
      {
        from: str(o.FromVertexTypeName, `${path}.FromVertexTypeName`),
        to: str(o.ToVertexTypeName, `${path}.ToVertexTypeName`),
      },
    ];
  }
  const config = o.Config === undefined ? {} : obj(o.Config, `${path}.Config`);
  const listed = arr(o.CompositeDiscriminator, `${path}.CompositeDiscriminator`).map((d, i) =>
    str(d, `${path}.CompositeDiscriminator[${i}]`),
  );
  const e: EdgeType = {
    name,
    directed: flag(o.IsDirected, `${path}.IsDirected`),
    pairs,
    attributes: attrs.map(plain),
    discriminator: listed.length > 0 ? listed : attrs.filter((a) => a.discriminator).map((a) => a.name),
  };
  if (config.REVERSE_EDGE !== undefined)
    e.reverseEdge = str(config.REVERSE_EDGE, `${path}.Config.REVERSE_EDGE`);
  if (graph !== undefined) e.graph = graph;
  return e;
}

function applyAlters(
  c: Catalog,
  list: unknown,
  target: 'vertex' | 'edge',
  key: string,
  graph?: string,
): Catalog {
  let next = c;
  arr(list, key).forEach((item, i) => {
    const path = `${key}[${i}]`;
    const o = obj(item, path);
    const name = str(o.name ?? o.Name, `${path}.name`);
    const drop = arr(o.dropAttributes, `${path}.dropAttributes`).map((d, j) =>
      str(d, `${path}.dropAttributes[${j}]`),
    );
    const add = arr(o.addAttributes, `${path}.addAttributes`).map((a, j) =>
      plain(attributeFromJson(a, `${path}.addAttributes[${j}]`)),
    );
    if (drop.length > 0) next = dropAttributes(next, target, name, drop, graph);
    if (add.length > 0) next = addAttributes(next, target, name, add, graph);
  });
  return next;
}

/**
 * Applies a JSON schema change document as one change (all or nothing): drops edges, drops
 * vertices, adds vertices, adds edges, then alters. `graph` set: a local change of that graph.
 * The result's version is one above the input's.
 */
export function applySchemaChangeJson(catalog: Catalog, body: unknown, graph?: string): Catalog {
  const o = obj(body, 'The schema change');
  const known = [
    'addVertexTypes',
    'addEdgeTypes',
    'alterVertexTypes',
    'alterEdgeTypes',
    'dropVertexTypes',
    'dropEdgeTypes',
  ];
  for (const k of Object.keys(o)) {
    if (!known.includes(k))
      throw new CatalogError(`Unknown schema change field '${k}'; expected one of ${known.join(', ')}.`);
  }
  const names = (key: string): string[] => arr(o[key], key).map((n, i) => str(n, `${key}[${i}]`));
  let c = catalog;
  const scope = { graph, mode: 'job' as const };
  if (names('dropEdgeTypes').length > 0) c = dropEdgeTypes(c, names('dropEdgeTypes'), scope);
  if (names('dropVertexTypes').length > 0) c = dropVertexTypes(c, names('dropVertexTypes'), scope);
  arr(o.addVertexTypes, 'addVertexTypes').forEach((v, i) => {
    c = createVertexType(c, vertexTypeFromJson(v, `addVertexTypes[${i}]`, graph));
  });
  arr(o.addEdgeTypes, 'addEdgeTypes').forEach((e, i) => {
    c = createEdgeType(c, edgeTypeFromJson(e, `addEdgeTypes[${i}]`, graph));
  });
  c = applyAlters(c, o.alterVertexTypes, 'vertex', 'alterVertexTypes', graph);
  c = applyAlters(c, o.alterEdgeTypes, 'edge', 'alterEdgeTypes', graph);
  return { ...c, version: catalog.version + 1 };
}
