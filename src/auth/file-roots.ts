/**
 * Server-side paths that clients name (loading jobs' files, queries' input and FILE output,
 * EXPORT/IMPORT, backups) are resolved under the directories the operator configured, as
 * TigerGraph's file input/output policies confine them: inputs under the import directories
 * (`--import-dir`, default `<data dir>/import`), outputs under the output directory
 * (`--output-dir`; none: no output files). A path is refused when it contains `..`, when it is
 * absolute and outside every root, and when it (or a directory on its way) is a symbolic link that
 * leads out of its root. This module is the one front door for all of them.
 *
 * Paths are checked with the file system as it is when they are resolved; the answer is the real
 * path to open, so a link swapped in later inside a root is not followed from the name given.
 */
import { existsSync, lstatSync, mkdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** A directory paths may lead into, with the name a refusal gives it ("the import directory"). */
export interface FileRoot {
  dir: string;
  name: string;
}

/** The roots of one server. */
export interface FileRoots {
  /** Where inputs may be read from; relative paths are looked up in each, in order. */
  readonly imports: readonly FileRoot[];
  /** Where outputs may be written; none: outputs are refused. */
  readonly output?: FileRoot;
}

/** A path refused or not found; `reason` completes "cannot read/write <given>: …". */
export class FileRootError extends Error {
  constructor(
    readonly given: string,
    readonly reason: string,
  ) {
    super(`"${given}": ${reason}`);
    this.name = 'FileRootError';
  }
}

/** Import directories as roots. */
export function importRoots(dirs: readonly string[]): FileRoot[] {
  return dirs.map((dir) => ({ dir, name: `the import directory ${dir}` }));
}

/** `<data dir>/import`: the import directory when none is configured. */
export function defaultImportDir(dataDir: string): string {
  return join(dataDir, 'import');
}

/** The roots of a server's options: import directories (default one) and the output directory. */
export function fileRoots(opts: {
  importDirs?: readonly string[];
  outputDir?: string;
  dataDir: string;
}): FileRoots {
  const imports =
    opts.importDirs && opts.importDirs.length > 0 ? opts.importDirs : [defaultImportDir(opts.dataDir)];
  return {
    imports: importRoots(imports),
    ...(opts.outputDir === undefined
      ? {}
      : { output: { dir: opts.outputDir, name: `the output directory ${opts.outputDir}` } }),
  };
}

/** Creates the default import directory (owner only) if it is missing. */
export function ensureImportDir(dataDir: string): void {
  mkdirSync(defaultImportDir(dataDir), { recursive: true, mode: 0o700 });
}

/** Whether `p` is `dir` itself or below it (both absolute). */
export function inside(dir: string, p: string): boolean {
  const rel = relative(dir, p);
  return rel === '' || (rel !== '..' && !rel.startsWith('..' + sep) && !isAbsolute(rel));
}

function checkName(given: string): void {
  if (given === '') throw new FileRootError(given, 'the path is empty');
  if (given.includes('\0')) throw new FileRootError(given, 'the path contains a NUL character');
  if (given.split(/[\\/]+/).includes('..')) throw new FileRootError(given, "a path may not contain '..'");
}

function realOrUndefined(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

function names(roots: readonly FileRoot[]): string {
  return roots.map((r) => r.name).join(' or ');
}

/**
 * The real path of an existing file or directory to read: a relative `given` is looked up in each
 * root in order, an absolute one must lie in one of them; either way its real path (links
 * followed) must stay inside the root it was found in.
 */
export function resolveReadable(roots: readonly FileRoot[], given: string): string {
  checkName(given);
  if (roots.length === 0) throw new FileRootError(given, 'this server reads no files');
  const absolute = isAbsolute(given);
  for (const root of roots) {
    const realRoot = realOrUndefined(root.dir);
    if (realRoot === undefined) continue;
    const target = absolute ? resolve(given) : resolve(realRoot, given);
    // An absolute path belongs to the root it lies in (as the root is written, or really is).
    if (absolute && !inside(resolve(root.dir), target) && !inside(realRoot, target)) continue;
    const real = realOrUndefined(target);
    if (real === undefined) continue;
    if (!inside(realRoot, real)) {
      throw new FileRootError(given, `it leads out of ${root.name} through a symbolic link`);
    }
    return real;
  }
  if (absolute && !roots.some((r) => inside(resolve(r.dir), resolve(given)))) {
    throw new FileRootError(given, `it is outside ${names(roots)}`);
  }
  throw new FileRootError(given, `no such file in ${names(roots)}`);
}

/**
 * The real path a file may be written to (created or replaced) under `root`: its directory must
 * exist inside the root, and the file itself, if it exists, must be neither a directory nor a link
 * out of the root (nor a link to nothing, which writing would create wherever it points).
 */
export function resolveWritable(root: FileRoot | undefined, given: string): string {
  checkName(given);
  if (root === undefined) throw new FileRootError(given, 'this server writes no files');
  const realRoot = realOrUndefined(root.dir);
  if (realRoot === undefined) throw new FileRootError(given, `${root.name} does not exist`);
  const target = isAbsolute(given) ? resolve(given) : resolve(realRoot, given);
  if (!inside(resolve(root.dir), target) && !inside(realRoot, target)) {
    throw new FileRootError(given, `it is outside ${root.name}`);
  }
  const parent = realOrUndefined(dirname(target));
  if (parent === undefined || !statSync(parent).isDirectory()) {
    throw new FileRootError(
      given,
      `the directory ${relative(realRoot, dirname(target)) || '.'} does not exist in ${root.name}`,
    );
  }
  let real = join(parent, basename(target));
  if (lstatSync(real, { throwIfNoEntry: false }) !== undefined) {
    const followed = realOrUndefined(real);
    if (followed === undefined)
      throw new FileRootError(given, 'it is a symbolic link to a file that does not exist');
    real = followed;
  }
  if (!inside(realRoot, real) || real === realRoot) {
    throw new FileRootError(given, `it is outside ${root.name}`);
  }
  if (existsSync(real) && statSync(real).isDirectory()) throw new FileRootError(given, 'it is a directory');
  return real;
}

/**
 * The real path of a directory under `root` that files will be written into (EXPORT, backups,
 * summaries): an existing directory inside the root, or a new one (created owner-only) whose parent
 * is inside it.
 */
export function resolveWritableDir(root: FileRoot | undefined, given: string): string {
  checkName(given);
  if (root === undefined) throw new FileRootError(given, 'this server writes no files');
  const realRoot = realOrUndefined(root.dir);
  if (realRoot === undefined) throw new FileRootError(given, `${root.name} does not exist`);
  const target = isAbsolute(given) ? resolve(given) : resolve(realRoot, given);
  if (!inside(resolve(root.dir), target) && !inside(realRoot, target)) {
    throw new FileRootError(given, `it is outside ${root.name}`);
  }
  const existing = realOrUndefined(target);
  if (existing !== undefined) {
    if (!inside(realRoot, existing)) {
      throw new FileRootError(given, `it leads out of ${root.name} through a symbolic link`);
    }
    if (!statSync(existing).isDirectory()) throw new FileRootError(given, 'it is not a directory');
    return existing;
  }
  const parent = realOrUndefined(dirname(target));
  if (parent === undefined || !inside(realRoot, parent) || !statSync(parent).isDirectory()) {
    throw new FileRootError(
      given,
      `the directory ${relative(realRoot, dirname(target)) || '.'} does not exist in ${root.name}`,
    );
  }
  const made = join(parent, basename(target));
  mkdirSync(made, { mode: 0o700 });
  return made;
}
