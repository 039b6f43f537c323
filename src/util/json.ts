/**
 * JSON text for responses. Unlike JSON.stringify it prints bigint values as exact integers, so
 * 64-bit INT/UINT values survive the trip to the client unrounded.
 */

export type JsonValue =
  null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue };

/** JSON text already written (by a worker thread): stringifyJson copies it as it is. */
export class JsonText {
  constructor(readonly text: string) {}
}

/** Longest string jsonString scans itself; JSON.stringify is faster past it. */
const SHORT_STRING = 64;

/**
 * `JSON.stringify(s)`: a short string with nothing to escape (most ids, names and values) is
 * quoted as it is, without the serializer's setup per call.
 */
export function jsonString(s: string): string {
  if (s.length > SHORT_STRING) return JSON.stringify(s);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // Controls, quote and backslash are escaped; a lone surrogate is too (JSON.stringify decides).
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(s);
  }
  return `"${s}"`;
}

/** Serialises a JSON value; bigint prints as digits; non-finite numbers print as null. */
export function stringifyJson(value: unknown): string {
  // Scalars (most attribute values) need no part list.
  switch (typeof value) {
    case 'string':
      return jsonString(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 'true' : 'false';
  }
  const parts: string[] = [];
  write(value, parts);
  return parts.join('');
}

function write(value: unknown, out: string[]): void {
  switch (typeof value) {
    case 'string':
      out.push(jsonString(value));
      return;
    case 'number':
      out.push(Number.isFinite(value) ? String(value) : 'null');
      return;
    case 'bigint':
      out.push(value.toString());
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'object':
      if (value === null) {
        out.push('null');
      } else if (value instanceof JsonText) {
        out.push(value.text);
      } else if (Array.isArray(value)) {
        out.push('[');
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out.push(',');
          write(value[i] === undefined ? null : value[i], out);
        }
        out.push(']');
      } else {
        out.push('{');
        let first = true;
        for (const key of Object.keys(value)) {
          const v = (value as Record<string, unknown>)[key];
          if (v === undefined) continue;
          if (!first) out.push(',');
          first = false;
          out.push(jsonString(key), ':');
          write(v, out);
        }
        out.push('}');
      }
      return;
    default:
      out.push('null');
  }
}
