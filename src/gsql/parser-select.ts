/**
 * SELECT blocks: `SELECT t FROM S:s -(E:e)- T:t` and the WHERE, ACCUM, POST-ACCUM, HAVING,
 * ORDER BY and LIMIT clauses (also the FROM part of DELETE and UPDATE statements).
 */
import type { EdgeStep, Pos, SelectBlock } from './ast-query.js';
import { GsqlSyntaxError } from './lexer.js';
import { parseExpr, parseTerm, type TokenCursor } from './parser-expr.js';
import { parseAccumList } from './parser-query.js';
import { posOf } from './parser-type.js';

export function parseSelect(c: TokenCursor): SelectBlock {
  const pos = c.pos();
  c.expectWord('SELECT');
  const distinct = c.acceptWord('DISTINCT');
  const result = c.expectIdent('the alias of the selected vertices');
  const block = parseSelectFrom(c, result.text, pos, false);
  block.distinct = distinct;
  block.resultPos = posOf(result);
  return block;
}

/** `FROM …` and the clauses; for UPDATE a SET clause is read into postAccum. */
export function parseSelectFrom(c: TokenCursor, result: string, pos: Pos, update: boolean): SelectBlock {
  c.expectWord('FROM');
  const srcTok = c.expectIdent('a vertex set or vertex type');
  const block: SelectBlock = {
    result,
    resultPos: pos,
    distinct: false,
    source: { name: srcTok.text, pos: posOf(srcTok) },
    accum: [],
    postAccum: [],
    orderBy: [],
    pos,
  };
  if (c.acceptPunct(':')) block.source.alias = c.expectIdent('an alias').text;
  if (c.isPunct('-') && c.isPunct('(', 1)) parseStep(c, block);
  if (update) {
    c.expectWord('SET');
    block.postAccum = [parseAccumList(c)];
  }
  if (c.isWord('SAMPLE')) parseSample(c, block);
  if (c.acceptWord('WHERE')) block.where = parseExpr(c);
  if (c.isWord('SAMPLE') && !block.sample) parseSample(c, block);
  if (c.isWord('SAMPLE') || c.isWord('PER')) {
    throw new GsqlSyntaxError(
      c.peek().line,
      c.peek().column,
      `${c.peek().text.toUpperCase()} is not supported yet`,
    );
  }
  if (c.acceptWord('ACCUM')) block.accum = parseAccumList(c);
  while (isPostAccum(c)) {
    if (c.next().text.toUpperCase() === 'POST') {
      c.next();
      c.next();
    }
    // V2's `POST-ACCUM (alias)`: the alias each statement uses is found from the statement itself.
    if (c.acceptPunct('(')) {
      c.expectIdent('a vertex alias');
      c.expectPunct(')');
    }
    block.postAccum.push(parseAccumList(c));
  }
  if (c.acceptWord('HAVING')) block.having = parseExpr(c);
  if (c.acceptWord('ORDER')) {
    c.expectWord('BY');
    do {
      const expr = parseExpr(c);
      const descending = c.acceptWord('DESC');
      if (!descending) c.acceptWord('ASC');
      block.orderBy.push({ expr, descending });
    } while (c.acceptPunct(','));
  }
  if (c.acceptWord('LIMIT')) {
    const first = parseExpr(c);
    if (c.acceptPunct(',')) {
      block.offset = first;
      block.limit = parseExpr(c);
    } else {
      block.limit = first;
      if (c.acceptWord('OFFSET')) block.offset = parseExpr(c);
    }
  }
  return block;
}

function isPostAccum(c: TokenCursor): boolean {
  return c.isWord('POST_ACCUM') || (c.isWord('POST') && c.isPunct('-', 1) && c.isWord('ACCUM', 2));
}

/** `-(E1|E2>:e)-> T1|T2:t` (V1 arrow optional; V2 markers inside the parentheses). */
function parseStep(c: TokenCursor, block: SelectBlock): void {
  const pos = c.pos();
  c.next();
  c.next();
  const edge: EdgeStep = { types: [], arrow: false, pos };
  // `-((E1|E2):e)-`: the alternation may be parenthesised.
  const grouped = c.acceptPunct('(');
  if (!c.isPunct(':') && !c.isPunct(')')) {
    do {
      const tpos = c.pos();
      const inward = c.acceptPunct('<');
      const name = c.expectIdent('an edge type');
      const outward = c.acceptPunct('>');
      if (c.isPunct('*')) throw c.error('repetition (E*1..k) is not supported yet; expected ")"');
      if (c.isPunct('.')) throw c.error('expected ")"');
      edge.types.push({ name: name.text, direction: inward ? 'in' : outward ? 'out' : 'any', pos: tpos });
    } while (c.acceptPunct('|'));
  }
  if (grouped) c.expectPunct(')');
  if (c.acceptPunct(':')) edge.alias = c.expectIdent('an edge alias').text;
  c.expectPunct(')');
  if (c.acceptPunct('->')) edge.arrow = true;
  else c.expectPunct('-');
  block.edge = edge;
  const tpos = c.pos();
  const target: NonNullable<SelectBlock['target']> = { types: [], pos: tpos };
  const paren = c.acceptPunct('(');
  if (c.peek().kind === 'ident' && !isClauseWord(c)) {
    do {
      const t = c.expectIdent('a vertex type');
      target.types.push({ name: t.text, pos: posOf(t) });
    } while (c.acceptPunct('|'));
  }
  if (paren) c.expectPunct(')');
  if (c.acceptPunct(':')) target.alias = c.expectIdent('a vertex alias').text;
  if (c.isPunct('-') && c.isPunct('(', 1))
    throw c.error('multi-hop patterns are not supported yet; expected a clause');
  block.target = target;
}

function isClauseWord(c: TokenCursor): boolean {
  return isPostAccum(c) || ['WHERE', 'ACCUM', 'HAVING', 'ORDER', 'LIMIT', 'SET'].some((w) => c.isWord(w));
}

/** `SAMPLE n [%] EDGE WHEN cond`; the TARGET forms are refused. */
function parseSample(c: TokenCursor, block: SelectBlock): void {
  const t = c.next();
  const pos = posOf(t);
  const size = parseTerm(c);
  const percent = c.acceptPunct('%');
  if (c.isWord('TARGET')) {
    throw new GsqlSyntaxError(c.peek().line, c.peek().column, 'SAMPLE … TARGET is not supported yet');
  }
  c.expectWord('EDGE');
  c.expectWord('WHEN');
  block.sample = { size, percent, when: parseExpr(c), pos };
}
