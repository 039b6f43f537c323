/**
 * The JSON text the gsql shell prints for RUN/INTERPRET QUERY: TigerGraph's response envelope,
 * indented by two spaces, with 64-bit integers printed exactly.
 */
import type { JsonValue } from '../util/json.js';

function pretty(v: JsonValue, indent: string): string {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  const inner = indent + '  ';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return `[\n${v.map((x) => inner + pretty(x, inner)).join(',\n')}\n${indent}]`;
  }
  const keys = Object.keys(v);
  if (keys.length === 0) return '{}';
  return `{\n${keys.map((k) => `${inner}${JSON.stringify(k)}: ${pretty(v[k], inner)}`).join(',\n')}\n${indent}}`;
}

/** A JSON value as the shell prints it (indented by two spaces). */
export function jsonText(v: JsonValue): string {
  return pretty(v, '');
}

export function envelopeText(e: {
  error: boolean;
  message: string;
  results: JsonValue[];
  code?: string;
}): string {
  const doc: { [key: string]: JsonValue } = {
    error: e.error,
    message: e.message,
    version: { schema: 0, edition: 'enterprise', api: 'v2' },
    results: e.results,
  };
  if (e.code) doc.code = e.code;
  return pretty(doc, '');
}
