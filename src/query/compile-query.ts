/**
 * Compiles a whole query (parameters, declarations, body) once; the result runs any number of
 * times against a snapshot. Checking and compiling are one pass: every type error, unknown name and
 * accumulator misuse is reported here, at CREATE/INSTALL time, with its line and column.
 */
import type { Catalog } from '../catalog/types.js';
import { VertexRef } from '../catalog/value.js';
import type { Expr, QueryDef, TypeExpr } from '../gsql/ast-query.js';
import { zeroOf } from './accum-scalar.js';
import { MapAccum } from './accumulators.js';
import { compileType } from './compile-decl.js';
// The expression compiler registers itself in expr-support.ts's table when loaded.
import './compile-expr.js';
import { coerce, compileExpr } from './expr-support.js';
import { compileSelect } from './compile-select.js';
import { compileBodyStmts, compileRowStmts } from './compile-stmt.js';
import { RunContext, type RunOptions } from './context.js';
import { compileError, QueryCompileError } from './errors.js';
import type { QueryGraph } from './graph.js';
import { Cx, type VertexAccum } from './scope.js';
import { checkVirtualEdgePlaces, runGraph } from './virtual-edge.js';
import { typeText, type QType } from './types.js';
import { gidList } from './run-buffers.js';
import { QueryRuntimeError, TupleVal, VertexGids, Vtx } from './values.js';
import { parseDatetime } from '../util/datetime.js';
import type { JsonValue } from '../util/json.js';
import type { DmlOp } from './context.js';
import type { QueryFile } from './file-output.js';

export interface CompiledParam {
  name: string;
  type: QType;
  /** The default value (decoded form), if declared. */
  default?: unknown;
}

export interface RunOutcome {
  results: { [key: string]: JsonValue }[];
  /** Changes to apply, in order, in one write transaction. */
  dml: DmlOp[];
  /** FILE objects to write once the changes are committed. */
  files: QueryFile[];
  returned: unknown;
  /** Run-time warnings (e.g. ids to_vertex_set() did not find). */
  warnings: string[];
}

export interface CompiledQuery {
  name: string;
  graph: string;
  params: CompiledParam[];
  returns?: QType;
  /**
   * Runs the query. `args` are decoded parameter values by name (VertexRef for vertices, arrays for
   * collections, epoch seconds for DATETIME); missing ones take their default.
   */
  run(graph: QueryGraph, args: Record<string, unknown>, opts?: RunOptions): Promise<RunOutcome>;
  /** Its SELECT kernels in compile order, variable slots and vertex accumulators (parallel.ts). */
  readonly kernels?: readonly unknown[];
  readonly slots?: number;
  readonly vertexAccums?: readonly VertexAccum[];
}

const PARAM_ELEMENT = new Set(['INT', 'UINT', 'FLOAT', 'DOUBLE', 'STRING', 'BOOL', 'DATETIME', 'VERTEX']);

function checkParamType(te: TypeExpr, t: QType): void {
  if (PARAM_ELEMENT.has(t.kind) || t.kind === 'FILE') return;
  if ((t.kind === 'SET' || t.kind === 'BAG' || t.kind === 'LIST') && PARAM_ELEMENT.has(t.elem.kind)) return;
  throw compileError(te.pos, `a query parameter of type ${typeText(t)} is not supported`);
}

/** Evaluates a constant expression (parameter default) at compile time. */
function constant(cx: Cx, e: Expr, t: QType, what: string): unknown {
  const f = coerce(t, compileExpr(cx, e), e.pos, what);
  try {
    return f(new RunContext(emptyGraph(cx.catalog), cx.graphName, cx.slots));
  } catch (err) {
    if (err instanceof QueryRuntimeError)
      throw compileError(e.pos, `${what} must be a constant: ${err.message}`);
    throw compileError(e.pos, `${what} must be a constant`);
  }
}

/**
 * A parameter's default. TigerGraph writes a DATETIME default as its text
 * (`DATETIME d = "2020-01-01 00:00:00"`), read as a REST++ DATETIME argument is.
 */
function paramDefault(cx: Cx, e: Expr, t: QType, what: string): unknown {
  if (t.kind !== 'DATETIME' || e.kind !== 'string') return constant(cx, e, t, what);
  const d = parseDatetime(e.value);
  if (d === undefined) throw compileError(e.pos, `${what} is not a DATETIME: "${e.value}"`);
  return d;
}

function emptyGraph(catalog: Catalog): QueryGraph {
  const none = (): never => {
    throw new QueryRuntimeError('not a constant');
  };
  return {
    catalog,
    rows: none,
    rowLimit: none,
    lookup: none,
    vertexId: none,
    attr: none,
    edges: none,
    edgeAttr: none,
    edgeRecord: none,
    isLive: none,
    adjacency: none,
  };
}

/** A query called as a function from another query (`RETURNS (T)` … `RETURN x;`). */
export interface CompiledSubquery {
  name: string;
  params: CompiledParam[];
  returns?: QType;
  /** Runs the body synchronously inside the caller's run; its changes join the caller's. */
  call(caller: RunContext, args: unknown[]): unknown;
}

/** Finds the stored queries a query calls, compiled for calling. */
export type QueryResolver = (name: string) => CompiledSubquery | undefined;

export interface CompileOptions {
  resolve?: QueryResolver;
  /** Finds the GSQL functions (`lib.f`) the query calls. */
  resolveFunction?: QueryResolver;
}

export function compileQuery(
  def: QueryDef,
  catalog: Catalog,
  graphName: string,
  opts: CompileOptions = {},
): CompiledQuery {
  try {
    return compileIn(def, catalog, graphName, opts);
  } catch (e) {
    if (e instanceof QueryCompileError) throw e.inQuery(def.name || 'anonymous');
    throw e;
  }
}

/** Compiles a query for calling from other queries: the same checks, a synchronous body. */
export function compileSubquery(
  def: QueryDef,
  catalog: Catalog,
  graphName: string,
  opts: CompileOptions = {},
): CompiledSubquery {
  try {
    const { cx, params, returns } = compileHeader(def, catalog, graphName, opts);
    checkVirtualEdgePlaces(def.body);
    const body = compileRowStmts(cx, def.body);
    return {
      name: def.name,
      params: publicParams(params),
      returns,
      call(caller, args) {
        // A called query's virtual edges are its own (over the caller's graph, which may have others).
        const ctx = new RunContext(runGraph(cx, caller.graph), graphName, cx.slots, caller.opts);
        params.forEach((p, i) => {
          ctx.vars[p.slot] = i < args.length ? crossRun(ctx, args[i]) : bindParam(ctx, p, p.default);
        });
        let returned: unknown;
        try {
          for (const s of body) if (s(ctx) !== 0) break;
          // Before the run's arrays go back: its vertex sets' lists may be among them.
          returned = crossRun(caller, ctx.returned ?? null);
        } finally {
          ctx.release();
        }
        caller.dml.push(...ctx.dml);
        caller.files.push(...ctx.files);
        return returned;
      },
    };
  } catch (e) {
    if (e instanceof QueryCompileError) throw e.inQuery(def.name);
    throw e;
  }
}

/**
 * A value passed between two runs: vertices are re-interned in the receiving run (each run has its
 * own vertex-attached accumulators); accumulators pass their values.
 */
/** A vertex set's list lives only as long as the run that made it (RunContext's resultList): a copy. */
function ownList(v: unknown): unknown {
  return v instanceof VertexGids ? new VertexGids(v.run, gidList(v.gids, v.length)) : v;
}

function crossRun(ctx: RunContext, v: unknown): unknown {
  if (v instanceof Vtx) return ctx.vertex(v.type, v.row);
  if (v instanceof VertexGids) return ownList(v);
  if (Array.isArray(v)) return v.map((x) => crossRun(ctx, x));
  if (v instanceof TupleVal)
    return new TupleVal(
      v.type,
      v.values.map((x) => crossRun(ctx, x)),
    );
  if (v instanceof MapAccum) {
    const m = new Map<unknown, unknown>();
    for (const { key, acc } of v.entries.values()) m.set(crossRun(ctx, key), crossRun(ctx, acc.value()));
    return m;
  }
  if (v instanceof Map) return new Map(Array.from(v, ([k, x]) => [crossRun(ctx, k), crossRun(ctx, x)]));
  return v;
}

function publicParams(params: (CompiledParam & { slot: number })[]): CompiledParam[] {
  return params.map(({ name, type, default: d }) =>
    d === undefined ? { name, type } : { name, type, default: d },
  );
}

function compileHeader(def: QueryDef, catalog: Catalog, graphName: string, opts: CompileOptions) {
  if (!catalog.graphs.some((g) => g.name === graphName)) {
    throw compileError(def.pos, `the graph ${graphName} does not exist`);
  }
  const cx = new Cx(def.name, def.text, catalog, graphName, def.syntax, def.textStart);
  cx.distributed = def.distributed;
  cx.compileSelect = compileSelect;
  cx.compileRowStmts = compileRowStmts;
  cx.resolveQuery = opts.resolve;
  cx.resolveFunction = opts.resolveFunction;
  const params: (CompiledParam & { slot: number })[] = [];
  for (const p of def.params) {
    const type = compileType(cx, p.type);
    checkParamType(p.type, type);
    const slot = cx.declare(p.name, type, p.pos).slot;
    cx.paramSlots.add(slot);
    const param: CompiledParam & { slot: number } = { name: p.name, type, slot };
    if (p.default) param.default = paramDefault(cx, p.default, type, `the default of parameter ${p.name}`);
    params.push(param);
  }
  const returns = def.returns ? compileType(cx, def.returns) : undefined;
  cx.returns = returns;
  return { cx, params, returns };
}

function compileIn(def: QueryDef, catalog: Catalog, graphName: string, opts: CompileOptions): CompiledQuery {
  const { cx, params, returns } = compileHeader(def, catalog, graphName, opts);
  checkVirtualEdgePlaces(def.body);
  const body = compileBodyStmts(cx, def.body);
  cx.kernelsSealed = true;
  const slots = (): number => cx.slots;
  const vertexAccums: VertexAccum[] = [];
  for (const va of cx.vaccs.values()) vertexAccums[va.index] = va;
  const query: CompiledQuery = {
    name: def.name,
    graph: graphName,
    params: publicParams(params),
    returns,
    kernels: cx.kernels,
    get slots() {
      return slots();
    },
    vertexAccums,
    async run(graph, args, opts = {}) {
      const ctx = new RunContext(runGraph(cx, graph), graphName, slots(), opts);
      ctx.query = query;
      ctx.check();
      for (const p of params) {
        const given = p.name in args ? args[p.name] : p.default;
        if (given === undefined || given === null) ctx.nullParams.add(p.slot);
        ctx.vars[p.slot] = bindParam(ctx, p, given);
      }
      let returned: unknown;
      try {
        for (const s of body) {
          if ((await s(ctx)) !== 0) break;
        }
        returned = ownList(ctx.returned);
      } finally {
        ctx.release();
      }
      return {
        results: ctx.results,
        dml: ctx.dml,
        files: ctx.files,
        returned,
        warnings: ctx.warnings,
      };
    },
  };
  return query;
}

/** Turns a decoded parameter value into its run-time form (vertex references become vertices). */
function bindParam(ctx: RunContext, p: CompiledParam, v: unknown): unknown {
  const t = p.type;
  if (t.kind === 'FILE') return ctx.openFile(typeof v === 'string' ? v : '');
  if (v === undefined || v === null) {
    if (t.kind === 'VERTEX') return null;
    const z = zeroOf(t);
    return Array.isArray(z) ? [] : z;
  }
  const one = (x: unknown, et: QType): unknown => {
    if (et.kind !== 'VERTEX') return x;
    if (!(x instanceof VertexRef))
      throw new QueryRuntimeError(`Failed to convert parameter ${p.name}: a vertex is needed.`);
    if (et.vertexType && x.type !== et.vertexType) {
      throw new QueryRuntimeError(
        `Failed to convert parameter ${p.name}: the vertex type must be ${et.vertexType}, not ${x.type}.`,
      );
    }
    const row = ctx.graph.lookup(x.type, x.id);
    if (row === undefined) {
      throw new QueryRuntimeError(
        `Failed to convert user vertex id for parameter ${p.name}: ${x.type} "${x.id}" does not exist.`,
        'REST-30000',
      );
    }
    return ctx.vertex(x.type, row);
  };
  if (t.kind === 'SET' || t.kind === 'BAG' || t.kind === 'LIST') {
    const items = (Array.isArray(v) ? v : [v]).map((x) => one(x, t.elem));
    if (t.kind !== 'SET') return items;
    const seen = new Set<unknown>();
    return items.filter((x) => (seen.has(x) ? false : (seen.add(x), true)));
  }
  return one(v, t);
}
