/**
 * Input files of a query (`SelectVertex(…)` and `LOADACCUM(…)`): read whole when the statement
 * runs, from the server's output directory (`--output-dir`, where FILE objects write) or its import
 * directories (`--import-dir`), confined to them as auth/file-roots.ts does it. Fields are split on a one-character separator and kept verbatim
 * (quotes included), as TigerGraph reads them.
 */
import { readFileSync, statSync } from 'node:fs';
import { FileRootError, importRoots, resolveReadable, type FileRoot } from '../auth/file-roots.js';
import type { FileColumn } from '../gsql/ast-query.js';
import { QueryRuntimeError } from './values.js';

export interface InputRows {
  /** Data rows (the header, when there is one, left out), blank lines skipped. */
  rows: { line: number; fields: string[] }[];
  /** The column index of each requested column. */
  columns: number[];
}

/** Where a run's input files may come from: the output directory, then the import directories. */
export function queryInputRoots(opts: { outputDir?: string; importDirs?: readonly string[] }): FileRoot[] {
  return [
    ...(opts.outputDir === undefined
      ? []
      : [{ dir: opts.outputDir, name: `the output directory ${opts.outputDir}` }]),
    ...importRoots(opts.importDirs ?? []),
  ];
}

function refuse(what: string, given: string, why: string): QueryRuntimeError {
  return new QueryRuntimeError(`Runtime Error: ${what} cannot read "${given}": ${why}`);
}

/** The real path of an input file, resolved under the query's input roots (auth/file-roots.ts). */
function inputPath(what: string, given: string, roots: readonly FileRoot[]): string {
  if (roots.length === 0) {
    throw refuse(
      what,
      given,
      'this server reads no query input files; start it with --output-dir DIR (or OCELOT_OUTPUT_DIR) or --import-dir DIR',
    );
  }
  let real: string;
  try {
    real = resolveReadable(roots, given);
  } catch (e) {
    if (e instanceof FileRootError) throw refuse(what, given, e.reason);
    throw e;
  }
  if (!statSync(real).isFile()) throw refuse(what, given, 'it is not a file');
  return real;
}

/** Reads `given` and resolves `columns` against its header (when `header` is true). */
export function readInputRows(
  what: string,
  given: string,
  roots: readonly FileRoot[],
  separator: string,
  header: boolean,
  columns: readonly FileColumn[],
): InputRows {
  if ([...separator].length !== 1) {
    throw new QueryRuntimeError(
      `Runtime Error: ${what}: the separator must be one character, not "${separator}".`,
    );
  }
  const text = readFileSync(inputPath(what, given, roots), 'utf8');
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
