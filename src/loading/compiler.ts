/**
 * Compiles a parsed loading job against the catalog into input plans: for every file the job reads
 * (a filename variable or a literal path), its format and the executors of the LOAD and DELETE
 * statements that read it. Executors turn one row into write operations and statistics; TEMP_TABLE
 * rows are handed straight to the statements that read the table, so nothing is buffered.
 * Every schema mismatch (unknown type, wrong number of values, bad endpoint type) is reported here,
 * with its position, before any data is read.
 */
import type { AttrType, Catalog, EdgeType, GraphDef, VertexType } from '../catalog/types.js';
import type { ExternalId, UpsertOp } from '../engine/api.js';
import type {
  FilenameDef,
  LoadCond,
  LoadExpr,
  LoadSource,
  LoadingJobAst,
  LoadingStmt,
  UsingOption,
} from '../gsql/ast-loading.js';
import { INVALID, WRONG_LENGTH, converterFor, idConverter, type Converter } from './convert.js';
import {
  ArrayRow,
  ColumnSlots,
  compileCond,
  compileToken,
  compileValue,
  jobError,
  type AttrShape,
  type CondFn,
  type ExprScope,
  type Needs,
  type Row,
  type RowFn,
  type ValueFn,
} from './expressions.js';
import { LoadingOptionError, formatFromOptions, type FileFormat } from './format.js';
import type { LoadStatistics, ObjectKind, ObjectStatistics } from './statistics.js';
import { type BatchSink, type AttrMap } from './batch.js';

/** Runs the statements of one input on one row. */
export type StmtExec = (row: Row, sink: BatchSink, stats: LoadStatistics) => void;

export interface InputPlan {
  /** The filename variable, or the literal path of `LOAD "path" TO …`. */
  key: string;
  kind: 'filevar' | 'path';
  /** The path to read by default: DEFINE FILENAME's path, or the literal path. */
  defaultPath?: string;
  format: FileFormat;
  slots: ColumnSlots;
  needs: Needs;
  execs: StmtExec[];
  /** Whether any statement reads this input (a DEFINE FILENAME no LOAD uses reads nothing). */
  used: boolean;
  /** The types this input loads or deletes, in statement order (their statistics are listed even when zero). */
  targets: { kind: ObjectKind; typeName: string }[];
}

export interface CompiledJob {
  name: string;
  graph: string;
  filenames: FilenameDef[];
  inputs: InputPlan[];
}

/** The counters of one target type within a run, looked up once per statistics object. */
function statsOf(kind: ObjectKind, typeName: string): (stats: LoadStatistics) => ObjectStatistics {
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
function idTypeOf(vt: VertexType): AttrType {
  return vt.keyKind === 'composite' ? { kind: 'STRING', compress: false } : vt.primaryId.type;
}

/** Vertex types of a graph, by name. */
function graphTypes(
  catalog: Catalog,
  graph: GraphDef,
): { vertex: Map<string, VertexType>; edge: Map<string, EdgeType> } {
  const vertex = new Map<string, VertexType>();
  const edge = new Map<string, EdgeType>();
  for (const n of graph.vertexTypes) {
    const vt = catalog.vertexTypes.find((v) => v.name === n);
    if (vt) vertex.set(n, vt);
  }
  for (const n of graph.edgeTypes) {
    const et = catalog.edgeTypes.find((e) => e.name === n);
    if (et) edge.set(n, et);
  }
  return { vertex, edge };
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

interface AttrPlan {
  name: string;
  fn: ValueFn;
  conv: Converter;
  op: UpsertOp;
  /** Empty tokens leave a non-STRING scalar attribute unset (its default or existing value). */
  emptyMeansUnset: boolean;
}

function compileAttrs(
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
    });
  });
  return plans;
}

/** Evaluates attribute plans; returns the failure counter to bump, or undefined on success. */
function evalAttrs(
  plans: AttrPlan[],
  row: Row,
  out: AttrMap,
): 'invalidAttribute' | 'incorrectFixedBinaryLength' | undefined {
  for (let i = 0; i < plans.length; i++) {
    const p = plans[i];
    const produced = p.fn(row);
    if (produced === '' && p.emptyMeansUnset) continue;
    const v = p.conv(produced);
    if (v === INVALID) return 'invalidAttribute';
    if (v === WRONG_LENGTH) return 'incorrectFixedBinaryLength';
    out[p.name] = { value: v, op: p.op };
  }
  return undefined;
}

const EMPTY_ATTRS: AttrMap = Object.freeze({}) as AttrMap;

/** An id read from a row: the engine's id, INVALID (malformed) or NO_ID (empty token). */
const NO_ID: unique symbol = Symbol('no id');
type IdFn = (row: Row) => ExternalId | typeof INVALID | typeof NO_ID;

/**
 * Compiles an id expression for a vertex type's primary id. A `$n` feeding a 64-bit INT/UINT id is
 * read straight from the line's bytes, without decoding a string (the hot path of edge files).
 */
function compileId(e: LoadExpr, type: AttrType, scope: ExprScope, needs: Needs): IdFn {
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

interface Endpoint {
  id: IdFn;
  type: string;
}

export interface CompileOptions {
  catalog: Catalog;
}

export function compileLoadingJob(ast: LoadingJobAst, graphName: string, opts: CompileOptions): CompiledJob {
  const { catalog } = opts;
  const graph = catalog.graphs.find((g) => g.name === graphName);
  if (!graph) throw jobError(`Graph "${graphName}" does not exist.`, ast);
  const types = graphTypes(catalog, graph);
  const tupleNames = new Map(catalog.tuples.map((t) => [t.name.toLowerCase(), t.fields.length]));
  const headers = new Map(ast.headers.map((h) => [h.name, h.columns]));

  const filevars = new Map<string, FilenameDef>();
  for (const f of ast.filenames) {
    if (filevars.has(f.name)) throw jobError(`Filename variable "${f.name}" is defined twice.`, f);
    filevars.set(f.name, f);
  }

  const inputs = new Map<string, InputPlan>();
  const inputUsing = new Map<string, string>();
  for (const f of ast.filenames) {
    const plan: InputPlan = {
      key: f.name,
      kind: 'filevar',
      format: formatFromOptions(new Map()),
      slots: new ColumnSlots(),
      needs: { maxPosition: -1 },
      execs: [],
      used: false,
      targets: [],
    };
    if (f.path !== undefined) plan.defaultPath = f.path;
    inputs.set('var:' + f.name, plan);
  }

  /** Temp tables: their columns and the statements that read them. */
  const tempTables = new Map<string, { columns: string[]; consumers: StmtExec[]; root: InputPlan }>();

  const inputFor = (
    src: Exclude<LoadSource, { kind: 'temp_table' }>,
    using: UsingOption[],
    where: { line: number; column: number },
  ): InputPlan => {
    let key: string;
    if (src.kind === 'filevar') {
      key = 'var:' + src.name;
      if (!inputs.has(key))
        throw jobError(`Filename variable "${src.name}" is not defined by DEFINE FILENAME.`, src);
    } else {
      key = 'path:' + src.path;
      if (!inputs.has(key)) {
        inputs.set(key, {
          key: src.path,
          kind: 'path',
          defaultPath: src.path,
          format: formatFromOptions(new Map()),
          slots: new ColumnSlots(),
          needs: { maxPosition: -1 },
          execs: [],
          used: false,
          targets: [],
        });
      }
    }
    const plan = inputs.get(key) as InputPlan;
    const usingKey = using
      .map((u) => `${u.name.toUpperCase()}=${u.value}`)
      .sort()
      .join('\u0000');
    const prev = inputUsing.get(key);
    if (plan.used && prev !== usingKey) {
      throw jobError(`All LOAD statements reading the same file must have the same USING options.`, where);
    }
    if (!plan.used) {
      try {
        plan.format = formatFromOptions(new Map(using.map((u) => [u.name, u.value])), headers);
      } catch (e) {
        if (e instanceof LoadingOptionError) throw jobError(e.message, using[0] ?? where);
        throw e;
      }
      inputUsing.set(key, usingKey);
      plan.used = true;
    }
    return plan;
  };

  const fileScope = (plan: InputPlan): ExprScope => ({
    slots: plan.slots,
    namedAllowed: plan.format.header || plan.format.json || plan.format.userHeader !== undefined,
    tupleNames,
  });

  const vertexType = (name: string, at: { line: number; column: number }): VertexType => {
    const vt = types.vertex.get(name);
    if (!vt) throw jobError(`Vertex type "${name}" is not a vertex type of graph "${graph.name}".`, at);
    return vt;
  };
  const edgeType = (name: string, at: { line: number; column: number }): EdgeType => {
    const et = types.edge.get(name);
    if (!et) throw jobError(`Edge type "${name}" is not an edge type of graph "${graph.name}".`, at);
    return et;
  };

  const endpoints = (
    et: EdgeType,
    fromE: LoadExpr,
    toE: LoadExpr,
    scope: ExprScope,
    needs: Needs,
  ): [Endpoint, Endpoint] => {
    const typeOf = (e: LoadExpr, side: 'from' | 'to'): [LoadExpr, string] => {
      if (e.kind === 'typed') {
        vertexType(e.vertexType, e);
        return [e.value, e.vertexType];
      }
      const candidates = new Set(et.pairs.map((p) => p[side]));
      if (candidates.size !== 1 || candidates.has('*')) {
        throw jobError(
          `Edge type "${et.name}" has several ${side.toUpperCase()} vertex types; give the type after the value, e.g. $0 ${[...candidates][0] === '*' ? 'Person' : [...candidates][0]}.`,
          e,
        );
      }
      return [e, [...candidates][0]];
    };
    const [fe, ft] = typeOf(fromE, 'from');
    const [te, tt] = typeOf(toE, 'to');
    const ok = et.pairs.some(
      (p) =>
        ((p.from === '*' || p.from === ft) && (p.to === '*' || p.to === tt)) ||
        (!et.directed && (p.from === '*' || p.from === tt) && (p.to === '*' || p.to === ft)),
    );
    if (!ok) throw jobError(`Edge type "${et.name}" does not connect "${ft}" to "${tt}".`, fromE);
    return [
      { id: compileId(fe, idTypeOf(vertexType(ft, fromE)), scope, needs), type: ft },
      { id: compileId(te, idTypeOf(vertexType(tt, toE)), scope, needs), type: tt },
    ];
  };

  const cond = (c: LoadCond | undefined, scope: ExprScope, needs: Needs): CondFn | undefined =>
    c ? compileCond(c, scope, needs) : undefined;

  const compileStmt = (stmt: LoadingStmt): void => {
    let scope: ExprScope;
    let needs: Needs;
    let addExec: (x: StmtExec) => void;
    let tableCheck: { width: number; name: string } | undefined;
    let root: InputPlan | undefined;
    if (stmt.source.kind === 'temp_table') {
      const table = tempTables.get(stmt.source.name);
      if (!table)
        throw jobError(
          `Temporary table "${stmt.source.name}" is not loaded by an earlier LOAD statement.`,
          stmt.source,
        );
      if (stmt.using.length > 0)
        throw jobError('A LOAD from a TEMP_TABLE takes no USING options.', stmt.using[0]);
      scope = { slots: new ColumnSlots(), fixedColumns: table.columns, namedAllowed: true, tupleNames };
      needs = { maxPosition: -1 };
      const consumers = table.consumers;
      const width = table.columns.length;
      if (stmt.kind === 'load') {
        for (const t of stmt.targets) {
          if (t.kind !== 'temp_table') continue;
          throw jobError('A TEMP_TABLE cannot be loaded from another TEMP_TABLE.', t);
        }
      }
      addExec = (x) => consumers.push(x);
      tableCheck = { width, name: stmt.source.name };
      root = table.root;
    } else {
      const plan = inputFor(stmt.source, stmt.using, stmt);
      root = plan;
      scope = fileScope(plan);
      needs = plan.needs;
      addExec = (x) => plan.execs.push(x);
    }

    const note = (kind: ObjectKind, typeName: string): void => {
      const r = root as InputPlan;
      if (!r.targets.some((t) => t.kind === kind && t.typeName === typeName))
        r.targets.push({ kind, typeName });
    };
    if (stmt.kind === 'delete_vertex') {
      const vt = vertexType(stmt.typeName, stmt);
      note('deleteVertex', vt.name);
      const idFn = compileId(stmt.id, idTypeOf(vt), scope, needs);
      const where = cond(stmt.where, scope, needs);
      const typeName = vt.name;
      const counters = statsOf('deleteVertex', typeName);
      addExec((row, sink, stats) => {
        const s = counters(stats);
        if (where && !where(row)) {
          sink.conditionFailed = true;
          return;
        }
        const id = idFn(row);
        if (id === NO_ID) return void s.noIdFound++;
        if (id === INVALID) return void s.invalidPrimaryId++;
        sink.deleteVertex(typeName, id, s);
      });
    } else if (stmt.kind === 'delete_edge') {
      const et = edgeType(stmt.typeName, stmt);
      note('deleteEdge', et.name);
      const [from, to] = endpoints(et, stmt.from, stmt.to, scope, needs);
      const where = cond(stmt.where, scope, needs);
      const typeName = et.name;
      const counters = statsOf('deleteEdge', typeName);
      addExec((row, sink, stats) => {
        const s = counters(stats);
        if (where && !where(row)) {
          sink.conditionFailed = true;
          return;
        }
        const fid = from.id(row);
        const tid = to.id(row);
        if (fid === NO_ID || tid === NO_ID) return void s.noIdFound++;
        if (fid === INVALID) return void s.invalidPrimaryId++;
        if (tid === INVALID) return void s.invalidSecondaryId++;
        sink.deleteEdge(typeName, from.type, fid, to.type, tid, s);
      });
    } else {
      for (const t of stmt.targets) {
        if (t.kind === 'temp_table') {
          if (tempTables.has(t.typeName))
            throw jobError(`Temporary table "${t.typeName}" is loaded twice.`, t);
          const table = { columns: t.columns, consumers: [] as StmtExec[], root: root as InputPlan };
          tempTables.set(t.typeName, table);
          addExec(compileTempTable(t.columns, t.values, t.where, scope, needs, table.consumers, t));
          continue;
        }
        note(t.kind, t.typeName);
        if (t.kind === 'vertex')
          addExec(compileVertex(vertexType(t.typeName, t), t.values, t.where, scope, needs, catalog, t));
        else {
          const et = edgeType(t.typeName, t);
          if (t.values.length !== 2 + et.attributes.length) {
            throw jobError(
              `Edge type "${et.name}" takes ${2 + et.attributes.length} values (FROM, TO${et.attributes.map((a) => ', ' + a.name).join('')}), but ${t.values.length} are given.`,
              t,
            );
          }
          const [from, to] = endpoints(et, t.values[0], t.values[1], scope, needs);
          const attrs = compileAttrs(et.attributes, t.values.slice(2), scope, needs, catalog);
          const where = cond(t.where, scope, needs);
          const typeName = et.name;
          const counters = statsOf('edge', typeName);
          addExec((row, sink, stats) => {
            const s = counters(stats);
            if (where && !where(row)) {
              sink.conditionFailed = true;
              return;
            }
            const fid = from.id(row);
            const tid = to.id(row);
            if (fid === NO_ID || tid === NO_ID) return void s.noIdFound++;
            if (fid === INVALID) return void s.invalidPrimaryId++;
            if (tid === INVALID) return void s.invalidSecondaryId++;
            let rec = EMPTY_ATTRS;
            if (attrs.length > 0) {
              rec = {};
              const bad = evalAttrs(attrs, row, rec);
              if (bad) return void s[bad]++;
            }
            sink.upsertEdge(typeName, from.type, fid, to.type, tid, rec, s);
          });
        }
      }
    }
    if (tableCheck && needs.maxPosition >= tableCheck.width) {
      throw jobError(
        `$${needs.maxPosition} is beyond the ${tableCheck.width} columns of temporary table "${tableCheck.name}".`,
        stmt,
      );
    }
  };

  for (const stmt of ast.statements) compileStmt(stmt);

  // With USER_DEFINED_HEADER the columns are known now.
  for (const plan of inputs.values()) {
    if (plan.format.json) plan.slots.identity();
    else if (plan.format.userHeader) {
      const missing = plan.slots.resolve(plan.format.userHeader);
      if (missing.length > 0)
        throw jobError(`Column "${missing[0]}" is not in the header defined for "${plan.key}".`, ast);
    }
  }
  return { name: ast.name, graph: graph.name, filenames: ast.filenames, inputs: [...inputs.values()] };
}

function compileVertex(
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
  return (row, sink, stats) => {
    const s = counters(stats);
    if (where && !where(row)) {
      sink.conditionFailed = true;
      return;
    }
    const id = idFn(row);
    if (id === NO_ID) return void s.noIdFound++;
    if (id === INVALID) return void s.invalidPrimaryId++;
    let rec = EMPTY_ATTRS;
    if (attrs.length > 0) {
      rec = {};
      const bad = evalAttrs(attrs, row, rec);
      if (bad) return void s[bad]++;
    }
    sink.upsertVertex(typeName, id, rec, s);
  };
}

/**
 * A TEMP_TABLE target: builds rows (several with flatten/flatten_json_array) and runs the
 * statements reading the table on each.
 */
function compileTempTable(
  columns: string[],
  values: LoadExpr[],
  whereC: LoadCond | undefined,
  scope: ExprScope,
  needs: Needs,
  consumers: StmtExec[],
  at: { line: number; column: number },
): StmtExec {
  if (values.length > columns.length) {
    throw jobError(`Temporary table takes ${columns.length} values, but ${values.length} are given.`, at);
  }
  const where = whereC ? compileCond(whereC, scope, needs) : undefined;
  type Col = { fn: RowFn } | { flatten: (row: Row) => string[][]; width: number };
  const cols: Col[] = [];
  let flattens = 0;
  for (const v of values) {
    const name = v.kind === 'call' ? v.name.toLowerCase() : '';
    if (v.kind === 'call' && name === 'flatten') {
      flattens++;
      if (v.args.length !== 3 && v.args.length !== 4) {
        throw jobError(
          'flatten() takes (column, separator, 1) or (column, separator, sub-separator, number of fields).',
          v,
        );
      }
      const src = compileToken(v.args[0], scope, needs);
      const lits = v.args
        .slice(1)
        .map((a) => (a.kind === 'string' ? a.value : a.kind === 'number' ? a.text : undefined));
      if (lits.some((l) => l === undefined))
        throw jobError('flatten() separators and field count must be literals.', v);
      const [sep, second, third] = lits as string[];
      if (v.args.length === 3) {
        const width = Number(second);
        if (width !== 1) throw jobError('flatten(column, separator, 1) fills one column.', v);
        cols.push({ flatten: (row) => splitNonEmpty(src(row), sep).map((x) => [x]), width: 1 });
      } else {
        const width = Number(third);
        if (!Number.isInteger(width) || width < 1)
          throw jobError('flatten(): the number of fields must be a positive integer.', v);
        cols.push({
          flatten: (row) =>
            splitNonEmpty(src(row), sep).map((g) => {
              const f = g.split(second);
              return Array.from({ length: width }, (_x, i) => f[i] ?? '');
            }),
          width,
        });
      }
    } else if (v.kind === 'call' && name === 'flatten_json_array') {
      flattens++;
      if (v.args.length < 1)
        throw jobError('flatten_json_array() takes the array column and the keys to extract.', v);
      const src = compileToken(v.args[0], scope, needs);
      const keys = v.args.slice(1).map((a) => {
        if (a.kind !== 'column') throw jobError('flatten_json_array(): keys are written $"key".', a);
        return a.path;
      });
      cols.push({ flatten: (row) => flattenJsonArray(src(row), keys), width: Math.max(1, keys.length) });
    } else {
      cols.push({ fn: compileToken(v, scope, needs) });
    }
  }
  if (flattens > 1) throw jobError('A TEMP_TABLE target may use flatten() only once.', at);
  const width = cols.reduce((n, c) => n + ('width' in c ? c.width : 1), 0);
  if (width !== columns.length) {
    throw jobError(`Temporary table has ${columns.length} columns, but the values fill ${width}.`, at);
  }
  const row = new ArrayRow([]);
  return (input, sink, stats) => {
    if (where && !where(input)) {
      sink.conditionFailed = true;
      return;
    }
    const fixed: string[] = [];
    let groups: string[][] = [[]];
    let flatAt = -1;
    for (const c of cols) {
      if ('fn' in c) fixed.push(c.fn(input));
      else {
        flatAt = fixed.length;
        groups = c.flatten(input);
      }
    }
    for (const g of groups) {
      row.values = flatAt < 0 ? fixed : [...fixed.slice(0, flatAt), ...g, ...fixed.slice(flatAt)];
      for (const exec of consumers) exec(row, sink, stats);
      if (flatAt < 0) break;
    }
  };
}

function splitNonEmpty(text: string, sep: string): string[] {
  return text === '' ? [] : text.split(sep);
}

function flattenJsonArray(text: string, keys: string[][]): string[][] {
  let arr: unknown;
  try {
    arr = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(arr)) return [];
  return arr.map((el) => (keys.length === 0 ? [jsonToken(el)] : keys.map((k) => jsonToken(dig(el, k)))));
}

function dig(v: unknown, path: string[]): unknown {
  let cur = v;
  for (const k of path) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

/** A JSON value as a loading token: strings as is, other values as JSON text, absent as empty. */
export function jsonToken(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint') return v.toString();
  return JSON.stringify(v);
}
