/**
 * Compiles a parsed loading job against the catalog into input plans: for every file the job reads
 * (a filename variable or a literal path), its format and the executors of the LOAD and DELETE
 * statements that read it. Executors turn one row into write operations and statistics; TEMP_TABLE
 * rows are handed straight to the statements that read the table, so nothing is buffered.
 * Every schema mismatch (unknown type, wrong number of values, bad endpoint type) is reported here,
 * with its position, before any data is read.
 */
import type { AttrType, Catalog, EdgeType, GraphDef, VertexType } from '../catalog/types.js';
import type {
  FilenameDef,
  LoadCond,
  LoadExpr,
  LoadSource,
  LoadingJobAst,
  LoadingStmt,
  UsingOption,
} from '../gsql/ast-loading.js';
import { INVALID } from './convert.js';
import type { IntColumn } from './edge-lines.js';
import {
  ColumnSlots,
  compileCond,
  jobError,
  type CondFn,
  type ExprScope,
  type Needs,
} from './expressions.js';
import { LoadingOptionError, formatFromOptions, type FileFormat } from './format.js';
import type { LoadStatistics, ObjectKind, ObjectStatistics } from './statistics.js';
import {
  AttrValues,
  EMPTY_ATTRS,
  NO_ID,
  compileAttrs,
  compileEndId,
  compileId,
  compileVertex,
  evalAttrs,
  idTypeOf,
  statsOf,
  type EndId,
  type StmtExec,
} from './targets.js';
import { compileTempTable } from './temp-table.js';
import { userTokenFunctions } from './token-bank.js';
import { TokenFunctionError, type TokenFunction } from './token-functions.js';

export type { StmtExec };

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
  /**
   * Set when the input's only statement loads one edge type from two `$n` columns of 64-bit INT or
   * UINT ids, with no attributes and no WHERE: its lines can then be read outside the main thread
   * (edge-file-reader.ts).
   */
  intEdge?: IntEdgeShape;
}

/** What an edge-only input of integer ids does with each line (see InputPlan.intEdge). */
export interface IntEdgeShape {
  edgeType: string;
  fromType: string;
  toType: string;
  from: IntColumn;
  to: IntColumn;
  counters: (stats: LoadStatistics) => ObjectStatistics;
}

export interface CompiledJob {
  name: string;
  graph: string;
  /** The stored text it was compiled from (parse workers compile it again), when known. */
  source?: { text: string; graph: string };
  filenames: FilenameDef[];
  inputs: InputPlan[];
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

interface Endpoint extends EndId {
  type: string;
  /** Set when the id is a `$n` column of a 64-bit INT/UINT id (read straight from the bytes). */
  int?: IntColumn;
}

function intColumn(e: LoadExpr, t: AttrType): IntColumn | undefined {
  if (e.kind !== 'position' || (t.kind !== 'INT' && t.kind !== 'UINT') || t.bytes !== 8) return undefined;
  return { position: e.index, unsigned: t.kind === 'UINT' };
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
  const userFunctions = tokenBankOf(catalog, ast);
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
    userFunctions,
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
    const fType = idTypeOf(vertexType(ft, fromE));
    const tType = idTypeOf(vertexType(tt, toE));
    return [
      { ...compileEndId(fe, fType, scope, needs), type: ft, int: intColumn(fe, fType) },
      { ...compileEndId(te, tType, scope, needs), type: tt, int: intColumn(te, tType) },
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
    let filePlan: InputPlan | undefined;
    if (stmt.source.kind === 'temp_table') {
      const table = tempTables.get(stmt.source.name);
      if (!table)
        throw jobError(
          `Temporary table "${stmt.source.name}" is not loaded by an earlier LOAD statement.`,
          stmt.source,
        );
      if (stmt.using.length > 0)
        throw jobError('A LOAD from a TEMP_TABLE takes no USING options.', stmt.using[0]);
      scope = {
        slots: new ColumnSlots(),
        fixedColumns: table.columns,
        namedAllowed: true,
        tupleNames,
        userFunctions,
      };
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
      filePlan = plan;
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
          if (filePlan && attrs.length === 0 && !where && from.int && to.int) {
            filePlan.intEdge = {
              edgeType: typeName,
              fromType: from.type,
              toType: to.type,
              from: from.int,
              to: to.int,
              counters,
            };
          }
          // The line's attribute values without a record per line, where the plans allow.
          const values = AttrValues.fits(attrs) ? new AttrValues(attrs) : undefined;
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
            if (values !== undefined) {
              const bad = values.eval(row);
              if (bad) return void s[bad]++;
              const fc = from.word < 0 ? -1 : row.codeAt(from.word);
              const tc = to.word < 0 ? -1 : row.codeAt(to.word);
              return sink.upsertEdgeValues(typeName, from.type, fid, to.type, tid, values, s, fc, tc);
            }
            let rec = EMPTY_ATTRS;
            if (attrs.length > 0) {
              rec = {};
              const bad = evalAttrs(attrs, row, rec);
              if (bad) return void s[bad]++;
            }
            const fc = from.word < 0 ? -1 : row.codeAt(from.word);
            const tc = to.word < 0 ? -1 : row.codeAt(to.word);
            sink.upsertEdge(typeName, from.type, fid, to.type, tid, rec, s, fc, tc);
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
  // Another statement reading the same input (or a TEMP_TABLE fed from it) needs the whole line.
  for (const plan of inputs.values()) if (plan.execs.length !== 1 || plan.format.json) delete plan.intEdge;

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

/** The TokenBank functions a job may call; a TokenBank that no longer loads fails the job's compile. */
function tokenBankOf(
  catalog: Catalog,
  at: { line: number; column: number },
): ReadonlyMap<string, TokenFunction> {
  try {
    return userTokenFunctions(catalog);
  } catch (e) {
    if (e instanceof TokenFunctionError) throw jobError(e.message, at);
    throw e;
  }
}
