/**
 * Reading external ids in bulk runs (edge-run.ts, vertex-run.ts): the id index key of an id, with
 * parseId's fast paths inlined so that the common id forms allocate nothing.
 */
import type { VertexType } from '../catalog/types.js';
import type { IdKey } from '../store/vertex-table.js';
import type { ExternalId } from './api.js';
import { parseId, shortDecimal } from './values.js';

export interface IdReader {
  /** The id index key of an external id (parseId's key); throws parseId's error for a bad id. */
  keyOf: (id: ExternalId) => IdKey;
  /** Whether the key is also the stored id value (so logging needs no id column read). */
  keyIsValue: boolean;
}

export function idReader(vt: VertexType): IdReader {
  if (vt.keyKind === 'primary_id') {
    const t = vt.primaryId.type;
    if (t.kind === 'INT' && t.bytes === 8)
      return {
        keyOf: (id) => {
          if (typeof id === 'number' && Number.isSafeInteger(id)) return id;
          // A JSON key holds the id as text: its short decimal form is the common case.
          if (typeof id === 'string') {
            const n = shortDecimal(id);
            if (n !== undefined) return n;
          }
          return parseId(vt, id).key;
        },
        keyIsValue: true,
      };
    if (t.kind === 'INT')
      return {
        keyOf: (id) => (typeof id === 'number' && Number.isSafeInteger(id) ? id : parseId(vt, id).key),
        keyIsValue: true,
      };
    if (t.kind === 'UINT' && t.bytes === 8)
      return {
        keyOf: (id) =>
          typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 ? id : parseId(vt, id).key,
        keyIsValue: true,
      };
    if (t.kind === 'STRING')
      return {
        keyOf: (id) => (typeof id === 'string' && id !== '' ? id : parseId(vt, id).key),
        keyIsValue: true,
      };
  }
  return { keyOf: (id) => parseId(vt, id).key, keyIsValue: false };
}
