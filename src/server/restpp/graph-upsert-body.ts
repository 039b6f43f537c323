/**
 * Decodes the body of `POST /graph/{graph}` into runs of vertices (one per vertex type object, its
 * vertices and attributes in parallel arrays, so no object is made per vertex or attribute) and a
 * flat list of edge upserts, in body order:
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

/**
 * The vertices of one vertex type object of the body, in body order. Vertex i's attributes are
 * entries attrStart[i] to attrStart[i + 1] - 1 of attrNames, attrValues and attrOps.
 */
export interface VertexRunInput {
  type: string;
  ids: string[];
  attrStart: number[];
  attrNames: string[];
  attrValues: ParsedJson[];
  attrOps: UpsertOp[];
}

export interface EdgeInput {
  srcType: string;
  srcId: string;
  edgeType: string;
  tgtType: string;
  tgtId: string;
  attrs: readonly AttrInput[];
}

export interface UpsertBody {
  vertices: VertexRunInput[];
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

/** Enters the object that comes next, or throws naming where it should have been. */
function enter(r: JsonReader, where: Where): void {
  if (!r.enterObject()) throw payloadError(`Invalid upsert payload: ${where()} must be a JSON object.`);
}

/** The op an `op` literal names (null: overwrite), or undefined when it names none. */
export function opOf(op: ParsedJson): UpsertOp | undefined {
  if (op === null) return 'set';
  if (typeof op === 'string') return OPS[op] ?? OPS[op.trim().toLowerCase()];
  return undefined;
}

/** Parses an `op` literal; absent → overwrite. */
export function parseOp(op: ParsedJson | undefined, where: string | Where): UpsertOp {
  if (op === undefined) return 'set';
  const mapped = opOf(op);
  if (mapped) return mapped;
  throw payloadError(
    `Invalid upsert payload: unknown op ${JSON.stringify(typeof op === 'bigint' ? String(op) : op)} for ` +
      `${typeof where === 'string' ? where : where()}; expected one of ignore_if_exists/~, add/+, and/&, or/|, max/>, min/<.`,
  );
}

const NO_ATTRS: readonly AttrInput[] = [];
/** An edge's attribute passes through these on its way into its AttrInput. */
const edgeValues: ParsedJson[] = [];
const edgeOps: UpsertOp[] = [];

function decodeAttrs(r: JsonReader, where: Where): readonly AttrInput[] {
  enter(r, where);
  let name = r.firstKey();
  if (name === undefined) return NO_ATTRS;
  const attrs: AttrInput[] = [];
  for (; name !== undefined; name = r.nextKey()) {
    decodeAttr(r, name, where, edgeValues, edgeOps);
    attrs.push({ name, value: edgeValues.pop() as ParsedJson, op: edgeOps.pop() as UpsertOp });
  }
  return attrs;
}

/** One `<attr>: {"value": v, "op": o}` entry, its key already read: pushes its value and op. */
function decodeAttr(r: JsonReader, name: string, where: Where, values: ParsedJson[], ops: UpsertOp[]): void {
  let value: ParsedJson | undefined;
  let op: ParsedJson | undefined;
  let valueCount = 0;
  let opCount = 0;
  if (r.enterObject()) {
    for (let key = r.firstKey(); key !== undefined; key = r.nextKey()) {
      const v = r.value();
      if (key === 'value') {
        value = v;
        valueCount++;
      } else if (key === 'op') {
        op = v;
        opCount++;
      }
    }
  }
  if (valueCount !== 1 || opCount > 1) throw attrShapeError(name, where, valueCount);
  ops.push(op === undefined ? 'set' : parseOp(op, () => attrPlace(name, where)));
  values.push(value as ParsedJson);
}

function attrPlace(name: string, where: Where): string {
  return `attribute '${name}' of ${where()}`;
}

/** The error for an attribute object without exactly one "value" or with several "op". */
function attrShapeError(name: string, where: Where, values: number): RestError {
  const place = attrPlace(name, where);
  if (values === 0)
    return payloadError(`Invalid upsert payload: ${place} must be an object {"value": ..., "op": ...}.`);
  if (values > 1) return payloadError(`Invalid upsert payload: ${place} gives "value" more than once.`);
  return payloadError(`Invalid upsert payload: ${place} gives "op" more than once.`);
}

/** Decodes an upsert body from its reader; the whole text must be this one object. */
export function decodeUpsertBody(r: JsonReader): UpsertBody {
  enter(r, () => 'the body');
  return decodeTopLevel(r, r.firstKey());
}

/**
 * Decodes the rest of an upsert body from a reader resumed inside its top-level object after a
 * value (graph-upsert-columns.ts read what came before).
 */
export function decodeUpsertRest(r: JsonReader): UpsertBody {
  return decodeTopLevel(r, r.nextKey());
}

function decodeTopLevel(r: JsonReader, first: string | undefined): UpsertBody {
  const out: UpsertBody = { vertices: [], edges: [] };
  for (let key = first; key !== undefined; key = r.nextKey()) {
    if (key === 'vertices') decodeVertices(r, out.vertices);
    else if (key === 'edges') decodeEdges(r, out.edges);
    else {
      throw payloadError(
        `Invalid upsert payload: unknown top-level key '${key}'; expected "vertices" and/or "edges".`,
      );
    }
  }
  r.end();
  return out;
}

// The walks below are plain loops rather than callbacks: they run once per vertex and edge.

function decodeVertices(r: JsonReader, out: VertexRunInput[]): void {
  enter(r, () => '"vertices"');
  for (let type = r.firstKey(); type !== undefined; type = r.nextKey()) {
    const t = type;
    enter(r, () => `vertex type '${t}'`);
    // One closure per type, reading the vertex being decoded: none is made per vertex.
    let i = '';
    const where = (): string => `vertex '${i}' of type '${t}'`;
    const run: VertexRunInput = {
      type,
      ids: [],
      attrStart: [0],
      attrNames: [],
      attrValues: [],
      attrOps: [],
    };
    const { ids, attrStart, attrNames, attrValues, attrOps } = run;
    for (let id = r.firstKey(); id !== undefined; id = r.nextKey()) {
      i = id;
      ids.push(id);
      enter(r, where);
      for (let name = r.firstKey(); name !== undefined; name = r.nextKey()) {
        attrNames.push(name);
        decodeAttr(r, name, where, attrValues, attrOps);
      }
      attrStart.push(attrNames.length);
    }
    if (ids.length > 0) out.push(run);
  }
}

function decodeEdges(r: JsonReader, out: EdgeInput[]): void {
  enter(r, () => '"edges"');
  for (let srcType = r.firstKey(); srcType !== undefined; srcType = r.nextKey()) {
    const st = srcType;
    enter(r, () => `source vertex type '${st}'`);
    for (let srcId = r.firstKey(); srcId !== undefined; srcId = r.nextKey()) {
      const si = srcId;
      const srcWhere = (): string => `source vertex '${si}' of type '${st}'`;
      enter(r, srcWhere);
      for (let edgeType = r.firstKey(); edgeType !== undefined; edgeType = r.nextKey()) {
        const et = edgeType;
        const etWhere = (): string => `edge type '${et}' from ${srcWhere()}`;
        enter(r, etWhere);
        for (let tgtType = r.firstKey(); tgtType !== undefined; tgtType = r.nextKey()) {
          const tt = tgtType;
          enter(r, () => `target vertex type '${tt}' of ${etWhere()}`);
          for (let tgtId = r.firstKey(); tgtId !== undefined; tgtId = r.nextKey()) {
            const ti = tgtId;
            const where = (): string => `edge '${et}' from ${st} '${si}' to ${tt} '${ti}'`;
            out.push({ srcType, srcId, edgeType, tgtType, tgtId, attrs: decodeAttrs(r, where) });
          }
        }
      }
    }
  }
}
