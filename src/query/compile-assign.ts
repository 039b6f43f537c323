/**
 * Assignments: `+=` and `=` on global and vertex-attached accumulators (with ACCUM's map-reduce
 * semantics: inside a clause, updates wait for the clause's end), local and vertex-set variables,
 * and vertex/edge attribute updates (DML, applied when the query ends).
 */
import { compileArrayValue } from './accum-array-ops.js';
import { compileLoadAccum } from './file-seeds.js';
import type { Expr, Pos, Stmt } from '../gsql/ast-query.js';
import { collectionItems, Spread, type Accum } from './accumulators.js';
import { accumRef } from './methods.js';
import {
  coerce,
  compileExpr,
  edgeTypesOf,
  edgeTypesWith,
  vaccForUpdate,
  vertexAccumRef,
} from './expr-support.js';
import { asVertexSet } from './compile-vset.js';
import type { RunContext } from './context.js';
import { attrUpdate } from './dml.js';
import { compileError } from './errors.js';
import type { Cx, Eval, RowStmt } from './scope.js';
import { Flow } from './scope.js';
import { accumValueType, assignable, isNumeric, T, typeText, type AccumT, type QType } from './types.js';
import { EdgeVal, QueryRuntimeError, Vtx } from './values.js';

/** The value an accumulator receives from `+=`/`=` with `value`, type checked against the accumulator. */
export function compileAccumInput(cx: Cx, t: AccumT, value: Expr, op: '=' | '+='): Eval {
  if (value.kind === 'arrow') {
    if (t.accum === 'MapAccum') {
      if (value.keys.length !== 1 || value.values.length !== 1) {
        throw compileError(value.pos, 'a MapAccum takes one key and one value: (key -> value)');
      }
      const k = coerce(t.key ?? T.STRING, compileExpr(cx, value.keys[0]), value.keys[0].pos, 'the map key');
      const vt = t.elem.kind === 'ACCUM' ? elemInput(t.elem) : t.elem;
      const v =
        t.elem.kind === 'ACCUM'
          ? compileAccumInput(cx, t.elem, value.values[0], '+=')
          : coerce(vt, compileExpr(cx, value.values[0]), value.values[0].pos, 'the map value');
      return (ctx) => [k(ctx), v(ctx)];
    }
    if (t.accum === 'GroupByAccum') {
      const keys = t.groupKeys ?? [];
      const accs = t.groupAccums ?? [];
      if (value.keys.length !== keys.length || value.values.length !== accs.length) {
        throw compileError(
          value.pos,
          `this GroupByAccum takes ${keys.length} key${keys.length === 1 ? '' : 's'} and ${accs.length} value${accs.length === 1 ? '' : 's'}`,
        );
      }
      const kf = value.keys.map((k, i) =>
        coerce(keys[i].type, compileExpr(cx, k), k.pos, `key ${keys[i].name}`),
      );
      const vf = value.values.map((v, i) => compileAccumInput(cx, accs[i].type, v, '+='));
      return (ctx) => [kf.map((f) => f(ctx)), vf.map((f) => f(ctx))];
    }
    throw compileError(value.pos, `"(key -> value)" cannot be added to a ${t.accum}`);
  }
  const x = compileExpr(cx, value);
  if (op === '=') {
    const target = accumValueType(t);
    if (x.t.kind === 'ACCUM' && x.t.accum === t.accum) return x.f;
    // `s.@path = s`, `@@paths = [s]`, `@@heap = Tup(…)`: the accumulator becomes that one element.
    const isColl = (q: QType): q is QType & { elem: QType } => ['LIST', 'SET', 'BAG'].includes(q.kind);
    if (
      ['ListAccum', 'SetAccum', 'BagAccum', 'HeapAccum'].includes(t.accum) &&
      x.t.kind !== 'VSET' &&
      assignable(t.elem, x.t) &&
      !(isColl(x.t) && assignable(t.elem, x.t.elem))
    ) {
      const one = coerce(t.elem, x, value.pos, `"=" on ${typeText(t)}`);
      // A list element that is itself a list must not be spread by ListAccum.set.
      if (isColl(t.elem) && (t.accum === 'ListAccum' || t.accum === 'BagAccum')) return (ctx) => [one(ctx)];
      return one;
    }
    return coerce(target, x, value.pos, `"=" on ${typeText(t)}`);
  }
  const elem = elemInput(t);
  switch (t.accum) {
    case 'ListAccum':
    case 'SetAccum':
    case 'BagAccum':
    case 'HeapAccum':
      if ((x.t.kind === 'LIST' || x.t.kind === 'SET' || x.t.kind === 'BAG') && elem.kind !== x.t.kind) {
        if (assignable(elem, x.t.elem) || x.t.elem.kind === 'NULL') return x.f;
      }
      if (
        (x.t.kind === 'LIST' || x.t.kind === 'SET' || x.t.kind === 'BAG') &&
        (elem.kind === 'LIST' || elem.kind === 'SET' || elem.kind === 'BAG') &&
        x.t.elem.kind === elem.kind &&
        assignable(elem, x.t.elem)
      ) {
        const f = x.f;
        return (ctx) => new Spread(collectionItems(f(ctx)));
      }
      return coerce(elem, x, value.pos, `"+=" on ${typeText(t)}`);
    case 'MapAccum':
      if (x.t.kind === 'MAP') return x.f;
      throw compileError(
        value.pos,
        `a MapAccum needs (key -> value) on the right of "+=", not ${typeText(x.t)}`,
      );
    case 'AvgAccum':
      if (!isNumeric(x.t)) throw compileError(value.pos, `AvgAccum += needs a number, not ${typeText(x.t)}`);
      return x.f;
    case 'GroupByAccum':
      throw compileError(value.pos, 'a GroupByAccum needs (key, … -> value, …) on the right of "+="');
    default:
      return coerce(elem, x, value.pos, `"+=" on ${typeText(t)}`);
  }
}

/** The type of one value added to an accumulator. */
function elemInput(t: AccumT): QType {
  if (t.accum === 'OrAccum' || t.accum === 'AndAccum') return T.BOOL;
  if (t.accum === 'MapAccum') return { kind: 'MAP', key: t.key ?? T.STRING, value: t.elem };
  return t.elem;
}

/** Applies an update now, or at the end of the running ACCUM/POST-ACCUM clause. */
function update(ctx: RunContext, a: Accum, add: boolean, v: unknown, global: boolean): void {
  if (ctx.pending !== null && (global || ctx.deferVertexUpdates)) ctx.pending.push(a, add, v);
  else if (add) a.add(v);
  else a.set(v);
}

/** `v.@x += …` / `v.@x = …`: on the dense column when the accumulator has one. */
function vertexAccumAssign(cx: Cx, target: Expr & { kind: 'vattach' }, add: boolean, input: Eval): RowStmt {
  const { va, target: vertex, aliasSlot } = vertexAccumRef(cx, target);
  const index = va.index;
  if (aliasSlot !== undefined) {
    // On a SELECT alias: the cell is the alias's run index; no Vtx is needed.
    return (ctx) => {
      const x = input(ctx);
      const col = ctx.dense[index] ?? ctx.column(va);
      if (col === null) {
        update(ctx, vaccForUpdate(ctx, vertex(ctx), va), add, x, false);
        return Flow.Next;
      }
      const g = ctx.gids[aliasSlot];
      if (col.prevAt !== null) col.remember(g, ctx.selectStamp);
      if (ctx.pending !== null && ctx.deferVertexUpdates) ctx.pending.pushDense(col, g, add, x);
      else if (add) col.add(g, x);
      else col.set(g, x);
      return Flow.Next;
    };
  }
  return (ctx) => {
    const v = ctx.own(vertex(ctx));
    const x = input(ctx);
    const col = ctx.dense[index] ?? ctx.column(va);
    if (col === null) {
      update(ctx, vaccForUpdate(ctx, v, va), add, x, false);
      return Flow.Next;
    }
    if (col.prevAt !== null) col.remember(v.gid, ctx.selectStamp);
    if (ctx.pending !== null && ctx.deferVertexUpdates) ctx.pending.pushDense(col, v.gid, add, x);
    else if (add) col.add(v.gid, x);
    else col.set(v.gid, x);
    return Flow.Next;
  };
}

export function compileAssign(cx: Cx, s: Stmt & { kind: 'assign' }): RowStmt {
  const { target, op, value } = s;
  const acc = accumRef(cx, target);
  if (acc) {
    if (target.kind === 'global' && op === '=' && cx.clause === 'ACCUM') {
      throw compileError(
        s.pos,
        `the global accumulator @@${target.name} cannot be assigned with "=" in an ACCUM clause; use "+="`,
      );
    }
    if (value.kind === 'seed' && value.items.some((i) => i.kind === 'loadAccum')) {
      if (target.kind !== 'global' || target.index || op !== '=')
        throw compileError(s.pos, 'LOADACCUM(…) fills a global accumulator: @@acc = { LOADACCUM(…) }');
      return compileLoadAccum(cx, acc.t, acc.get, value.items, value.pos);
    }
    const whole = acc.t.accum === 'ArrayAccum' && target.kind === 'global' && cx.clause === 'body';
    const arrayValue = whole ? compileArrayValue(cx, acc.t, value) : undefined;
    if (arrayValue) {
      const get = acc.get;
      const add = op === '+=';
      return (ctx) => {
        update(ctx, get(ctx), add, arrayValue(ctx), true);
        return Flow.Next;
      };
    }
    if (acc.t.accum === 'ArrayAccum') {
      const cell = target.kind === 'vattach' ? 'v.@a[0]' : '@@a[0]';
      const whole =
        target.kind === 'global'
          ? ', or at the query-body level from whole ArrayAccums (@@a = @@b + @@c)'
          : '';
      throw compileError(s.pos, `an ArrayAccum is updated one cell at a time, e.g. ${cell} ${op} …${whole}`);
    }
    const input = compileAccumInput(cx, acc.t, value, op);
    const add = op === '+=';
    if (target.kind === 'vattach' && !target.index && !cx.eaccs.has(target.name))
      return vertexAccumAssign(cx, target, add, input);
    const get = acc.get;
    const global = target.kind === 'global';
    return (ctx) => {
      update(ctx, get(ctx), add, input(ctx), global);
      return Flow.Next;
    };
  }
  if (target.kind === 'name') return compileVarAssign(cx, target, op, value, s.pos);
  if (target.kind === 'field') return compileAttrAssign(cx, target, op, value, s.pos);
  throw compileError(
    target.pos,
    'the left side of an assignment must be a variable, an accumulator or an attribute',
  );
}

function compileVarAssign(
  cx: Cx,
  target: Expr & { kind: 'name' },
  op: '=' | '+=',
  value: Expr,
  pos: Pos,
): RowStmt {
  const b = cx.lookup(target.name);
  const given = compileExpr(cx, value);
  // A collection of vertices assigned to a new name or to a vertex set variable is a vertex set
  // (`S = @@vertexSet;`).
  const x = (!b || b.t.kind === 'VSET') && op === '=' ? (asVertexSet(given) ?? given) : given;
  if (!b) {
    if (x.t.kind === 'VSET' && op === '=') {
      const slot = cx.declare(target.name, x.t, target.pos).slot;
      const f = x.f;
      return (ctx) => {
        ctx.vars[slot] = f(ctx);
        return Flow.Next;
      };
    }
    throw compileError(target.pos, `"${target.name}" is not defined`);
  }
  if (b.readonly) throw compileError(target.pos, `"${target.name}" cannot be assigned`);
  const slot = b.slot;
  let f: Eval;
  if (op === '+=') {
    const sum = compileExpr(cx, {
      kind: 'binary',
      op: '+',
      left: target,
      right: value,
      opPos: pos,
      pos: target.pos,
      start: target.start,
      end: value.end,
    });
    f = coerce(b.t, sum, pos, `"+=" on ${target.name}`);
  } else {
    f = coerce(b.t, x, value.pos, `assignment to ${target.name}`);
  }
  if (b.t.kind === 'VSET' && x.t.kind === 'VSET' && b.t.vertexType !== x.t.vertexType) b.t = { kind: 'VSET' };
  if (slot < cx.clauseSlotBase) {
    // A query variable assigned in ACCUM/POST-ACCUM: while the clause reads it, every row sees the
    // value from before the clause and the last assignment wins when the clause ends.
    return (ctx) => {
      const v = f(ctx);
      if (ctx.pending && ctx.deferVertexUpdates) ctx.pending.later(() => (ctx.vars[slot] = v));
      else ctx.vars[slot] = v;
      return Flow.Next;
    };
  }
  return (ctx) => {
    ctx.vars[slot] = f(ctx);
    return Flow.Next;
  };
}

function compileAttrAssign(
  cx: Cx,
  target: Expr & { kind: 'field' },
  op: '=' | '+=',
  value: Expr,
  pos: Pos,
): RowStmt {
  const owner = compileExpr(cx, target.target);
  if (owner.t.kind !== 'VERTEX' && owner.t.kind !== 'EDGE') {
    throw compileError(
      target.pos,
      `only attributes of vertices and edges can be assigned, not of ${typeText(owner.t)}`,
    );
  }
  if (owner.t.kind === 'VERTEX' && cx.clause === 'ACCUM') {
    throw compileError(
      pos,
      `vertex attribute "${target.name}" cannot be assigned in an ACCUM clause; use POST-ACCUM`,
    );
  }
  const current = compileExpr(cx, target);
  const rhs =
    op === '+='
      ? compileExpr(cx, {
          kind: 'binary',
          op: '+',
          left: target,
          right: value,
          opPos: pos,
          pos: target.pos,
          start: target.start,
          end: value.end,
        })
      : compileExpr(cx, value);
  const f = coerce(current.t, rhs, value.pos, `assignment to attribute ${target.name}`);
  const of = owner.f;
  const name = target.name;
  const vertex = owner.t.kind === 'VERTEX';
  // An edge alias over several types writes only the edges whose type has the attribute.
  const owners =
    owner.t.kind === 'EDGE' ? edgeTypesWith(cx, edgeTypesOf(cx, target.target, owner.t), name) : undefined;
  const virtual = [...(owners?.keys() ?? [])].find((n) => cx.virtualEdges.has(n));
  if (virtual !== undefined)
    throw compileError(target.pos, `the attributes of virtual edge ${virtual} are set by its INSERT only`);
  return (ctx) => {
    const o = of(ctx);
    const v = f(ctx);
    if (vertex) {
      if (!(o instanceof Vtx))
        throw new QueryRuntimeError(`Runtime Error: attribute ${name} of a NULL vertex.`, 'GSQL-1001');
      ctx.dml.push((tx) => tx.setVertexAttrs(o.type, o.row, { [name]: attrUpdate(tx, v) }));
    } else {
      const h = (o as EdgeVal).handle;
      if (!owners?.has(h.edgeType)) return Flow.Next;
      ctx.dml.push((tx) => tx.setEdgeAttrs(h, { [name]: attrUpdate(tx, v) }));
    }
    return Flow.Next;
  };
}
