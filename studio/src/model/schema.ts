/**
 * The schema of one graph as the Studio uses it, read from the GSQL server's schema JSON
 * (GET /gsql/v1/schema/graphs/{g}): vertex types with their primary id, attributes and indexes,
 * edge types with every FROM/TO pair, direction and reverse edge; and the links the schema
 * diagram draws, one per edge type and pair.
 */

export interface AttributeInfo {
  name: string;
  type: string;
  indexed: boolean;
  /** Part of a composite key, or the primary key attribute. */
  key: boolean;
  discriminator: boolean;
}

export interface VertexTypeInfo {
  name: string;
  primaryId: { name: string; type: string; asAttribute: boolean };
  /** The attributes of a composite key, in order (PRIMARY KEY (a, b)). */
  compositeKey?: string[];
  attributes: AttributeInfo[];
}

export interface EdgeTypeInfo {
  name: string;
  directed: boolean;
  reverseEdge?: string;
  pairs: { from: string; to: string }[];
  attributes: AttributeInfo[];
}

export interface SchemaInfo {
  graph: string;
  vertexTypes: VertexTypeInfo[];
  edgeTypes: EdgeTypeInfo[];
}

/** One link of the schema diagram. */
export interface SchemaLink {
  id: string;
  edgeType: string;
  source: string;
  target: string;
  directed: boolean;
  reverseEdge?: string;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** `AttributeType` as GSQL writes the type: INT, LIST<STRING>, MAP<STRING,INT>, FIXED_BINARY(8), a tuple's name. */
export function typeText(attributeType: unknown): string {
  const t = obj(attributeType);
  const name = str(t.Name);
  const value = str(t.ValueTypeTupleName) || str(t.ValueTypeName);
  switch (name) {
    case 'LIST':
    case 'SET':
      return `${name}<${value}>`;
    case 'MAP':
      return `MAP<${str(t.KeyTypeName)},${value}>`;
    case 'UDT':
      return str(t.TupleName) || 'UDT';
    case 'FIXED_BINARY':
      return `FIXED_BINARY(${String(t.FixedSize ?? '')})`;
    default:
      return name;
  }
}

function attributeOf(a: unknown): AttributeInfo {
  const o = obj(a);
  return {
    name: str(o.AttributeName),
    type: typeText(o.AttributeType),
    indexed: o.HasIndex === true,
    key: o.IsPartOfCompositeKey === true || o.IsPrimaryKey === true,
    discriminator: o.IsDiscriminator === true,
  };
}

export function parseSchema(results: unknown): SchemaInfo {
  const r = obj(results);
  const vertexTypes = arr(r.VertexTypes).map((v): VertexTypeInfo => {
    const o = obj(v);
    const pid = obj(o.PrimaryId);
    const info: VertexTypeInfo = {
      name: str(o.Name),
      primaryId: {
        name: str(pid.AttributeName),
        type: typeText(pid.AttributeType),
        asAttribute: obj(o.Config).PRIMARY_ID_AS_ATTRIBUTE === true,
      },
      attributes: arr(o.Attributes).map(attributeOf),
    };
    if (Array.isArray(o.CompositeKeys)) info.compositeKey = o.CompositeKeys.map(str);
    return info;
  });
  const edgeTypes = arr(r.EdgeTypes).map((e): EdgeTypeInfo => {
    const o = obj(e);
    const pairs = Array.isArray(o.EdgePairs)
      ? o.EdgePairs.map((p) => ({ from: str(obj(p).From), to: str(obj(p).To) }))
      : [{ from: str(o.FromVertexTypeName), to: str(o.ToVertexTypeName) }];
    const info: EdgeTypeInfo = {
      name: str(o.Name),
      directed: o.IsDirected === true,
      pairs,
      attributes: arr(o.Attributes).map(attributeOf),
    };
    const reverse = str(obj(o.Config).REVERSE_EDGE);
    if (reverse !== '') info.reverseEdge = reverse;
    return info;
  });
  return { graph: str(r.GraphName), vertexTypes, edgeTypes };
}

/** The diagram's links: one per edge type and FROM/TO pair (a `*` end links to every vertex type). */
export function schemaLinks(schema: SchemaInfo): SchemaLink[] {
  const all = schema.vertexTypes.map((v) => v.name);
  const ends = (name: string) => (name === '*' ? all : [name]);
  const out: SchemaLink[] = [];
  const seen = new Set<string>();
  for (const e of schema.edgeTypes) {
    for (const pair of e.pairs) {
      for (const source of ends(pair.from)) {
        for (const target of ends(pair.to)) {
          const id = `${e.name}:${source}->${target}`;
          if (seen.has(id)) continue;
          seen.add(id);
          out.push({
            id,
            edgeType: e.name,
            source,
            target,
            directed: e.directed,
            ...(e.reverseEdge === undefined ? {} : { reverseEdge: e.reverseEdge }),
          });
        }
      }
    }
  }
  return out;
}

/** Reverse edge type name -> its forward edge type, to draw a reverse edge as the edge it mirrors. */
export function reverseEdgeMap(schema: SchemaInfo | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of schema?.edgeTypes ?? []) if (e.reverseEdge !== undefined) out.set(e.reverseEdge, e.name);
  return out;
}
