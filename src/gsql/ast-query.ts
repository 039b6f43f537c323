/**
 * Syntax tree of GSQL queries: CREATE/INTERPRET QUERY, their bodies, SELECT blocks and expressions.
 * Every node carries the line and column where it starts; expressions also keep their source
 * offsets because PRINT names an unnamed expression by its text.
 */

import type { JsonValue } from '../util/json.js';
import type { CypherQuery } from './ast-cypher.js';
import type { TableOpStmt } from './ast-table.js';
import type { ShellSelectStatement, TableSelectStmt, V3Orientation } from './ast-v3.js';

export interface Pos {
  line: number;
  column: number;
}

// ---------------------------------------------------------------------------------------------
// Types as written
// ---------------------------------------------------------------------------------------------

export type BaseTypeName = 'INT' | 'UINT' | 'FLOAT' | 'DOUBLE' | 'STRING' | 'BOOL' | 'DATETIME';

export type AccumKind =
  | 'SumAccum'
  | 'MinAccum'
  | 'MaxAccum'
  | 'AvgAccum'
  | 'OrAccum'
  | 'AndAccum'
  | 'BitwiseAndAccum'
  | 'BitwiseOrAccum'
  | 'ArrayAccum'
  | 'ListAccum'
  | 'SetAccum'
  | 'BagAccum'
  | 'MapAccum'
  | 'HeapAccum'
  | 'GroupByAccum';

export interface HeapOrder {
  field: string;
  descending: boolean;
  pos: Pos;
}

export type TypeExpr =
  | { kind: 'base'; name: BaseTypeName; pos: Pos }
  | { kind: 'vertex'; vertexType?: string; pos: Pos }
  | { kind: 'edge'; edgeType?: string; pos: Pos }
  | { kind: 'collection'; collection: 'SET' | 'BAG' | 'LIST'; element: TypeExpr; pos: Pos }
  | { kind: 'map'; key: TypeExpr; value: TypeExpr; pos: Pos }
  /** A name declared by TYPEDEF TUPLE (or a catalog UDT). */
  | { kind: 'named'; name: string; pos: Pos }
  /** `FILE`: a query parameter naming a server-side output file. */
  | { kind: 'file'; pos: Pos }
  /** JSONOBJECT / JSONARRAY variables (values of parse_json_object / parse_json_array). */
  | { kind: 'json'; json: 'JSONOBJECT' | 'JSONARRAY'; pos: Pos }
  | {
      kind: 'accum';
      accum: AccumKind;
      /** Element types (Sum/Min/Max/List/Set/Bag/Heap: one; Map: key and value). */
      args: TypeExpr[];
      /** GroupByAccum: the key fields and the accumulator fields, each named. */
      groupKeys?: { name: string; type: TypeExpr }[];
      groupAccums?: { name: string; type: TypeExpr }[];
      /** HeapAccum: capacity expression and sort order. */
      capacity?: Expr;
      order?: HeapOrder[];
      pos: Pos;
    };

// ---------------------------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------------------------

interface ExprBase {
  pos: Pos;
  /** Source offsets, end exclusive. */
  start: number;
  end: number;
}

export type BinaryOp =
  | '+'
  | '-'
  | '*'
  | '/'
  | '%'
  | '=='
  | '!='
  | '<'
  | '<='
  | '>'
  | '>='
  | 'AND'
  | 'OR'
  | 'LIKE'
  | 'NOT LIKE'
  | 'IN'
  | 'NOT IN'
  | 'UNION'
  | 'INTERSECT'
  | 'MINUS'
  | '&'
  | '|'
  | '<<'
  | '>>';

export type IntervalUnit = 'SECOND' | 'MINUTE' | 'HOUR' | 'DAY' | 'WEEK' | 'MONTH' | 'YEAR';

export type Expr =
  | (ExprBase & { kind: 'int'; value: number | bigint })
  | (ExprBase & { kind: 'float'; value: number })
  | (ExprBase & { kind: 'string'; value: string })
  | (ExprBase & { kind: 'bool'; value: boolean })
  | (ExprBase & { kind: 'null' })
  /** A plain name: local variable, parameter, vertex alias, vertex-set variable, type name. */
  | (ExprBase & { kind: 'name'; name: string })
  /** A global accumulator `@@name` (`@@name'`: its previous value; `@@name[i][j]`: an ArrayAccum cell). */
  | (ExprBase & { kind: 'global'; name: string; prev?: boolean; index?: Expr[] })
  /**
   * A vertex-attached accumulator `target.@name` (target absent for a bare `@name`);
   * `target.@name'` reads its value from before the current SELECT; `target.@name[i]` is an
   * ArrayAccum cell.
   */
  | (ExprBase & { kind: 'vattach'; target?: Expr; name: string; prev?: boolean; index?: Expr[] })
  /** `target.name`: an attribute, a tuple field, or `.type`. */
  | (ExprBase & { kind: 'field'; target: Expr; name: string; namePos: Pos })
  | (ExprBase & { kind: 'method'; target: Expr; name: string; args: Expr[]; namePos: Pos })
  /**
   * A function call, or a tuple constructor when `name` is a tuple type. `count(*)` (star) and
   * `sum(DISTINCT x)` (distinct) are aggregates of SQL-like SELECT columns.
   */
  | (ExprBase & { kind: 'call'; name: string; args: Expr[]; star?: true; distinct?: true })
  | (ExprBase & { kind: 'unary'; op: '-' | 'NOT'; operand: Expr })
  | (ExprBase & { kind: 'binary'; op: BinaryOp; left: Expr; right: Expr; opPos: Pos })
  | (ExprBase & { kind: 'between'; operand: Expr; low: Expr; high: Expr; negated: boolean })
  | (ExprBase & { kind: 'isnull'; operand: Expr; negated: boolean })
  /** `(k -> v)` for MapAccum, `(k1, k2 -> a1, a2)` for GroupByAccum. */
  | (ExprBase & { kind: 'arrow'; keys: Expr[]; values: Expr[] })
  /** `[a, b, c]` */
  | (ExprBase & { kind: 'list'; items: Expr[] })
  /** `INTERVAL n DAY`: only as the second argument of datetime_add / datetime_sub. */
  | (ExprBase & { kind: 'interval'; amount: Expr; unit: IntervalUnit })
  /** `(a, b)`: only as a RUN QUERY argument, the `("id", "Type")` form of a VERTEX value. */
  | (ExprBase & { kind: 'tuple'; items: Expr[] })
  | (ExprBase & {
      kind: 'case';
      subject?: Expr;
      whens: { when: Expr; then: Expr }[];
      otherwise?: Expr;
    })
  /** A vertex-set seed `{p, Person.*, @@set, ANY}`; only on the right of a vertex-set assignment. */
  | (ExprBase & { kind: 'seed'; items: SeedItem[] })
  /** A SELECT block used as a value (the right side of a vertex-set assignment). */
  | (ExprBase & { kind: 'select'; select: SelectBlock });

export type SeedItem =
  | { kind: 'all'; vertexType: string; pos: Pos }
  | { kind: 'any'; pos: Pos }
  | { kind: 'expr'; expr: Expr }
  /** `SelectVertex(file, $id, $type | Type, separator, header)`: vertices listed in a file. */
  | {
      kind: 'selectVertex';
      file: Expr;
      id: FileColumn;
      type: FileColumn | { kind: 'type'; name: string; pos: Pos };
      separator: Expr;
      header: Expr;
      pos: Pos;
    }
  /** `LOADACCUM(file, $c…, separator, header)`: accumulator input read from a file. */
  | { kind: 'loadAccum'; file: Expr; columns: FileColumn[]; separator: Expr; header: Expr; pos: Pos };

/** A column of an input file: `$n` (from 0) or `$"name"` (a header's name). */
export type FileColumn =
  { kind: 'position'; index: number; pos: Pos } | { kind: 'named'; name: string; pos: Pos };

// ---------------------------------------------------------------------------------------------
// SELECT
// ---------------------------------------------------------------------------------------------

/** Where a piece of a pattern is in the source: line and column, and offsets (end exclusive). */
export interface Span {
  pos: Pos;
  start: number;
  end: number;
}

/**
 * A vertex step of a path pattern: `Person:p`, `(Comment|Post):m`, `:x`, `S:s`, `_`. Each name is
 * a vertex type, a vertex-set variable, or a parameter or global accumulator naming vertex types;
 * the binder decides which. No names: any vertex.
 */
export interface VertexPattern extends Span {
  names: { name: string; pos: Pos }[];
  alias?: string;
  aliasPos?: Pos;
}

/** An edge type (`_`/`ANY`: any; or a parameter naming types) with its V2 direction marker. */
export interface EdgeAtom {
  name: string;
  /** `E>`: out, `<E`: in, `E`: any (V1 semantics, or an undirected edge in V2). */
  direction: 'out' | 'in' | 'any';
  pos: Pos;
}

/** One edge of an edge pattern: alternatives `E1|E2>`, optionally repeated `*min..max`. */
export interface EdgeHop extends Span {
  atoms: EdgeAtom[];
  /** `E*` (0 or more), `E*2`, `E*1..3`, `E*2..`, `E*..3`; max absent: unbounded. */
  repeat?: { min: number; max?: number; pos: Pos };
  /** Written in SYNTAX V3 (`-[:E]->`): the orientations it matches, resolved against the schema. */
  v3?: V3Orientation;
}

/** `-(E1>.E2>:alias)-`: one or more edges concatenated with `.` (an alias only on a single edge). */
export interface EdgePattern extends Span {
  hops: EdgeHop[];
  alias?: string;
  aliasPos?: Pos;
  /** `->` after the closing parenthesis (V1). */
  arrow: boolean;
}

/** `S:s -(E)- T:t -(F>)- U:u`: a source vertex and steps, each an edge pattern and a vertex. */
export interface PathPattern extends Span {
  source: VertexPattern;
  steps: { edge: EdgePattern; vertex: VertexPattern }[];
  /** Written in SYNTAX V3: the conditions its property maps and inline WHEREs add to WHERE. */
  v3?: { conditions: Expr[] };
}

/** `POST-ACCUM [(alias)] stmt, …`: V2 may name the alias whose distinct vertices the clause visits. */
export interface PostAccumClause {
  alias?: { name: string; pos: Pos };
  stmts: Stmt[];
}

export interface SelectBlock {
  /** The alias named after SELECT. */
  result: string;
  resultPos: Pos;
  distinct: boolean;
  /** The path patterns of FROM (several: conjunctive pattern matching). */
  from: PathPattern[];
  where?: Expr;
  /** `SAMPLE n [%] EDGE WHEN cond`: per source vertex, a random sample of its matched edges. */
  sample?: { size: Expr; percent: boolean; when: Expr; pos: Pos };
  /** `PER (a, b)`: ACCUM runs once per distinct binding of these aliases (absent: once per match). */
  per?: { name: string; pos: Pos }[];
  accum: Stmt[];
  /** Each POST-ACCUM clause, in order (V2 allows several; UPDATE's SET is one). */
  postAccum: PostAccumClause[];
  having?: Expr;
  orderBy: { expr: Expr; descending: boolean }[];
  limit?: Expr;
  offset?: Expr;
  pos: Pos;
}

// ---------------------------------------------------------------------------------------------
// Statements (query body and ACCUM/POST-ACCUM bodies)
// ---------------------------------------------------------------------------------------------

export interface DeclName {
  name: string;
  /** Accumulators: `@@name` (one declaration may mix `@a, @@b`). */
  global?: boolean;
  init?: Expr;
  /** ArrayAccum: the size of each dimension, `@@a[3][4]`. */
  dims?: Expr[];
  pos: Pos;
}

export interface PrintItem {
  expr: Expr;
  /** `S[S.a, S.@b AS x]`: the projected expressions of a vertex-set print. */
  projection?: { expr: Expr; alias?: string }[];
  alias?: string;
  pos: Pos;
}

/** `PRINT … TO_CSV f` (a FILE object) or `PRINT … TO_CSV "path"`. */
export type PrintTarget = { file: string; pos: Pos } | { path: string; pos: Pos };

export type Stmt =
  /** `STATIC` globals keep their value from one run of the installed query to the next. */
  | {
      kind: 'accumDecl';
      global: boolean;
      static?: boolean;
      /** `SumAccum<INT> EDGE @x`: one accumulator per edge (V3's edge-attached accumulators). */
      edge?: boolean;
      type: TypeExpr;
      names: DeclName[];
      pos: Pos;
    }
  | { kind: 'tupleDecl'; name: string; fields: { name: string; type: TypeExpr }[]; pos: Pos }
  | { kind: 'varDecl'; type: TypeExpr; names: DeclName[]; pos: Pos }
  /** `FILE f (path)`: a server-side output file written by `f.println(…)`. */
  | { kind: 'fileDecl'; name: string; path: Expr; pos: Pos }
  /** `S = …` / `S (ANY) = …` / `S (A|B) = …`: assignment of a vertex-set variable (declared here if new). */
  | { kind: 'vsetAssign'; name: string; vertexTypes?: { name: string; pos: Pos }[]; value: Expr; pos: Pos }
  | { kind: 'assign'; target: Expr; op: '=' | '+='; value: Expr; pos: Pos }
  | { kind: 'if'; branches: { cond: Expr; body: Stmt[] }[]; otherwise?: Stmt[]; pos: Pos }
  | {
      kind: 'case';
      subject?: Expr;
      branches: { when: Expr; body: Stmt[] }[];
      otherwise?: Stmt[];
      pos: Pos;
    }
  | { kind: 'while'; cond: Expr; limit?: Expr; body: Stmt[]; pos: Pos }
  | {
      kind: 'foreach';
      vars: { name: string; pos: Pos }[];
      source: ForeachSource;
      body: Stmt[];
      pos: Pos;
    }
  | { kind: 'break'; pos: Pos }
  | { kind: 'continue'; pos: Pos }
  | { kind: 'print'; items: PrintItem[]; where?: Expr; toCsv?: PrintTarget; pos: Pos }
  /** `EXCEPTION name (code)`: a user-defined exception RAISE can throw. */
  | { kind: 'exceptionDecl'; name: string; code: number; pos: Pos }
  /** `RAISE name [(message)]`: stops the query (or jumps to a TRY's handler). */
  | { kind: 'raise'; name: string; message?: Expr; pos: Pos }
  /** `TRY … EXCEPTION WHEN e THEN … [ELSE …] END`. */
  | {
      kind: 'try';
      body: Stmt[];
      handlers: { name: string; pos: Pos; body: Stmt[] }[];
      otherwise?: Stmt[];
      pos: Pos;
    }
  /** `LOG(cond, a, b, …)`: a line in the server log when cond holds. */
  | { kind: 'log'; cond: Expr; args: Expr[]; pos: Pos }
  /** An expression evaluated for its effect: a method call such as `@@heap.pop()`. */
  | { kind: 'expr'; expr: Expr; pos: Pos }
  | { kind: 'return'; value?: Expr; pos: Pos }
  | {
      kind: 'insert';
      typeName: string;
      typePos: Pos;
      /** Explicit column list, if written (`INSERT INTO E (FROM, TO, a)`). */
      columns?: string[];
      values: InsertValue[];
      pos: Pos;
    }
  /** `DELETE s FROM …` (a SELECT-like block) or `DELETE (x)` inside ACCUM. */
  | { kind: 'delete'; alias: string; select?: SelectBlock; pos: Pos }
  | { kind: 'update'; select: SelectBlock; sets: Stmt[]; pos: Pos }
  | TableSelectStmt
  | TableOpStmt
  /** The body of an openCypher query (`CREATE OPENCYPHER QUERY`): its only statement. */
  | { kind: 'cypher'; query: CypherQuery; pos: Pos }
  | VirtualEdgeDecl;

/**
 * `CREATE DIRECTED|UNDIRECTED VIRTUAL EDGE Name (FROM A|B, TO C, attr type [DEFAULT v], …)`: an
 * edge type that exists only while the query runs (see docs/gsql.md, "Virtual edges").
 */
export interface VirtualEdgeDecl {
  kind: 'createVirtualEdge';
  name: string;
  namePos: Pos;
  directed: boolean;
  from: { name: string; pos: Pos }[];
  to: { name: string; pos: Pos }[];
  attributes: { name: string; type: TypeExpr; default?: Expr; pos: Pos }[];
  pos: Pos;
}

/** What FOREACH iterates: a collection expression, or `RANGE[from, to].STEP(step)`. */
export type ForeachSource = Expr | { kind: 'range'; from: Expr; to: Expr; step?: Expr; pos: Pos };

export interface InsertValue {
  expr: Expr;
  /** For an edge endpoint written `id VertexType`. */
  vertexType?: string;
}

export interface Param {
  name: string;
  type: TypeExpr;
  default?: Expr;
  pos: Pos;
}

export interface QueryDef {
  name: string;
  params: Param[];
  graph?: string;
  returns?: TypeExpr;
  syntax?: 'v1' | 'v2' | 'v3';
  distributed: boolean;
  body: Stmt[];
  pos: Pos;
  /** The complete `CREATE … }` text (stored in the catalog and shown by SHOW QUERY). */
  text: string;
  /** Where `text` starts in the parsed source (expression offsets count from the source's start). */
  textStart: number;
}

export type QueryArg = Expr;

/** `RUN QUERY q({"p": value, …})`: the arguments as one JSON object naming the parameters. */
export interface NamedQueryArgs {
  kind: 'namedArgs';
  values: { [name: string]: JsonValue };
  pos: Pos;
}

/** A RUN/INTERPRET statement's arguments: positional, or one JSON object. */
export type QueryArgs = QueryArg[] | NamedQueryArgs;

/** The query-related statements of the GSQL shell. */
export type QueryStatement =
  | { kind: 'createQuery'; orReplace: boolean; query: QueryDef; pos: Pos }
  /** INTERPRET QUERY with a body: anonymous (name '') or named, run at once. */
  | { kind: 'interpretAnonymous'; query: QueryDef; args: QueryArg[]; pos: Pos }
  /** INTERPRET QUERY q(args) of an existing query. */
  | { kind: 'interpretQuery'; name: string; args: QueryArgs; pos: Pos }
  | { kind: 'installQuery'; names: string[]; all: boolean; force: boolean; pos: Pos }
  | { kind: 'runQuery'; name: string; args: QueryArgs; pos: Pos }
  /** SHOW QUERY name, or `*` for every query of the graph. */
  | { kind: 'showQuery'; name: string; pos: Pos }
  | { kind: 'dropQuery'; names: string[]; all: boolean; pos: Pos }
  /** CREATE [OR REPLACE] FUNCTION pkg.name(params) RETURNS (T) { … }: the function as a query body. */
  | { kind: 'createFunction'; orReplace: boolean; fn: QueryDef; pos: Pos }
  /** INSTALL/SHOW/DROP FUNCTION: a function (`pkg.f`) or a pattern (`pkg.*`, `pkg.**`, `**`). */
  | { kind: 'installFunction'; target: string; pos: Pos }
  | { kind: 'showFunction'; target?: string; pos: Pos }
  | { kind: 'dropFunction'; target: string; pos: Pos }
  | { kind: 'createPackage'; name: string; pos: Pos }
  | { kind: 'showPackage'; name?: string; pos: Pos }
  | { kind: 'dropPackage'; name: string; pos: Pos }
  /** PUT ExprFunctions|ExprUtil|TokenBank FROM "file": replaces a UDF file with the file's text. */
  | { kind: 'putUdfFile'; file: string; path: string; pos: Pos }
  /** GET ExprFunctions|ExprUtil|TokenBank [TO "file"]: shows a UDF file, or writes it to a file. */
  | { kind: 'getUdfFile'; file: string; path?: string; pos: Pos }
  | ShellSelectStatement;
