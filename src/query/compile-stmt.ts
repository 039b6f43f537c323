/**
 * Statements. Query-body statements compile to async closures (so long loops yield to the event
 * loop and can be cancelled); ACCUM/POST-ACCUM statements compile to synchronous ones that run once
 * per row.
 */
import { bodyStmtSkippingFailures, rowStmtSkippingFailures } from './evaluate.js';
import type { ForeachSource, Stmt } from '../gsql/ast-query.js';
import { collectionItems, GroupByAccum, MapAccum } from './accumulators.js';
import { compileAssign } from './compile-assign.js';
import { compileAccumDecl, compileTupleDecl, compileVarDecl } from './compile-decl.js';
import { coerce, compileExpr, expectType } from './expr-support.js';
import type { RunContext } from './context.js';
import { compileDeleteAlias, compileInsert, deleteVertices } from './dml.js';
import { compileCreateVirtualEdge } from './virtual-edge.js';
import { compileError } from './errors.js';
import { compileLog } from './log-stmt.js';
import { compileRaise, compileTry, declareException } from './exceptions.js';
import { compilePrint } from './print.js';
import { compilePrintCsv } from './print-csv.js';
import { compileTableSelectStmt } from './table-stmt.js';
import { compileTableOpStmt } from './table-ops.js';
import { compileCypherBody } from './cypher-compile.js';
import { deletesEdges, edgeDeletion } from './delete-edges.js';
import { asVertexSet } from './compile-vset.js';
import { Flow, type BodyStmt, type Cx, type Eval, type RowStmt } from './scope.js';
import { accumValueType, isNumeric, T, typeText, type QType, type TupleT } from './types.js';
import { intArith, QueryRuntimeError, toNumber, TupleVal, type Vtx } from './values.js';

function runRowList(ctx: RunContext, list: RowStmt[]): Flow {
  for (const s of list) {
    const f = s(ctx);
    if (f !== Flow.Next) return f;
  }
  return Flow.Next;
}

async function runBodyList(ctx: RunContext, list: BodyStmt[]): Promise<Flow> {
  for (const s of list) {
    const f = await s(ctx);
    if (f !== Flow.Next) return f;
  }
  return Flow.Next;
}

export function compileRowStmts(cx: Cx, stmts: Stmt[]): RowStmt[] {
  return stmts.map((s) => rowStmtSkippingFailures(cx, () => compileRowStmt(cx, s)));
}

export function compileBodyStmts(cx: Cx, stmts: Stmt[]): BodyStmt[] {
  return stmts.map((s) => bodyStmtSkippingFailures(cx, () => compileBodyStmt(cx, s)));
}

function cond(cx: Cx, e: Parameters<typeof compileExpr>[1], what: string): Eval {
  const c = compileExpr(cx, e);
  expectType(c, T.BOOL, e.pos, what);
  return c.f;
}

/** Iteration over a FOREACH source: binds the loop variables and calls body per element. */
interface Loop {
  slots: number[];
  items: (ctx: RunContext) => Iterable<unknown[]>;
}

function compileLoop(
  cx: Cx,
  vars: { name: string; pos: { line: number; column: number } }[],
  source: ForeachSource,
): Loop {
  if (source.kind === 'range') {
    const from = compileExpr(cx, source.from);
    const to = compileExpr(cx, source.to);
    const step = source.step ? compileExpr(cx, source.step) : undefined;
    for (const [x, e] of [
      [from, source.from],
      [to, source.to],
      ...(step && source.step ? [[step, source.step] as const] : []),
    ] as const) {
      if (!isNumeric(x.t)) throw compileError(e.pos, `RANGE needs integers, not ${typeText(x.t)}`);
    }
    if (vars.length !== 1) throw compileError(vars[1].pos, 'FOREACH over a RANGE takes one variable');
    const slot = cx.declare(vars[0].name, T.INT, vars[0].pos, false).slot;
    return {
      slots: [slot],
      items: function* (ctx) {
        const a = from.f(ctx) as number | bigint;
        const b = toNumber(to.f(ctx));
        const s = step ? (step.f(ctx) as number | bigint) : 1;
        if (toNumber(s) === 0) throw new QueryRuntimeError('Runtime Error: the STEP of a RANGE cannot be 0.');
        const up = toNumber(s) > 0;
        for (let i: number | bigint = a; up ? toNumber(i) <= b : toNumber(i) >= b; i = intArith('+', i, s))
          yield [i];
      },
    };
  }
  const x = compileExpr(cx, source);
  const f = x.f;
  const t = x.t;
  if (t.kind === 'MAP' || (t.kind === 'ACCUM' && t.accum === 'MapAccum')) {
    const kt = t.kind === 'MAP' ? t.key : (t.key ?? T.STRING);
    const vt = t.kind === 'MAP' ? t.value : t.elem;
    if (vars.length !== 2)
      throw compileError(source.pos, 'FOREACH over a map takes two variables: (key, value)');
    const ks = cx.declare(vars[0].name, kt, vars[0].pos, false).slot;
    const vs = cx.declare(
      vars[1].name,
      vt.kind === 'ACCUM' ? accumValueType(vt) : vt,
      vars[1].pos,
      true,
    ).slot;
    return {
      slots: [ks, vs],
      items: function* (ctx) {
        const m = f(ctx);
        if (m instanceof MapAccum)
          for (const e of Array.from(m.entries.values())) yield [e.key, e.acc.value()];
        else for (const [k, v] of Array.from(m as Map<unknown, unknown>)) yield [k, v];
      },
    };
  }
  if (t.kind === 'ACCUM' && t.accum === 'GroupByAccum') {
    const fields = [
      ...(t.groupKeys ?? []).map((k) => k.type),
      ...(t.groupAccums ?? []).map((a) => accumValueType(a.type)),
    ];
    if (vars.length === 1 && fields.length > 1) {
      // `FOREACH g IN @@group`: each group as one tuple of its fields (g.key, g.accum).
      const names = [...(t.groupKeys ?? []), ...(t.groupAccums ?? [])].map((x) => x.name);
      const tt: TupleT = {
        kind: 'TUPLE',
        name: 'GroupByAccum',
        fields: names.map((name, i) => ({ name, type: fields[i] })),
      };
      const slot = cx.declare(vars[0].name, tt, vars[0].pos, false).slot;
      return {
        slots: [slot],
        items: function* (ctx) {
          for (const g of Array.from((f(ctx) as GroupByAccum).groups.values()))
            yield [new TupleVal(tt, [...g.keys, ...g.accs.map((a) => a.value())])];
        },
      };
    }
    if (vars.length !== fields.length) {
      throw compileError(source.pos, `FOREACH over this GroupByAccum takes 1 or ${fields.length} variables`);
    }
    const slots = vars.map((v, i) => cx.declare(v.name, fields[i], v.pos, false).slot);
    return {
      slots,
      items: function* (ctx) {
        for (const g of Array.from((f(ctx) as GroupByAccum).groups.values()))
          yield [...g.keys, ...g.accs.map((a) => a.value())];
      },
    };
  }
  let elem: QType;
  if (t.kind === 'LIST' || t.kind === 'SET' || t.kind === 'BAG') elem = t.elem;
  else if (t.kind === 'VSET') elem = { kind: 'VERTEX', vertexType: t.vertexType };
  else throw compileError(source.pos, `FOREACH needs a collection, not ${typeText(t)}`);
  if (vars.length === 1) {
    const slot = cx.declare(vars[0].name, elem, vars[0].pos, false).slot;
    return {
      slots: [slot],
      items: function* (ctx) {
        for (const v of [...collectionItems(f(ctx))]) yield [v];
      },
    };
  }
  if (elem.kind !== 'TUPLE' || elem.fields.length !== vars.length) {
    throw compileError(
      source.pos,
      `FOREACH with ${vars.length} variables needs tuples of ${vars.length} fields`,
    );
  }
  const tup = elem;
  const slots = vars.map((v, i) => cx.declare(v.name, tup.fields[i].type, v.pos, false).slot);
  return {
    slots,
    items: function* (ctx) {
      for (const v of [...collectionItems(f(ctx))]) yield (v as { values: unknown[] }).values;
    },
  };
}

function compileCaseBranches(cx: Cx, s: Stmt & { kind: 'case' }): { test: Eval; index: number }[] {
  const subject = s.subject ? compileExpr(cx, s.subject) : undefined;
  return s.branches.map((b, index) => {
    if (subject) {
      const w = compileExpr(cx, {
        kind: 'binary',
        op: '==',
        left: s.subject!,
        right: b.when,
        opPos: b.when.pos,
        pos: b.when.pos,
        start: b.when.start,
        end: b.when.end,
      });
      return { test: w.f, index };
    }
    return { test: cond(cx, b.when, 'WHEN'), index };
  });
}

/** `S = …` for a vertex-set variable; a SELECT on the right runs in yielding form at body level. */
function compileVsetAssign(cx: Cx, s: Stmt & { kind: 'vsetAssign' }): { sync: RowStmt; async?: BodyStmt } {
  if (cx.clause !== 'body') throw compileError(s.pos, `a vertex set cannot be assigned in ${cx.clause}`);
  const given = compileExpr(cx, s.value);
  const x = asVertexSet(given);
  if (!x || x.t.kind !== 'VSET')
    throw compileError(s.value.pos, `a vertex set is needed here, not ${typeText(given.t)}`);
  const valueType = x.t.vertexType;
  // `S (ANY) = …` / `S (A|B) = …`: the types the variable may hold.
  const named = (s.vertexTypes ?? []).filter((t) => t.name.toUpperCase() !== 'ANY' && t.name !== '_');
  for (const t of named) {
    if (!cx.vertexType(t.name))
      throw compileError(t.pos, `"${t.name}" is not a vertex type of graph ${cx.graphName}`);
  }
  if (valueType && named.length > 0 && !named.some((t) => t.name === valueType)) {
    throw compileError(
      s.value.pos,
      `the vertex set ${s.name} holds ${named.map((t) => t.name).join('|')} vertices, not ${valueType}`,
    );
  }
  const existing = cx.lookup(s.name);
  if (existing && existing.t.kind !== 'VSET') {
    throw compileError(s.pos, `"${s.name}" is ${typeText(existing.t)}, not a vertex set`);
  }
  const declared = named.length === 1 ? named[0].name : undefined;
  let slot: number;
  if (existing) {
    if (existing.t.kind === 'VSET' && existing.t.vertexType !== valueType) existing.t = { kind: 'VSET' };
    slot = existing.slot;
  } else {
    slot = cx.declareQueryWide(
      s.name,
      { kind: 'VSET', vertexType: declared ?? (s.vertexTypes ? undefined : valueType) },
      s.pos,
    ).slot;
  }
  // The variable keeps the set as run indexes when the value comes that way (see VertexGids).
  const f = x.raw ?? x.f;
  const fa = x.rawAsync ?? x.async;
  return {
    sync: (ctx) => {
      ctx.vars[slot] = f(ctx);
      return Flow.Next;
    },
    async: fa
      ? async (ctx) => {
          ctx.vars[slot] = await fa(ctx);
          return Flow.Next;
        }
      : undefined,
  };
}

/** The value of RETURN, as the RETURNS type declares it (accumulator types return their value). */
function compileReturnValue(cx: Cx, e: Parameters<typeof compileExpr>[1]): Eval {
  const rt = cx.returns!.kind === 'ACCUM' ? accumValueType(cx.returns!) : cx.returns!;
  const x = compileExpr(cx, e);
  const isVertexColl =
    (rt.kind === 'SET' || rt.kind === 'BAG' || rt.kind === 'LIST') && rt.elem.kind === 'VERTEX';
  // A vertex set returns as a collection of its vertices.
  if (x.t.kind === 'VSET' && isVertexColl) return x.f;
  return coerce(rt, x, e.pos, 'RETURN');
}

/** Statements allowed in both places; returns undefined for the ones handled per place. */
function compileSimple(cx: Cx, s: Stmt): RowStmt | undefined {
  switch (s.kind) {
    case 'accumDecl': {
      const f = compileAccumDecl(cx, s);
      return (ctx) => (f(ctx), Flow.Next);
    }
    case 'tupleDecl':
      if (cx.clause !== 'body')
        throw compileError(s.pos, 'TYPEDEF TUPLE must be at the beginning of the query body');
      compileTupleDecl(cx, s);
      return () => Flow.Next;
    case 'varDecl': {
      const f = compileVarDecl(cx, s);
      return (ctx) => (f(ctx), Flow.Next);
    }
    case 'fileDecl': {
      if (cx.clause !== 'body') throw compileError(s.pos, `a FILE cannot be declared in ${cx.clause}`);
      const px = compileExpr(cx, s.path);
      if (px.t.kind !== 'STRING')
        throw compileError(s.path.pos, `the path of a FILE must be a STRING, not ${typeText(px.t)}`);
      const path = px.f;
      const slot = cx.declare(s.name, T.FILE, s.pos, true).slot;
      return (ctx) => {
        ctx.vars[slot] = ctx.openFile(path(ctx) as string);
        return Flow.Next;
      };
    }
    case 'vsetAssign':
      return compileVsetAssign(cx, s).sync;
    case 'assign':
      return compileAssign(cx, s);
    case 'expr': {
      const f = compileExpr(cx, s.expr).f;
      return (ctx) => (f(ctx), Flow.Next);
    }
    case 'break':
    case 'continue':
      if (cx.loopDepth === 0)
        throw compileError(s.pos, `${s.kind.toUpperCase()} is only allowed inside WHILE or FOREACH`);
      return s.kind === 'break' ? () => Flow.Break : () => Flow.Continue;
    case 'insert':
      return compileInsert(cx, s);
    case 'createVirtualEdge':
      return compileCreateVirtualEdge(cx, s);
    case 'print': {
      const f = s.toCsv ? compilePrintCsv(cx, s, s.toCsv) : compilePrint(cx, s);
      return (ctx) => (f(ctx), Flow.Next);
    }
    case 'log':
      return compileLog(cx, s);
    case 'exceptionDecl':
      declareException(cx, s);
      return () => Flow.Next;
    case 'raise':
      return compileRaise(cx, s);
    case 'return': {
      if (cx.clause !== 'body') throw compileError(s.pos, `RETURN is not allowed in ${cx.clause}`);
      if (s.value && !cx.returns)
        throw compileError(s.pos, 'RETURN with a value needs RETURNS (type) in the query header');
      const f = s.value ? compileReturnValue(cx, s.value) : undefined;
      return (ctx) => {
        ctx.returned = f ? f(ctx) : null;
        return Flow.Return;
      };
    }
    case 'delete':
      if (!s.select) {
        if (cx.clause !== 'ACCUM' && cx.clause !== 'POST-ACCUM') {
          throw compileError(
            s.pos,
            'DELETE (alias) is only allowed in ACCUM or POST-ACCUM; use DELETE s FROM … here',
          );
        }
        return compileDeleteAlias(cx, s);
      }
      if (cx.clause !== 'body') throw compileError(s.pos, `DELETE … FROM is not allowed in ${cx.clause}`);
      if (deletesEdges(s.select, s.alias)) {
        const sel = cx.compileSelect(cx, edgeDeletion(s.select, s.alias, s.pos), s.pos).f;
        return (ctx) => (sel(ctx), Flow.Next);
      }
      {
        const sel = cx.compileSelect(cx, s.select, s.pos).f;
        return (ctx) => {
          deleteVertices(ctx, sel(ctx) as Vtx[]);
          return Flow.Next;
        };
      }
    case 'update': {
      if (cx.clause !== 'body') throw compileError(s.pos, `UPDATE is not allowed in ${cx.clause}`);
      const sel = cx.compileSelect(cx, s.select, s.pos).f;
      return (ctx) => (sel(ctx), Flow.Next);
    }
    default:
      return undefined;
  }
}

function compileRowStmt(cx: Cx, s: Stmt): RowStmt {
  const simple = compileSimple(cx, s);
  if (simple) return simple;
  switch (s.kind) {
    case 'if': {
      const branches = s.branches.map((b) => ({
        test: cond(cx, b.cond, 'IF'),
        body: cx.nested(() => compileRowStmts(cx, b.body)),
      }));
      const otherwise = s.otherwise ? cx.nested(() => compileRowStmts(cx, s.otherwise!)) : [];
      return (ctx) => {
        for (const b of branches) if (b.test(ctx) === true) return runRowList(ctx, b.body);
        return runRowList(ctx, otherwise);
      };
    }
    case 'case': {
      const tests = compileCaseBranches(cx, s);
      const bodies = s.branches.map((b) => cx.nested(() => compileRowStmts(cx, b.body)));
      const otherwise = s.otherwise ? cx.nested(() => compileRowStmts(cx, s.otherwise!)) : [];
      return (ctx) => {
        for (const t of tests) if (t.test(ctx) === true) return runRowList(ctx, bodies[t.index]);
        return runRowList(ctx, otherwise);
      };
    }
    case 'foreach':
      return cx.nested(() => {
        const loop = compileLoop(cx, s.vars, s.source);
        cx.loopDepth++;
        const body = compileRowStmts(cx, s.body);
        cx.loopDepth--;
        return (ctx) => {
          for (const vals of loop.items(ctx)) {
            loop.slots.forEach((slot, i) => (ctx.vars[slot] = vals[i]));
            const f = runRowList(ctx, body);
            if (f === Flow.Break) break;
            if (f === Flow.Return) return f;
          }
          return Flow.Next;
        };
      });
    case 'while': {
      const test = cond(cx, s.cond, 'WHILE');
      const limit = s.limit ? compileExpr(cx, s.limit).f : undefined;
      cx.loopDepth++;
      const body = cx.nested(() => compileRowStmts(cx, s.body));
      cx.loopDepth--;
      return (ctx) => {
        const max = limit ? toNumber(limit(ctx)) : Infinity;
        for (let n = 0; n < max && test(ctx) === true; n++) {
          ctx.step();
          const f = runRowList(ctx, body);
          if (f === Flow.Break) break;
          if (f === Flow.Return) return f;
        }
        return Flow.Next;
      };
    }
    default:
      throw compileError(s.pos, `this statement is not allowed in ${cx.clause}`);
  }
}

function compileBodyStmt(cx: Cx, s: Stmt): BodyStmt {
  switch (s.kind) {
    case 'if': {
      const branches = s.branches.map((b) => ({
        test: cond(cx, b.cond, 'IF'),
        body: cx.nested(() => compileBodyStmts(cx, b.body)),
      }));
      const otherwise = s.otherwise ? cx.nested(() => compileBodyStmts(cx, s.otherwise!)) : [];
      return (ctx) => {
        for (const b of branches) if (b.test(ctx) === true) return runBodyList(ctx, b.body);
        return runBodyList(ctx, otherwise);
      };
    }
    case 'case': {
      const tests = compileCaseBranches(cx, s);
      const bodies = s.branches.map((b) => cx.nested(() => compileBodyStmts(cx, b.body)));
      const otherwise = s.otherwise ? cx.nested(() => compileBodyStmts(cx, s.otherwise!)) : [];
      return (ctx) => {
        for (const t of tests) if (t.test(ctx) === true) return runBodyList(ctx, bodies[t.index]);
        return runBodyList(ctx, otherwise);
      };
    }
    case 'foreach':
      return cx.nested(() => {
        const loop = compileLoop(cx, s.vars, s.source);
        cx.loopDepth++;
        const body = compileBodyStmts(cx, s.body);
        cx.loopDepth--;
        return async (ctx) => {
          for (const vals of loop.items(ctx)) {
            await ctx.tick();
            loop.slots.forEach((slot, i) => (ctx.vars[slot] = vals[i]));
            const f = await runBodyList(ctx, body);
            if (f === Flow.Break) break;
            if (f === Flow.Return) return f;
          }
          return Flow.Next;
        };
      });
    case 'while': {
      const test = cond(cx, s.cond, 'WHILE');
      let limit: Eval | undefined;
      if (s.limit) {
        const l = compileExpr(cx, s.limit);
        if (!isNumeric(l.t))
          throw compileError(s.limit.pos, `WHILE … LIMIT needs an integer, not ${typeText(l.t)}`);
        limit = l.f;
      }
      cx.loopDepth++;
      const body = cx.nested(() => compileBodyStmts(cx, s.body));
      cx.loopDepth--;
      return async (ctx) => {
        const max = limit ? toNumber(limit(ctx)) : Infinity;
        for (let n = 0; n < max && test(ctx) === true; n++) {
          await ctx.tick();
          const f = await runBodyList(ctx, body);
          if (f === Flow.Break) break;
          if (f === Flow.Return) return f;
        }
        return Flow.Next;
      };
    }
    case 'try':
      return compileTry(cx, s, (stmts) => compileBodyStmts(cx, stmts), runBodyList);
    case 'tableSelect':
      return compileTableSelectStmt(cx, s);
    case 'tableOp':
      return compileTableOpStmt(cx, s);
    case 'cypher':
      return compileCypherBody(cx, s.query);
    case 'vsetAssign': {
      const { sync, async } = compileVsetAssign(cx, s);
      if (async) return async;
      return async (ctx) => {
        await ctx.tick();
        return sync(ctx);
      };
    }
    default: {
      const f = compileSimple(cx, s);
      if (!f) throw compileError(s.pos, 'this statement is not allowed here');
      return async (ctx) => {
        await ctx.tick();
        return f(ctx);
      };
    }
  }
}
