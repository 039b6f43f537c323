/** The stored text of a loading job, parsed (on the main thread and in parse workers alike). */
import type { LoadingJobAst } from '../gsql/ast-loading.js';
import { tokenize } from '../gsql/lexer.js';
import { Parser } from '../gsql/parser-core.js';
import { parseCreateLoadingJob } from '../gsql/parser-loading.js';

/** Parses the text of one `CREATE LOADING JOB` statement. */
export function parseLoadingJob(text: string): LoadingJobAst {
  const p = new Parser(text, tokenize(text));
  const ast = parseCreateLoadingJob(p);
  p.acceptPunct(';');
  if (p.peek().kind !== 'eof') p.fail('the end of the loading job');
  return ast;
}
