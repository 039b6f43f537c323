/**
 * The embedded API of Ocelot: everything above engine/ (servers, GSQL, loading, tests) talks to a
 * Database through these interfaces. Nothing here knows about HTTP or GSQL text.
 *
 * Ids: an external vertex id is given as a string (REST form; composite keys joined by commas),
 * or as number/bigint for INT/UINT ids. Row ids are dense per vertex type and internal.
 */
import type { Value } from '../catalog/value.js';

export type SyncMode = 'always' | 'batch' | 'none';

export type ExternalId = string | number | bigint;

/** The six upsert operation codes; `set` (the default) overwrites. */
export type UpsertOp = 'set' | 'ignore_if_exists' | 'add' | 'and' | 'or' | 'max' | 'min';

export interface AttrUpdate {
  value: Value;
  op: UpsertOp;
}

/** A vertex as the REST layer and PRINT show it. */
export interface VertexRecord {
  v_id: string;
  v_type: string;
  attributes: Record<string, Value>;
}

/** An edge as REST shows it. */
export interface EdgeRecord {
  e_type: string;
  directed: boolean;
  from_id: string;
  from_type: string;
  to_id: string;
  to_type: string;
  attributes: Record<string, Value>;
}

/** Thrown for a request that violates the schema; the write is abandoned and nothing changes. */
export class EngineError extends Error {
  constructor(
    /** A TigerGraph-style code the server layer maps to an envelope (e.g. REST-2004, REST-30200). */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}
