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

/** Serialises a JSON value; bigint prints as digits; non-finite numbers print as null. */
export function stringifyJson(value: unknown): string {
  // Scalars (most attribute values) need no part list.
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
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
      out.push(JSON.stringify(value));
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
          out.push(JSON.stringify(key), ':');
          write(v, out);
        }
        out.push('}');
      }
      return;
    default:
      out.push('null');
  }
}
