/**
 * FILE objects of a query (`FILE f (path)` and FILE parameters): server-side text files that
 * `f.println(…)` writes. Paths are resolved inside the server's output directory (`ocelot serve
 * --output-dir`); anything outside it, or any FILE when the server has none, is refused. The lines
 * are kept in memory and written when the query ends without an error, so a failed run leaves no
 * half-written file behind.
 */
import { existsSync, lstatSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
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

/** Whether `p` is `dir` itself or below it. */
export function inside(dir: string, p: string): boolean {
  const rel = relative(dir, p);
  return rel !== '' && rel !== '..' && !rel.startsWith('..' + sep) && !isAbsolute(rel);
}

/**
 * Opens a FILE for a query run: a relative path is taken inside `outputDir`, an absolute one must
 * lie inside it (symbolic links followed). The empty path opens a FILE that refuses writes.
 */
export function openQueryFile(given: string, outputDir: string | undefined): QueryFile {
  if (given === '') return new QueryFile('', '');
  if (outputDir === undefined) {
    throw refuse(
      given,
      'this server writes no query output files; start it with --output-dir DIR (or OCELOT_OUTPUT_DIR)',
    );
  }
  let root: string;
  try {
    root = realpathSync(outputDir);
  } catch {
    throw refuse(given, `the output directory ${outputDir} does not exist`);
  }
  const target = resolve(root, given);
  const parent = dirname(target);
  if (!inside(root, target)) throw refuse(given, `it is outside the output directory ${outputDir}`);
  if (!existsSync(parent) || !statSync(parent).isDirectory()) {
    throw refuse(given, `the directory ${relative(root, parent) || '.'} does not exist in ${outputDir}`);
  }
  let real: string;
  if (lstatSync(target, { throwIfNoEntry: false }) === undefined) {
    real = resolve(realpathSync(parent), basename(target));
  } else {
    try {
      real = realpathSync(target);
    } catch {
      // A symbolic link to nothing: writing would create its target, wherever that is.
      throw refuse(given, 'it is a symbolic link to a file that does not exist');
    }
  }
  if (!inside(root, real)) throw refuse(given, `it is outside the output directory ${outputDir}`);
  if (existsSync(real) && statSync(real).isDirectory()) throw refuse(given, 'it is a directory');
  return new QueryFile(given, real);
}

/** Writes every FILE a finished query opened (each file replaced by what the query printed). */
export function writeQueryFiles(files: readonly QueryFile[]): void {
  for (const f of files) {
    if (f.absPath === '') continue;
    try {
      writeFileSync(f.absPath, f.lines.join(''));
    } catch (e) {
      throw refuse(f.given, e instanceof Error ? e.message : String(e));
    }
  }
}
