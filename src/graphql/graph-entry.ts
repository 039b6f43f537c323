/**
 * One graph's GraphQL schema and what is cached with it (documents, whereExprs, prepared
 * operations with their plans, point programs); replaced when the catalog changes.
 */
import { validateSchema, type DocumentNode, type GraphQLError, type OperationDefinitionNode } from 'graphql';
import type { Catalog } from '../catalog/types.js';
import { WhereExprCache } from './compile-args.js';
import { DocumentCache, Lru } from './documents.js';
import type { GraphQLLimits } from './limits.js';
import type { Plan } from './plan.js';
import type { PointProgram } from './point.js';
import { buildSchema, type BuiltSchema } from './schema.js';

const PLANS = 500;
const POINTS = 1000;

/** One graph's schema and what is cached with it; replaced when the catalog changes. */
export interface GraphEntry {
  catalog: Catalog;
  built: BuiltSchema | undefined;
  problems: readonly GraphQLError[];
  documents: DocumentCache | undefined;
  whereExprs: WhereExprCache;
  /** Prepared operations (each with its plans), by document, operation name and variables. */
  prepared: Lru<Prepared>;
  /** Point lookups by the exact text of their requests (see answerPoint). */
  points: Lru<PointEntry>;
}

/** A point lookup's program and the limits it was checked against. */
export interface PointEntry {
  program: PointProgram;
  limits: GraphQLLimits;
}

/** An operation ready to plan (or the answer that refuses it). */
export interface Prepared {
  entry: GraphEntry & { built: BuiltSchema };
  document: DocumentNode;
  operation: OperationDefinitionNode;
  variables: Record<string, unknown>;
  rawVariables: Record<string, unknown>;
  /** The key of its cache entries (none for long documents or variables). */
  key: string | undefined;
  /** Its plans by the depth limit they were checked against (cached operations only). */
  plans?: Map<number, Plan>;
}

/** The entry of `graph` over `catalog` (built undefined: no such graph). */
export function buildEntry(catalog: Catalog, graph: string, introspection: boolean): GraphEntry {
  const built = buildSchema(catalog, graph);
  const problems = built ? validateSchema(built.schema) : [];
  return {
    catalog,
    built,
    problems,
    documents: built && problems.length === 0 ? new DocumentCache(built.schema, introspection) : undefined,
    whereExprs: new WhereExprCache(catalog, graph),
    prepared: new Lru(PLANS),
    points: new Lru(POINTS),
  };
}
