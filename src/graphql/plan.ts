/**
 * The plan of one GraphQL operation: what compile-plan.ts makes of a validated document, its
 * operation and its variables, and what execute-plan.ts runs over one snapshot. Every field is
 * resolved here once — arguments coerced, filters compiled, fragments expanded, aliases kept apart —
 * so execution walks typed structures level by level and writes JSON text, with no per-field
 * resolver calls. A plan holds no server state: it is data plus compiled predicates.
 */
import type { FieldNode } from 'graphql';
import type { Value } from '../catalog/value.js';
import type { EdgeHandle, ExternalId, ReadTx, WriteTx } from '../engine/api.js';
import type { EdgeFilter, VertexFilter } from './filter.js';
import type { EdgeFieldModel, VertexModel } from './model.js';
import type { Page, SortKey } from './order.js';

/** Where an error is reported: the source locations and the response path. */
export interface ErrorSite {
  locations: { line: number; column: number }[];
  path: (string | number)[];
}

/** A field of constant JSON (`__typename`). */
export interface ConstField {
  k: 'const';
  key: string;
  json: string;
}

// ---------------------------------------------------------------------------------------------
// Vertices and edges
// ---------------------------------------------------------------------------------------------

export interface AttrField {
  k: 'attr';
  key: string;
  attribute: string;
  write: (v: Value) => string;
  /** Whether `write` gives ASCII only (numbers, booleans, dates): written without UTF-8 encoding. */
  ascii: boolean;
}

export interface EdgeListField {
  k: 'edges';
  key: string;
  edge: EdgeFieldModel;
  filter: EdgeFilter | undefined;
  order: SortKey[];
  page: Page;
  sel: EdgeSelection;
}

/** `<edge field>_aggregate` on a vertex: per vertex, over its edges of the field. */
export interface EdgeAggregateField {
  k: 'edgeAggregate';
  key: string;
  edge: EdgeFieldModel;
  filter: EdgeFilter | undefined;
  sel: AggregateSelection;
}

export type VertexField = ConstField | AttrField | EdgeListField | EdgeAggregateField;

/** A selection on a vertex type (`_id` is an AttrField of attribute `_id`). */
export interface VertexSelection {
  vm: VertexModel;
  fields: VertexField[];
}

export interface EndpointField {
  k: 'end';
  key: string;
  side: 'from' | 'to';
  filter: VertexFilter | undefined;
  sel: VertexSelection;
}

/** `from_type`, `from_id`, `to_type`, `to_id` of a mutation's edge rows. */
export interface EndNameField {
  k: 'endName';
  key: string;
  side: 'from' | 'to';
  what: 'type' | 'id';
}

export type EdgeField = ConstField | AttrField | EndpointField | EndNameField;

export interface EdgeSelection {
  fields: EdgeField[];
  /** Whether edges must be read as handles (attributes) rather than from adjacency arrays. */
  needsHandles: boolean;
}

// ---------------------------------------------------------------------------------------------
// Small objects computed whole (aggregates, connection page info)
// ---------------------------------------------------------------------------------------------

/** A selection over a computed object: leaves are JSON text, `__typename` a constant. */
export interface ValueSelection {
  key: string;
  /** The field name read from the computed object (ignored when `json` is set). */
  name: string;
  json?: string;
  fields?: ValueSelection[];
}

/** An aggregate's selection: which statistics of which attributes (and degrees) to compute. */
export interface AggregateSelection {
  fields: ValueSelection[];
}

// ---------------------------------------------------------------------------------------------
// The graph type
// ---------------------------------------------------------------------------------------------

/** Which vertices of a type a graph field reads, and how. */
export interface RowSource {
  vm: VertexModel;
  filter: VertexFilter | undefined;
  /** The ids a `_id`/id-attribute `_eq`/`_in` filter names: looked up instead of scanned. */
  seek: ExternalId[] | undefined;
  order: SortKey[];
}

export interface ListField {
  k: 'list';
  key: string;
  site: ErrorSite;
  source: RowSource;
  page: Page;
  sel: VertexSelection;
}

export interface AggregateField {
  k: 'aggregate';
  key: string;
  site: ErrorSite;
  source: RowSource;
  sel: AggregateSelection;
}

/** A connection's cursor: the values of the order keys and the id of the last vertex returned. */
export interface Cursor {
  values: Value[];
  id: Value;
}

export interface ConnectionField {
  k: 'connection';
  key: string;
  site: ErrorSite;
  source: RowSource;
  first: number | undefined;
  after: Cursor | undefined;
  /** The order's signature, carried by the cursors it makes. */
  orderSig: string;
  fields: ConnectionPart[];
}

export type ConnectionPart =
  | ConstField
  | { k: 'totalCount'; key: string }
  | { k: 'pageInfo'; key: string; fields: ValueSelection[] }
  | { k: 'edges'; key: string; fields: ConnectionEdgePart[] };

export type ConnectionEdgePart =
  ConstField | { k: 'cursor'; key: string } | { k: 'node'; key: string; sel: VertexSelection };

/** A graph field whose arguments were refused: null in the response, with its error. */
export interface FailedField {
  k: 'failed';
  key: string;
  error: Error;
  site: ErrorSite;
}

export type GraphField = ConstField | ListField | AggregateField | ConnectionField | FailedField;

// ---------------------------------------------------------------------------------------------
// Mutations and subscriptions
// ---------------------------------------------------------------------------------------------

/** What a mutation wrote or deleted, read from the snapshot it shows them on. */
export type MutationOutcome =
  { kind: 'vertices'; tx: ReadTx; rows: number[] } | { kind: 'edges'; tx: ReadTx; edges: EdgeHandle[] };

/** What a mutation may do while it runs. */
export interface MutationContext {
  /** Runs one write transaction after the caller's write privilege was checked. */
  write<T>(kind: WriteKind, fn: (tx: WriteTx) => T): Promise<T>;
  /** A snapshot pinned now (released with the request). */
  fresh(): ReadTx;
}

/** Write privileges a mutation needs; the server layer decides what they mean. */
export type WriteKind = 'insert' | 'delete';

export interface MutationField {
  k: 'mutation';
  key: string;
  site: ErrorSite;
  /** How many vertices or edges it may return, for the cost estimate. */
  rows: (tx: ReadTx) => number;
  run: (ctx: MutationContext) => Promise<MutationOutcome>;
  sel: { kind: 'vertices'; sel: VertexSelection } | { kind: 'edges'; sel: EdgeSelection };
}

/** `<V>_changed`: which changes a subscriber wants and what it selects of each. */
export interface ChangeField {
  k: 'changed';
  key: string;
  vm: VertexModel;
  filter: VertexFilter | undefined;
  ops: ReadonlySet<'insert' | 'update' | 'delete'>;
  fields: (
    | ConstField
    | { k: 'op' | 'id' | 'version'; key: string }
    | { k: 'node'; key: string; sel: VertexSelection }
  )[];
}

// ---------------------------------------------------------------------------------------------
// The operation
// ---------------------------------------------------------------------------------------------

export type RootField =
  | ConstField
  /** The graph field of a query (`Query.<graph>`). */
  | { k: 'graph'; key: string; fields: GraphField[] }
  /** The graph field of a mutation (`Mutation.<graph>`): its fields run one after another. */
  | { k: 'mutations'; key: string; fields: (ConstField | MutationField | FailedField)[] }
  /** `__schema`/`__type`: answered by graphql-js's introspection. */
  | { k: 'introspection'; key: string; node: FieldNode };

export interface Plan {
  operation: 'query' | 'mutation' | 'subscription';
  fields: RootField[];
  /** The subscription's one field. */
  changed?: ChangeField;
}
