/**
 * openCypher queries (the body of `CREATE OPENCYPHER QUERY q(…) { … }` and `INTERPRET OPENCYPHER
 * QUERY () { … }`): MATCH / OPTIONAL MATCH with WHERE, UNWIND, WITH, RETURN (DISTINCT, ORDER BY,
 * SKIP, LIMIT), CREATE, SET, [DETACH] DELETE, and UNION [ALL]. Patterns are read by the V3 pattern
 * parser with openCypher expressions.
 */
import type { Expr, Pos } from './ast-query.js';
import type {
  CreateNode,
  CreatePath,
  CypherClause,
  CypherPart,
  CypherQuery,
  Projection,
} from './ast-cypher.js';
import { GsqlSyntaxError } from './lexer.js';
import { parseCypherExpr } from './parser-cypher-expr.js';
import type { TokenCursor } from './parser-expr.js';
import { posOf } from './parser-type.js';
import { atV3Path, parseV3Path, type PatternExprs } from './parser-v3.js';

const CYPHER_EXPRS: PatternExprs = { value: parseCypherExpr, condition: parseCypherExpr };

/** The error for openCypher written in a GSQL query body. */
export function notCypher(c: TokenCursor): GsqlSyntaxError {
  const t = c.peek();
  return new GsqlSyntaxError(
    t.line,
    t.column,
    'MATCH is openCypher, not GSQL: declare the query as CREATE OPENCYPHER QUERY name(…) FOR GRAPH g { MATCH … RETURN … }',
  );
}

/** An openCypher query up to (not including) the `}` closing its body. */
export function parseCypherQuery(c: TokenCursor): CypherQuery {
  const query = parseCypherParts(c, false);
  if (!c.isPunct('}')) throw c.error('expected an openCypher clause (MATCH, WITH, RETURN, …) or "}"');
  return query;
}

/** True at an openCypher statement typed in the shell: `MATCH …`, `OPTIONAL MATCH …`, `CREATE (…)`. */
export function atShellCypher(c: TokenCursor): boolean {
  return (
    c.isWord('MATCH') ||
    (c.isWord('OPTIONAL') && c.isWord('MATCH', 1)) ||
    (c.isWord('CREATE') && c.isPunct('(', 1))
  );
}

/**
 * An openCypher query typed in the shell (TigerGraph 4.2 runs it as an interpreted query). It has
 * no closing brace: it ends after RETURN, or at a line break after a clause that writes, so the
 * next line of a script is the next statement.
 */
export function parseShellCypher(c: TokenCursor): CypherQuery {
  const query = parseCypherParts(c, true);
  c.acceptPunct(';');
  return query;
}

function parseCypherParts(c: TokenCursor, shell: boolean): CypherQuery {
  const pos = c.pos();
  const parts = [parsePart(c, shell)];
  const unionAll: boolean[] = [];
  while (c.acceptWord('UNION')) {
    unionAll.push(c.acceptWord('ALL'));
    parts.push(parsePart(c, shell));
  }
  return { parts, unionAll, pos };
}

const WRITING_CLAUSES: ReadonlySet<CypherClause['kind']> = new Set(['create', 'set', 'delete']);

/** Whether a shell statement ends after `clause`. */
function endsShellStatement(c: TokenCursor, clause: CypherClause): boolean {
  if (clause.kind === 'return') return true;
  const lineBreak = c.src.slice(c.lastEnd(), c.peek().start).includes('\n');
  return WRITING_CLAUSES.has(clause.kind) && lineBreak;
}

function parsePart(c: TokenCursor, shell: boolean): CypherPart {
  const pos = c.pos();
  const clauses: CypherClause[] = [];
  for (;;) {
    const clause = parseClause(c);
    if (!clause) break;
    clauses.push(clause);
    if (shell && endsShellStatement(c, clause)) break;
    c.acceptPunct(';');
  }
  if (clauses.length === 0) throw c.error('expected an openCypher clause (MATCH, CREATE, …)');
  return { clauses, pos };
}

function parseClause(c: TokenCursor): CypherClause | undefined {
  const pos = c.pos();
  if (c.isWord('MATCH') || (c.isWord('OPTIONAL') && c.isWord('MATCH', 1))) {
    const optional = c.acceptWord('OPTIONAL');
    c.expectWord('MATCH');
    const patterns = [matchPattern(c)];
    while (c.acceptPunct(',')) patterns.push(matchPattern(c));
    const where = c.acceptWord('WHERE') ? parseCypherExpr(c) : undefined;
    return { kind: 'match', optional, patterns, ...(where && { where }), pos };
  }
  if (c.acceptWord('UNWIND')) {
    const list = parseCypherExpr(c);
    c.expectWord('AS');
    return { kind: 'unwind', list, alias: c.expectIdent('a variable name').text, pos };
  }
  if (c.acceptWord('WITH')) {
    const projection = parseProjection(c, pos);
    const where = c.acceptWord('WHERE') ? parseCypherExpr(c) : undefined;
    return { kind: 'with', projection, ...(where && { where }), pos };
  }
  if (c.acceptWord('RETURN')) return { kind: 'return', projection: parseProjection(c, pos), pos };
  if (c.acceptWord('CREATE')) {
    const paths = [parseCreatePath(c)];
    while (c.acceptPunct(',')) paths.push(parseCreatePath(c));
    return { kind: 'create', paths, pos };
  }
  if (c.acceptWord('SET')) {
    const items: Extract<CypherClause, { kind: 'set' }>['items'] = [];
    do {
      const at = c.pos();
      const target = parseCypherExpr(c);
      if (target.kind !== 'binary' || target.op !== '==' || target.left.kind !== 'field')
        throw new GsqlSyntaxError(at.line, at.column, 'SET needs "variable.property = value"');
      items.push({ kind: 'assign', target: target.left, op: '=', value: target.right, pos: at });
    } while (c.acceptPunct(','));
    return { kind: 'set', items, pos };
  }
  if (c.isWord('DELETE') || (c.isWord('DETACH') && c.isWord('DELETE', 1))) {
    const detach = c.acceptWord('DETACH');
    c.expectWord('DELETE');
    const names: { name: string; pos: Pos }[] = [];
    do {
      const t = c.expectIdent('a variable to delete');
      names.push({ name: t.text, pos: posOf(t) });
    } while (c.acceptPunct(','));
    return { kind: 'delete', detach, names, pos };
  }
  if (
    c.isWord('MERGE') ||
    c.isWord('REMOVE') ||
    c.isWord('CALL') ||
    c.isWord('FOREACH') ||
    c.isWord('LOAD')
  ) {
    const t = c.peek();
    throw new GsqlSyntaxError(
      t.line,
      t.column,
      `the openCypher clause ${t.text.toUpperCase()} is not supported`,
    );
  }
  return undefined;
}

function matchPattern(c: TokenCursor) {
  if (c.peek().kind === 'ident' && c.isPunct('=', 1)) {
    const t = c.peek();
    throw new GsqlSyntaxError(t.line, t.column, 'named paths (p = (a)-[…]->(b)) are not supported');
  }
  if (!atV3Path(c)) throw c.error('expected a pattern "(…)"');
  return parseV3Path(c, CYPHER_EXPRS);
}

/** The items of WITH or RETURN and their ORDER BY, SKIP and LIMIT. */
function parseProjection(c: TokenCursor, pos: Pos): Projection {
  const distinct = c.acceptWord('DISTINCT');
  let items: Projection['items'] = '*';
  if (!c.acceptPunct('*')) {
    items = [];
    do {
      const at = c.pos();
      const expr = parseCypherExpr(c);
      const alias = c.acceptWord('AS') ? c.expectIdent('a name after AS').text : undefined;
      items.push({ expr, ...(alias !== undefined && { alias }), pos: at });
    } while (c.acceptPunct(','));
  }
  const p: Projection = { distinct, items, orderBy: [], pos };
  if (c.acceptWord('ORDER')) {
    c.expectWord('BY');
    do {
      const expr = parseCypherExpr(c);
      const descending = c.acceptWord('DESC') || c.acceptWord('DESCENDING');
      if (!descending && !c.acceptWord('ASC')) c.acceptWord('ASCENDING');
      p.orderBy.push({ expr, descending });
    } while (c.acceptPunct(','));
  }
  if (c.acceptWord('SKIP')) p.skip = parseCypherExpr(c);
  if (c.acceptWord('LIMIT')) p.limit = parseCypherExpr(c);
  return p;
}

/** `{key: value, …}` of a node or relationship CREATE makes. */
function parseCreateProps(c: TokenCursor): { key: string; value: Expr; pos: Pos }[] {
  const props: { key: string; value: Expr; pos: Pos }[] = [];
  if (!c.acceptPunct('{')) return props;
  if (!c.isPunct('}')) {
    do {
      const k = c.expectIdent('a property name');
      c.expectPunct(':');
      props.push({ key: k.text, value: parseCypherExpr(c), pos: posOf(k) });
    } while (c.acceptPunct(','));
  }
  c.expectPunct('}');
  return props;
}

function parseCreateNode(c: TokenCursor): CreateNode {
  const pos = c.pos();
  c.expectPunct('(');
  const node: CreateNode = { props: [], pos };
  if (c.peek().kind === 'ident') node.alias = c.next().text;
  if (c.acceptPunct(':')) {
    const t = c.expectIdent('a vertex type');
    node.label = { name: t.text, pos: posOf(t) };
    if (c.isPunct(':')) throw c.error('a node CREATE makes has one label');
  }
  node.props = parseCreateProps(c);
  c.expectPunct(')');
  return node;
}

/** `(a:L {…})`, `(s)-[:T {…}]->(t)`, `(s)<-[:T]-(t)`. */
function parseCreatePath(c: TokenCursor): CreatePath {
  const pos = c.pos();
  const nodes = [parseCreateNode(c)];
  const edges: CreatePath['edges'] = [];
  while (c.isPunct('-') || c.isPunct('<-')) {
    const at = c.pos();
    const leftward = c.next().text === '<-';
    c.expectPunct('[');
    if (c.peek().kind === 'ident') c.next();
    c.expectPunct(':');
    const t = c.expectIdent('an edge type');
    const props = parseCreateProps(c);
    c.expectPunct(']');
    if (leftward) c.expectPunct('-');
    else if (!c.acceptPunct('->'))
      throw c.error('a relationship CREATE makes needs a direction: expected "->"');
    edges.push({ type: { name: t.text, pos: posOf(t) }, leftward, props, pos: at });
    nodes.push(parseCreateNode(c));
  }
  return { kind: 'insert', nodes, edges, pos };
}
