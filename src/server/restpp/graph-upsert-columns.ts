/**
 * The fast path of REST++ `POST /graph/{graph}` for the vertices of the common body, when they come
 * first and are all valid:
 *   {"vertices": {<type>: {<id>: {<attr>: {"value": v, "op": o}}}}, "edges": ...}
 * The vertices are read in one pass over its bytes (util/json-bytes.ts) straight into the engine's column runs
 * (WriteTx.upsertVertices with `columns`), checked against the schema as it is read. An INT or UINT
 * id in its short decimal form becomes a number without a string being made, and attribute names,
 * "value" and "op" are recognised in place. There is no object per vertex or attribute.
 *
 * What follows the vertices (edges) is left to the general decoder, from where the fast reader
 * stopped. Anything else in the vertices (a syntax or shape error, an unknown type or attribute, a
 * bad id, value or op, an array or object value such as a LIST or MAP attribute's, an attribute name
 * with an escape), or a body that does not start with them, makes readVertexColumns return
 * undefined, and the whole request goes the general way (graph-upsert-body.ts, then prepareUpsert).
 * Either way the outcome of a valid body and the error of an invalid one are those of the general
 * way: vertices without an error there cannot change which error the rest of the body reports.
 */
import type { AttrType, Catalog, GraphDef, VertexType } from '../../catalog/types.js';
import type { Value } from '../../catalog/value.js';
import {
  EngineError,
  type ExternalId,
  type UpsertOp,
  type VertexRun,
  type VertexRunColumn,
} from '../../engine/api.js';
import { jsonValueReader } from '../../engine/value-input.js';
import { parseId } from '../../engine/values.js';
import { JsonBytes, NotHandled } from '../../util/json-bytes.js';
import type { ParsedJson } from '../../util/json-parse.js';
import { opOf } from './graph-upsert-body.js';
import { opApplies } from './graph-upsert.js';
import { graphVertexType } from './graph-schema.js';

/** How the ids and attributes of one vertex type are read. */
interface ColumnPlan {
  /** The type's attribute names, in declaration order; index k reads with read[k]. */
  names: readonly string[];
  /** The same names as UTF-8, as the body spells them. */
  nameBytes: readonly Uint8Array[];
  types: readonly AttrType[];
  read: readonly ((json: ParsedJson) => Value | undefined)[];
  /** Key attributes of a PRIMARY KEY type: their given values are ignored. */
  skip: readonly boolean[];
  /** An INT (true) or UINT (false) id of 8 bytes, read as a number when decimal; else undefined. */
  decimalId: boolean | undefined;
}

const plans = new WeakMap<Catalog, Map<string, ColumnPlan>>();

function columnPlan(catalog: Catalog, vt: VertexType): ColumnPlan {
  let byType = plans.get(catalog);
  if (!byType) {
    byType = new Map();
    plans.set(catalog, byType);
  }
  let plan = byType.get(vt.name);
  if (!plan) {
    const primaryId = vt.keyKind === 'primary_id';
    const skip = primaryId ? [] : vt.keyAttributes;
    const id = primaryId ? vt.primaryId.type : undefined;
    plan = {
      names: vt.attributes.map((a) => a.name),
      nameBytes: vt.attributes.map((a) => Buffer.from(a.name)),
      types: vt.attributes.map((a) => a.type),
      read: vt.attributes.map((a) => jsonValueReader(a.type, catalog)),
      skip: vt.attributes.map((a) => skip.includes(a.name)),
      decimalId:
        (id?.kind === 'INT' || id?.kind === 'UINT') && id.bytes === 8 ? id.kind === 'INT' : undefined,
    };
    byType.set(vt.name, plan);
  }
  return plan;
}

const TOP = [Buffer.from('vertices')];
const VALUE_OP = [Buffer.from('value'), Buffer.from('op')];

/**
 * What the fast reader read: the vertex runs of the body's leading "vertices" object, checked
 * against the schema, and, when more top-level entries follow it (edges), the offset in the text
 * just after it, from which the general decoder reads the rest (decodeUpsertRest).
 */
export interface VertexColumns {
  runs: VertexRun[];
  rest: number | undefined;
}

/**
 * The vertex runs of a body that starts with its vertices, or undefined when the body is anything
 * else or anything in its vertices is wrong (see the file comment).
 */
export function readVertexColumns(
  catalog: Catalog,
  graph: GraphDef,
  body: Buffer,
  text: string,
): VertexColumns | undefined {
  try {
    return readBody(new JsonBytes(body, text), catalog, graph);
  } catch (e) {
    if (e instanceof NotHandled) return undefined;
    throw e;
  }
}

function readBody(r: JsonBytes, catalog: Catalog, graph: GraphDef): VertexColumns | undefined {
  if (!r.enterObject() || !r.firstEntry() || r.keyIn(TOP) !== 0 || !r.enterObject()) return undefined;
  const runs: VertexRun[] = [];
  for (let more = r.firstEntry(); more; more = r.nextEntry()) {
    const type = r.key();
    const vt = graphVertexType(catalog, graph, type);
    if (vt === undefined || !r.enterObject()) return undefined;
    const run = readRun(r, vt, columnPlan(catalog, vt));
    if (run === undefined) return undefined;
    if (run.end > 0) runs.push(run);
  }
  const after = r.position;
  if (r.nextEntry()) return { runs, rest: r.textOffset(after) };
  r.end();
  return { runs, rest: undefined };
}

/** The vertices of one type object, its `{` consumed. */
function readRun(r: JsonBytes, vt: VertexType, plan: ColumnPlan): VertexRun | undefined {
  const ids: ExternalId[] = [];
  const n = plan.names.length;
  const values: (Value | undefined)[][] = [];
  const ops: ((UpsertOp | undefined)[] | null)[] = [];
  for (let k = 0; k < n; k++) {
    values.push([]);
    ops.push(null);
  }
  const decimalId = plan.decimalId;
  let i = 0;
  for (let more = r.firstEntry(); more; more = r.nextEntry(), i++) {
    let id: ExternalId | undefined = decimalId === undefined ? undefined : r.decimalKey(decimalId);
    if (id === undefined) {
      const s = r.key();
      if (!validId(vt, s)) return undefined;
      id = s;
    }
    ids.push(id);
    for (let k = 0; k < n; k++) values[k].push(undefined);
    if (!r.enterObject()) return undefined;
    for (let attr = r.firstEntry(); attr; attr = r.nextEntry()) {
      const k = r.keyIn(plan.nameBytes);
      if (k < 0 || !r.enterObject()) return undefined;
      let value: ParsedJson | undefined;
      let op: ParsedJson | undefined;
      let valueCount = 0;
      let opCount = 0;
      for (let e = r.firstEntry(); e; e = r.nextEntry()) {
        const which = r.keyIn(VALUE_OP);
        const v = r.scalar();
        if (which === 0) {
          value = v;
          valueCount++;
        } else if (which === 1) {
          op = v;
          opCount++;
        }
      }
      if (valueCount !== 1 || opCount > 1) return undefined;
      const o = op === undefined ? 'set' : opOf(op);
      if (o === undefined) return undefined;
      // A key attribute's value is not read, as prepareUpsert leaves it out before reading it.
      if (plan.skip[k]) continue;
      const checked = value === null ? undefined : plan.read[k](value as ParsedJson);
      if (checked === undefined || (o !== 'set' && !opApplies(o, plan.types[k]))) return undefined;
      values[k][i] = checked;
      const column = ops[k];
      if (column !== null) column[i] = o;
      else if (o !== 'set') {
        const fresh = new Array<UpsertOp | undefined>(i + 1).fill(undefined);
        fresh[i] = o;
        ops[k] = fresh;
      }
    }
  }
  const columns: VertexRunColumn[] = [];
  for (let k = 0; k < n; k++) columns.push({ name: plan.names[k], values: values[k], ops: ops[k] });
  return { vertexType: vt.name, ids, attrs: null, columns, start: 0, end: ids.length };
}

/** Whether prepareUpsert takes the id (parseId does not refuse it). */
function validId(vt: VertexType, id: string): boolean {
  if (vt.keyKind === 'primary_id' && vt.primaryId.type.kind === 'STRING') return id !== '';
  try {
    parseId(vt, id);
    return true;
  } catch (e) {
    if (e instanceof EngineError) return false;
    throw e;
  }
}
