/**
 * SELECT blocks: `SELECT t FROM pattern, …` and the SAMPLE, WHERE, PER, ACCUM, POST-ACCUM, HAVING,
 * ORDER BY and LIMIT clauses (also the FROM part of DELETE and UPDATE statements). ACCUM and
 * POST-ACCUM statement lists are read by the statement parser, passed in as `accumList`.
 */
import type { Pos, SelectBlock, Stmt } from './ast-query.js';
import { GsqlSyntaxError } from './lexer.js';
import { parseCondition, parseExpr, parseTerm, type TokenCursor } from './parser-expr.js';
import { parsePatterns } from './parser-pattern.js';
import { v3PathAt } from './parser-v3.js';
import { posOf } from './parser-type.js';

/** Reads the comma-separated statements of an ACCUM or POST-ACCUM clause. */
export type AccumListParser = (c: TokenCursor) => Stmt[];

export function parseSelect(c: TokenCursor, accumList: AccumListParser): SelectBlock {
  const pos = c.pos();
  c.expectWord('SELECT');
  const distinct = c.acceptWord('DISTINCT');
  const result = c.expectIdent('the alias of the selected vertices');
  const block = parseSelectFrom(c, result.text, pos, false, accumList);
  block.distinct = distinct;
  block.resultPos = posOf(result);
  return block;
}

/** `FROM …` and the clauses; for UPDATE a SET clause is read as the one POST-ACCUM clause. */
export function parseSelectFrom(
  c: TokenCursor,
  result: string,
  pos: Pos,
  update: boolean,
  accumList: AccumListParser,
): SelectBlock {
  c.expectWord('FROM');
  const block: SelectBlock = {
    result,
    resultPos: pos,
    distinct: false,
    from: parsePatterns(c, v3PathAt),
    accum: [],
    postAccum: [],
    orderBy: [],
    pos,
  };
  if (update) {
    c.expectWord('SET');
    block.postAccum = [{ stmts: accumList(c) }];
  }
  if (c.isWord('SAMPLE')) parseSample(c, block);
  if (c.acceptWord('WHERE')) block.where = parseCondition(c);
  if (c.isWord('SAMPLE') && !block.sample) parseSample(c, block);
  if (c.isWord('SAMPLE')) throw c.error('expected one SAMPLE clause');
  if (c.isWord('PER')) parsePer(c, block);
  if (c.acceptWord('ACCUM')) block.accum = accumList(c);
  while (isPostAccum(c)) {
    if (c.next().text.toUpperCase() === 'POST') {
      c.next();
      c.next();
    }
    // V2's `POST-ACCUM (alias)`: the alias whose distinct vertices the clause visits.
    let alias: SelectBlock['postAccum'][number]['alias'];
    if (c.isPunct('(') && c.peek(1).kind === 'ident' && c.isPunct(')', 2)) {
      c.next();
      const a = c.next();
      c.next();
      alias = { name: a.text, pos: posOf(a) };
    }
    block.postAccum.push({ alias, stmts: accumList(c) });
  }
  if (c.acceptWord('HAVING')) block.having = parseCondition(c);
  parseOrderLimit(c, block);
  return block;
}

/** `[ORDER BY expr [ASC|DESC], …] [LIMIT n [OFFSET m] | LIMIT m, n]` (also SQL-like SELECT's). */
export function parseOrderLimit(
  c: TokenCursor,
  block: Pick<SelectBlock, 'orderBy' | 'limit' | 'offset'>,
): void {
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
}

function isPostAccum(c: TokenCursor): boolean {
  return c.isWord('POST_ACCUM') || (c.isWord('POST') && c.isPunct('-', 1) && c.isWord('ACCUM', 2));
}

/** `PER (a, b, …)` or `PER MATCH` (once per match, as without PER); ACCUM follows. */
function parsePer(c: TokenCursor, block: SelectBlock): void {
  c.next();
  if (!c.acceptWord('MATCH')) {
    c.expectPunct('(');
    const per: NonNullable<SelectBlock['per']> = [];
    do {
      const a = c.expectIdent('an alias');
      per.push({ name: a.text, pos: posOf(a) });
    } while (c.acceptPunct(','));
    c.expectPunct(')');
    block.per = per;
  }
  if (!c.isWord('ACCUM')) throw c.error('expected "ACCUM" after the PER clause');
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
