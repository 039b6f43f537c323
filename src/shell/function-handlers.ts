/**
 * GSQL shell handlers of GSQL packages and functions (CREATE/SHOW/DROP PACKAGE, CREATE/INSTALL/
 * SHOW/DROP FUNCTION) and of the UDF files (PUT ExprFunctions FROM "file", GET … [TO "file"]).
 * A UDF file is read from, or written to, a path on the server's machine; GET … TO writes only
 * inside the server's `--output-dir`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { FileRootError, importRoots, resolveReadable, resolveWritable } from '../auth/file-roots.js';
import type { Pos, QueryStatement } from '../gsql/ast-query.js';
import {
  createFunction,
  createPackage,
  dropFunctions,
  dropPackage,
  getUdfFile,
  installFunctions,
  checkUdfPutAllowed,
  putUdfFile,
  putUdfMessage,
  QueryCompileError,
  QueryRegistryError,
  showFunctions,
  showPackages,
  udfFileName,
  type UdfFileName,
} from '../query/index.js';
import { ShellError, type ShellContext } from './context.js';

type FunctionStatement = Extract<
  QueryStatement,
  {
    kind:
      | 'createFunction'
      | 'installFunction'
      | 'showFunction'
      | 'dropFunction'
      | 'createPackage'
      | 'showPackage'
      | 'dropPackage'
      | 'putUdfFile'
      | 'getUdfFile';
  }
>;

export function isFunctionStatement(s: QueryStatement): s is FunctionStatement {
  return [
    'createFunction',
    'installFunction',
    'showFunction',
    'dropFunction',
    'createPackage',
    'showPackage',
    'dropPackage',
    'putUdfFile',
    'getUdfFile',
  ].includes(s.kind);
}

async function reported<T>(pos: Pos, fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof QueryCompileError) throw new ShellError(e.detail, { line: e.line, column: e.column });
    if (e instanceof QueryRegistryError) throw new ShellError(e.message, pos);
    throw e;
  }
}

function fileOf(s: { file: string; pos: Pos }): UdfFileName {
  const name = udfFileName(s.file);
  if (!name) throw new ShellError(`${s.file} is not a UDF file (ExprFunctions, ExprUtil, TokenBank)`, s.pos);
  return name;
}

export async function handleFunctionStatement(s: FunctionStatement, ctx: ShellContext): Promise<void> {
  const db = ctx.store;
  switch (s.kind) {
    case 'createPackage':
      await reported(s.pos, () => createPackage(db, s.name));
      ctx.print(`Successfully created Packages: [${s.name}].`);
      return;
    case 'dropPackage': {
      const names = await reported(s.pos, () => dropPackage(db, s.name));
      ctx.print(`Successfully dropped Packages: [${names.join(', ')}].`);
      return;
    }
    case 'showPackage': {
      const { packages, functions } = await reported(s.pos, () => showPackages(db.catalog, s.name));
      ctx.print(s.name === undefined ? 'Packages on global:' : `Package ${s.name}:`);
      for (const p of packages) ctx.print(`- ${p}`);
      for (const f of functions) ctx.print(`- ${f.name}()${f.installed ? '' : ' (not installed)'}`);
      return;
    }
    case 'createFunction':
      await reported(s.pos, () => createFunction(db, s.fn, s.orReplace));
      ctx.print(`Successfully created functions: [${s.fn.name}].`);
      return;
    case 'installFunction': {
      const names = await reported(s.pos, () => installFunctions(db, s.target));
      ctx.print(
        names.length === 0
          ? 'No function to install.'
          : `Successfully installed functions: [${names.join(', ')}].`,
      );
      return;
    }
    case 'showFunction':
      for (const f of await reported(s.pos, () => showFunctions(db.catalog, s.target))) ctx.print(f.text);
      return;
    case 'dropFunction': {
      const names = await reported(s.pos, () => dropFunctions(db, s.target));
      ctx.print(`Successfully dropped functions: [${names.join(', ')}].`);
      return;
    }
    case 'putUdfFile': {
      const name = fileOf(s);
      await reported(s.pos, () => checkUdfPutAllowed(db, name));
      let text: string;
      try {
        // The file is read on the server, from the import directories only (as loading jobs' files).
        text = await readFile(resolveReadable(importRoots(ctx.importDirs ?? []), s.path), 'utf8');
      } catch (e) {
        const why = e instanceof FileRootError ? e.reason : (e as Error).message;
        throw new ShellError(`PUT ${name} failed: cannot read "${s.path}": ${why}`, s.pos);
      }
      const shadowed = await reported(s.pos, () => putUdfFile(db, name, text));
      ctx.print(putUdfMessage(name, shadowed));
      return;
    }
    case 'getUdfFile': {
      const name = fileOf(s);
      const text = getUdfFile(db, name);
      if (s.path === undefined) {
        ctx.print(text);
        return;
      }
      const dir = ctx.outputDir;
      let target: string;
      try {
        target = resolveWritable(
          dir === undefined ? undefined : { dir, name: `the output directory ${dir}` },
          s.path,
        );
      } catch (e) {
        if (!(e instanceof FileRootError)) throw e;
        throw new ShellError(`GET ${name} TO failed: cannot write "${s.path}": ${e.reason}`, s.pos);
      }
      await writeFile(target, text);
      ctx.print(`GET ${name} successfully.`);
      return;
    }
  }
}
