/**
 * Declarations: types as written (TypeExpr) to checked types, TYPEDEF TUPLE, accumulator
 * declarations with their initial values and HeapAccum capacities, and local variables.
 */
import type { DeclName, Expr, Stmt, TypeExpr } from '../gsql/ast-query.js';
import { ArrayAccum } from './accum-array.js';
import { denseKind } from './accum-dense.js';
import { zeroOf } from './accum-scalar.js';
import { makeAccum, type Accum } from './accumulators.js';
import { EdgeAccums } from './edge-accums.js';
import { coerce, compileExpr } from './expr-support.js';
import type { RunContext } from './context.js';
import { compileError } from './errors.js';
import type { Cx, Eval } from './scope.js';
import {
  accumValueType,
  isInteger,
  isNumeric,
  T,
  typeText,
  type AccumT,
  type QType,
  type TupleT,
} from './types.js';
import { toNumber } from './values.js';

export function compileType(cx: Cx, te: TypeExpr): QType {
  switch (te.kind) {
    case 'base':
      return { kind: te.name };
    case 'vertex':
      if (te.vertexType && !cx.vertexType(te.vertexType)) {
        throw compileError(te.pos, `"${te.vertexType}" is not a vertex type of graph ${cx.graphName}`);
      }
      return { kind: 'VERTEX', vertexType: te.vertexType };
    case 'edge':
      if (te.edgeType && !cx.edgeType(te.edgeType)) {
        throw compileError(te.pos, `"${te.edgeType}" is not an edge type of graph ${cx.graphName}`);
      }
      return { kind: 'EDGE', edgeType: te.edgeType };
    case 'collection':
      return { kind: te.collection, elem: elementType(cx, te.element) };
    case 'map':
      return { kind: 'MAP', key: elementType(cx, te.key), value: compileType(cx, te.value) };
    case 'named': {
      const t = cx.tuples.get(te.name);
      if (!t) throw compileError(te.pos, `unknown type "${te.name}"`);
      return t;
    }
    case 'accum':
      return compileAccumType(cx, te);
    case 'file':
      return T.FILE;
    case 'json':
      return { kind: te.json };
  }
}

function elementType(cx: Cx, te: TypeExpr): QType {
  const t = compileType(cx, te);
  if (t.kind === 'ACCUM')
    throw compileError(te.pos, `an accumulator cannot be an element here; found ${typeText(t)}`);
  return t;
}

const NUMERIC_ACCUMS = new Set(['SumAccum', 'MinAccum', 'MaxAccum']);

export function compileAccumType(cx: Cx, te: TypeExpr & { kind: 'accum' }): AccumT {
  const a = te.accum;
  const need = (n: number): void => {
    if (te.args.length !== n) {
      throw compileError(te.pos, `${a} needs ${n} type argument${n === 1 ? '' : 's'}, e.g. ${a}<INT>`);
    }
  };
  switch (a) {
    case 'AvgAccum':
      if (te.args.length > 1) need(1);
      return { kind: 'ACCUM', accum: a, elem: T.DOUBLE };
    case 'OrAccum':
    case 'AndAccum':
      if (te.args.length > 1) need(1);
      return { kind: 'ACCUM', accum: a, elem: T.BOOL };
    case 'ArrayAccum': {
      need(1);
      const cell = compileType(cx, te.args[0]);
      if (cell.kind !== 'ACCUM' || cell.accum === 'ArrayAccum')
        throw compileError(
          te.args[0].pos,
          'the cells of an ArrayAccum must be accumulators, e.g. ArrayAccum<SumAccum<INT>>',
        );
      return { kind: 'ACCUM', accum: a, elem: cell };
    }
    case 'BitwiseAndAccum':
    case 'BitwiseOrAccum':
      if (te.args.length > 0) throw compileError(te.pos, `${a} takes no type argument: it holds an INT`);
      return { kind: 'ACCUM', accum: a, elem: T.INT };
    case 'MapAccum': {
      need(2);
      return { kind: 'ACCUM', accum: a, key: elementType(cx, te.args[0]), elem: compileType(cx, te.args[1]) };
    }
    case 'HeapAccum': {
      need(1);
      const elem = compileType(cx, te.args[0]);
      if (elem.kind !== 'TUPLE')
        throw compileError(te.args[0].pos, 'HeapAccum needs a tuple type declared with TYPEDEF TUPLE');
      const heapOrder = (te.order ?? []).map((o) => {
        const field = elem.fields.findIndex((f) => f.name === o.field);
        if (field < 0) throw compileError(o.pos, `the tuple ${elem.name} has no field "${o.field}"`);
        return { field, descending: o.descending };
      });
      return { kind: 'ACCUM', accum: a, elem, heapOrder };
    }
    case 'GroupByAccum': {
      const groupKeys = (te.groupKeys ?? []).map((k) => ({ name: k.name, type: elementType(cx, k.type) }));
      const groupAccums = (te.groupAccums ?? []).map((k) => ({
        name: k.name,
        type: compileType(cx, k.type) as AccumT,
      }));
      if (groupKeys.length === 0 || groupAccums.length === 0) {
        throw compileError(te.pos, 'GroupByAccum needs key fields followed by accumulator fields');
      }
      return { kind: 'ACCUM', accum: a, elem: T.VOID, groupKeys, groupAccums };
    }
    default: {
      need(1);
      let elem = compileType(cx, te.args[0]);
      // A collection of accumulators holds their values (ListAccum<ListAccum<INT>> holds lists).
      if (elem.kind === 'ACCUM' && (a === 'ListAccum' || a === 'SetAccum' || a === 'BagAccum'))
        elem = accumValueType(elem);
      if (
        NUMERIC_ACCUMS.has(a) &&
        !isNumeric(elem) &&
        !['STRING', 'DATETIME', 'VERTEX'].includes(elem.kind) &&
        !(elem.kind === 'TUPLE' && a !== 'SumAccum')
      ) {
        throw compileError(te.args[0].pos, `${a}<${typeText(elem)}> is not a valid accumulator type`);
      }
      if (a === 'SumAccum' && !isNumeric(elem) && elem.kind !== 'STRING') {
        throw compileError(te.args[0].pos, `SumAccum<${typeText(elem)}> is not a valid accumulator type`);
      }
      return { kind: 'ACCUM', accum: a, elem };
    }
  }
}

/** Returns a closure creating the accumulator in its declared initial state. */
function accumFactory(
  cx: Cx,
  t: AccumT,
  te: TypeExpr & { kind: 'accum' },
  init: Expr | undefined,
): (ctx: RunContext) => Accum {
  let cap: Eval | undefined;
  if (te.capacity) {
    const c = compileExpr(cx, te.capacity);
    if (!isNumeric(c.t))
      throw compileError(te.capacity.pos, `the HeapAccum capacity must be an integer, not ${typeText(c.t)}`);
    cap = c.f;
  }
  let initF: Eval | undefined;
  if (init) {
    initF = coerce(accumValueType(t), compileExpr(cx, init), init.pos, `the initial value of ${typeText(t)}`);
  }
  return (ctx) => {
    const a = makeAccum(t, cap ? toNumber(cap(ctx)) : undefined);
    if (initF) a.set(initF(ctx));
    return a;
  };
}

/**
 * `ArrayAccum<…> @@a[3][4]` / `@a[3]`: sizes are evaluated where it is declared; a vertex-attached
 * one gives each vertex its own array of those sizes.
 */
function arrayAccumDecl(cx: Cx, t: AccumT, global: boolean, n: DeclName): (ctx: RunContext) => void {
  const name = (global ? '@@' : '@') + n.name;
  if (t.accum !== 'ArrayAccum')
    throw compileError(n.pos, `only an ArrayAccum takes sizes in brackets; ${t.accum} does not`);
  if (!n.dims) throw compileError(n.pos, `the ArrayAccum ${name} needs its sizes, e.g. ${name}[3]`);
  if (n.init) throw compileError(n.init.pos, 'an ArrayAccum takes no initial value');
  if (global ? cx.globals.has(n.name) : cx.vaccs.has(n.name) || cx.eaccs.has(n.name))
    throw compileError(n.pos, `${name} is already declared`);
  const sizes = n.dims.map((d) => {
    const x = compileExpr(cx, d);
    if (!isInteger(x.t))
      throw compileError(d.pos, `an ArrayAccum size must be an integer, not ${typeText(x.t)}`);
    return x.f;
  });
  const cellT = t.elem as AccumT;
  const slot = cx.newSlot();
  if (!global) {
    const at: AccumT = { ...t, dims: sizes.length };
    const make = (ctx: RunContext): Accum =>
      new ArrayAccum(() => makeAccum(cellT), ctx.vars[slot] as number[]);
    cx.vaccs.set(n.name, { name: n.name, index: cx.vaccs.size, t: at, make, dense: undefined });
    return (ctx) => {
      ctx.vars[slot] = sizes.map((s) => toNumber(s(ctx)));
    };
  }
  cx.globals.set(n.name, { name: n.name, slot, t: { ...t, dims: sizes.length } });
  return (ctx) => {
    ctx.vars[slot] = new ArrayAccum(
      () => makeAccum(cellT),
      sizes.map((s) => toNumber(s(ctx))),
    );
  };
}

/** The accumulators an edge may carry: TigerGraph attaches only primitive ones to edges. */
const EDGE_ACCUMS = new Set([
  'SumAccum',
  'MinAccum',
  'MaxAccum',
  'AvgAccum',
  'OrAccum',
  'AndAccum',
  'BitwiseOrAccum',
  'BitwiseAndAccum',
]);

/** `OrAccum EDGE @visited`: each edge of the run gets its own accumulator when first used. */
function edgeAccumDecl(
  cx: Cx,
  t: AccumT,
  te: TypeExpr & { kind: 'accum' },
  global: boolean,
  n: DeclName,
): (ctx: RunContext) => void {
  if (global) throw compileError(n.pos, `an edge-attached accumulator is named @${n.name}, not @@${n.name}`);
  if (!EDGE_ACCUMS.has(t.accum) || n.dims)
    throw compileError(
      n.pos,
      `only primitive accumulators (SumAccum, MinAccum, MaxAccum, AvgAccum, OrAccum, AndAccum, ` +
        `BitwiseOrAccum, BitwiseAndAccum) can be attached to edges, not ${t.accum}`,
    );
  if (cx.vaccs.has(n.name) || cx.eaccs.has(n.name))
    throw compileError(n.pos, `@${n.name} is already declared`);
  const make = accumFactory(cx, t, te, n.init);
  const slot = cx.newSlot();
  const name = n.name;
  cx.eaccs.set(name, { name, slot, t });
  return (ctx) => {
    const accums = new EdgeAccums(name, t, () => make(ctx));
    ctx.vars[slot] = accums;
    ctx.edgeAccums.push(accums);
  };
}

export function compileAccumDecl(cx: Cx, s: Stmt & { kind: 'accumDecl' }): (ctx: RunContext) => void {
  if (cx.clause !== 'body' || cx.loopDepth > 0) {
    throw compileError(s.pos, 'accumulators must be declared at the beginning of the query body');
  }
  if (s.type.kind !== 'accum') throw compileError(s.pos, 'expected an accumulator type');
  const t = compileAccumType(cx, s.type);
  const inits: ((ctx: RunContext) => void)[] = [];
  for (const n of s.names) {
    const global = n.global ?? s.global;
    if (s.edge) {
      inits.push(edgeAccumDecl(cx, t, s.type, global, n));
      continue;
    }
    if (t.accum === 'ArrayAccum' || n.dims) {
      inits.push(arrayAccumDecl(cx, t, global, n));
      continue;
    }
    const make = accumFactory(cx, t, s.type, n.init);
    if (global) {
      if (cx.globals.has(n.name)) throw compileError(n.pos, `@@${n.name} is already declared`);
      const slot = cx.newSlot();
      cx.globals.set(n.name, { name: n.name, slot, t });
      if (s.static) {
        // Created at the first run and kept by the compiled (installed) query from then on.
        let kept: Accum | undefined;
        inits.push((ctx) => {
          ctx.vars[slot] = kept ??= make(ctx);
        });
        continue;
      }
      inits.push((ctx) => {
        ctx.vars[slot] = make(ctx);
      });
    } else {
      if (cx.vaccs.has(n.name) || cx.eaccs.has(n.name))
        throw compileError(n.pos, `@${n.name} is already declared`);
      cx.vaccs.set(n.name, { name: n.name, index: cx.vaccs.size, t, make, dense: denseKind(t) });
    }
  }
  return (ctx) => {
    for (const i of inits) i(ctx);
  };
}

export function compileTupleDecl(cx: Cx, s: Stmt & { kind: 'tupleDecl' }): void {
  if (cx.tuples.has(s.name) && !cx.catalog.tuples.some((t) => t.name === s.name)) {
    throw compileError(s.pos, `the tuple type ${s.name} is already declared`);
  }
  const t: TupleT = {
    kind: 'TUPLE',
    name: s.name,
    fields: s.fields.map((f) => ({ name: f.name, type: elementType(cx, f.type) })),
  };
  cx.tuples.set(s.name, t);
}

export function compileVarDecl(cx: Cx, s: Stmt & { kind: 'varDecl' }): (ctx: RunContext) => void {
  const t = compileType(cx, s.type);
  const steps: ((ctx: RunContext) => void)[] = [];
  for (const n of s.names) {
    const init = n.init
      ? coerce(t, compileExpr(cx, n.init), n.init.pos, `the value of ${n.name}`)
      : undefined;
    const slot = cx.declare(n.name, t, n.pos).slot;
    const zero = zeroOf(t);
    steps.push(
      init
        ? (ctx) => {
            ctx.vars[slot] = init(ctx);
          }
        : (ctx) => {
            ctx.vars[slot] = Array.isArray(zero) ? [] : zero;
          },
    );
  }
  return (ctx) => {
    for (const st of steps) st(ctx);
  };
}
