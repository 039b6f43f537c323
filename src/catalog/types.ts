/**
 * The catalog model: every schema object TigerGraph's schema language can declare.
 * Catalog objects are plain, JSON-serialisable data and are treated as immutable: a schema change
 * builds a new Catalog, so a reader that pinned an older one keeps a consistent view.
 */
import type { SecurityState } from './security.js';

/** Attribute types of the schema language. INT/UINT without a width are 64-bit. */
export type AttrType =
  | { kind: 'INT'; bytes: 1 | 2 | 4 | 8 }
  | { kind: 'UINT'; bytes: 1 | 2 | 4 | 8 }
  | { kind: 'FLOAT' }
  | { kind: 'DOUBLE' }
  | { kind: 'BOOL' }
  | { kind: 'STRING'; compress: boolean; maxLength?: number }
  | { kind: 'DATETIME' }
  | { kind: 'FIXED_BINARY'; length: number }
  | { kind: 'LIST'; element: AttrType }
  | { kind: 'SET'; element: AttrType }
  | { kind: 'MAP'; key: AttrType; value: AttrType }
  /** A user-defined tuple (TYPEDEF TUPLE), referenced by name. */
  | { kind: 'UDT'; name: string }
  /** A vertex reference, optionally restricted to one vertex type. */
  | { kind: 'VERTEX'; vertexType?: string };

export interface Attribute {
  name: string;
  type: AttrType;
  /** The DEFAULT literal as written in the DDL (already unquoted for strings), if any. */
  defaultLiteral?: string;
}

/**
 * How a vertex type's primary id is declared:
 * - `primary_id`: `PRIMARY_ID id TYPE` — the id is not an attribute unless primaryIdAsAttribute.
 * - `primary_key`: `id TYPE PRIMARY KEY` — one attribute is the key.
 * - `composite`: `PRIMARY KEY (a, b, c)` — several attributes form the key, joined by commas as an id.
 */
export type KeyKind = 'primary_id' | 'primary_key' | 'composite';

export interface VertexType {
  name: string;
  keyKind: KeyKind;
  /** The primary id's name and type. For composite keys: the first key attribute's name, type STRING. */
  primaryId: { name: string; type: AttrType };
  /** For primary_key/composite: the key attributes in key order. Empty for primary_id. */
  keyAttributes: string[];
  primaryIdAsAttribute: boolean;
  /** Attributes in declared order (for primary_key/composite the key attributes are included). */
  attributes: Attribute[];
  /** The STATS config (default OUTDEGREE_BY_EDGETYPE). */
  stats: string;
  /** Graph that owns a local type; undefined for a global type. */
  graph?: string;
  /** Secondary indexes (ALTER VERTEX … ADD INDEX), recorded for the schema; absent when none. */
  indexes?: VertexIndex[];
}

export interface VertexIndex {
  name: string;
  attribute: string;
}

export interface EdgePair {
  /** Vertex type name, or `*` for any. */
  from: string;
  to: string;
}

export interface EdgeType {
  name: string;
  directed: boolean;
  pairs: EdgePair[];
  attributes: Attribute[];
  /** Names of the attributes that form the discriminator (empty: at most one edge per pair). */
  discriminator: string[];
  /** Name of the reverse edge type for a directed edge declared WITH REVERSE_EDGE. */
  reverseEdge?: string;
  graph?: string;
}

export interface TupleType {
  name: string;
  fields: { name: string; type: AttrType }[];
}

export interface GraphDef {
  name: string;
  /** Member vertex and edge type names in the order they were added. */
  vertexTypes: string[];
  edgeTypes: string[];
}

/** A stored GSQL statement block (loading jobs, schema-change jobs, queries): its source text plus metadata. */
export interface StoredJob {
  name: string;
  graph?: string;
  kind: 'loading' | 'schema_change' | 'global_schema_change';
  /** The complete CREATE … text, re-parsed when the job is run or shown. */
  text: string;
}

/** A GSQL query of a graph, kept by its source text; installed ones are compiled on first use. */
export interface StoredQuery {
  name: string;
  graph: string;
  /** The complete CREATE QUERY text. */
  text: string;
  installed: boolean;
}

export interface Catalog {
  /** Bumped by every catalog change; persisted. */
  version: number;
  vertexTypes: VertexType[];
  edgeTypes: EdgeType[];
  tuples: TupleType[];
  graphs: GraphDef[];
  jobs: StoredJob[];
  /** Queries (src/query); absent in catalogs written before queries were kept here. */
  queries?: StoredQuery[];
  /** Users, roles, secrets and tokens (src/auth); absent until the first security change. */
  security?: SecurityState;
  /**
   * TigerGraph's UDF files by name (`ExprFunctions`, `ExprUtil`, `TokenBank`): in Ocelot,
   * JavaScript module texts (src/util/udf-module.ts); absent until the first PUT.
   */
  udfFiles?: { name: string; text: string }[];
  /** GSQL packages (`lib`, `lib.sub`) and their functions (src/query/gsql-functions.ts). */
  packages?: string[];
  functions?: StoredFunction[];
}

/** A GSQL function (`CREATE FUNCTION lib.f(…) RETURNS (T) { … }`), kept by its source text. */
export interface StoredFunction {
  /** The dotted name, package path included. */
  name: string;
  text: string;
  installed: boolean;
}

export const EMPTY_CATALOG: Catalog = Object.freeze({
  version: 0,
  vertexTypes: [],
  edgeTypes: [],
  tuples: [],
  graphs: [],
  jobs: [],
}) as Catalog;
