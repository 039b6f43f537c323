/** Schema objects written back as GSQL DDL, the way `ls` and SHOW VERTEX|EDGE print them. */
import { typeText } from './attr-types.js';
import type { Attribute, EdgeType, GraphDef, TupleType, VertexType } from './types.js';

function attrText(a: Attribute): string {
  let s = `${a.name} ${typeText(a.type)}`;
  if (a.defaultLiteral !== undefined) {
    s += ` DEFAULT ${a.type.kind === 'STRING' || a.type.kind === 'DATETIME' ? JSON.stringify(a.defaultLiteral) : a.defaultLiteral}`;
  }
  return s;
}

/** e.g. `VERTEX Person(PRIMARY_ID id STRING, name STRING) WITH STATS="OUTDEGREE_BY_EDGETYPE"` */
export function vertexTypeText(v: VertexType): string {
  const parts: string[] = [];
  if (v.keyKind === 'primary_id') parts.push(`PRIMARY_ID ${v.primaryId.name} ${typeText(v.primaryId.type)}`);
  for (const a of v.attributes) {
    parts.push(
      v.keyKind === 'primary_key' && v.keyAttributes[0] === a.name
        ? `${attrText(a)} PRIMARY KEY`
        : attrText(a),
    );
  }
  if (v.keyKind === 'composite') parts.push(`PRIMARY KEY(${v.keyAttributes.join(', ')})`);
  let s = `VERTEX ${v.name}(${parts.join(', ')}) WITH STATS="${v.stats}"`;
  if (v.keyKind === 'primary_id' && v.primaryIdAsAttribute) s += ', PRIMARY_ID_AS_ATTRIBUTE="true"';
  return s;
}

/** e.g. `DIRECTED EDGE follows(FROM Person, TO Person, since DATETIME) WITH REVERSE_EDGE="followed_by"` */
export function edgeTypeText(e: EdgeType): string {
  const pairs = e.pairs.map((p) => `FROM ${p.from}, TO ${p.to}`).join('|');
  const parts = [pairs];
  if (e.discriminator.length > 0) {
    const discr = e.discriminator
      .map((d) => e.attributes.find((a) => a.name === d))
      .filter((a) => a !== undefined);
    parts.push(`DISCRIMINATOR(${discr.map(attrText).join(', ')})`);
  }
  for (const a of e.attributes) if (!e.discriminator.includes(a.name)) parts.push(attrText(a));
  let s = `${e.directed ? 'DIRECTED' : 'UNDIRECTED'} EDGE ${e.name}(${parts.join(', ')})`;
  if (e.reverseEdge !== undefined) s += ` WITH REVERSE_EDGE="${e.reverseEdge}"`;
  return s;
}

/** e.g. `TYPEDEF TUPLE <f1 INT(1), f2 STRING(10)> t` */
export function tupleTypeText(t: TupleType): string {
  return `TYPEDEF TUPLE <${t.fields.map((f) => `${f.name} ${typeText(f.type)}`).join(', ')}> ${t.name}`;
}

/** e.g. `Graph social(Person:v, follows:e)`, as `ls` and SHOW GRAPH list graphs. */
export function graphText(g: GraphDef): string {
  const members = [...g.vertexTypes.map((n) => `${n}:v`), ...g.edgeTypes.map((n) => `${n}:e`)];
  return `Graph ${g.name}(${members.join(', ')})`;
}
