/** JSON values as loading tokens (JSON_FILE lines, flatten_json_array elements). */
import { stringifyJson } from '../util/json.js';

export function dig(v: unknown, path: string[]): unknown {
  let cur = v;
  for (const k of path) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

/** A JSON value as a loading token: strings as is, other values as JSON text, absent as empty. */
export function jsonToken(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint') return v.toString();
  // Not JSON.stringify: a 64-bit integer inside an array or object arrives as bigint.
  return stringifyJson(v);
}
