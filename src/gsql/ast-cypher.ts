/**
 * Syntax tree of openCypher queries (`CREATE OPENCYPHER QUERY q(…) { MATCH … RETURN … }`). Patterns
 * are the V3 path patterns GSQL also reads (ast-query's PathPattern), and expressions are GSQL
 * expression nodes: openCypher's operators and functions are read into the forms GSQL has, and
 * the few it lacks into calls of `cypher.*` functions (names GSQL text cannot spell).
 */
import type { Expr, PathPattern, Pos, Stmt } from './ast-query.js';

export interface ProjectionItem {
  expr: Expr;
  alias?: string;
  pos: Pos;
}

/** The part WITH and RETURN share: the items and ORDER BY / SKIP / LIMIT. */
export interface Projection {
  distinct: boolean;
  /** `*`: every variable in scope. */
  items: ProjectionItem[] | '*';
  orderBy: { expr: Expr; descending: boolean }[];
  skip?: Expr;
  limit?: Expr;
  pos: Pos;
}

/** A node or relationship CREATE makes: `(p:Account {name: $n})`, `(s)-[:transfer {…}]->(t)`. */
export interface CreateNode {
  alias?: string;
  label?: { name: string; pos: Pos };
  props: { key: string; value: Expr; pos: Pos }[];
  pos: Pos;
}

/** What CREATE makes: an insertion (`kind` as the query-effects check reads the tree). */
export interface CreatePath {
  kind: 'insert';
  nodes: CreateNode[];
  /** edges[i] joins nodes[i] and nodes[i + 1]. */
  edges: {
    type: { name: string; pos: Pos };
    /** `-[]->`: from nodes[i] to nodes[i + 1]; `<-[]-`: the other way. */
    leftward: boolean;
    props: { key: string; value: Expr; pos: Pos }[];
    pos: Pos;
  }[];
  pos: Pos;
}

export type CypherClause =
  | { kind: 'match'; optional: boolean; patterns: PathPattern[]; where?: Expr; pos: Pos }
  | { kind: 'unwind'; list: Expr; alias: string; pos: Pos }
  | { kind: 'with'; projection: Projection; where?: Expr; pos: Pos }
  | { kind: 'return'; projection: Projection; pos: Pos }
  | { kind: 'create'; paths: CreatePath[]; pos: Pos }
  /** `SET x.a = v, …`: the attribute assignments (GSQL's statements). */
  | { kind: 'set'; items: (Stmt & { kind: 'assign'; target: Expr & { kind: 'field' } })[]; pos: Pos }
  | { kind: 'delete'; detach: boolean; names: { name: string; pos: Pos }[]; pos: Pos };

/** One single query: its clauses in order. */
export interface CypherPart {
  clauses: CypherClause[];
  pos: Pos;
}

/** An openCypher query: single queries joined by UNION (all: UNION ALL). */
export interface CypherQuery {
  parts: CypherPart[];
  /** Between parts[i] and parts[i + 1]: UNION ALL (true) or UNION (false). */
  unionAll: boolean[];
  pos: Pos;
}
