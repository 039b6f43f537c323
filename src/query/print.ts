/**
 * PRINT: turns run-time values into TigerGraph's JSON output. Each PRINT statement adds one object
 * to the results; keys are the AS name, the variable or accumulator name, or the expression text.
 */
import { toJsonValue } from '../catalog/json-value.js';
import { exprKey } from '../gsql/parser-expr.js';
import { isBuiltinFunction } from './functions.js';
import type { Expr, PrintItem, Stmt } from '../gsql/ast-query.js';
import { formatDatetime } from '../util/datetime.js';
import type { JsonValue } from '../util/json.js';
import { ArrayAccum } from './accum-array.js';
import { collectionItems, GroupByAccum, MapAccum, type Accum } from './accumulators.js';
import { compileExpr, expectType, vaccOf } from './expr-support.js';
import type { RunContext } from './context.js';
import { compileError } from './errors.js';
import type { Cx, Eval, Typed, VertexAccum } from './scope.js';
import { accumValueType, T, type AccumT, type QType } from './types.js';
import { EdgeVal, TupleVal, Vtx } from './values.js';

type JsonObject = { [key: string]: JsonValue };

/** FLOAT prints with up to 7 significant digits, DOUBLE with up to 16, as TigerGraph does. */
function floatJson(v: unknown, digits: number): JsonValue {
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : n < 0 ? '-inf' : 'nan';
  return Number(n.toPrecision(digits));
}

function accumJson(ctx: RunContext, a: Accum, t: AccumT, vaccs: Map<string, VertexAccum>): JsonValue {
  if (a instanceof MapAccum) {
    const obj: JsonObject = {};
    for (const { key, acc } of a.entries.values()) {
      const vt = t.elem.kind === 'ACCUM' ? t.elem : undefined;
      obj[keyText(ctx, key)] = vt
        ? accumJson(ctx, acc, vt, vaccs)
        : elementJson(ctx, acc.value(), t.elem, vaccs);
    }
    return obj;
  }
  if (a instanceof ArrayAccum)
    return a.map((cell) => accumJson(ctx, cell, t.elem as AccumT, vaccs)) as JsonValue;
  if (a instanceof GroupByAccum) {
    const out: JsonValue[] = [];
    for (const g of a.groups.values()) {
      const obj: JsonObject = {};
      (t.groupKeys ?? []).forEach((k, i) => (obj[k.name] = toJson(ctx, g.keys[i], k.type, vaccs)));
      (t.groupAccums ?? []).forEach((k, i) => (obj[k.name] = accumJson(ctx, g.accs[i], k.type, vaccs)));
      out.push(obj);
    }
    return out;
  }
  return toJson(ctx, a.value(), accumValueType(t), vaccs);
}

/**
 * An element of a query collection (List/Set/Bag element, map value, accumulator or not).
 * TigerGraph keeps DATETIME elements there as epoch seconds and prints them as numbers (its
 * recorded examples: BagAccum<DATETIME> gives [2, 1], MapAccum<VERTEX, DATETIME> gives
 * {"person1": 1263209520}), while a DATETIME variable, vertex or edge attribute, tuple field or
 * Min/MaxAccum prints as "YYYY-MM-DD hh:mm:ss".
 */
function elementJson(ctx: RunContext, v: unknown, t: QType, vaccs: Map<string, VertexAccum>): JsonValue {
  if (t.kind === 'DATETIME' && typeof v === 'number') return v;
  return toJson(ctx, v, t, vaccs);
}

function keyText(ctx: RunContext, k: unknown): string {
  if (k instanceof Vtx) return ctx.graph.vertexId(k.type, k.row);
  if (k instanceof TupleVal) return k.values.map((v) => keyText(ctx, v)).join(',');
  return String(k);
}

/** The JSON form of a value of type t. */
export function toJson(ctx: RunContext, v: unknown, t: QType, vaccs: Map<string, VertexAccum>): JsonValue {
  // An EDGE variable never assigned prints as an empty object, as TigerGraph's does.
  if (t.kind === 'EDGE' && !(v instanceof EdgeVal)) return {};
  if (v === null || v === undefined) return null;
  switch (t.kind) {
    case 'FLOAT':
      return floatJson(v, 7);
    case 'DOUBLE':
      return floatJson(v, 16);
    case 'DATETIME':
      return formatDatetime(v as number);
    case 'VERTEX':
      return v instanceof Vtx ? ctx.graph.vertexId(v.type, v.row) : null;
    case 'EDGE': {
      const r = ctx.graph.edgeRecord((v as EdgeVal).handle);
      const def = ctx.graph.catalog.edgeTypes.find((e) => e.name === r.e_type || e.reverseEdge === r.e_type);
      const attributes: JsonObject = {};
      for (const a of def?.attributes ?? []) {
        if (a.name in r.attributes)
          attributes[a.name] = toJsonValue(r.attributes[a.name], a.type, ctx.graph.catalog);
      }
      // Its edge-attached accumulators follow, as a vertex's follow its attributes.
      for (const ea of ctx.edgeAccums)
        attributes['@' + ea.name] = toJson(ctx, ea.value((v as EdgeVal).handle), accumValueType(ea.t), vaccs);
      // TigerGraph 4's order; an edge type with a DISCRIMINATOR also shows its value as text (what
      // tells parallel edges apart), its attributes joined by commas.
      const out: JsonObject = {
        e_type: r.e_type,
        from_id: r.from_id,
        from_type: r.from_type,
        to_id: r.to_id,
        to_type: r.to_type,
        directed: r.directed,
      };
      if (def !== undefined && def.discriminator.length > 0)
        out.discriminator = def.discriminator.map((name) => String(attributes[name])).join(',');
      out.attributes = attributes;
      return out;
    }
    case 'LIST':
    case 'SET':
    case 'BAG':
      return collectionItems(v).map((x) => elementJson(ctx, x, t.elem, vaccs));
    case 'MAP': {
      if (v instanceof MapAccum)
        return accumJson(ctx, v, { kind: 'ACCUM', accum: 'MapAccum', key: t.key, elem: t.value }, vaccs);
      const obj: JsonObject = {};
      for (const [k, x] of v as Map<unknown, unknown>)
        obj[keyText(ctx, k)] = elementJson(ctx, x, t.value, vaccs);
      return obj;
    }
    case 'TUPLE': {
      const tv = v as TupleVal;
      const obj: JsonObject = {};
      t.fields.forEach((f, i) => (obj[f.name] = toJson(ctx, tv.values[i], f.type, vaccs)));
      return obj;
    }
    case 'ACCUM':
      return accumJson(ctx, v as Accum, t, vaccs);
    case 'VSET':
      return (v as Vtx[]).map((x) => vertexJson(ctx, x, vaccs));
    case 'JSONOBJECT':
    case 'JSONARRAY':
      return (v ?? null) as JsonValue;
    case 'INT':
    case 'UINT':
    case 'STRING':
    case 'BOOL':
      return v as JsonValue;
    default:
      return null;
  }
}

/** A vertex of a printed vertex set: id, type, attributes and its vertex-attached accumulators. */
export function vertexJson(
  ctx: RunContext,
  v: Vtx,
  vaccs: Map<string, VertexAccum>,
  only?: JsonObject,
): JsonObject {
  const attributes: JsonObject = {};
  if (only) Object.assign(attributes, only);
  else {
    const def = ctx.graph.catalog.vertexTypes.find((d) => d.name === v.type);
    if (def) {
      if (
        def.keyKind === 'primary_id' &&
        def.primaryIdAsAttribute &&
        !def.attributes.some((a) => a.name === def.primaryId.name)
      ) {
        attributes[def.primaryId.name] = toJsonValue(
          ctx.graph.attr(v.type, v.row, def.primaryId.name),
          def.primaryId.type,
          ctx.graph.catalog,
        );
      }
      for (const a of def.attributes) {
        attributes[a.name] = toJsonValue(ctx.graph.attr(v.type, v.row, a.name), a.type, ctx.graph.catalog);
      }
    }
    for (const va of vaccs.values())
      attributes['@' + va.name] = accumJson(ctx, vaccOf(ctx, v, va), va.t, vaccs);
  }
  return { v_id: ctx.graph.vertexId(v.type, v.row), v_type: v.type, attributes };
}

/** The key a PRINT item is shown under. */
function printKey(cx: Cx, item: PrintItem): string {
  if (item.alias) return item.alias;
  const e = item.expr;
  if (e.kind === 'name') return e.name;
  if (e.kind === 'global') return '@@' + e.name;
  return exprKey(cx.src, e, isBuiltinFunction, cx.srcStart);
}

/**
 * `PRINT S WHERE cond`: a printed vertex set keeps the vertices for which cond holds, cond seeing
 * each vertex under the set's own name. Other items are printed whole.
 */
function withPrintWhere(cx: Cx, item: PrintItem, x: Typed, where: Expr | undefined): Typed {
  if (!where || x.t.kind !== 'VSET' || item.expr.kind !== 'name') return x;
  const name = item.expr.name;
  const vertexType = x.t.vertexType;
  const cond = cx.nested(() => {
    const slot = cx.declare(name, { kind: 'VERTEX', vertexType }, item.pos, true).slot;
    const c = compileExpr(cx, where);
    expectType(c, T.BOOL, where.pos, 'PRINT … WHERE');
    return { slot, f: c.f };
  });
  const f = x.f;
  return {
    t: x.t,
    f: (ctx) =>
      (f(ctx) as Vtx[]).filter((v) => {
        ctx.vars[cond.slot] = v;
        return cond.f(ctx) === true;
      }),
  };
}

/**
 * A whole global ArrayAccum prints from its cells: an assignment of another array may have changed
 * its dimensions since the declaration.
 */
function wholeArray(cx: Cx, e: Expr): Typed | undefined {
  if (e.kind !== 'global' || e.index || e.prev) return undefined;
  const g = cx.globals.get(e.name);
  if (!g || g.t.accum !== 'ArrayAccum') return undefined;
  const slot = g.slot;
  return { t: g.t, f: (ctx) => ctx.vars[slot] };
}

/**
 * `PRINT S.@acc` / `PRINT S.attr` of a vertex-set variable S prints S with that one value per
 * vertex, as `PRINT S[S.@acc]` does (TigerGraph's output for it).
 */
function setAttributeAsProjection(cx: Cx, item: PrintItem): PrintItem {
  const e = item.expr;
  if (item.projection || (e.kind !== 'vattach' && e.kind !== 'field')) return item;
  const target = e.target;
  if (target?.kind !== 'name' || cx.lookup(target.name)?.t.kind !== 'VSET') return item;
  return { ...item, expr: target, projection: [{ expr: e }] };
}

export function compilePrint(cx: Cx, s: Stmt & { kind: 'print' }): (ctx: RunContext) => void {
  if (cx.clause !== 'body') throw compileError(s.pos, `PRINT is not allowed in ${cx.clause}`);
  const vaccs = cx.vaccs;
  let filtered = 0;
  const items = s.items.map((given) => {
    const item = setAttributeAsProjection(cx, given);
    const key = printKey(cx, item);
    const x = withPrintWhere(cx, item, wholeArray(cx, item.expr) ?? compileExpr(cx, item.expr), s.where);
    if (s.where && x.t.kind === 'VSET') filtered++;
    if (item.projection) {
      if (x.t.kind !== 'VSET') throw compileError(item.pos, `only a vertex set can be printed with [ … ]`);
      const name = (item.expr as { name: string }).name;
      // Projected expressions see each vertex under the set's own name.
      const proj = cx.nested(() => {
        const b = cx.declare(
          name,
          { kind: 'VERTEX', vertexType: x.t.kind === 'VSET' ? x.t.vertexType : undefined },
          item.pos,
          true,
        );
        return {
          slot: b.slot,
          cols: item.projection!.map((p) => {
            const c = compileExpr(cx, p.expr);
            return {
              key: p.alias ?? exprKey(cx.src, p.expr, isBuiltinFunction, cx.srcStart),
              f: c.f,
              t: c.t,
            };
          }),
        };
      });
      const f = x.f;
      return {
        key,
        f: ((ctx) =>
          (f(ctx) as Vtx[]).map((v) => {
            ctx.vars[proj.slot] = v;
            const only: JsonObject = {};
            for (const c of proj.cols) only[c.key] = toJson(ctx, c.f(ctx), c.t, vaccs);
            return vertexJson(ctx, v, vaccs, only);
          })) as Eval,
        t: T.VOID,
      };
    }
    if (x.t.kind === 'VOID') throw compileError(item.pos, 'this expression has no value to print');
    return { key, f: x.f, t: x.t };
  });
  if (s.where && filtered === 0) throw compileError(s.where.pos, 'PRINT … WHERE needs a vertex set to print');
  return (ctx) => {
    const obj: JsonObject = {};
    for (const it of items) {
      const v = it.f(ctx);
      obj[it.key] = it.t.kind === 'VOID' ? (v as JsonValue) : toJson(ctx, v, it.t, vaccs);
    }
    ctx.results.push(obj);
  };
}
