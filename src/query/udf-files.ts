/**
 * PUT and GET of the UDF files (`ExprFunctions`, `ExprUtil`, `TokenBank`), for the shell's
 * statements and the GSQL server's `/gsql/v1/udt/files/…` endpoints. A PUT is refused unless the
 * server allows it; an ExprFunctions text must load as a UDF module (see util/udf-module.ts) and a
 * TokenBank text as token functions (loading/token-bank.ts), and nothing changes when it does not.
 */
import type { Catalog } from '../catalog/types.js';
import { QueryRegistryError } from './errors.js';
import { isBuiltinFunction } from './functions.js';
import { udfFileText, udfFunctions, udfPutAllowed, UDF_FILES, withUdfFile, type UdfFileName } from './udf.js';
import { tokenBankFunctions } from '../loading/token-bank.js';
import { UdfError } from '../util/udf-module.js';

interface CatalogHolder {
  readonly catalog: Catalog;
  changeCatalog(next: Catalog): Promise<void>;
}

/**
 * What GET returns for a file never PUT, as TigerGraph returns its default ExprFunctions.hpp,
 * ExprUtil.hpp and TokenBank.cpp (clients look for the file's name in it). Each is a module that
 * loads as it is, so a client's GET-edit-PUT round trip starts from valid text.
 */
const DEFAULT_TEXT: Record<UdfFileName, string> = {
  ExprFunctions: `// ExprFunctions: the user-defined functions queries call, as a JavaScript module (Ocelot's
// form of TigerGraph's ExprFunctions.hpp). Export each function under the name queries call:
//   export const echo = { params: ['STRING'], returns: 'STRING', fn: (s) => s };
`,
  ExprUtil: `// ExprUtil: helpers for ExprFunctions (Ocelot's form of TigerGraph's ExprUtil.hpp). Ocelot
// keeps this file as it is given; ExprFunctions modules hold their own helpers.
`,
  TokenBank: `// TokenBank: the token functions loading jobs call, as a JavaScript module (Ocelot's form of
// TigerGraph's TokenBank.cpp). Export each function under the name loading jobs call:
//   export const shout = { params: ['STRING'], returns: 'STRING', fn: (s) => s.toUpperCase() };
`,
};

/** The canonical UDF file name for `name` (any case), or undefined. */
export function udfFileName(name: string): UdfFileName | undefined {
  return UDF_FILES.find((n) => n.toLowerCase() === name.toLowerCase());
}

/** A UDF file's text; a file never PUT (or PUT empty) reads as its default. */
export function getUdfFile(db: { readonly catalog: Catalog }, name: UdfFileName): string {
  return udfFileText(db.catalog, name) || DEFAULT_TEXT[name];
}

/** Throws QueryRegistryError unless this server allows PUT of UDF files. */
export function checkUdfPutAllowed(db: object, name: UdfFileName): void {
  if (!udfPutAllowed(db))
    throw new QueryRegistryError(
      `PUT ${name} is disabled on this server; start it with --allow-udf-put (OCELOT_ALLOW_UDF_PUT=true) to allow user-defined functions.`,
    );
}

/**
 * Replaces a UDF file; throws QueryRegistryError when PUT is not allowed or the text is refused.
 * Returns the exported names that built-in functions shadow (calls of them reach the built-in).
 */
export async function putUdfFile(db: CatalogHolder, name: UdfFileName, text: string): Promise<string[]> {
  checkUdfPutAllowed(db, name);
  // The default back (a client's GET-then-PUT) resets the file: it holds no function to load.
  if (text === DEFAULT_TEXT[name]) text = '';
  let shadowed: string[] = [];
  try {
    if (name === 'ExprFunctions' && text.trim() !== '')
      shadowed = udfFunctions(text, isBuiltinFunction).shadowed;
    if (name === 'TokenBank' && text.trim() !== '') tokenBankFunctions(text);
  } catch (e) {
    if (e instanceof UdfError) throw new QueryRegistryError(`PUT ${name} failed: ${e.message}`);
    throw e;
  }
  await db.changeCatalog(withUdfFile(db.catalog, name, text));
  return shadowed;
}

/** The PUT reply: success, and which exports built-in functions shadow. */
export function putUdfMessage(name: UdfFileName, shadowed: readonly string[]): string {
  const note = shadowed.length
    ? ` Built-in functions of the same name are called instead of ${shadowed.join(', ')}.`
    : '';
  return `PUT ${name} successfully.${note}`;
}
