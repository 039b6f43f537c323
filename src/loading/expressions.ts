/**
 * Compiles VALUES expressions and WHERE conditions of a loading job into closures over a row.
 * A row is any positional view of one input record: a CSV line, a JSON line (its referenced keys
 * laid out by slot) or a TEMP_TABLE row. Named columns resolve to slots whose positions are filled
 * in when the header is read, so closures never look names up per line.
 */
import type { LoadCond, LoadExpr } from '../gsql/ast-loading.js';
import { MapPairs, TupleFields, type Produced } from './convert.js';
import {
  TokenFunctionError,
  tokenFunction,
  tokenFunctionNames,
  type TokenFunction,
} from './token-functions.js';

export interface Row {
  readonly count: number;
  token(i: number): string;
  /** Token i as a small integer read without decoding, when the row can (CSV lines); else undefined. */
  smallInt(i: number): number | undefined;
  /**
   * Token i's code in the load's dictionary of id words (token-words.ts), also kept for `codeAt`;
   * -1 when the row has no dictionary, the token is quoted with escapes, or the dictionary is full.
   */
  wordCode(i: number): number;
  /** The code `wordCode(i)` gave for this row. */
  codeAt(i: number): number;
  /** The word of a code `wordCode` gave. */
  word(code: number): string;
  /**
   * Token i read as a DATETIME (epoch seconds) without decoding it, when it is in one of the fast
   * forms of convert.ts `fastDatetime`; undefined otherwise (the caller takes the string path).
   */
  datetime(i: number): number | undefined;
}

/** A row backed by an array of strings (JSON lines, TEMP_TABLE rows). */
export class ArrayRow implements Row {
  constructor(public values: string[]) {}
  get count(): number {
    return this.values.length;
  }
  token(i: number): string {
    return this.values[i];
  }
  smallInt(): number | undefined {
    return undefined;
  }
  wordCode(): number {
    return -1;
  }
  codeAt(): number {
    return -1;
  }
  word(): string {
    return '';
  }
  datetime(): number | undefined {
    return undefined;
  }
}

export class LoadingJobError extends Error {
  constructor(
    message: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(line !== undefined ? `${message} (line ${line}, column ${column})` : message);
    this.name = 'LoadingJobError';
  }
}

export function jobError(message: string, at: { line: number; column: number }): LoadingJobError {
  return new LoadingJobError(message, at.line, at.column);
}

/**
 * Named columns of one input: `$"name"` (or a JSON path) gets a slot; `positions[slot]` is the
 * token index it reads, set when the header is known. For JSON input the slot is the position.
 */
export class ColumnSlots {
  readonly names: string[][] = [];
  private readonly index = new Map<string, number>();
  positions = new Int32Array(0);

  slot(path: string[]): number {
    const key = path.join('\u0000');
    let s = this.index.get(key);
    if (s === undefined) {
      s = this.names.length;
      this.names.push(path);
      this.index.set(key, s);
    }
    return s;
  }

  /** Resolves every slot against a header line; returns the names not found. */
  resolve(header: readonly string[]): string[] {
    const missing: string[] = [];
    this.positions = new Int32Array(this.names.length);
    for (let s = 0; s < this.names.length; s++) {
      const name = this.names[s].join(':');
      // TigerGraph matches a header name without the blanks around it ("src, tgt" has a column
      // "tgt"), as its own tutorial data needs; a name written with the blanks matches first.
      let at = header.indexOf(name);
      if (at < 0) at = header.findIndex((h) => h.trim() === name);
      if (at < 0) missing.push(name);
      this.positions[s] = at;
    }
    return missing;
  }

  /** JSON input: the row holds slot values in slot order. */
  identity(): void {
    this.positions = Int32Array.from(this.names, (_n, i) => i);
  }
}

/** Where an expression's tokens come from. */
export interface ExprScope {
  slots: ColumnSlots;
  /** Columns by name for TEMP_TABLE sources (fixed positions); undefined for files. */
  fixedColumns?: readonly string[];
  /** Whether named columns are allowed (a header, a JSON file, or a temp table). */
  namedAllowed: boolean;
  /** Names of user-defined tuples (for constructors such as Secret_Info($2, $3)). */
  tupleNames: ReadonlyMap<string, number>;
  /** The catalog's TokenBank functions (token-bank.ts), by exact name. */
  userFunctions: ReadonlyMap<string, TokenFunction>;
}

export type RowFn = (row: Row) => string;
export type ValueFn = (row: Row) => Produced;

/** Tracks the highest token position an expression reads (for notEnoughToken). */
export interface Needs {
  maxPosition: number;
}

/** Compiles an expression that yields one token. */
export function compileToken(e: LoadExpr, scope: ExprScope, needs: Needs): RowFn {
  switch (e.kind) {
    case 'position': {
      const i = e.index;
      if (i > needs.maxPosition) needs.maxPosition = i;
      return (row) => row.token(i);
    }
    case 'column': {
      if (scope.fixedColumns) {
        const name = e.path.join(':');
        const i = scope.fixedColumns.indexOf(name);
        if (i < 0) throw jobError(`Column "${name}" is not a column of the temporary table.`, e);
        if (i > needs.maxPosition) needs.maxPosition = i;
        return (row) => row.token(i);
      }
      if (!scope.namedAllowed) {
        throw jobError(
          `$"${e.path.join(':')}" names a column, but the file has no header: use HEADER="true", USER_DEFINED_HEADER or JSON_FILE="true".`,
          e,
        );
      }
      const slot = scope.slots.slot(e.path);
      const slots = scope.slots;
      return (row) => {
        const p = slots.positions[slot];
        return p < row.count ? row.token(p) : '';
      };
    }
    case 'string': {
      const v = e.value;
      return () => v;
    }
    case 'number': {
      const v = e.text;
      return () => v;
    }
    case 'call': {
      const lower = e.name.toLowerCase();
      const fn = tokenFunction(lower) ?? scope.userFunctions.get(e.name);
      if (!fn) {
        if (
          lower === 'split' ||
          lower === 'flatten' ||
          lower === 'flatten_json_array' ||
          scope.tupleNames.has(lower)
        ) {
          throw jobError(`${e.name}() does not yield a single token and cannot be used here.`, e);
        }
        throw jobError(
          `Unknown token function "${e.name}"; known functions: ${[...tokenFunctionNames(), ...scope.userFunctions.keys()].join(', ')}, SPLIT, flatten, flatten_json_array.`,
          e,
        );
      }
      if (e.args.length < fn.minArgs || e.args.length > fn.maxArgs) {
        const want =
          fn.maxArgs === Infinity
            ? `at least ${fn.minArgs}`
            : fn.minArgs === fn.maxArgs
              ? `${fn.minArgs}`
              : `${fn.minArgs} to ${fn.maxArgs}`;
        throw jobError(`${e.name}() takes ${want} argument(s), not ${e.args.length}.`, e);
      }
      const args = e.args.map((a) => compileToken(a, scope, needs));
      const f = fn.fn;
      const name = e.name;
      const at = e;
      if (args.length === 1) {
        const a0 = args[0];
        return (row) => call(f, [a0(row)], name, at);
      }
      return (row) =>
        call(
          f,
          args.map((a) => a(row)),
          name,
          at,
        );
    }
    case 'skip':
      throw jobError('"_" can only stand for a whole attribute value.', e);
    case 'reduce':
      throw jobError('REDUCE() can only stand for a whole attribute value.', e);
    case 'typed':
      throw jobError(`A vertex type ("${e.vertexType}") can only follow an edge endpoint.`, e);
    case 'map_entry':
      throw jobError('(key -> value) can only stand for a whole MAP attribute value.', e);
  }
}

function call(
  f: (args: readonly string[]) => string,
  args: string[],
  name: string,
  at: { line: number; column: number },
): string {
  try {
    return f(args);
  } catch (err) {
    if (err instanceof TokenFunctionError) throw jobError(`${name}(): ${err.message}`, at);
    throw err;
  }
}

export type AttrShape = 'scalar' | 'collection' | 'map' | 'tuple';

/** Compiles a VALUES item for an attribute of the given shape: SPLIT for collections and maps, tuple constructors. */
export function compileValue(e: LoadExpr, shape: AttrShape, scope: ExprScope, needs: Needs): ValueFn {
  if (e.kind === 'call') {
    const lower = e.name.toLowerCase();
    if (lower === 'split') {
      if (e.args.length < 2 || e.args.length > 3) throw jobError('SPLIT() takes 2 or 3 arguments.', e);
      const src = compileToken(e.args[0], scope, needs);
      const seps = e.args.slice(1).map((a) => {
        if (a.kind !== 'string' || a.value === '')
          throw jobError('SPLIT() separators must be non-empty string literals.', a);
        return a.value;
      });
      if (shape === 'map') {
        const kv = seps[0];
        const pairSep = seps[1];
        return (row) => {
          const text = src(row);
          if (text === '') return new MapPairs([]);
          const parts = pairSep === undefined ? [text] : text.split(pairSep);
          const pairs: [string, string][] = [];
          for (const part of parts) {
            const at = part.indexOf(kv);
            pairs.push(at < 0 ? [part, ''] : [part.slice(0, at), part.slice(at + kv.length)]);
          }
          return new MapPairs(pairs);
        };
      }
      if (shape !== 'collection') throw jobError('SPLIT() loads a LIST, SET or MAP attribute only.', e);
      if (seps.length !== 1) throw jobError('SPLIT() for a LIST or SET takes one separator.', e);
      const sep = seps[0];
      return (row) => {
        const text = src(row);
        return text === '' ? [] : text.split(sep);
      };
    }
    const tupleArity = scope.tupleNames.get(lower);
    if (tupleArity !== undefined) {
      if (shape !== 'tuple')
        throw jobError(`${e.name}(…) builds a tuple, but the attribute is not of that tuple type.`, e);
      if (e.args.length !== tupleArity)
        throw jobError(`${e.name}(…) takes ${tupleArity} fields, not ${e.args.length}.`, e);
      const fields = e.args.map((a) => compileToken(a, scope, needs));
      const typeName = e.name;
      return (row) =>
        new TupleFields(
          typeName,
          fields.map((f) => f(row)),
        );
    }
  }
  if (e.kind === 'map_entry') {
    if (shape !== 'map') throw jobError('(key -> value) loads a MAP attribute only.', e);
    const k = compileToken(e.key, scope, needs);
    const v = compileToken(e.value, scope, needs);
    return (row) => new MapPairs([[k(row), v(row)]]);
  }
  return compileToken(e, scope, needs);
}

const NUMERIC_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function isNumericExpr(e: LoadExpr): boolean {
  if (e.kind === 'number') return true;
  if (e.kind === 'call') {
    const n = e.name.toLowerCase();
    return (
      n === 'to_int' ||
      n === 'to_float' ||
      n === 'gsql_to_int' ||
      n === 'gsql_to_uint' ||
      n === 'gsql_length' ||
      n === 'gsql_find' ||
      n.startsWith('gsql_year') ||
      n.startsWith('gsql_month') ||
      n.startsWith('gsql_day') ||
      n === 'gsql_ts_to_epoch_seconds' ||
      n === 'gsql_current_time_epoch'
    );
  }
  return false;
}

export type CondFn = (row: Row) => boolean;

/**
 * Compiles a WHERE condition. A comparison is numeric when either side is a number literal or a
 * numeric function (to_int, to_float …): a side that is then not a number makes it false.
 * Otherwise tokens compare as strings.
 */
export function compileCond(c: LoadCond, scope: ExprScope, needs: Needs): CondFn {
  switch (c.kind) {
    case 'and': {
      const l = compileCond(c.left, scope, needs);
      const r = compileCond(c.right, scope, needs);
      return (row) => l(row) && r(row);
    }
    case 'or': {
      const l = compileCond(c.left, scope, needs);
      const r = compileCond(c.right, scope, needs);
      return (row) => l(row) || r(row);
    }
    case 'not': {
      const o = compileCond(c.operand, scope, needs);
      return (row) => !o(row);
    }
    case 'compare': {
      const l = compileToken(c.left, scope, needs);
      const r = compileToken(c.right, scope, needs);
      const numeric = isNumericExpr(c.left) || isNumericExpr(c.right);
      const cmp = comparator(c.op);
      if (numeric) {
        return (row) => {
          const a = l(row).trim();
          const b = r(row).trim();
          if (!NUMERIC_RE.test(a) || !NUMERIC_RE.test(b)) return c.op === '!=';
          return cmp(Number(a), Number(b));
        };
      }
      return (row) => cmp(l(row), r(row));
    }
    case 'is': {
      const o = compileToken(c.operand, scope, needs);
      const test = c.test === 'NUMERIC' ? (t: string) => NUMERIC_RE.test(t.trim()) : (t: string) => t === '';
      return c.negated ? (row) => !test(o(row)) : (row) => test(o(row));
    }
    case 'in': {
      const o = compileToken(c.operand, scope, needs);
      const vals = c.values.map((v) => compileToken(v, scope, needs));
      const neg = c.negated;
      return (row) => {
        const t = o(row);
        const found = vals.some((v) => v(row) === t);
        return neg ? !found : found;
      };
    }
    case 'between': {
      const o = compileToken(c.operand, scope, needs);
      const lo = compileToken(c.low, scope, needs);
      const hi = compileToken(c.high, scope, needs);
      return (row) => {
        const [x, a, b] = [o(row).trim(), lo(row).trim(), hi(row).trim()];
        if (!NUMERIC_RE.test(x) || !NUMERIC_RE.test(a) || !NUMERIC_RE.test(b)) return false;
        return Number(x) >= Number(a) && Number(x) <= Number(b);
      };
    }
    case 'test': {
      const o = compileToken(c.expr, scope, needs);
      return (row) => {
        const t = o(row).toLowerCase();
        return t === 'true' || t === 't';
      };
    }
  }
}

function comparator(op: string): (a: number | string, b: number | string) => boolean {
  switch (op) {
    case '==':
      return (a, b) => a === b;
    case '!=':
      return (a, b) => a !== b;
    case '<':
      return (a, b) => a < b;
    case '<=':
      return (a, b) => a <= b;
    case '>':
      return (a, b) => a > b;
    default:
      return (a, b) => a >= b;
  }
}
