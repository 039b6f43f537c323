/**
 * SYNTAX V3 path patterns (GQL / openCypher style): `(a:Account {name: x})-[e:transfer]->(b)`,
 * `<-[]-`, `~[]~`, `-[]-`, `(t:Comment:Post)`, `-[:knows*1..3]->`, `-[:knows]->{1,3}`, `(s:v WHERE
 * cond)`. A V3 path is read into the V2 pattern tree it means: the orientation of each edge stays
 * on its hop (the schema decides which directions it stands for), and property maps and inline
 * WHEREs become conditions the SELECT's WHERE takes over (query/desugar-v3.ts). openCypher's MATCH
 * reads its patterns here too, with its own expressions.
 */
import type { EdgeAtom, EdgeHop, EdgePattern, Expr, PathPattern, Pos, VertexPattern } from './ast-query.js';
import type { V3Orientation } from './ast-v3.js';
import { GsqlSyntaxError, type Token } from './lexer.js';
import { parseCondition, parseExpr, type TokenCursor } from './parser-expr.js';
import { parseBounds } from './parser-pattern.js';
import { posOf } from './parser-type.js';

/** How the expressions inside a pattern are read (GSQL's or openCypher's grammar). */
export interface PatternExprs {
  /** A property value of `{key: value}`. */
  value(c: TokenCursor): Expr;
  /** An inline `WHERE` condition. */
  condition(c: TokenCursor): Expr;
}

const GSQL_EXPRS: PatternExprs = { value: parseExpr, condition: parseCondition };

/**
 * True when the cursor is at a V3 node `(…)`: `()`, `(a)`, `(a:L)`, `(:L)`, `(a {…})`, `(a WHERE …)`.
 * V2's `(A|B):x` and `(A):x` are not.
 */
export function atV3Path(c: TokenCursor): boolean {
  if (!c.isPunct('(')) return false;
  const t1 = c.peek(1);
  if (t1.kind === 'punct') return t1.text === ')' || t1.text === ':' || t1.text === '{';
  if (t1.kind !== 'ident') return false;
  const t2 = c.peek(2);
  if (t2.kind === 'ident') return t2.text.toUpperCase() === 'WHERE';
  if (t2.kind !== 'punct') return false;
  if (t2.text === ':' || t2.text === '{') return true;
  if (t2.text !== ')') return false;
  // `(x)` alone: a V3 alias, unless V2 goes on with `:alias` or an edge `-(…)-`.
  return !c.isPunct(':', 3) && !(c.isPunct('-', 3) && c.isPunct('(', 4));
}

/** Aliases the parser gives nodes and edges that carry conditions but no name (no GSQL text can spell them). */
const anonymous = new WeakMap<TokenCursor, number>();

function anonAlias(c: TokenCursor, what: 'v' | 'e'): string {
  const n = (anonymous.get(c) ?? 0) + 1;
  anonymous.set(c, n);
  return `#${what}${n}`;
}

/** One V3 path: nodes joined by edge patterns. */
export function parseV3Path(c: TokenCursor, exprs: PatternExprs = GSQL_EXPRS): PathPattern {
  const first = c.peek();
  const conditions: Expr[] = [];
  const source = parseNode(c, exprs, conditions);
  const steps: PathPattern['steps'] = [];
  while (atEdge(c)) {
    const edge = parseEdge(c, exprs, conditions);
    if (!c.isPunct('(')) throw c.error('expected a node "( … )" after the edge pattern');
    steps.push({ edge, vertex: parseNode(c, exprs, conditions) });
  }
  return { source, steps, v3: { conditions }, pos: posOf(first), start: first.start, end: c.lastEnd() };
}

/** `alias.key == value` for each `key: value` of a property map. */
function parseProps(c: TokenCursor, exprs: PatternExprs, alias: () => string, out: Expr[]): void {
  c.expectPunct('{');
  if (!c.isPunct('}')) {
    do {
      const key = c.expectIdent('a property name');
      c.expectPunct(':');
      const value = exprs.value(c);
      const at = { pos: posOf(key), start: key.start };
      const target: Expr = { kind: 'name', name: alias(), ...at, end: key.end };
      const left: Expr = { kind: 'field', target, name: key.text, namePos: at.pos, ...at, end: key.end };
      out.push({ kind: 'binary', op: '==', left, right: value, opPos: at.pos, ...at, end: value.end });
    } while (c.acceptPunct(','));
  }
  c.expectPunct('}');
}

/** `( [alias] [:L1[:L2|L3…]] [{props}] [WHERE cond] )`. */
function parseNode(c: TokenCursor, exprs: PatternExprs, conditions: Expr[]): VertexPattern {
  const open = c.expectPunct('(');
  const v: VertexPattern = { names: [], pos: posOf(open), start: open.start, end: open.end };
  if (c.peek().kind === 'ident' && !c.isWord('WHERE')) {
    const a = c.next();
    v.alias = a.text;
    v.aliasPos = posOf(a);
  }
  if (c.acceptPunct(':')) {
    do {
      const t = c.expectIdent('a vertex type');
      v.names.push({ name: t.text, pos: posOf(t) });
    } while (c.acceptPunct(':') || c.acceptPunct('|'));
  }
  const alias = (): string => (v.alias ??= anonAlias(c, 'v'));
  if (c.isPunct('{')) parseProps(c, exprs, alias, conditions);
  if (c.acceptWord('WHERE')) {
    const cond = exprs.condition(c);
    if (v.alias === undefined)
      throw new GsqlSyntaxError(
        cond.pos.line,
        cond.pos.column,
        'a node with a WHERE condition needs an alias',
      );
    conditions.push(cond);
  }
  v.end = c.expectPunct(')').end;
  return v;
}

/** True at the start of an edge pattern: `-`, `->`, `<-`, `~`, `<~`. */
function atEdge(c: TokenCursor): boolean {
  return (
    c.isPunct('-') ||
    c.isPunct('->') ||
    c.isPunct('<-') ||
    c.isPunct('~') ||
    (c.isPunct('<') && c.isPunct('~', 1))
  );
}

const ORIENT = (right: boolean, left: boolean, undirected: boolean): V3Orientation => ({
  right,
  left,
  undirected,
});

/**
 * An edge pattern: an opening (`-`, `<-`, `~`, `<~`), an optional `[ … ]`, a closing (`-`, `->`,
 * `~`, `~>`) and an optional GQL quantifier (`{m,n}`, `*`, `+`); or an abbreviated form (`->`,
 * `<-`, `~`, `-->`, `<--`, `--`).
 */
function parseEdge(c: TokenCursor, exprs: PatternExprs, conditions: Expr[]): EdgePattern {
  const first = c.peek();
  const edge: EdgePattern = { hops: [], arrow: false, pos: posOf(first), start: first.start, end: 0 };
  let hop: EdgeHop;
  if (c.acceptPunct('->')) {
    hop = anyHop(first, ORIENT(true, false, false));
  } else {
    const open = c.next();
    const tilde = open.text === '~' || open.text === '<';
    if (open.text === '<') c.next();
    const leftOpen = open.text === '<-' || open.text === '<';
    if (c.isPunct('[')) {
      hop = parseBracket(c, exprs, conditions, edge);
      if (tilde) {
        c.expectPunct('~');
        const right = !leftOpen && c.acceptPunct('>');
        hop.v3 = ORIENT(right, leftOpen, true);
      } else if (c.acceptPunct('->'))
        hop.v3 = leftOpen ? ORIENT(true, true, false) : ORIENT(true, false, false);
      else {
        c.expectPunct('-');
        hop.v3 = leftOpen ? ORIENT(false, true, false) : ORIENT(true, true, true);
      }
    } else if (tilde) {
      hop = anyHop(open, ORIENT(false, leftOpen, true));
    } else if (c.acceptPunct('->')) {
      hop = anyHop(open, leftOpen ? ORIENT(true, true, false) : ORIENT(true, false, false));
    } else if (c.isPunct('-')) {
      c.next();
      hop = anyHop(open, leftOpen ? ORIENT(false, true, false) : ORIENT(true, true, true));
    } else {
      hop = anyHop(open, leftOpen ? ORIENT(false, true, false) : ORIENT(true, true, true));
    }
  }
  parseQuantifier(c, hop);
  if (hop.repeat && edge.alias !== undefined && !edge.alias.startsWith('#'))
    throw new GsqlSyntaxError(
      edge.aliasPos!.line,
      edge.aliasPos!.column,
      'a variable-length edge pattern cannot have an alias',
    );
  if (hop.repeat && edge.alias !== undefined)
    throw new GsqlSyntaxError(
      hop.pos.line,
      hop.pos.column,
      'a variable-length edge pattern cannot have conditions',
    );
  hop.end = c.lastEnd();
  edge.hops = [hop];
  edge.end = c.lastEnd();
  return edge;
}

/** A hop of any edge type (an abbreviated edge pattern). */
function anyHop(at: Token, v3: V3Orientation): EdgeHop {
  const pos = posOf(at);
  return { atoms: [{ name: '_', direction: 'any', pos }], v3, pos, start: at.start, end: at.end };
}

/** `[ [alias] [:T1|T2…] [*bounds] [{props}] [WHERE cond] ]`. */
function parseBracket(c: TokenCursor, exprs: PatternExprs, conditions: Expr[], edge: EdgePattern): EdgeHop {
  const open = c.expectPunct('[');
  const pos = posOf(open);
  const atoms: EdgeAtom[] = [];
  if (c.peek().kind === 'ident' && !c.isWord('WHERE')) {
    const a = c.next();
    edge.alias = a.text;
    edge.aliasPos = posOf(a);
  }
  if (c.acceptPunct(':')) {
    do {
      c.acceptPunct(':');
      const t = c.expectIdent('an edge type');
      atoms.push({ name: t.text, direction: 'any', pos: posOf(t) });
    } while (c.acceptPunct('|'));
  }
  if (atoms.length === 0) atoms.push({ name: '_', direction: 'any', pos });
  const hop: EdgeHop = { atoms, pos, start: open.start, end: 0 };
  if (c.isPunct('*')) {
    const star = c.next();
    hop.repeat = { ...parseBounds(c), pos: posOf(star) };
  }
  const alias = (): string => (edge.alias ??= anonAlias(c, 'e'));
  if (c.isPunct('{')) parseProps(c, exprs, alias, conditions);
  if (c.acceptWord('WHERE')) {
    const cond = exprs.condition(c);
    if (edge.alias === undefined)
      throw new GsqlSyntaxError(
        cond.pos.line,
        cond.pos.column,
        'an edge with a WHERE condition needs an alias',
      );
    conditions.push(cond);
  }
  c.expectPunct(']');
  return hop;
}

/** GQL quantifiers after an edge pattern: `{m,n}`, `{m,}`, `{n}`, `*` (0 or more), `+` (1 or more). */
function parseQuantifier(c: TokenCursor, hop: EdgeHop): void {
  const t = c.peek();
  const pos: Pos = posOf(t);
  const int = (): number => {
    const n = c.next();
    if (n.kind !== 'number' || !/^\d+$/.test(n.text))
      throw new GsqlSyntaxError(
        n.line,
        n.column,
        `a quantifier bound must be a constant integer, not "${n.text}"`,
      );
    return Number(n.text);
  };
  let repeat: EdgeHop['repeat'];
  if (c.acceptPunct('*')) repeat = { min: 0, pos };
  else if (c.acceptPunct('+')) repeat = { min: 1, pos };
  else if (c.acceptPunct('{')) {
    const min = c.isPunct(',') ? 0 : int();
    let max: number | undefined = min;
    if (c.acceptPunct(',')) max = c.isPunct('}') ? undefined : int();
    c.expectPunct('}');
    if (max !== undefined && max < min)
      throw new GsqlSyntaxError(
        pos.line,
        pos.column,
        `the quantifier's upper bound ${max} is below its lower bound ${min}`,
      );
    repeat = { min, ...(max !== undefined && { max }), pos };
  } else return;
  if (hop.repeat) throw new GsqlSyntaxError(pos.line, pos.column, 'an edge pattern has one quantifier');
  hop.repeat = repeat;
}

/** A V3 path when the cursor is at one (GSQL expressions), else undefined. */
export function v3PathAt(c: TokenCursor): PathPattern | undefined {
  return atV3Path(c) ? parseV3Path(c) : undefined;
}
