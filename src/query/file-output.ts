/**
 * FILE objects of a query (`FILE f (path)` and FILE parameters): server-side text files that
 * `f.println(…)` writes. Paths are resolved inside the server's output directory (`ocelot serve
 * --output-dir`); anything outside it, or any FILE when the server has none, is refused. The lines
 * are kept in memory and written when the query ends without an error, so a failed run leaves no
 * half-written file behind.
 */
import { writeFileSync } from 'node:fs';
import { FileRootError, resolveWritable } from '../auth/file-roots.js';
import { stringifyJson, type JsonValue } from '../util/json.js';
import { QueryRuntimeError } from './values.js';

export class QueryFile {
  readonly lines: string[] = [];
  /** `absPath` is empty for a FILE opened with an empty path (the library's "no file" setting). */
  constructor(
    readonly given: string,
    readonly absPath: string,
  ) {}

  println(items: JsonValue[]): void {
    this.appendLine(items.map(fieldText).join(','), 'println');
  }

  /** One line of a `println` or of a `PRINT … TO_CSV` (`what`, for the error). */
  appendLine(text: string, what: string): void {
    if (this.absPath === '') {
      throw new QueryRuntimeError(`Runtime Error: ${what} on a FILE opened with an empty path.`);
    }
    this.lines.push(text + '\n');
  }
}

/**
 * One println field: strings and numbers as they are, a list or set of plain values separated by
 * spaces (as TigerGraph writes them), other containers and records as JSON.
 */
export function fieldText(v: JsonValue): string {
  if (v === null) return '';
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object'))
    return v.map(fieldText).join(' ');
  if (typeof v === 'object') return stringifyJson(v);
  return String(v);
}

function refuse(given: string, why: string): QueryRuntimeError {
  return new QueryRuntimeError(`Runtime Error: cannot open FILE "${given}": ${why}`);
}

/**
 * Opens a FILE for a query run: the path is resolved for writing under `outputDir`
 * (auth/file-roots.ts). The empty path opens a FILE that refuses writes.
 */
export function openQueryFile(given: string, outputDir: string | undefined): QueryFile {
  if (given === '') return new QueryFile('', '');
  if (outputDir === undefined) {
    throw refuse(
      given,
      'this server writes no query output files; start it with --output-dir DIR (or OCELOT_OUTPUT_DIR)',
    );
  }
  try {
    return new QueryFile(
      given,
      resolveWritable({ dir: outputDir, name: `the output directory ${outputDir}` }, given),
    );
  } catch (e) {
    if (e instanceof FileRootError) throw refuse(given, e.reason);
    throw e;
  }
}

/** Writes every FILE a finished query opened (each file replaced by what the query printed). */
export function writeQueryFiles(files: readonly QueryFile[]): void {
  for (const f of files) {
    if (f.absPath === '') continue;
    try {
      writeFileSync(f.absPath, f.lines.join(''), { mode: 0o600 });
    } catch (e) {
      throw refuse(f.given, e instanceof Error ? e.message : String(e));
    }
  }
}
