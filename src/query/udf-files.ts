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

/** The canonical UDF file name for `name` (any case), or undefined. */
export function udfFileName(name: string): UdfFileName | undefined {
  return UDF_FILES.find((n) => n.toLowerCase() === name.toLowerCase());
}

export function getUdfFile(db: { readonly catalog: Catalog }, name: UdfFileName): string {
  return udfFileText(db.catalog, name);
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
