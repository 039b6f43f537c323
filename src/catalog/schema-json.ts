/**
 * Schema objects as TigerGraph's GSQL server returns them (GET /gsqlserver/gsql/schema, 4.x
 * /gsql/v1/schema/…, GET /gsqlserver/gsql/udtlist): field names as TigerGraph spells them, attributes
 * in declared order, `EdgePairs` only on edge types with several FROM/TO pairs (then
 * From/ToVertexTypeName are "*"), `Config.REVERSE_EDGE` only when there is a reverse edge. Reverse
 * edges are not listed as edge types of their own.
 */
import type { JsonValue } from '../util/json.js';
import { graphTypes, globalTypes } from './lookup.js';
import type { AttrType, Attribute, Catalog, EdgeType, TupleType, VertexType } from './types.js';

type JsonObject = { [key: string]: JsonValue };

function scalarName(t: AttrType): string {
  if (t.kind === 'STRING' && t.compress) return 'STRING COMPRESS';
  return t.kind;
}

/**
 * `AttributeType`: `{Name}`; collections add `ValueTypeName` (and `KeyTypeName` for MAP), as
 * pyTigerGraph reads them; a tuple is `{Name: "UDT", TupleName}`, and a tuple element or map value
 * adds `ValueTypeTupleName`; FIXED_BINARY adds `FixedSize`.
 */
export function attrTypeJson(t: AttrType): JsonObject {
  switch (t.kind) {
    case 'LIST':
    case 'SET': {
      const o: JsonObject = { Name: t.kind, ValueTypeName: scalarName(t.element) };
      if (t.element.kind === 'UDT') o.ValueTypeTupleName = t.element.name;
      return o;
    }
    case 'MAP': {
      const o: JsonObject = {
        Name: 'MAP',
        KeyTypeName: scalarName(t.key),
        ValueTypeName: scalarName(t.value),
      };
      if (t.value.kind === 'UDT') o.ValueTypeTupleName = t.value.name;
      return o;
    }
    case 'UDT':
      return { Name: 'UDT', TupleName: t.name };
    case 'FIXED_BINARY':
      return { Name: 'FIXED_BINARY', FixedSize: t.length };
    default:
      return { Name: scalarName(t) };
  }
}

interface AttrFlags {
  compositeKey?: boolean;
  idAsAttribute?: boolean;
  primaryKey?: boolean;
  index?: boolean;
  discriminator?: boolean;
}

function attributeJson(name: string, type: AttrType, flags: AttrFlags, defaultLiteral?: string): JsonObject {
  const o: JsonObject = {
    AttributeType: attrTypeJson(type),
    IsPartOfCompositeKey: flags.compositeKey === true,
    PrimaryIdAsAttribute: flags.idAsAttribute === true,
    AttributeName: name,
    HasIndex: flags.index === true,
    IsPrimaryKey: flags.primaryKey === true,
  };
  if (flags.discriminator) o.IsDiscriminator = true;
  if (defaultLiteral !== undefined) o.DefaultValue = defaultLiteral;
  return o;
}

export function vertexTypeJson(v: VertexType): JsonObject {
  const indexed = new Set((v.indexes ?? []).map((i) => i.attribute));
  const keyFlags = (a: Attribute): AttrFlags => ({
    compositeKey: v.keyKind === 'composite' && v.keyAttributes.includes(a.name),
    idAsAttribute: v.keyKind !== 'primary_id' && v.keyAttributes.includes(a.name),
    primaryKey: v.keyKind === 'primary_key' && v.keyAttributes[0] === a.name,
    index: indexed.has(a.name),
  });
  let primaryId: JsonObject;
  if (v.keyKind === 'primary_id') {
    primaryId = attributeJson(v.primaryId.name, v.primaryId.type, { idAsAttribute: v.primaryIdAsAttribute });
  } else {
    const first = v.attributes.find((a) => a.name === v.keyAttributes[0]);
    primaryId = attributeJson(
      v.primaryId.name,
      first ? first.type : v.primaryId.type,
      first ? keyFlags(first) : {},
    );
  }
  const o: JsonObject = {
    Config: {
      STATS: v.stats,
      PRIMARY_ID_AS_ATTRIBUTE: v.keyKind === 'primary_id' ? v.primaryIdAsAttribute : true,
    },
  };
  if (v.graph !== undefined) o.IsLocal = true;
  o.Attributes = v.attributes.map((a) => attributeJson(a.name, a.type, keyFlags(a), a.defaultLiteral));
  o.PrimaryId = primaryId;
  if (v.keyKind === 'composite') o.CompositeKeys = [...v.keyAttributes];
  o.Name = v.name;
  return o;
}

export function edgeTypeJson(e: EdgeType): JsonObject {
  const multi = e.pairs.length > 1;
  const o: JsonObject = {
    IsDirected: e.directed,
    ToVertexTypeName: multi ? '*' : e.pairs[0].to,
    Config: e.reverseEdge === undefined ? {} : { REVERSE_EDGE: e.reverseEdge },
  };
  if (e.discriminator.length > 0) o.DiscriminatorCount = e.discriminator.length;
  if (e.graph !== undefined) o.IsLocal = true;
  o.Attributes = e.attributes.map((a) =>
    attributeJson(a.name, a.type, { discriminator: e.discriminator.includes(a.name) }, a.defaultLiteral),
  );
  o.FromVertexTypeName = multi ? '*' : e.pairs[0].from;
  if (multi) o.EdgePairs = e.pairs.map((p) => ({ From: p.from, To: p.to }));
  if (e.discriminator.length > 0) o.CompositeDiscriminator = [...e.discriminator];
  o.Name = e.name;
  return o;
}

/** The schema of one graph, or undefined when there is no such graph. */
export function graphSchemaJson(catalog: Catalog, graph: string): JsonObject | undefined {
  const types = graphTypes(catalog, graph);
  if (!types) return undefined;
  return {
    GraphName: graph,
    VertexTypes: types.vertexTypes.map(vertexTypeJson),
    EdgeTypes: types.edgeTypes.map(edgeTypeJson),
  };
}

/** The global vertex and edge types (the schema outside any graph). */
export function globalSchemaJson(catalog: Catalog): JsonObject {
  const types = globalTypes(catalog);
  return {
    VertexTypes: types.vertexTypes.map(vertexTypeJson),
    EdgeTypes: types.edgeTypes.map(edgeTypeJson),
  };
}

function tupleFieldJson(f: TupleType['fields'][number]): JsonObject {
  const o: JsonObject = { fieldName: f.name, fieldType: f.type.kind };
  if ((f.type.kind === 'INT' || f.type.kind === 'UINT') && f.type.bytes !== 8) o.length = f.type.bytes;
  if (f.type.kind === 'STRING' && f.type.maxLength !== undefined) o.length = f.type.maxLength;
  return o;
}

/** The UDT list: `[{name, fields: [{fieldName, fieldType, length?}]}]`. */
export function udtListJson(catalog: Pick<Catalog, 'tuples'>): JsonObject[] {
  return catalog.tuples.map((t) => ({ name: t.name, fields: t.fields.map(tupleFieldJson) }));
}
