/**
 * evaluate(expressionStr [, typeStr]): an expression given as a string, compiled when the query runs
 * against the names visible where the call stands. As TigerGraph documents it, the expression may
 * name SELECT aliases, parameters, vertex-attached and global scalar accumulators of primitive types
 * and built-in functions; typeStr is a literal "int", "uint", "float", "double", "bool" or
 * "string" (default "bool"). A syntax error, an unknown name, a non-primitive attribute or
 * accumulator and a result of the wrong type are run-time errors; an attribute the alias's type does
 * not have or an operator applied to values it does not take fail silently: a WHERE/HAVING condition
 * is then false and an ACCUM, POST-ACCUM or body statement is skipped.
 */
import type { Expr } from '../gsql/ast-query.js';
import { tokenize, GsqlSyntaxError } from '../gsql/lexer.js';
import { parseExpr, TokenCursor } from '../gsql/parser-expr.js';
import { arity, typed, type Call } from './builtin-args.js';
import { compileExpr } from './expr-support.js';
import type { RunContext } from './context.js';
import { compileError, QueryCompileError } from './errors.js';
import { Flow, type BodyStmt, type Cx, type Eval, type RowStmt, type Typed } from './scope.js';
import { accumValueType, isInteger, isNumeric, T, typeText, type QType } from './types.js';
import { QueryRuntimeError } from './values.js';

/** A silent evaluate() failure: the statement or condition holding the call does not apply. */
class EvaluateFailure extends Error {}

const RESULT_TYPES: Record<string, QType> = {
  int: T.INT,
  uint: T.UINT,
  float: T.FLOAT,
  double: T.DOUBLE,
  bool: T.BOOL,
  string: T.STRING,
};

function fits(want: QType, got: QType): boolean {
  if (isInteger(want)) return isInteger(got);
  if (isNumeric(want)) return isNumeric(got);
  return want.kind === got.kind;
}

function isPrimitive(t: QType): boolean {
  return isNumeric(t) || t.kind === 'BOOL' || t.kind === 'STRING';
}

export function compileEvaluate(cx: Cx, e: Call): Typed {
  if (e.args.length !== 1) arity(e, 2);
  const text = typed(cx, e.args[0], T.STRING, 'evaluate()');
  let want = T.BOOL;
  const typeArg = e.args[1];
  if (typeArg) {
    const t = typeArg.kind === 'string' ? RESULT_TYPES[typeArg.value.toLowerCase()] : undefined;
    if (!t) {
      throw compileError(
        typeArg.pos,
        'the type of evaluate() must be a string literal: "int", "uint", "float", "double", "bool" or "string"',
      );
    }
    want = t;
  }
  cx.evaluateCalls++;
  const place = cx.place();
  const conditional = place.clause === 'WHERE' || place.clause === 'HAVING';
  const compiled = new Map<string, Eval>();
  const compile = (src: string): Eval => {
    let f = compiled.get(src);
    if (!f) {
      // An installed query keeps its call sites: bound what one remembers across runs.
      if (compiled.size >= 256) compiled.clear();
      f = cx.at(place, () => compileText(cx, src, want));
      compiled.set(src, f);
    }
    return f;
  };
  return {
    t: want,
    f: (ctx) => {
      try {
        return compile(text(ctx) as string)(ctx);
      } catch (err) {
        if (err instanceof EvaluateFailure && conditional && want.kind === 'BOOL') return false;
        throw err;
      }
    },
  };
}

/** Compiles the text of one evaluate() call; a silent failure compiles to a closure that fails. */
function compileText(cx: Cx, src: string, want: QType): Eval {
  const expr = parseText(src);
  const silent = checkNames(cx, expr, src);
  if (silent) return failing;
  let x: Typed;
  try {
    x = compileExpr(cx, expr);
  } catch (err) {
    // Operators applied to values they do not take (123 == "xyz") fail silently.
    if (err instanceof QueryCompileError) return failing;
    throw err;
  }
  if (!fits(want, x.t)) {
    throw new QueryRuntimeError(
      `Runtime Error: Expression '${src}' value type is not ${typeText(want).toLowerCase()}.`,
    );
  }
  return x.f;
}

const failing: Eval = () => {
  throw new EvaluateFailure();
};

function parseText(src: string): Expr {
  try {
    const c = TokenCursor.of(src, tokenize(src));
    if (c.peek().kind === 'eof') throw c.error('expected an expression');
    const expr = parseExpr(c);
    if (c.peek().kind !== 'eof') throw c.error('expected the end of the expression');
    return expr;
  } catch (err) {
    if (err instanceof GsqlSyntaxError) {
      throw new QueryRuntimeError(`Runtime Error: evaluate() cannot parse '${src}': ${err.detail}.`);
    }
    throw err;
  }
}

/**
 * Checks what the expression names; true when it reads an attribute its alias's type does not
 * have (a silent failure). Throws the run-time errors for names evaluate() cannot see.
 */
function checkNames(cx: Cx, root: Expr, src: string): boolean {
  let silent = false;
  const visit = (e: Expr): void => {
    switch (e.kind) {
      case 'name': {
        const b = cx.lookup(e.name);
        const visible =
          b && (b.aliasTypes !== undefined || isEdgeAlias(b.t, b.readonly) || cx.paramSlots.has(b.slot));
        if (!visible) throw new QueryRuntimeError(`Runtime Error: ${e.name} is undefined parameter.`);
        return;
      }
      case 'field': {
        visit(e.target);
        const kind = attributeKind(cx, e.target, e.name);
        if (kind === 'missing') silent = true;
        else if (kind === 'container')
          throw new QueryRuntimeError(`Runtime Error: ${e.name} is not a primitive type attribute.`);
        return;
      }
      case 'global': {
        const g = cx.globals.get(e.name);
        if (g && !isPrimitive(accumValueType(g.t)))
          throw new QueryRuntimeError(`Runtime Error: @@${e.name} is not a primitive type accumulator.`);
        if (!g) throw new QueryRuntimeError(`Runtime Error: @@${e.name} is undefined parameter.`);
        break;
      }
      case 'vattach': {
        const va = cx.vaccs.get(e.name) ?? cx.eaccs.get(e.name);
        if (!va) throw new QueryRuntimeError(`Runtime Error: @${e.name} is undefined parameter.`);
        if (!isPrimitive(accumValueType(va.t)))
          throw new QueryRuntimeError(`Runtime Error: @${e.name} is not a primitive type accumulator.`);
        break;
      }
      case 'call':
        if (e.name.toLowerCase() === 'evaluate')
          throw new QueryRuntimeError(`Runtime Error: evaluate() cannot be nested ('${src}').`);
        break;
      case 'select':
      case 'seed':
        throw new QueryRuntimeError(`Runtime Error: evaluate() takes an expression, not '${src}'.`);
      default:
        break;
    }
    for (const [k, v] of Object.entries(e)) {
      if (k === 'pos' || k === 'namePos' || k === 'opPos') continue;
      if (Array.isArray(v)) for (const x of v) visitAny(x);
      else visitAny(v);
    }
  };
  const visitAny = (v: unknown): void => {
    if (!v || typeof v !== 'object') return;
    const o = v as { kind?: unknown; when?: Expr; then?: Expr };
    if (typeof o.kind === 'string') visit(v as Expr);
    else if (o.when && o.then) {
      visit(o.when);
      visit(o.then);
    }
  };
  visit(root);
  return silent;
}

function isEdgeAlias(t: QType, readonly: boolean): boolean {
  return t.kind === 'EDGE' && readonly;
}

/** Whether `target.name` is an attribute of the target alias's type(s), and of which kind. */
function attributeKind(cx: Cx, target: Expr, name: string): 'primitive' | 'container' | 'missing' | 'other' {
  if (target.kind !== 'name') return 'other';
  const b = cx.lookup(target.name);
  if (!b) return 'other';
  if (name === 'type') return 'primitive';
  let attrs: { type: { kind: string }; name: string }[] = [];
  if (b.t.kind === 'EDGE') {
    const types = b.t.edgeType ? [b.t.edgeType] : cx.edgeTypeNames();
    attrs = types.flatMap((n) => cx.edgeType(n)?.attributes ?? []);
  } else if (b.t.kind === 'VERTEX') {
    const types = b.aliasTypes && b.aliasTypes.length > 0 ? b.aliasTypes : cx.vertexTypeNames();
    attrs = types.flatMap((n) => {
      const vt = cx.vertexType(n);
      if (!vt) return [];
      const own = [...vt.attributes];
      if (vt.primaryIdAsAttribute) own.push({ name: vt.primaryId.name, type: vt.primaryId.type } as never);
      return own;
    });
  } else return 'other';
  const a = attrs.find((x) => x.name === name);
  if (!a) return 'missing';
  const k = a.type.kind;
  return k === 'INT' || k === 'UINT' || k === 'FLOAT' || k === 'DOUBLE' || k === 'BOOL' || k === 'STRING'
    ? 'primitive'
    : 'container';
}

/** Whether a compile step added an evaluate() call (its statement then may fail silently). */
function addsEvaluate<R>(cx: Cx, fn: () => R): { r: R; evaluates: boolean } {
  const before = cx.evaluateCalls;
  const r = fn();
  return { r, evaluates: cx.evaluateCalls > before };
}

/** An ACCUM/POST-ACCUM statement holding evaluate(): a silent failure skips the statement. */
export function rowStmtSkippingFailures(cx: Cx, compile: () => RowStmt): RowStmt {
  const { r: f, evaluates } = addsEvaluate(cx, compile);
  if (!evaluates) return f;
  return (ctx: RunContext) => {
    try {
      return f(ctx);
    } catch (err) {
      if (err instanceof EvaluateFailure) return Flow.Next;
      throw err;
    }
  };
}

/** A query-body statement holding evaluate(): a silent failure skips the statement. */
export function bodyStmtSkippingFailures(cx: Cx, compile: () => BodyStmt): BodyStmt {
  const { r: f, evaluates } = addsEvaluate(cx, compile);
  if (!evaluates) return f;
  return async (ctx: RunContext) => {
    try {
      return await f(ctx);
    } catch (err) {
      if (err instanceof EvaluateFailure) return Flow.Next;
      throw err;
    }
  };
}

/** Whether a SELECT block calls evaluate() (its aliases, the edge's too, must then be bound). */
export function callsEvaluate(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(callsEvaluate);
  if (!node || typeof node !== 'object') return false;
  const o = node as { kind?: unknown; name?: unknown };
  if (o.kind === 'call' && typeof o.name === 'string' && o.name.toLowerCase() === 'evaluate') return true;
  return Object.entries(o).some(([k, v]) => k !== 'pos' && callsEvaluate(v));
}
