/**
 * Statements Ocelot recognises but does not run (data sources, template queries, the forms of
 * EXPORT/IMPORT/ABORT/RESUME that parser-ops.ts does not read, the shell's SELECT): recognised by
 * their leading words and skipped as one unit, so the shell can refuse them (before anything runs)
 * and go on.
 */
import type { Parser } from './parser-core.js';
import type { Token } from './lexer.js';

interface UnsupportedForm {
  /** Leading words; `?` marks an optional word. */
  words: string[];
  feature: UnsupportedFeature;
  /** The statement has a `{ … }` body: newlines do not end it before the body closes. */
  body?: boolean;
}

/** What an unsupported statement was recognised as (its kind's `feature`). */
export type UnsupportedFeature =
  | 'CREATE TEMPLATE QUERY'
  | 'CREATE DATA_SOURCE'
  | 'CREATE GROUP'
  | 'RUN JOB'
  | 'SELECT'
  | 'DROP DATA_SOURCE'
  | 'SHOW DATA_SOURCE'
  | 'ALTER USER'
  | 'EXPORT'
  | 'IMPORT'
  | 'ABORT'
  | 'RESUME'
  | 'LOAD';

const FORMS: UnsupportedForm[] = [
  { words: ['CREATE', 'OR?', 'REPLACE?', 'TEMPLATE', 'QUERY'], feature: 'CREATE TEMPLATE QUERY', body: true },
  { words: ['CREATE', 'DATA_SOURCE'], feature: 'CREATE DATA_SOURCE' },
  { words: ['CREATE', 'GROUP'], feature: 'CREATE GROUP' },
  { words: ['RUN', 'JOB'], feature: 'RUN JOB' },
  { words: ['SELECT'], feature: 'SELECT' },
  { words: ['DROP', 'DATA_SOURCE'], feature: 'DROP DATA_SOURCE' },
  { words: ['SHOW', 'DATA_SOURCE'], feature: 'SHOW DATA_SOURCE' },
  { words: ['ALTER', 'USER'], feature: 'ALTER USER' },
  { words: ['EXPORT'], feature: 'EXPORT' },
  { words: ['IMPORT'], feature: 'IMPORT' },
  { words: ['ABORT'], feature: 'ABORT' },
  { words: ['RESUME'], feature: 'RESUME' },
  { words: ['LOAD'], feature: 'LOAD' },
];

/** How many tokens the form's leading words take at the cursor, or -1 when it does not match. */
function matchForm(p: Parser, form: UnsupportedForm): number {
  let k = 0;
  for (const w of form.words) {
    const optional = w.endsWith('?');
    const word = optional ? w.slice(0, -1) : w;
    if (p.isWord(word, k)) k++;
    else if (!optional) return -1;
  }
  return k;
}

/**
 * Skips one statement from the cursor: up to a `;` or the end of the line at nesting depth 0, or,
 * for a statement with a body, up to the `}` that closes it. Never crosses the END of a BEGIN block.
 */
export function skipStatement(p: Parser, body: boolean): void {
  let depth = 0;
  let bodyClosed = false;
  while (true) {
    const t = p.peekRaw();
    if (t.kind === 'eof' || t.kind === 'block_end' || t.kind === 'block_begin') return;
    if (depth === 0) {
      if (t.kind === 'punct' && t.text === ';') {
        p.nextRaw();
        return;
      }
      if (t.kind === 'newline' && (!body || bodyClosed)) return;
    }
    p.nextRaw();
    if (t.kind !== 'punct') continue;
    if (t.text === '(' || t.text === '[' || t.text === '{') depth++;
    else if (t.text === ')' || t.text === ']' || t.text === '}') {
      depth = Math.max(0, depth - 1);
      if (depth === 0 && t.text === '}' && body) bodyClosed = true;
      if (bodyClosed) return;
    }
  }
}

/** True when the statement starting at the cursor has a `{` before the end of its first line. */
export function hasBodyOnFirstLine(p: Parser): boolean {
  const save = p.index;
  let found = false;
  let depth = 0;
  while (true) {
    const t = p.nextRaw();
    if (t.kind === 'eof' || t.kind === 'block_end' || (t.kind === 'newline' && depth === 0)) break;
    if (t.kind === 'punct' && t.text === '{') {
      found = true;
      break;
    }
    if (t.kind === 'punct' && (t.text === '(' || t.text === '[')) depth++;
    if (t.kind === 'punct' && (t.text === ')' || t.text === ']')) depth = Math.max(0, depth - 1);
  }
  p.index = save;
  return found;
}

/** Recognises an unsupported statement at the cursor and skips it, returning its feature name. */
export function parseUnsupported(p: Parser): { feature: UnsupportedFeature; start: Token } | undefined {
  for (const form of FORMS) {
    if (matchForm(p, form) < 0) continue;
    const start = p.peek();
    p.next();
    skipStatement(p, form.body === true);
    return { feature: form.feature, start };
  }
  return undefined;
}
