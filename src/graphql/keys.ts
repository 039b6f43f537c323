/**
 * Vertex keys in mutation inputs: TigerGraph's `{<primary id name>: value}` objects (every key
 * attribute for a composite key), turned into the external ids the engine takes, and the edge
 * endpoint inputs that name vertices of the types an edge type connects.
 */
import {
  GraphQLInputObjectType,
  GraphQLString,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputType,
} from 'graphql';
import type { AttrType, EdgeType, VertexType } from '../catalog/types.js';
import type { ExternalId, ReadTx } from '../engine/api.js';
import { formatDatetime } from '../util/datetime.js';
import { GraphQLRequestError } from './filter.js';
import { scalarOf } from './scalars.js';

/** The names of the fields that identify a vertex of this type. */
export function keyNames(vt: VertexType): string[] {
  return vt.keyKind === 'primary_id' ? [vt.primaryId.name] : vt.keyAttributes;
}

export function keyType(vt: VertexType, name: string): AttrType {
  if (vt.keyKind === 'primary_id') return vt.primaryId.type;
  return vt.attributes.find((a) => a.name === name)?.type ?? { kind: 'STRING', compress: false };
}

function part(v: unknown, t: AttrType): string {
  if (t.kind === 'DATETIME' && typeof v === 'number') return formatDatetime(v);
  return String(v);
}

/** The external id of a key object; undefined when a key field is missing. */
export function externalId(vt: VertexType, obj: Record<string, unknown>): ExternalId | undefined {
  const names = keyNames(vt);
  if (names.some((n) => obj[n] === undefined || obj[n] === null)) return undefined;
  if (vt.keyKind === 'composite') {
    return names.map((n) => part(obj[n], keyType(vt, n)).replace(/,/g, '\\,')).join(',');
  }
  const v = obj[names[0]];
  const t = keyType(vt, names[0]);
  if (t.kind === 'DATETIME') return part(v, t);
  return typeof v === 'number' || typeof v === 'bigint' || typeof v === 'string' ? v : String(v);
}

/**
 * The external id of a stored vertex in a form the engine parses back (REST's id text joins
 * composite keys with bare commas, which a key value containing a comma would split).
 */
export function idOfRow(tx: ReadTx, vt: VertexType, row: number): ExternalId {
  const obj: Record<string, unknown> =
    vt.keyKind === 'primary_id'
      ? { [vt.primaryId.name]: tx.vertexIdValue(vt.name, row) }
      : Object.fromEntries(keyNames(vt).map((k) => [k, tx.attr(vt.name, row, k)]));
  return externalId(vt, obj) ?? tx.vertexId(vt.name, row);
}

/** `<e>_endpoint`: the key fields of every vertex type the edge connects, and an optional `type`. */
export function endpointInputType(
  edge: EdgeType,
  vertexTypes: readonly VertexType[],
): GraphQLInputObjectType {
  const fields: GraphQLInputFieldConfigMap = {
    type: { type: GraphQLString, description: 'The vertex type, when the key fields leave it open.' },
  };
  const seen = new Map<string, GraphQLInputType>();
  for (const vt of vertexTypes) {
    for (const n of keyNames(vt)) {
      const s = scalarOf(keyType(vt, n)) ?? GraphQLString;
      // Two types with one key name but different scalars share a String field (ids parse from text).
      const prev = seen.get(n);
      seen.set(n, prev === undefined || prev === s ? s : GraphQLString);
    }
  }
  for (const [n, t] of seen) if (n !== 'type') fields[n] = { type: t };
  return new GraphQLInputObjectType({ name: `${edge.name}_endpoint`, fields });
}

function show(obj: Record<string, unknown>): string {
  return JSON.stringify(obj, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

export interface ResolvedEnds {
  fromType: string;
  fromId: ExternalId;
  toType: string;
  toId: ExternalId;
}

/**
 * Picks the FROM/TO pair of `edge` the two key objects name (either orientation for an undirected
 * edge), preferring one whose vertices both exist in `tx`.
 */
export function resolveEnds(
  edge: EdgeType,
  pairs: readonly { from: VertexType; to: VertexType }[],
  from: Record<string, unknown>,
  to: Record<string, unknown>,
  tx: ReadTx,
): ResolvedEnds {
  const fits = (vt: VertexType, obj: Record<string, unknown>): ExternalId | undefined =>
    obj.type !== undefined && obj.type !== null && obj.type !== vt.name ? undefined : externalId(vt, obj);
  const candidates: ResolvedEnds[] = [];
  const oriented = edge.directed ? pairs : [...pairs, ...pairs.map((p) => ({ from: p.to, to: p.from }))];
  for (const p of oriented) {
    const fromId = fits(p.from, from);
    const toId = fits(p.to, to);
    if (fromId !== undefined && toId !== undefined) {
      candidates.push({ fromType: p.from.name, fromId, toType: p.to.name, toId });
    }
  }
  if (candidates.length === 0) {
    throw new GraphQLRequestError(
      `The from/to keys ${show(from)} and ${show(to)} do not name vertices edge type '${edge.name}' connects.`,
    );
  }
  return (
    candidates.find((c) => tx.vertexExists(c.fromType, c.fromId) && tx.vertexExists(c.toType, c.toId)) ??
    candidates[0]
  );
}
