/**
 * Seeds read from files: `SelectVertex(file, $id, $type | Type, sep, header)` in a vertex-set seed,
 * and `@@acc = { LOADACCUM(file, $c…, sep, header), … }`, which sets a global accumulator to what
 * the file's rows add to it. LOADACCUM's columns fill the accumulator's fields in declaration order,
 * nested ones included (MapAccum<VERTEX<T>, MapAccum<INT, Tup>> takes key, inner key and the
 * tuple's fields); their number is checked at CREATE. Ids that are not vertices are left out with a
 * warning, as for to_vertex_set().
 */
import type { FileColumn, Pos, SeedItem } from '../gsql/ast-query.js';
import { parseDatetime } from '../util/datetime.js';
import type { Accum } from './accumulators.js';
import { typed } from './builtin-args.js';
import type { RunContext } from './context.js';
import { compileError } from './errors.js';
import { queryInputRoots, readInputRows } from './file-input.js';
import { Flow, type Cx, type Eval, type RowStmt } from './scope.js';
import { T, typeText, type AccumT, type QType } from './types.js';
import { canonical, QueryRuntimeError, TupleVal, Vtx } from './values.js';

type SelectVertexItem = SeedItem & { kind: 'selectVertex' };
type LoadAccumItem = SeedItem & { kind: 'loadAccum' };

interface FileArgs {
  file: Eval;
  separator: Eval;
  header: Eval;
}

function fileArgs(cx: Cx, item: SelectVertexItem | LoadAccumItem, what: string): FileArgs {
  return {
    file: typed(cx, item.file, T.STRING, `the file of ${what}`),
    separator: typed(cx, item.separator, T.STRING, `the separator of ${what}`),
    header: typed(cx, item.header, T.BOOL, `the header flag of ${what}`),
  };
}

function readRows(ctx: RunContext, what: string, a: FileArgs, columns: FileColumn[]) {
  return readInputRows(
    what,
    a.file(ctx) as string,
    queryInputRoots(ctx.opts),
    a.separator(ctx) as string,
    a.header(ctx) === true,
    columns,
  );
}

function warnMissing(ctx: RunContext, missing: number, what: string): void {
  const warning = `Runtime Warning: ${missing} ids in the file of ${what} are not vertices.`;
  if (missing > 0 && !ctx.warnings.includes(warning)) ctx.warnings.push(warning);
}

/** A SelectVertex seed item: adds the listed vertices to `out`. Also returns its vertex type, if one. */
export function compileSelectVertex(
  cx: Cx,
  item: SelectVertexItem,
): { vertexType?: string; add: (ctx: RunContext, out: Set<Vtx>) => void } {
  const a = fileArgs(cx, item, 'SelectVertex()');
  const fixed = item.type.kind === 'type' ? item.type.name : undefined;
  if (item.type.kind === 'type' && !cx.vertexType(item.type.name)) {
    throw compileError(item.type.pos, `"${item.type.name}" is not a vertex type of graph ${cx.graphName}`);
  }
  const columns = item.type.kind === 'type' ? [item.id] : [item.id, item.type];
  const types = new Set(cx.vertexTypeNames());
  return {
    vertexType: fixed,
    add: (ctx, out) => {
      const { rows, columns: col } = readRows(ctx, 'SelectVertex()', a, columns);
      let missing = 0;
      for (const r of rows) {
        const tn = fixed ?? r.fields[col[1]];
        const row = types.has(tn) ? ctx.graph.lookup(tn, r.fields[col[0]]) : undefined;
        if (row === undefined) missing++;
        else out.add(ctx.vertex(tn, row));
      }
      warnMissing(ctx, missing, 'SelectVertex()');
    },
  };
}

/** Marks a row that names a vertex the graph does not have: the row is left out. */
const MISSING = Symbol('missing vertex');

/** Builds one accumulator input from consecutive fields of a row. */
interface Builder {
  width: number;
  build(ctx: RunContext, f: string[], at: number, line: number): unknown;
}

function convertError(line: number, text: string, t: QType): QueryRuntimeError {
  return new QueryRuntimeError(
    `Runtime Error: LOADACCUM: line ${line}: "${text}" is not a ${typeText(t)} value.`,
  );
}

function baseBuilder(cx: Cx, t: QType, pos: Pos): Builder {
  const one = (conv: (s: string, ctx: RunContext, line: number) => unknown): Builder => ({
    width: 1,
    build: (ctx, f, at, line) => conv(f[at], ctx, line),
  });
  switch (t.kind) {
    case 'INT':
    case 'UINT':
      return one((s, _ctx, line) => {
        if (!/^\s*[+-]?\d+\s*$/.test(s) || (t.kind === 'UINT' && s.trim().startsWith('-')))
          throw convertError(line, s, t);
        return canonical(BigInt(s.trim()));
      });
    case 'FLOAT':
    case 'DOUBLE':
      return one((s, _ctx, line) => {
        const n = Number(s);
        if (s.trim() === '' || Number.isNaN(n)) throw convertError(line, s, t);
        return n;
      });
    case 'BOOL':
      return one((s, _ctx, line) => {
        const w = s.trim().toLowerCase();
        if (w === 'true' || w === '1') return true;
        if (w === 'false' || w === '0') return false;
        throw convertError(line, s, t);
      });
    case 'STRING':
      return one((s) => s);
    case 'DATETIME':
      return one((s, _ctx, line) => {
        const d = parseDatetime(s);
        if (d === undefined) throw convertError(line, s, t);
        return d;
      });
    case 'VERTEX': {
      const vt = t.vertexType;
      if (!vt)
        throw compileError(pos, 'LOADACCUM cannot fill a generic VERTEX; name its type, e.g. VERTEX<person>');
      return one((s, ctx) => {
        const row = ctx.graph.lookup(vt, s);
        return row === undefined ? MISSING : ctx.vertex(vt, row);
      });
    }
    case 'TUPLE': {
      const fields = t.fields.map((f) => baseBuilder(cx, f.type, pos));
      return {
        width: fields.reduce((n, b) => n + b.width, 0),
        build: (ctx, f, at, line) => {
          const values: unknown[] = [];
          let i = at;
          for (const b of fields) {
            values.push(b.build(ctx, f, i, line));
            i += b.width;
          }
          return values.includes(MISSING) ? MISSING : new TupleVal(t, values);
        },
      };
    }
    case 'ACCUM':
      return accumBuilder(cx, t, pos);
    default:
      throw compileError(pos, `LOADACCUM cannot fill a ${typeText(t)} field`);
  }
}

/** A sequence of builders whose results form a list (MISSING if any part is). */
function seq(parts: Builder[], shape: (vals: unknown[]) => unknown): Builder {
  return {
    width: parts.reduce((n, b) => n + b.width, 0),
    build: (ctx, f, at, line) => {
      const vals: unknown[] = [];
      let i = at;
      for (const b of parts) {
        vals.push(b.build(ctx, f, i, line));
        i += b.width;
      }
      return vals.includes(MISSING) ? MISSING : shape(vals);
    },
  };
}

/** What `+=` takes for an accumulator of type t, built from the row's fields. */
function accumBuilder(cx: Cx, t: AccumT, pos: Pos): Builder {
  switch (t.accum) {
    case 'MapAccum':
      return seq([baseBuilder(cx, t.key ?? T.STRING, pos), baseBuilder(cx, t.elem, pos)], (v) => v);
    case 'GroupByAccum': {
      const keys = (t.groupKeys ?? []).map((k) => baseBuilder(cx, k.type, pos));
      const accs = (t.groupAccums ?? []).map((a) => accumBuilder(cx, a.type, pos));
      return seq([...keys, ...accs], (v) => [v.slice(0, keys.length), v.slice(keys.length)]);
    }
    case 'AvgAccum':
      return baseBuilder(cx, T.DOUBLE, pos);
    case 'OrAccum':
    case 'AndAccum':
      return baseBuilder(cx, T.BOOL, pos);
    case 'BitwiseAndAccum':
    case 'BitwiseOrAccum':
      return baseBuilder(cx, T.INT, pos);
    case 'ArrayAccum':
      throw compileError(pos, 'LOADACCUM cannot fill an ArrayAccum');
    default:
      if (t.elem.kind === 'ACCUM') throw compileError(pos, `LOADACCUM cannot fill ${typeText(t)}`);
      return baseBuilder(cx, t.elem, pos);
  }
}

/**
 * `@@acc = { LOADACCUM(…), … }` at the query-body level: the accumulator is set to what the rows
 * of every file add to an empty one.
 */
export function compileLoadAccum(
  cx: Cx,
  t: AccumT,
  get: (ctx: RunContext) => Accum,
  items: readonly SeedItem[],
  pos: Pos,
): RowStmt {
  if (cx.clause !== 'body') throw compileError(pos, `LOADACCUM is allowed only at the query-body level`);
  const builder = accumBuilder(cx, t, pos);
  const loads = items.map((item) => {
    if (item.kind !== 'loadAccum') {
      throw compileError(
        item.kind === 'expr' ? item.expr.pos : item.pos,
        'an accumulator assigned from files takes only LOADACCUM(…) items',
      );
    }
    if (item.columns.length !== builder.width) {
      throw compileError(
        item.pos,
        `LOADACCUM for ${typeText(t)} needs ${builder.width} columns, not ${item.columns.length}`,
      );
    }
    return { args: fileArgs(cx, item, 'LOADACCUM()'), columns: item.columns };
  });
  return (ctx) => {
    const acc = get(ctx).fresh();
    let missing = 0;
    for (const l of loads) {
      const { rows, columns } = readRows(ctx, 'LOADACCUM()', l.args, l.columns);
      for (const r of rows) {
        const fields = columns.map((c) => r.fields[c]);
        const v = builder.build(ctx, fields, 0, r.line);
        if (v === MISSING) missing++;
        else acc.add(v);
      }
    }
    warnMissing(ctx, missing, 'LOADACCUM()');
    get(ctx).set(acc.value());
    return Flow.Next;
  };
}
