/**
 * User token functions: Ocelot's form of TigerGraph's `TokenBank.cpp`, the catalog's `TokenBank`
 * UDF file as a JavaScript module (util/udf-module.ts). Each export takes tokens (every parameter
 * is STRING) and returns a token: a STRING, or a BOOL, INT, UINT, FLOAT or DOUBLE written as text
 * (a BOOL reads as a condition in WHERE). Loading jobs call them by name like the built-in token
 * functions, which win when a name is both.
 */
import type { Catalog } from '../catalog/types.js';
import { loadUdfModule, UdfError } from '../util/udf-module.js';
import { TokenFunctionError, type TokenFunction } from './token-functions.js';

const RETURNS = new Set(['STRING', 'BOOL', 'INT', 'UINT', 'FLOAT', 'DOUBLE']);

const loaded = new Map<string, ReadonlyMap<string, TokenFunction>>();

/**
 * The token functions of a TokenBank module text; throws UdfError for a module that does not
 * load or an export whose signature is not one of a token function.
 */
export function tokenBankFunctions(text: string): ReadonlyMap<string, TokenFunction> {
  const hit = loaded.get(text);
  if (hit) return hit;
  const module = loadUdfModule(text);
  const out = new Map<string, TokenFunction>();
  for (const x of module.exports) {
    const bad = x.params.findIndex((p) => p.trim().toUpperCase() !== 'STRING');
    if (bad >= 0)
      throw new UdfError(
        `parameter ${bad + 1} of ${x.name}: a token function takes tokens (STRING), not ${x.params[bad]}`,
      );
    const returns = x.returns.trim().toUpperCase();
    if (!RETURNS.has(returns))
      throw new UdfError(
        `the return type of ${x.name}: a token function returns STRING, BOOL, INT, UINT, FLOAT or DOUBLE, not ${x.returns}`,
      );
    const name = x.name;
    out.set(name, {
      minArgs: x.params.length,
      maxArgs: x.params.length,
      fn: (args) => {
        let v: unknown;
        try {
          v = module.call(name, [...args]);
        } catch (e) {
          if (e instanceof UdfError) throw new TokenFunctionError(e.message);
          throw e;
        }
        return tokenOf(v, returns);
      },
    });
  }
  if (loaded.size >= 4) loaded.delete(loaded.keys().next().value!);
  loaded.set(text, out);
  return out;
}

/** The catalog's user token functions (none without a TokenBank file). */
export function userTokenFunctions(catalog: Catalog): ReadonlyMap<string, TokenFunction> {
  const text = catalog.udfFiles?.find((f) => f.name === 'TokenBank')?.text ?? '';
  if (text.trim() === '') return new Map();
  try {
    return tokenBankFunctions(text);
  } catch (e) {
    if (e instanceof UdfError) throw new TokenFunctionError(`the TokenBank file does not load: ${e.message}`);
    throw e;
  }
}

/** A result as a token, checked against the declared return type. */
function tokenOf(v: unknown, returns: string): string {
  if (!fits(v, returns)) throw new TokenFunctionError(`returned ${String(v)}, not ${returns}`);
  return String(v);
}

function fits(v: unknown, returns: string): boolean {
  switch (returns) {
    case 'STRING':
      return typeof v === 'string';
    case 'BOOL':
      return typeof v === 'boolean';
    case 'FLOAT':
    case 'DOUBLE':
      return typeof v === 'number' || typeof v === 'bigint';
    default: {
      const integral = typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v));
      return integral && (returns === 'INT' || Number(v) >= 0);
    }
  }
}
