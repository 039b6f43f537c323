/**
 * Decodes the body of `POST /graph/{graph}` into a flat list of vertex and edge upserts, in body
 * order:
 *   {"vertices": {<type>: {<id>: {<attr>: {"value": v, "op": o}}}},
 *    "edges": {<src type>: {<src id>: {<edge type>: {<tgt type>: {<tgt id>: {<attr>: {...}}}}}}}}
 * A key repeated in one object (kept by the parser as RepeatedKey) yields one entry per occurrence:
 * pyTigerGraph repeats a target id once per edge of a discriminated edge type. Only the shape is
 * checked here; types, attributes and values are checked against the catalog by graph-upsert.ts.
 */
import type { UpsertOp } from '../../engine/api.js';
import { RepeatedKey, type ParsedJson } from '../../util/json-parse.js';
import { RestError } from '../http/envelope.js';

export interface AttrInput {
  name: string;
  value: ParsedJson;
  op: UpsertOp;
}

export interface VertexInput {
  type: string;
  id: string;
  attrs: AttrInput[];
}

export interface EdgeInput {
  srcType: string;
  srcId: string;
  edgeType: string;
  tgtType: string;
  tgtId: string;
  attrs: AttrInput[];
}

export interface UpsertBody {
  vertices: VertexInput[];
  edges: EdgeInput[];
}

type JsonObject = { [key: string]: ParsedJson };

/** The op literals TigerGraph accepts, words and symbols. */
const OPS: Record<string, UpsertOp> = {
  ignore_if_exists: 'ignore_if_exists',
  '~': 'ignore_if_exists',
  add: 'add',
  '+': 'add',
  and: 'and',
  '&': 'and',
  or: 'or',
  '|': 'or',
  max: 'max',
  '>': 'max',
  min: 'min',
  '<': 'min',
};

function payloadError(message: string): RestError {
  return new RestError('REST-30000', message);
}

function isObject(v: ParsedJson | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof RepeatedKey);
}

/** Calls fn for every (key, value) of an object, a repeated key once per occurrence, in source order. */
function eachEntry(obj: JsonObject, fn: (key: string, value: ParsedJson) => void): void {
  for (const key of Object.keys(obj)) {
    const v = obj[key];
    if (v instanceof RepeatedKey) for (const each of v.values) fn(key, each);
    else fn(key, v);
  }
}

/** Where a value sits in the body, for error messages; built only when an error is reported. */
type Where = () => string;

/** The object under `key` at `where`, or a payload error naming the place. */
function objectAt(v: ParsedJson, where: Where): JsonObject {
  if (!isObject(v)) throw payloadError(`Invalid upsert payload: ${where()} must be a JSON object.`);
  return v;
}

/** Parses an `op` literal; absent → overwrite. */
export function parseOp(op: ParsedJson | undefined, where: string | Where): UpsertOp {
  if (op === undefined || op === null) return 'set';
  if (typeof op === 'string') {
    const mapped = OPS[op] ?? OPS[op.trim().toLowerCase()];
    if (mapped) return mapped;
  }
  throw payloadError(
    `Invalid upsert payload: unknown op ${JSON.stringify(typeof op === 'bigint' ? String(op) : op)} for ` +
      `${typeof where === 'string' ? where : where()}; expected one of ignore_if_exists/~, add/+, and/&, or/|, max/>, min/<.`,
  );
}

function decodeAttrs(v: ParsedJson, where: Where): AttrInput[] {
  const attrs: AttrInput[] = [];
  eachEntry(objectAt(v, where), (name, spec) => {
    const place = (): string => `attribute '${name}' of ${where()}`;
    if (!isObject(spec) || !('value' in spec)) {
      throw payloadError(`Invalid upsert payload: ${place()} must be an object {"value": ..., "op": ...}.`);
    }
    if (spec.value instanceof RepeatedKey) {
      throw payloadError(`Invalid upsert payload: ${place()} gives "value" more than once.`);
    }
    const op = spec.op;
    if (op instanceof RepeatedKey) {
      throw payloadError(`Invalid upsert payload: ${place()} gives "op" more than once.`);
    }
    attrs.push({ name, value: spec.value, op: parseOp(op, place) });
  });
  return attrs;
}

/** Decodes a parsed upsert body; an empty body upserts nothing. */
export function decodeUpsertBody(body: ParsedJson | undefined): UpsertBody {
  const out: UpsertBody = { vertices: [], edges: [] };
  if (body === undefined) return out;
  eachEntry(
    objectAt(body, () => 'the body'),
    (key, value) => {
      if (key === 'vertices') decodeVertices(value, out.vertices);
      else if (key === 'edges') decodeEdges(value, out.edges);
      else {
        throw payloadError(
          `Invalid upsert payload: unknown top-level key '${key}'; expected "vertices" and/or "edges".`,
        );
      }
    },
  );
  return out;
}

function decodeVertices(value: ParsedJson, out: VertexInput[]): void {
  eachEntry(
    objectAt(value, () => '"vertices"'),
    (type, ids) => {
      eachEntry(
        objectAt(ids, () => `vertex type '${type}'`),
        (id, attrs) => {
          out.push({ type, id, attrs: decodeAttrs(attrs, () => `vertex '${id}' of type '${type}'`) });
        },
      );
    },
  );
}

function decodeEdges(value: ParsedJson, out: EdgeInput[]): void {
  eachEntry(
    objectAt(value, () => '"edges"'),
    (srcType, srcIds) => {
      eachEntry(
        objectAt(srcIds, () => `source vertex type '${srcType}'`),
        (srcId, edgeTypes) => {
          const srcWhere = (): string => `source vertex '${srcId}' of type '${srcType}'`;
          eachEntry(objectAt(edgeTypes, srcWhere), (edgeType, tgtTypes) => {
            const etWhere = (): string => `edge type '${edgeType}' from ${srcWhere()}`;
            eachEntry(objectAt(tgtTypes, etWhere), (tgtType, tgtIds) => {
              const ttWhere = (): string => `target vertex type '${tgtType}' of ${etWhere()}`;
              eachEntry(objectAt(tgtIds, ttWhere), (tgtId, attrs) => {
                const where = (): string =>
                  `edge '${edgeType}' from ${srcType} '${srcId}' to ${tgtType} '${tgtId}'`;
                out.push({ srcType, srcId, edgeType, tgtType, tgtId, attrs: decodeAttrs(attrs, where) });
              });
            });
          });
        },
      );
    },
  );
}
