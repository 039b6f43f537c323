/**
 * Executors of LOAD targets: how one row becomes a vertex upsert (ids, attribute values, REDUCE
 * operators, defaults for "_" and empty tokens) and the pieces edge and DELETE targets share.
 * Every failure is counted in the target type's statistics; none stops the load.
 */
import type { AttrType, Catalog, VertexType } from '../catalog/types.js';
import type { Value } from '../catalog/value.js';
import type { AttrShape as AttrNames, ExternalId, UpsertOp } from '../engine/api.js';
import type { LoadCond, LoadExpr } from '../gsql/ast-loading.js';
import type { AttrMap, BatchSink } from './batch-ops.js';
import { INVALID, WRONG_LENGTH, converterFor, idConverter, type Converter } from './convert.js';
import {
  compileCond,
  compileToken,
  compileValue,
  jobError,
  type AttrShape,
  type ExprScope,
  type Needs,
  type Row,
  type ValueFn,
} from './expressions.js';
import type { LoadStatistics, ObjectKind, ObjectStatistics } from './statistics.js';

/** Runs the statements of one input on one row. */
export type StmtExec = (row: Row, sink: BatchSink, stats: LoadStatistics) => void;

/** The counters of one target type within a run, looked up once per statistics object. */
export function statsOf(kind: ObjectKind, typeName: string): (stats: LoadStatistics) => ObjectStatistics {
  let owner: LoadStatistics | undefined;
  let cached: ObjectStatistics | undefined;
  return (stats) => {
    if (stats !== owner || cached === undefined) {
      owner = stats;
      cached = stats.object(kind, typeName);
    }
    return cached;
  };
}

/** The type ids of a vertex type are read as: composite keys are comma-joined strings. */
export function idTypeOf(vt: VertexType): AttrType {
  return vt.keyKind === 'composite' ? { kind: 'STRING', compress: false } : vt.primaryId.type;
}

function shapeOf(t: AttrType): AttrShape {
  if (t.kind === 'LIST' || t.kind === 'SET') return 'collection';
  if (t.kind === 'MAP') return 'map';
  if (t.kind === 'UDT') return 'tuple';
  return 'scalar';
}

const REDUCERS: Record<string, UpsertOp> = {
  add: 'add',
  max: 'max',
  min: 'min',
  and: 'and',
  or: 'or',
  overwrite: 'set',
  ignore_if_exists: 'ignore_if_exists',
};

export interface AttrPlan {
  name: string;
  fn: ValueFn;
  conv: Converter;
  op: UpsertOp;
  /** Empty tokens leave a non-STRING scalar attribute unset (its default or existing value). */
  emptyMeansUnset: boolean;
  /** A DATETIME from a `$n` column: the column, read from the line's bytes first (Row.datetime); else -1. */
  datetimeAt: number;
}

export function compileAttrs(
  attrs: readonly { name: string; type: AttrType }[],
  values: readonly LoadExpr[],
  scope: ExprScope,
  needs: Needs,
  catalog: Catalog,
): AttrPlan[] {
  const plans: AttrPlan[] = [];
  attrs.forEach((a, i) => {
    let e = values[i];
    if (e.kind === 'skip') return;
    const shape = shapeOf(a.type);
    // Collections accumulate across lines, as TigerGraph's loader does.
    let op: UpsertOp = shape === 'scalar' || shape === 'tuple' ? 'set' : 'add';
    if (e.kind === 'reduce') {
      const r = REDUCERS[e.fn];
      if (!r)
        throw jobError(`Unknown REDUCE function "${e.fn}"; expected ${Object.keys(REDUCERS).join(', ')}.`, e);
      op = r;
      e = e.arg;
    }
    plans.push({
      name: a.name,
      fn: compileValue(e, shape, scope, needs),
      conv: converterFor(a.type, catalog),
      op,
      emptyMeansUnset: shape === 'scalar' && a.type.kind !== 'STRING',
      datetimeAt: a.type.kind === 'DATETIME' && e.kind === 'position' ? e.index : -1,
    });
  });
  return plans;
}

/** An empty token left the attribute unset (AttrPlan.emptyMeansUnset). */
const UNSET: unique symbol = Symbol('unset');

/** A plan's value on a row: converted, INVALID or WRONG_LENGTH, or UNSET. */
function valueOf(p: AttrPlan, row: Row): ReturnType<Converter> | typeof UNSET {
  if (p.datetimeAt >= 0) {
    const d = row.datetime(p.datetimeAt);
    if (d !== undefined) return d;
  }
  const produced = p.fn(row);
  if (produced === '' && p.emptyMeansUnset) return UNSET;
  return p.conv(produced);
}

/** Evaluates attribute plans; returns the failure counter to bump, or undefined on success. */
export function evalAttrs(
  plans: AttrPlan[],
  row: Row,
  out: AttrMap,
): 'invalidAttribute' | 'incorrectFixedBinaryLength' | undefined {
  for (let i = 0; i < plans.length; i++) {
    const p = plans[i];
    const v = valueOf(p, row);
    if (v === UNSET) continue;
    if (v === INVALID) return 'invalidAttribute';
    if (v === WRONG_LENGTH) return 'incorrectFixedBinaryLength';
    out[p.name] = { value: v, op: p.op };
  }
  return undefined;
}

export const EMPTY_ATTRS: AttrMap = Object.freeze({}) as AttrMap;

/** Plans an AttrValues can take (one bit each in its shape keys). */
const MAX_SHAPED_PLANS = 30;

/**
 * A line's attribute values without a record per line: the values of the plans given (an empty
 * token leaves some unset) in plan order in `values`, and the names and ops they set as `shape`,
 * one object per set of plans given (so a batch tells shapes apart by identity). One per
 * executor, overwritten by every line: a batch copies the values (BatchSink.upsertEdgeValues).
 */
export class AttrValues {
  /** The values given, in `values[0 .. count)` (the array is reused, never shortened). */
  readonly values: Value[] = [];
  count = 0;
  shape: AttrNames | null = null;
  private readonly shapes = new Map<number, AttrNames>();

  constructor(private readonly plans: readonly AttrPlan[]) {}

  /** Whether plans can be evaluated this way (else evalAttrs into a record). */
  static fits(plans: readonly AttrPlan[]): boolean {
    return plans.length > 0 && plans.length <= MAX_SHAPED_PLANS;
  }

  /** Evaluates the plans as evalAttrs does; returns the failure counter to bump, or undefined. */
  eval(row: Row): 'invalidAttribute' | 'incorrectFixedBinaryLength' | undefined {
    const plans = this.plans;
    const values = this.values;
    let given = 0;
    let n = 0;
    for (let i = 0; i < plans.length; i++) {
      const p = plans[i];
      const v = valueOf(p, row);
      if (v === UNSET) continue;
      if (v === INVALID) return 'invalidAttribute';
      if (v === WRONG_LENGTH) return 'incorrectFixedBinaryLength';
      values[n++] = v;
      given |= 1 << i;
    }
    this.count = n;
    this.shape = n === 0 ? null : this.shapeOf(given);
    return undefined;
  }

  private shapeOf(given: number): AttrNames {
    let shape = this.shapes.get(given);
    if (shape === undefined) {
      const plans = this.plans.filter((_p, i) => (given & (1 << i)) !== 0);
      shape = { names: plans.map((p) => p.name), ops: plans.map((p) => p.op) };
      this.shapes.set(given, shape);
    }
    return shape;
  }
}

/** An id read from a row: the engine's id, INVALID (malformed) or NO_ID (empty token). */
export const NO_ID: unique symbol = Symbol('no id');
export type IdFn = (row: Row) => ExternalId | typeof INVALID | typeof NO_ID;

/**
 * Compiles an id expression for a vertex type's primary id. A `$n` feeding a 64-bit INT/UINT id is
 * read straight from the line's bytes, without decoding a string (the hot path of edge files).
 */
export function compileId(e: LoadExpr, type: AttrType, scope: ExprScope, needs: Needs): IdFn {
  const fn = compileToken(e, scope, needs);
  const conv = idConverter(type);
  const slow: IdFn = (row) => {
    const t = fn(row);
    return t === '' ? NO_ID : conv(t);
  };
  if (e.kind !== 'position' || (type.kind !== 'INT' && type.kind !== 'UINT') || type.bytes !== 8) return slow;
  const i = e.index;
  const unsigned = type.kind === 'UINT';
  return (row) => {
    const n = row.smallInt(i);
    if (n === undefined) return slow(row);
    return unsigned && n < 0 ? INVALID : n;
  };
}

/** An edge end's id, and the token it reads as a word of the load's dictionary (`$n` of a STRING id), or -1. */
export interface EndId {
  id: IdFn;
  word: number;
}

/**
 * Compiles an edge end's id. A `$n` feeding a STRING id is coded in the load's dictionary of id
 * words from the line's bytes (Row.wordCode): the line's id is then the dictionary's one string
 * for it, and its code (Row.codeAt) finds the row the writer remembered for it.
 */
export function compileEndId(e: LoadExpr, type: AttrType, scope: ExprScope, needs: Needs): EndId {
  const id = compileId(e, type, scope, needs);
  if (e.kind !== 'position' || type.kind !== 'STRING') return { id, word: -1 };
  const i = e.index;
  return {
    id: (row) => {
      const c = row.wordCode(i);
      if (c < 0) return id(row);
      const w = row.word(c);
      return w === '' ? NO_ID : w;
    },
    word: i,
  };
}

export function compileVertex(
  vt: VertexType,
  values: LoadExpr[],
  whereC: LoadCond | undefined,
  scope: ExprScope,
  needs: Needs,
  catalog: Catalog,
  at: { line: number; column: number },
): StmtExec {
  const typeName = vt.name;
  const where = whereC ? compileCond(whereC, scope, needs) : undefined;
  let idFn: IdFn;
  let attrs: AttrPlan[];
  if (vt.keyKind === 'primary_id') {
    const want = 1 + vt.attributes.length;
    if (values.length !== want) {
      throw jobError(
        `Vertex type "${vt.name}" takes ${want} values (${[vt.primaryId.name, ...vt.attributes.map((a) => a.name)].join(', ')}), but ${values.length} are given.`,
        at,
      );
    }
    if (values[0].kind === 'skip') throw jobError('The primary id cannot be "_".', values[0]);
    idFn = compileId(values[0], vt.primaryId.type, scope, needs);
    attrs = compileAttrs(vt.attributes, values.slice(1), scope, needs, catalog);
  } else {
    if (values.length !== vt.attributes.length) {
      throw jobError(
        `Vertex type "${vt.name}" takes ${vt.attributes.length} values (${vt.attributes.map((a) => a.name).join(', ')}), but ${values.length} are given.`,
        at,
      );
    }
    const keyIdx = vt.keyAttributes.map((k) => vt.attributes.findIndex((a) => a.name === k));
    for (const i of keyIdx)
      if (values[i].kind === 'skip') throw jobError('A key attribute cannot be "_".', values[i]);
    if (keyIdx.length === 1) idFn = compileId(values[keyIdx[0]], vt.primaryId.type, scope, needs);
    else {
      // A composite key is the key attributes' tokens joined by commas (the REST id form).
      const parts = keyIdx.map((i) => compileToken(values[i], scope, needs));
      idFn = (row) => {
        const texts = parts.map((p) => p(row));
        return texts.some((t) => t === '') ? NO_ID : texts.join(',');
      };
    }
    const rest = vt.attributes.filter((a) => !vt.keyAttributes.includes(a.name));
    attrs = compileAttrs(
      rest,
      vt.attributes
        .map((a, i) => ({ a, v: values[i] }))
        .filter((x) => !vt.keyAttributes.includes(x.a.name))
        .map((x) => x.v),
      scope,
      needs,
      catalog,
    );
  }
  const counters = statsOf('vertex', typeName);
  // The line's attribute values without a record per line (as an edge statement's).
  const given = AttrValues.fits(attrs) ? new AttrValues(attrs) : undefined;
  return (row, sink, stats) => {
    const s = counters(stats);
    if (where && !where(row)) {
      sink.conditionFailed = true;
      return;
    }
    const id = idFn(row);
    if (id === NO_ID) return void s.noIdFound++;
    if (id === INVALID) return void s.invalidPrimaryId++;
    if (given !== undefined) {
      const bad = given.eval(row);
      if (bad) return void s[bad]++;
      return sink.upsertVertexValues(typeName, id, given, s);
    }
    let rec = EMPTY_ATTRS;
    if (attrs.length > 0) {
      rec = {};
      const bad = evalAttrs(attrs, row, rec);
      if (bad) return void s[bad]++;
    }
    sink.upsertVertex(typeName, id, rec, s);
  };
}
