/**
 * The GSQL syntax tree. Every node carries the position of its first token (1-based line and
 * column); statements also keep their source text so stored jobs can be shown and re-parsed.
 * Every statement the shell runs is a kind of `Stmt`; statements recognised but not run are the
 * `unsupported` kind, naming what they were recognised as.
 */
import type { AttrType } from '../catalog/types.js';
import type { GsqlSyntaxError } from './lexer.js';
import type { AuthStmt } from './parser-auth.js';
import type { DmlStmt } from './parser-dml.js';
import type { OpsStatement } from './parser-ops.js';
import type { UnsupportedFeature } from './parser-unsupported.js';

export interface Pos {
  line: number;
  column: number;
}

/** A literal as written: DEFAULT values, SET values. */
/** A comparison in a loading-job WHERE or a shell DELETE … WHERE. */
export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=';

export interface Literal extends Pos {
  kind: 'number' | 'string' | 'bool' | 'word';
  /** The literal's text (strings unquoted; booleans as written). */
  text: string;
}

export interface AttrDecl extends Pos {
  name: string;
  type: AttrType;
  default?: Literal;
  /** `NULLABLE` was written (accepted; attributes always hold a value, their default when unset). */
  nullable?: boolean;
}

/** `WITH name = value` options of CREATE VERTEX / EDGE (names kept as written). */
export interface WithOption extends Pos {
  name: string;
  value: string;
}

export interface VertexDecl extends Pos {
  name: string;
  /** `PRIMARY_ID name TYPE`; absent for the PRIMARY KEY forms. */
  primaryId?: AttrDecl;
  /** Attributes in declared order (for the PRIMARY KEY forms, the key attributes included). */
  attributes: AttrDecl[];
  /** `id TYPE PRIMARY KEY`: the key attribute's name. */
  primaryKey?: string;
  /** `PRIMARY KEY (a, b)`: the key attribute names in key order. */
  compositeKey?: string[];
  options: WithOption[];
}

export interface EdgePairDecl extends Pos {
  /** Vertex type names (`*` for any); `FROM a|b` lists several. */
  from: string[];
  to: string[];
}

export interface EdgeDecl extends Pos {
  name: string;
  directed: boolean;
  pairs: EdgePairDecl[];
  attributes: AttrDecl[];
  /** Attribute names of DISCRIMINATOR(…), in order. */
  discriminator: string[];
  options: WithOption[];
}

export interface TupleFieldDecl extends Pos {
  name: string;
  type: AttrType;
}

/** One statement of a schema change job body. */
export type SchemaChangeAction =
  | ({ action: 'add_vertex' } & { vertex: VertexDecl } & Pos)
  | ({ action: 'add_edge' } & { edge: EdgeDecl } & Pos)
  | ({ action: 'drop_vertex'; names: string[] } & Pos)
  | ({ action: 'drop_edge'; names: string[] } & Pos)
  | ({
      action: 'alter_add_attributes';
      target: 'vertex' | 'edge';
      typeName: string;
      attributes: AttrDecl[];
    } & Pos)
  | ({ action: 'alter_drop_attributes'; target: 'vertex' | 'edge'; typeName: string; names: string[] } & Pos)
  | ({ action: 'alter_add_pairs'; typeName: string; pairs: EdgePairDecl[] } & Pos)
  | ({ action: 'alter_drop_pairs'; typeName: string; pairs: EdgePairDecl[] } & Pos)
  /** Global jobs: `ADD VERTEX a, b TO GRAPH g` puts existing global types into a graph. */
  | ({ action: 'add_to_graph'; target: 'vertex' | 'edge'; names: string[]; graph: string } & Pos)
  /** Global jobs: `DROP VERTEX a FROM GRAPH g` takes global types out of a graph (the types stay). */
  | ({ action: 'drop_from_graph'; target: 'vertex' | 'edge'; names: string[]; graph: string } & Pos)
  | ({ action: 'add_index'; typeName: string; indexName: string; attribute: string } & Pos)
  | ({ action: 'drop_index'; typeName: string; indexName: string } & Pos);

interface StmtBase extends Pos {
  /** The statement's source text. */
  text: string;
}

export type Stmt =
  | (StmtBase & { kind: 'create_vertex'; vertex: VertexDecl })
  | (StmtBase & { kind: 'create_edge'; edge: EdgeDecl })
  | (StmtBase & { kind: 'typedef_tuple'; name: string; fields: TupleFieldDecl[] })
  | (StmtBase & { kind: 'create_graph'; name: string; members: '*' | { name: string; pos: Pos }[] })
  | (StmtBase & { kind: 'use_graph'; name: string })
  | (StmtBase & { kind: 'use_global' })
  | (StmtBase & { kind: 'drop_graph'; name: string; cascade: boolean })
  | (StmtBase & { kind: 'drop_all' })
  | (StmtBase & { kind: 'clear_graph_store'; hard: boolean })
  | (StmtBase & { kind: 'drop_vertex'; names: string[] })
  | (StmtBase & { kind: 'drop_edge'; names: string[] })
  | (StmtBase & { kind: 'drop_tuple'; names: string[] })
  | (StmtBase & { kind: 'show'; what: 'vertex' | 'edge' | 'graph'; names: string[] | '*' })
  | (StmtBase & { kind: 'show_job'; names: string[] | '*' })
  | (StmtBase & { kind: 'ls' })
  | (StmtBase & { kind: 'help'; topic?: string })
  | (StmtBase & { kind: 'set'; name: string; value: Literal })
  | (StmtBase & {
      kind: 'create_schema_change_job';
      name: string;
      global: boolean;
      graph?: string;
      actions: SchemaChangeAction[];
    })
  | (StmtBase & {
      kind: 'run_schema_change_job';
      name: string;
      global: boolean;
      /** Run options as written, e.g. ["-force", "-N"] (accepted; there are no loading jobs to abort). */
      options: string[];
    })
  | (StmtBase & { kind: 'drop_job'; names: string[] | '*' })
  | (StmtBase & { kind: 'create_loading_job'; job: import('./ast-loading.js').LoadingJobAst })
  | (StmtBase & { kind: 'run_loading_job'; run: import('./ast-loading.js').RunLoadingJobAst })
  | (StmtBase & { kind: 'query'; statement: import('./ast-query.js').QueryStatement })
  | AuthStmt
  | DmlStmt
  | (StmtBase & OpsStatement)
  | (StmtBase & {
      kind: 'unsupported';
      /** What was recognised, e.g. "CREATE DATA_SOURCE", "EXPORT". */
      feature: UnsupportedFeature;
    });

export type StmtKind = Stmt['kind'];

/** One entry of a parsed script: a statement, or the syntax error that stopped one. */
export type ScriptItem = { ok: true; stmt: Stmt } | { ok: false; error: GsqlSyntaxError };
