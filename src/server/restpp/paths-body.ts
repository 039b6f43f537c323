/**
 * The body of POST /shortestpath/{g} and POST /allpaths/{g} (spec §4.38, §4.39): `source|sources`,
 * `target|targets` (vertex objects `{type, id}`; exactly one key of each pair), `vertexFilters`,
 * `edgeFilters` (arrays of `{type, condition}`), `maxLength` (default 6 for shortest paths, required
 * for all paths) and, for shortest paths only, `allShortestPaths`. pyTigerGraph sends it as a JSON
 * string without a Content-Type. Every problem is REST-30000 naming the key.
 */
import type { ExternalId } from '../../engine/api.js';
import type { FilterSpec, VertexRef } from '../../paths/graph.js';
import type { JsonValue } from '../../util/json.js';
import { RestError } from '../http/envelope.js';

export type PathKind = 'shortest' | 'all';

export interface PathRequest {
  sources: VertexRef[];
  targets: VertexRef[];
  vertexFilters: FilterSpec[];
  edgeFilters: FilterSpec[];
  /** Which filter lists were absent (TigerGraph then says it used an empty filter). */
  missingFilters: ('vertex_filters' | 'edge_filters')[];
  maxLength: number;
  allShortestPaths: boolean;
}

/** TigerGraph's default and a ceiling that keeps an enumeration's stack small. */
export const DEFAULT_MAX_LENGTH = 6;
const MAX_MAX_LENGTH = 1000;

function bad(message: string): RestError {
  return new RestError('REST-30000', message);
}

function isObject(v: JsonValue | undefined): v is { [k: string]: JsonValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function vertexRef(v: JsonValue, where: string): VertexRef {
  if (!isObject(v)) throw bad(`${where} must be a vertex object {"type": …, "id": …}.`);
  for (const k of Object.keys(v)) {
    if (k !== 'type' && k !== 'id')
      throw bad(`${where} has an unknown key '${k}'; a vertex object has "type" and "id".`);
  }
  const type = v.type;
  if (typeof type !== 'string' || type === '') throw bad(`${where} needs a "type" (a vertex type name).`);
  const id = v.id;
  if (typeof id !== 'string' && typeof id !== 'number' && typeof id !== 'bigint') {
    throw bad(`${where} needs an "id" (a string or a number).`);
  }
  return { type, id: id as ExternalId };
}

function endpoints(body: { [k: string]: JsonValue }, one: string, many: string): VertexRef[] {
  const single = body[one];
  const list = body[many];
  if (single !== undefined && list !== undefined) {
    throw bad(`The payload has both '${one}' and '${many}'; give exactly one of them.`);
  }
  if (single === undefined && list === undefined) {
    throw bad(`The payload needs '${one}' (a vertex object) or '${many}' (an array of vertex objects).`);
  }
  if (single !== undefined) return [vertexRef(single, `'${one}'`)];
  if (!Array.isArray(list)) throw bad(`'${many}' must be an array of vertex objects.`);
  if (list.length === 0) throw bad(`'${many}' is empty; give at least one vertex.`);
  return list.map((v, i) => vertexRef(v, `${many}[${i}]`));
}

function filters(v: JsonValue | undefined, key: string): FilterSpec[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v))
    throw bad(`'${key}' must be an array of filter objects {"type": …, "condition": …}.`);
  return v.map((f, i) => {
    const where = `${key}[${i}]`;
    if (!isObject(f)) throw bad(`${where} must be a filter object {"type": …, "condition": …}.`);
    for (const k of Object.keys(f)) {
      if (k !== 'type' && k !== 'condition') {
        throw bad(`${where} has an unknown key '${k}'; a filter has "type" and "condition".`);
      }
    }
    if (typeof f.type !== 'string' || f.type === '') throw bad(`${where} needs a "type" (a type name).`);
    const c = f.condition;
    if (c !== undefined && c !== null && typeof c !== 'string')
      throw bad(`${where}: "condition" must be a string.`);
    return typeof c === 'string' ? { type: f.type, condition: c } : { type: f.type };
  });
}

function maxLengthOf(v: JsonValue | undefined, kind: PathKind): number {
  if (v === undefined || v === null) {
    if (kind === 'all') throw bad(`'maxLength' is required for all paths (a path length bound, e.g. 3).`);
    return DEFAULT_MAX_LENGTH;
  }
  const n = typeof v === 'bigint' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) {
    throw bad(
      `'maxLength' must be a non-negative integer, not ${JSON.stringify(typeof v === 'bigint' ? String(v) : v)}.`,
    );
  }
  if (n > MAX_MAX_LENGTH)
    throw bad(`'maxLength' ${n} is too large; the largest accepted is ${MAX_MAX_LENGTH}.`);
  return n;
}

const KEYS: Record<PathKind, readonly string[]> = {
  shortest: [
    'source',
    'sources',
    'target',
    'targets',
    'vertexFilters',
    'edgeFilters',
    'maxLength',
    'allShortestPaths',
  ],
  all: ['source', 'sources', 'target', 'targets', 'vertexFilters', 'edgeFilters', 'maxLength'],
};

export function decodePathRequest(body: JsonValue | undefined, kind: PathKind): PathRequest {
  if (!isObject(body)) {
    throw bad(
      `The payload must be a JSON object with 'sources' and 'targets' (vertex objects {"type", "id"}).`,
    );
  }
  for (const k of Object.keys(body)) {
    if (!KEYS[kind].includes(k))
      throw bad(`Unknown key '${k}' in the payload; accepted keys: ${KEYS[kind].join(', ')}.`);
  }
  const sources = endpoints(body, 'source', 'sources');
  const targets = endpoints(body, 'target', 'targets');
  const vf = filters(body.vertexFilters, 'vertexFilters');
  const ef = filters(body.edgeFilters, 'edgeFilters');
  const missingFilters: PathRequest['missingFilters'] = [];
  if (!vf) missingFilters.push('vertex_filters');
  if (!ef) missingFilters.push('edge_filters');
  const all = body.allShortestPaths;
  if (all !== undefined && all !== null && typeof all !== 'boolean') {
    throw bad(`'allShortestPaths' must be true or false.`);
  }
  return {
    sources,
    targets,
    vertexFilters: vf ?? [],
    edgeFilters: ef ?? [],
    missingFilters,
    maxLength: maxLengthOf(body.maxLength, kind),
    allShortestPaths: all === true,
  };
}
