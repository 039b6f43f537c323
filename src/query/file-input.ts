/**
 * Input files of a query (`SelectVertex(…)` and `LOADACCUM(…)`): read whole when the statement
 * runs, from the server's query file directory (`ocelot serve --output-dir`), the same directory
 * FILE objects write to: a relative path is taken inside it, an absolute one must lie inside it
 * (symbolic links followed). Fields are split on a one-character separator and kept verbatim
 * (quotes included), as TigerGraph reads them.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FileColumn } from '../gsql/ast-query.js';
import { inside } from './file-output.js';
import { QueryRuntimeError } from './values.js';

export interface InputRows {
  /** Data rows (the header, when there is one, left out), blank lines skipped. */
  rows: { line: number; fields: string[] }[];
  /** The column index of each requested column. */
  columns: number[];
}

function refuse(what: string, given: string, why: string): QueryRuntimeError {
  return new QueryRuntimeError(`Runtime Error: ${what} cannot read "${given}": ${why}`);
}

/** The real path of an input file, refused unless it lies inside `dir`. */
function inputPath(what: string, given: string, dir: string | undefined): string {
  if (dir === undefined) {
    throw refuse(
      what,
      given,
      'this server reads no query input files; start it with --output-dir DIR (or OCELOT_OUTPUT_DIR)',
    );
  }
  let root: string;
  let real: string;
  try {
    root = realpathSync(dir);
  } catch {
    throw refuse(what, given, `the query file directory ${dir} does not exist`);
  }
  const target = resolve(root, given);
  if (!inside(root, target)) throw refuse(what, given, `it is outside the query file directory ${dir}`);
  try {
    real = realpathSync(target);
  } catch {
    throw refuse(what, given, 'no such file');
  }
  if (!inside(root, real)) throw refuse(what, given, `it is outside the query file directory ${dir}`);
  if (!statSync(real).isFile()) throw refuse(what, given, 'it is not a file');
  return real;
}

/** Reads `given` and resolves `columns` against its header (when `header` is true). */
export function readInputRows(
  what: string,
  given: string,
  dir: string | undefined,
  separator: string,
  header: boolean,
  columns: readonly FileColumn[],
): InputRows {
  if ([...separator].length !== 1) {
    throw new QueryRuntimeError(
      `Runtime Error: ${what}: the separator must be one character, not "${separator}".`,
    );
  }
  const text = readFileSync(inputPath(what, given, dir), 'utf8');
  const lines = text.split(/\r?\n/);
  const rows: InputRows['rows'] = [];
  let names: string[] | undefined;
  lines.forEach((l, i) => {
    if (l === '') return;
    const fields = l.split(separator);
    if (header && names === undefined) names = fields;
    else rows.push({ line: i + 1, fields });
  });
  const index = columns.map((c) => {
    if (c.kind === 'position') return c.index;
    if (!header) {
      throw new QueryRuntimeError(
        `Runtime Error: ${what}: the column $"${c.name}" needs a header line (header true).`,
      );
    }
    const k = (names ?? []).indexOf(c.name);
    if (k < 0) throw new QueryRuntimeError(`Runtime Error: ${what}: "${given}" has no column "${c.name}".`);
    return k;
  });
  for (const r of rows) {
    const need = Math.max(...index);
    if (r.fields.length <= need) {
      throw new QueryRuntimeError(
        `Runtime Error: ${what}: line ${r.line} of "${given}" has ${r.fields.length} fields, column ${need} is missing.`,
      );
    }
  }
  return { rows, columns: index };
}
