/**
 * Attributes named at run time: `v.getAttr(name, "TYPE")`, `e.getAttr(name, "TYPE")` and
 * `v.setAttr(name, value)`, as the algorithm library uses them with STRING parameters
 * (`weight_attribute`, `result_attribute`). The name is checked against the catalog when the query
 * runs; setAttr is DML, applied when the query ends.
 */
import { arity, typed, type Method } from './builtin-args.js';
import { compileExpr, fromStored } from './expr-support.js';
import type { RunContext } from './context.js';
import { attrUpdate } from './dml.js';
import { compileError } from './errors.js';
import type { Cx, Eval, Typed } from './scope.js';
import { T, type QType } from './types.js';
import { EdgeVal, QueryRuntimeError, toNumber, Vtx } from './values.js';

/** The attribute type names getAttr accepts as its second argument, and the value type each gives. */
const RESULT_TYPES: Record<string, QType> = {
  INT: T.INT,
  UINT: T.UINT,
  FLOAT: T.FLOAT,
  DOUBLE: T.DOUBLE,
  STRING: T.STRING,
  BOOL: T.BOOL,
  DATETIME: T.DATETIME,
};

/** Per vertex or edge type name: its attributes and their kinds (INT, DOUBLE, …). */
type AttrKinds = Map<string, Map<string, string>>;

function vertexAttrKinds(cx: Cx): AttrKinds {
  const out: AttrKinds = new Map();
  for (const tn of cx.vertexTypeNames()) {
    const vt = cx.vertexType(tn);
    const m = new Map<string, string>();
    for (const a of vt?.attributes ?? []) m.set(a.name, a.type.kind);
    if (vt?.keyKind === 'primary_id' && vt.primaryIdAsAttribute)
      m.set(vt.primaryId.name, vt.primaryId.type.kind);
    out.set(tn, m);
  }
  return out;
}

function edgeAttrKinds(cx: Cx): AttrKinds {
  const out: AttrKinds = new Map();
  for (const en of cx.edgeTypeNames()) {
    const et = cx.edgeType(en);
    const m = new Map<string, string>();
    for (const a of et?.attributes ?? []) m.set(a.name, a.type.kind);
    out.set(en, m);
    if (et?.reverseEdge) out.set(et.reverseEdge, m);
  }
  return out;
}

function kindOf(kinds: AttrKinds, typeName: string, attr: string, what: string): string {
  const k = kinds.get(typeName)?.get(attr);
  if (k === undefined) {
    throw new QueryRuntimeError(`Runtime Error: "${attr}" is not an attribute of ${what} type ${typeName}.`);
  }
  return k;
}

const isNumberKind = (k: string): boolean => k === 'INT' || k === 'UINT' || k === 'FLOAT' || k === 'DOUBLE';

/** Compiles getAttr/setAttr on a vertex or edge value `tf` of type `t`. */
export function attrMethod(cx: Cx, e: Method, name: 'getattr' | 'setattr', target: Typed): Typed {
  const vertex = target.t.kind === 'VERTEX';
  const what = vertex ? 'vertex' : 'edge';
  const kinds = vertex ? vertexAttrKinds(cx) : edgeAttrKinds(cx);
  const tf = target.f;
  const owner = (ctx: RunContext): { type: string; v: Vtx | EdgeVal } => {
    const v = tf(ctx);
    if (v instanceof Vtx) return { type: v.type, v };
    if (v instanceof EdgeVal) return { type: v.handle.edgeType, v };
    throw new QueryRuntimeError(`Runtime Error: ${e.name}() of a NULL ${what}.`, 'GSQL-1001');
  };
  if (name === 'getattr') {
    arity(e, 2);
    const attr = typed(cx, e.args[0], T.STRING, 'the attribute name of getAttr()');
    const typeArg = e.args[1];
    const rt = typeArg.kind === 'string' ? RESULT_TYPES[typeArg.value.toUpperCase()] : undefined;
    if (!rt) {
      throw compileError(
        typeArg.pos,
        `getAttr() needs the attribute type as a string literal: ${Object.keys(RESULT_TYPES).join(', ')}`,
      );
    }
    const wantNumber = isNumberKind(rt.kind);
    const tuples = cx.tuples;
    return {
      t: rt,
      f: (ctx) => {
        const { type, v } = owner(ctx);
        const a = attr(ctx) as string;
        const k = kindOf(kinds, type, a, what);
        if (k !== rt.kind && !(wantNumber && isNumberKind(k))) {
          throw new QueryRuntimeError(
            `Runtime Error: attribute ${a} of ${what} type ${type} is ${k}, not ${rt.kind}.`,
          );
        }
        const stored = v instanceof Vtx ? ctx.graph.attr(v.type, v.row, a) : ctx.graph.edgeAttr(v.handle, a);
        const x = fromStored(ctx, stored, tuples);
        if (rt.kind === 'FLOAT' || rt.kind === 'DOUBLE') return toNumber(x);
        if (rt.kind === 'INT' || rt.kind === 'UINT') return typeof x === 'number' ? Math.trunc(x) : x;
        return x;
      },
    };
  }
  // Edge attributes are written from ACCUM (the edge is only bound there); vertex ones from POST-ACCUM.
  if (vertex && cx.clause === 'ACCUM') {
    throw compileError(e.namePos, 'setAttr() cannot be used in an ACCUM clause; use POST-ACCUM');
  }
  arity(e, 2);
  const attr = typed(cx, e.args[0], T.STRING, 'the attribute name of setAttr()');
  const value: Eval = compileExpr(cx, e.args[1]).f;
  return {
    t: T.VOID,
    f: (ctx) => {
      const { type, v } = owner(ctx);
      const a = attr(ctx) as string;
      const k = kindOf(kinds, type, a, what);
      let x = value(ctx);
      // Numbers are stored as the attribute's kind, as an assignment to it would convert them.
      if ((k === 'INT' || k === 'UINT') && typeof x === 'number') x = Math.trunc(x);
      else if ((k === 'FLOAT' || k === 'DOUBLE') && typeof x === 'bigint') x = Number(x);
      if (v instanceof Vtx)
        ctx.dml.push((tx) => tx.setVertexAttrs(v.type, v.row, { [a]: attrUpdate(tx, x) }));
      else ctx.dml.push((tx) => tx.setEdgeAttrs(v.handle, { [a]: attrUpdate(tx, x) }));
      return null;
    },
  };
}
