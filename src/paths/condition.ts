/**
 * Path-finding filter conditions (`"rating > 5 and date_time > 1000"`): parsed with the GSQL
 * expression parser and evaluated over one vertex's or edge's attributes. The query compiler is not
 * used: it needs a whole query's scope and run context, while a filter only reads attributes of one
 * element, so a small evaluator over the parsed tree fits better.
 *
 * Accepted: attribute names, number/string/boolean literals, `and`/`or`/`not` (also `&&`, `||`, `!`),
 * comparisons (`=` and `==` both mean equality, `!=`, `<>`, `<`, `<=`, `>`, `>=`), `+ - * / %`,
 * `BETWEEN`, `IN (…)`/`NOT IN`, parentheses. A string compared with a DATETIME attribute is read as
 * a date-time.
 */
import type { AttrType } from '../catalog/types.js';
import type { Value } from '../catalog/value.js';
import type { Expr } from '../gsql/ast-query.js';
import { GsqlSyntaxError, tokenize, type Token } from '../gsql/lexer.js';
import { parseExpr, TokenCursor } from '../gsql/parser-expr.js';
import { parseDatetime } from '../util/datetime.js';
import { PathError } from './errors.js';

/** Reads one attribute of the element being tested. */
export type AttrReader = (attribute: string) => Value;
export type Condition = (read: AttrReader) => boolean;

type Scalar = number | bigint | string | boolean | null;
type Eval = (read: AttrReader) => Scalar;

interface Scope {
  types: ReadonlyMap<string, AttrType>;
  /** Says where the condition came from in error messages, e.g. `vertex filter on 'person'`. */
  what: string;
}

/** Compiles a condition text; a syntax or name error is a PathError naming the filter. */
export function compileCondition(
  text: string,
  types: ReadonlyMap<string, AttrType>,
  what: string,
): Condition {
  let tokens: Token[];
  let expr: Expr;
  try {
    // REST filters write equality as `=` (TigerGraph's own samples: "type=4"); GSQL spells it `==`.
    tokens = tokenize(text).map((t) => (t.kind === 'punct' && t.text === '=' ? { ...t, text: '==' } : t));
    const c = TokenCursor.of(text, tokens);
    expr = parseExpr(c);
    if (c.peek().kind !== 'eof') throw c.error('expected the end of the condition');
  } catch (e) {
    if (e instanceof GsqlSyntaxError) {
      throw new PathError(`Invalid condition '${text}' in the ${what}: ${e.message}.`);
    }
    throw e;
  }
  const scope: Scope = { types, what };
  const f = compile(expr, scope, text);
  return (read) => f(read) === true;
}

function fail(scope: Scope, text: string, detail: string): PathError {
  return new PathError(`Invalid condition '${text}' in the ${scope.what}: ${detail}.`);
}

function compile(e: Expr, scope: Scope, text: string): Eval {
  switch (e.kind) {
    case 'int':
    case 'float':
    case 'string':
    case 'bool': {
      const v = e.value;
      return () => v;
    }
    case 'null':
      return () => null;
    case 'name': {
      const name = e.name;
      const t = scope.types.get(name);
      if (!t) throw fail(scope, text, `'${name}' is not an attribute`);
      if (!isScalar(t)) throw fail(scope, text, `the attribute '${name}' (${t.kind}) cannot be compared`);
      return (read) => read(name) as Scalar;
    }
    case 'unary': {
      const x = compile(e.operand, scope, text);
      if (e.op === 'NOT') return (r) => !truthy(x(r));
      return (r) => {
        const v = x(r);
        return typeof v === 'bigint' ? -v : typeof v === 'number' ? -v : null;
      };
    }
    case 'binary':
      return binary(e, scope, text);
    case 'between': {
      const x = compile(e.operand, scope, text);
      const lo = compile(e.low, scope, text);
      const hi = compile(e.high, scope, text);
      const dt = datetimeSide(e.operand, scope);
      const neg = e.negated;
      return (r) => {
        const v = x(r);
        const inside = cmp(v, asSide(lo(r), dt)) >= 0 && cmp(v, asSide(hi(r), dt)) <= 0;
        return neg ? !inside : inside;
      };
    }
    case 'tuple':
    case 'list':
      throw fail(scope, text, 'a list is only allowed after IN');
    default:
      throw fail(scope, text, `'${text.slice(e.start, e.end)}' is not supported in a filter`);
  }
}

function binary(e: Expr & { kind: 'binary' }, scope: Scope, text: string): Eval {
  const op = e.op;
  if (op === 'IN' || op === 'NOT IN') {
    const x = compile(e.left, scope, text);
    const items = e.right.kind === 'tuple' || e.right.kind === 'list' ? e.right.items : [e.right];
    const dt = datetimeSide(e.left, scope);
    const fs = items.map((i) => compile(i, scope, text));
    return (r) => {
      const v = x(r);
      const found = fs.some((f) => cmp(v, asSide(f(r), dt)) === 0);
      return op === 'IN' ? found : !found;
    };
  }
  const l = compile(e.left, scope, text);
  const rt = compile(e.right, scope, text);
  switch (op) {
    case 'AND':
      return (r) => truthy(l(r)) && truthy(rt(r));
    case 'OR':
      return (r) => truthy(l(r)) || truthy(rt(r));
    case '==':
    case '!=':
    case '<':
    case '<=':
    case '>':
    case '>=': {
      // A string literal against a DATETIME attribute means a date-time ("2020-01-01 00:00:00").
      const ldt = datetimeSide(e.right, scope);
      const rdt = datetimeSide(e.left, scope);
      const test = COMPARE[op];
      return (r) => {
        const a = asSide(l(r), ldt);
        const b = asSide(rt(r), rdt);
        if (a === null || b === null) return op === '!=' ? a !== b : op === '==' && a === b;
        return test(cmp(a, b));
      };
    }
    case '+':
    case '-':
    case '*':
    case '/':
    case '%':
      return (r) => arith(op, l(r), rt(r));
    default:
      throw fail(scope, text, `the operator ${op} is not supported in a filter`);
  }
}

const COMPARE: Record<string, (c: number) => boolean> = {
  '==': (c) => c === 0,
  '!=': (c) => c !== 0,
  '<': (c) => c < 0,
  '<=': (c) => c <= 0,
  '>': (c) => c > 0,
  '>=': (c) => c >= 0,
};

function isScalar(t: AttrType): boolean {
  return ['INT', 'UINT', 'FLOAT', 'DOUBLE', 'STRING', 'BOOL', 'DATETIME'].includes(t.kind);
}

/** Whether the other side of a comparison with `e` is a DATETIME attribute. */
function datetimeSide(e: Expr, scope: Scope): boolean {
  return e.kind === 'name' && scope.types.get(e.name)?.kind === 'DATETIME';
}

function asSide(v: Scalar, datetime: boolean): Scalar {
  if (datetime && typeof v === 'string') return parseDatetime(v) ?? v;
  return v;
}

function truthy(v: Scalar): boolean {
  return v === true;
}

/** Orders two values: numbers (bigint included) numerically, strings and booleans by value; NaN for unlike kinds. */
function cmp(a: Scalar, b: Scalar): number {
  if ((typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint')) {
    if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
    // Mixed bigint/number: compare exactly (a fractional number against a bigint compares by value).
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return Number.NaN;
}

function arith(op: string, a: Scalar, b: Scalar): Scalar {
  if (typeof a === 'bigint' || typeof b === 'bigint') {
    if ((typeof a !== 'bigint' && !Number.isInteger(a)) || (typeof b !== 'bigint' && !Number.isInteger(b))) {
      return arithNum(op, Number(a), Number(b));
    }
    const x = BigInt(a as number | bigint);
    const y = BigInt(b as number | bigint);
    if ((op === '/' || op === '%') && y === 0n) return null;
    const v = op === '+' ? x + y : op === '-' ? x - y : op === '*' ? x * y : op === '/' ? x / y : x % y;
    return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  }
  if (typeof a !== 'number' || typeof b !== 'number')
    return op === '+' && typeof a === 'string' && typeof b === 'string' ? a + b : null;
  return arithNum(op, a, b);
}

function arithNum(op: string, a: number, b: number): number {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return a / b;
    default:
      return a % b;
  }
}
