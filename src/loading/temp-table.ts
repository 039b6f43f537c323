/**
 * TEMP_TABLE targets: a LOAD … TO TEMP_TABLE builds one or more rows per input line (several with
 * flatten / flatten_json_array) and runs the statements that read the table on each at once, so
 * no table is ever materialised.
 */
import type { LoadCond, LoadExpr } from '../gsql/ast-loading.js';
import {
  ArrayRow,
  compileCond,
  compileToken,
  jobError,
  type ExprScope,
  type Needs,
  type Row,
  type RowFn,
} from './expressions.js';
import { jsonToken, dig } from './json-tokens.js';
import type { StmtExec } from './targets.js';

/**
 * A TEMP_TABLE target: builds rows (several with flatten/flatten_json_array) and runs the
 * statements reading the table on each.
 */
export function compileTempTable(
  columns: string[],
  values: LoadExpr[],
  whereC: LoadCond | undefined,
  scope: ExprScope,
  needs: Needs,
  consumers: StmtExec[],
  at: { line: number; column: number },
): StmtExec {
  if (values.length > columns.length) {
    throw jobError(`Temporary table takes ${columns.length} values, but ${values.length} are given.`, at);
  }
  const where = whereC ? compileCond(whereC, scope, needs) : undefined;
  type Col = { fn: RowFn } | { flatten: (row: Row) => string[][]; width: number };
  const cols: Col[] = [];
  let flattens = 0;
  for (const v of values) {
    const name = v.kind === 'call' ? v.name.toLowerCase() : '';
    if (v.kind === 'call' && name === 'flatten') {
      flattens++;
      if (v.args.length !== 3 && v.args.length !== 4) {
        throw jobError(
          'flatten() takes (column, separator, 1) or (column, separator, sub-separator, number of fields).',
          v,
        );
      }
      const src = compileToken(v.args[0], scope, needs);
      const lits = v.args
        .slice(1)
        .map((a) => (a.kind === 'string' ? a.value : a.kind === 'number' ? a.text : undefined));
      if (lits.some((l) => l === undefined))
        throw jobError('flatten() separators and field count must be literals.', v);
      const [sep, second, third] = lits as string[];
      if (v.args.length === 3) {
        const width = Number(second);
        if (width !== 1) throw jobError('flatten(column, separator, 1) fills one column.', v);
        cols.push({ flatten: (row) => splitNonEmpty(src(row), sep).map((x) => [x]), width: 1 });
      } else {
        const width = Number(third);
        if (!Number.isInteger(width) || width < 1)
          throw jobError('flatten(): the number of fields must be a positive integer.', v);
        cols.push({
          flatten: (row) =>
            splitNonEmpty(src(row), sep).map((g) => {
              const f = g.split(second);
              return Array.from({ length: width }, (_x, i) => f[i] ?? '');
            }),
          width,
        });
      }
    } else if (v.kind === 'call' && name === 'flatten_json_array') {
      flattens++;
      if (v.args.length < 1)
        throw jobError('flatten_json_array() takes the array column and the keys to extract.', v);
      const src = compileToken(v.args[0], scope, needs);
      const keys = v.args.slice(1).map((a) => {
        if (a.kind !== 'column') throw jobError('flatten_json_array(): keys are written $"key".', a);
        return a.path;
      });
      cols.push({ flatten: (row) => flattenJsonArray(src(row), keys), width: Math.max(1, keys.length) });
    } else {
      cols.push({ fn: compileToken(v, scope, needs) });
    }
  }
  if (flattens > 1) throw jobError('A TEMP_TABLE target may use flatten() only once.', at);
  const width = cols.reduce((n, c) => n + ('width' in c ? c.width : 1), 0);
  if (width !== columns.length) {
    throw jobError(`Temporary table has ${columns.length} columns, but the values fill ${width}.`, at);
  }
  const row = new ArrayRow([]);
  return (input, sink, stats) => {
    if (where && !where(input)) {
      sink.conditionFailed = true;
      return;
    }
    const fixed: string[] = [];
    let groups: string[][] = [[]];
    let flatAt = -1;
    for (const c of cols) {
      if ('fn' in c) fixed.push(c.fn(input));
      else {
        flatAt = fixed.length;
        groups = c.flatten(input);
      }
    }
    for (const g of groups) {
      row.values = flatAt < 0 ? fixed : [...fixed.slice(0, flatAt), ...g, ...fixed.slice(flatAt)];
      for (const exec of consumers) exec(row, sink, stats);
      if (flatAt < 0) break;
    }
  };
}

function splitNonEmpty(text: string, sep: string): string[] {
  return text === '' ? [] : text.split(sep);
}

function flattenJsonArray(text: string, keys: string[][]): string[][] {
  let arr: unknown;
  try {
    arr = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(arr)) return [];
  return arr.map((el) => (keys.length === 0 ? [jsonToken(el)] : keys.map((k) => jsonToken(dig(el, k)))));
}
