/**
 * Decodes the body of `POST /graph/{graph}` into a flat list of vertex and edge upserts, in body
 * order:
 *   {"vertices": {<type>: {<id>: {<attr>: {"value": v, "op": o}}}},
 *    "edges": {<src type>: {<src id>: {<edge type>: {<tgt type>: {<tgt id>: {<attr>: {...}}}}}}}}
 * The body is walked in one pass with a pull reader, without building its objects, so a key
 * repeated in one object yields one entry per occurrence: pyTigerGraph repeats a target id once per
 * edge of a discriminated edge type. Only the shape is checked here; types, attributes and values
 * are checked against the catalog by graph-upsert.ts.
 */
import type { UpsertOp } from '../../engine/api.js';
import type { JsonReader, ParsedJson } from '../../util/json-parse.js';
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

/** Where a value sits in the body, for error messages; built only when an error is reported. */
type Where = () => string;

/** Calls fn with every key of the object that comes next (fn reads the key's value), in source order. */
function eachKey(r: JsonReader, where: Where, fn: (key: string) => void): void {
  if (!r.enterObject()) throw payloadError(`Invalid upsert payload: ${where()} must be a JSON object.`);
  for (let key = r.firstKey(); key !== undefined; key = r.nextKey()) fn(key);
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

function decodeAttrs(r: JsonReader, where: Where): AttrInput[] {
  const attrs: AttrInput[] = [];
  eachKey(r, where, (name) => {
    const place = (): string => `attribute '${name}' of ${where()}`;
    let value: ParsedJson | undefined;
    let op: ParsedJson | undefined;
    let values = 0;
    let ops = 0;
    if (r.enterObject()) {
      for (let key = r.firstKey(); key !== undefined; key = r.nextKey()) {
        const v = r.value();
        if (key === 'value') {
          value = v;
          values++;
        } else if (key === 'op') {
          op = v;
          ops++;
        }
      }
    }
    if (values === 0) {
      throw payloadError(`Invalid upsert payload: ${place()} must be an object {"value": ..., "op": ...}.`);
    }
    if (values > 1) throw payloadError(`Invalid upsert payload: ${place()} gives "value" more than once.`);
    if (ops > 1) throw payloadError(`Invalid upsert payload: ${place()} gives "op" more than once.`);
    attrs.push({ name, value: value as ParsedJson, op: parseOp(op, place) });
  });
  return attrs;
}

/** Decodes an upsert body from its reader; the whole text must be this one object. */
export function decodeUpsertBody(r: JsonReader): UpsertBody {
  const out: UpsertBody = { vertices: [], edges: [] };
  eachKey(
    r,
    () => 'the body',
    (key) => {
      if (key === 'vertices') decodeVertices(r, out.vertices);
      else if (key === 'edges') decodeEdges(r, out.edges);
      else {
        throw payloadError(
          `Invalid upsert payload: unknown top-level key '${key}'; expected "vertices" and/or "edges".`,
        );
      }
    },
  );
  r.end();
  return out;
}

function decodeVertices(r: JsonReader, out: VertexInput[]): void {
  eachKey(
    r,
    () => '"vertices"',
    (type) => {
      eachKey(
        r,
        () => `vertex type '${type}'`,
        (id) => {
          out.push({ type, id, attrs: decodeAttrs(r, () => `vertex '${id}' of type '${type}'`) });
        },
      );
    },
  );
}

function decodeEdges(r: JsonReader, out: EdgeInput[]): void {
  eachKey(
    r,
    () => '"edges"',
    (srcType) => {
      eachKey(
        r,
        () => `source vertex type '${srcType}'`,
        (srcId) => {
          const srcWhere = (): string => `source vertex '${srcId}' of type '${srcType}'`;
          eachKey(r, srcWhere, (edgeType) => {
            const etWhere = (): string => `edge type '${edgeType}' from ${srcWhere()}`;
            eachKey(r, etWhere, (tgtType) => {
              const ttWhere = (): string => `target vertex type '${tgtType}' of ${etWhere()}`;
              eachKey(r, ttWhere, (tgtId) => {
                const where = (): string =>
                  `edge '${edgeType}' from ${srcType} '${srcId}' to ${tgtType} '${tgtId}'`;
                out.push({ srcType, srcId, edgeType, tgtType, tgtId, attrs: decodeAttrs(r, where) });
              });
            });
          });
        },
      );
    },
  );
}
