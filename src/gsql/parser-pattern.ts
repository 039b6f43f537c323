/**
 * The FROM clause of a SELECT block: comma-separated path patterns of vertex steps joined by edge
 * patterns, `S:s -(KNOWS)- Person:p -(<HAS_CREATOR.REPLY_OF>*)- (Comment|Post):m`, and the V1
 * single step `S:s -(E:e)-> T:t`.
 */
import type { EdgeAtom, EdgeHop, EdgePattern, PathPattern, VertexPattern } from './ast-query.js';
import { GsqlSyntaxError } from './lexer.js';
import type { TokenCursor } from './parser-expr.js';
import { posOf } from './parser-type.js';

/** The words that end a FROM clause (and so cannot be a vertex type written there). */
const CLAUSE_WORDS = ['WHERE', 'ACCUM', 'HAVING', 'ORDER', 'LIMIT', 'SET', 'SAMPLE', 'PER', 'POST_ACCUM'];

function atClause(c: TokenCursor): boolean {
  return (
    CLAUSE_WORDS.some((w) => c.isWord(w)) || (c.isWord('POST') && c.isPunct('-', 1) && c.isWord('ACCUM', 2))
  );
}

/**
 * `pattern [, pattern]*` after FROM; `other` reads a pattern written in another syntax (V3) when
 * the cursor is at one.
 */
export function parsePatterns(
  c: TokenCursor,
  other?: (c: TokenCursor) => PathPattern | undefined,
): PathPattern[] {
  const one = (): PathPattern => other?.(c) ?? parsePath(c);
  const out = [one()];
  while (c.acceptPunct(',')) out.push(one());
  return out;
}

function parsePath(c: TokenCursor): PathPattern {
  const first = c.peek();
  const source = parseVertex(c, true);
  const steps: PathPattern['steps'] = [];
  while (c.isPunct('-') && c.isPunct('(', 1)) {
    const edge = parseEdge(c);
    steps.push({ edge, vertex: parseVertex(c, false) });
  }
  const arrow = steps.find((st) => st.edge.arrow);
  if (arrow && steps.length > 1)
    throw new GsqlSyntaxError(
      arrow.edge.pos.line,
      arrow.edge.pos.column,
      'the V1 arrow "->" is only allowed in a one-step FROM clause; write the direction inside the parentheses ("E>")',
    );
  return { source, steps, pos: posOf(first), start: first.start, end: c.lastEnd() };
}

/**
 * `T`, `T:t`, `(A|B):x`, `:x`, `_`, `ANY`, or nothing (a step vertex of any type, which then needs
 * no alias when the next token ends the pattern). `source`: the first vertex of a pattern.
 */
function parseVertex(c: TokenCursor, source: boolean): VertexPattern {
  const first = c.peek();
  const names: VertexPattern['names'] = [];
  const paren = c.acceptPunct('(');
  if (paren || (c.peek().kind === 'ident' && !atClause(c))) {
    do {
      const t = c.expectIdent(source ? 'a vertex set or vertex type' : 'a vertex type');
      names.push({ name: t.text, pos: posOf(t) });
    } while (c.acceptPunct('|'));
    if (paren) c.expectPunct(')');
  } else if (c.isPunct('@@')) {
    // A global accumulator holding vertex type names.
    const at = c.next();
    const t = c.expectIdent('an accumulator name');
    names.push({ name: `@@${t.text}`, pos: posOf(at) });
  }
  const v: VertexPattern = { names, pos: posOf(first), start: first.start, end: first.start };
  if (c.acceptPunct(':')) {
    const a = c.expectIdent('a vertex alias');
    v.alias = a.text;
    v.aliasPos = posOf(a);
  }
  if (source && names.length === 0 && v.alias === undefined)
    throw c.error('expected a vertex set or vertex type', first);
  v.end = c.lastEnd();
  return v;
}

/** `-( hops [:alias] )-` or `)->`; the cursor is at the leading `-`. */
function parseEdge(c: TokenCursor): EdgePattern {
  const first = c.next();
  c.next();
  const hops: EdgeHop[] = [];
  if (!c.isPunct(':') && !c.isPunct(')')) {
    do hops.push(parseHop(c));
    while (c.acceptPunct('.'));
  }
  const edge: EdgePattern = { hops, arrow: false, pos: posOf(first), start: first.start, end: 0 };
  if (c.acceptPunct(':')) {
    const a = c.expectIdent('an edge alias');
    if (hops.length > 1)
      throw new GsqlSyntaxError(a.line, a.column, 'an edge alias is not allowed on a "." chain of edges');
    if (hops[0]?.repeat)
      throw new GsqlSyntaxError(a.line, a.column, 'an edge alias is not allowed on a repeated edge ("*")');
    edge.alias = a.text;
    edge.aliasPos = posOf(a);
  }
  c.expectPunct(')');
  if (c.acceptPunct('->')) edge.arrow = true;
  else c.expectPunct('-');
  edge.end = c.lastEnd();
  return edge;
}

/** `E`, `E>`, `<E`, `E1|E2>`, `(E1|<E2)`, each optionally followed by `*bounds`. */
function parseHop(c: TokenCursor): EdgeHop {
  const first = c.peek();
  const atoms: EdgeAtom[] = [];
  const grouped = c.acceptPunct('(');
  do atoms.push(parseAtom(c));
  while (c.acceptPunct('|'));
  if (grouped) c.expectPunct(')');
  const hop: EdgeHop = { atoms, pos: posOf(first), start: first.start, end: 0 };
  if (c.isPunct('*')) {
    const star = c.next();
    if (atoms.length > 1 && !grouped)
      throw new GsqlSyntaxError(
        star.line,
        star.column,
        'a repetition applies to one edge type or a parenthesised alternation: write "(E1|E2)*"',
      );
    hop.repeat = { ...parseBounds(c), pos: posOf(star) };
  }
  hop.end = c.lastEnd();
  return hop;
}

function parseAtom(c: TokenCursor): EdgeAtom {
  const pos = c.pos();
  const inward = c.acceptPunct('<');
  const name = c.expectIdent('an edge type');
  const outward = c.acceptPunct('>');
  if (inward && outward)
    throw new GsqlSyntaxError(
      pos.line,
      pos.column,
      `an edge has one direction: "<${name.text}" or "${name.text}>"`,
    );
  return { name: name.text, direction: inward ? 'in' : outward ? 'out' : 'any', pos };
}

/** After `*`: nothing, `n`, `n..m`, `n..`, `..m` (constant integers). */
export function parseBounds(c: TokenCursor): { min: number; max?: number } {
  const at = c.peek();
  const int = (): number => {
    const t = c.next();
    if (t.kind !== 'number' || !/^\d+$/.test(t.text))
      throw new GsqlSyntaxError(
        t.line,
        t.column,
        `a repetition bound must be a constant integer, not "${t.text}"`,
      );
    return Number(t.text);
  };
  if (c.acceptPunct('..')) return { min: 0, max: int() };
  if (c.peek().kind !== 'number') return { min: 0 };
  const min = int();
  if (!c.acceptPunct('..')) return { min, max: min };
  if (c.peek().kind !== 'number') return { min };
  const max = int();
  if (max < min)
    throw new GsqlSyntaxError(
      at.line,
      at.column,
      `the repetition's upper bound ${max} is below its lower bound ${min}`,
    );
  return { min, max };
}
