/**
 * What the editor's "Run" does with its text, decided on tokens: a query definition
 * (`INTERPRET QUERY …` or `CREATE [OR REPLACE] [DISTRIBUTED] QUERY …`, alone) is interpreted with
 * its parameters from a form; `RUN QUERY name` (with no arguments written) runs the installed
 * query through REST++ with the form built from its signature; anything else goes to the GSQL
 * server as statements.
 */
import { meaningfulTokens, type GsqlToken } from './gsql-tokens.js';
import { parseParamType, type QueryParam } from './query-params.js';

export type EditorAction =
  | { kind: 'interpret'; queryName?: string; graph?: string; params: QueryParam[] }
  | { kind: 'runInstalled'; queryName: string }
  | { kind: 'statements' };

const is = (t: GsqlToken | undefined, word: string) => t !== undefined && t.text.toUpperCase() === word;

/** The index of the token closing the bracket opened at `open`, or -1. */
function closing(tokens: readonly GsqlToken[], open: number): number {
  const pairs: Record<string, string> = { '(': ')', '{': '}', '[': ']' };
  const stack: string[] = [];
  for (let i = open; i < tokens.length; i++) {
    const text = tokens[i].text;
    if (tokens[i].kind !== 'punctuation') continue;
    if (pairs[text]) stack.push(pairs[text]);
    else if (text === stack[stack.length - 1]) {
      stack.pop();
      if (stack.length === 0) return i;
    } else if (')}]'.includes(text)) return -1;
  }
  return -1;
}

/** Parameters between the parentheses at `open` and `close` (tokens exclusive). */
function parseParams(tokens: readonly GsqlToken[], open: number, close: number): QueryParam[] {
  const params: QueryParam[] = [];
  let segment: GsqlToken[] = [];
  let depth = 0;
  const flush = () => {
    if (segment.length > 0) {
      const p = paramOf(segment);
      if (p) params.push(p);
    }
    segment = [];
  };
  for (let i = open + 1; i < close; i++) {
    const t = tokens[i];
    if (t.text === '<' || t.text === '(' || t.text === '[') depth++;
    else if (t.text === '>' || t.text === ')' || t.text === ']') depth--;
    if (t.text === ',' && depth === 0) flush();
    else segment.push(t);
  }
  flush();
  return params;
}

function paramOf(segment: readonly GsqlToken[]): QueryParam | undefined {
  const eq = segment.findIndex((t) => t.text === '=');
  const head = eq < 0 ? segment : segment.slice(0, eq);
  const nameToken = head[head.length - 1];
  if (!nameToken || head.length < 2) return undefined;
  const typeText = head
    .slice(0, -1)
    .map((t) => t.text)
    .join('');
  const param: QueryParam = { name: nameToken.text, typeText, type: parseParamType(typeText) };
  if (eq >= 0) {
    param.defaultText = segment
      .slice(eq + 1)
      .map((t) => t.text)
      .join(' ');
  }
  return param;
}

/** A query definition starting at token `i` (INTERPRET QUERY or CREATE … QUERY), or undefined. */
function queryDefinition(
  tokens: readonly GsqlToken[],
): { queryName?: string; paramsOpen: number; bodyOpen: number } | undefined {
  let i = 0;
  let queryName: string | undefined;
  if (is(tokens[0], 'INTERPRET') && is(tokens[1], 'QUERY')) i = 2;
  else if (is(tokens[0], 'CREATE')) {
    i = 1;
    if (is(tokens[i], 'OR') && is(tokens[i + 1], 'REPLACE')) i += 2;
    if (is(tokens[i], 'DISTRIBUTED')) i++;
    if (!is(tokens[i], 'QUERY') || tokens[i + 1]?.kind !== 'identifier') return undefined;
    queryName = tokens[i + 1].text;
    i += 2;
  } else return undefined;
  if (tokens[i]?.text !== '(') return undefined;
  const bodyOpen = tokens.findIndex((t, k) => k > i && t.text === '{');
  if (bodyOpen < 0) return undefined;
  return { ...(queryName === undefined ? {} : { queryName }), paramsOpen: i, bodyOpen };
}

export function classifyGsql(text: string): EditorAction {
  const tokens = meaningfulTokens(text);
  const def = queryDefinition(tokens);
  if (def) {
    const paramsClose = closing(tokens, def.paramsOpen);
    const bodyClose = closing(tokens, def.bodyOpen);
    const rest = tokens.slice(bodyClose + 1).filter((t) => t.text !== ';');
    if (paramsClose > 0 && bodyClose > 0 && rest.length === 0) {
      const header = tokens.slice(paramsClose + 1, def.bodyOpen);
      const forGraph = header.findIndex((t, k) => is(t, 'FOR') && is(header[k + 1], 'GRAPH'));
      const graph = forGraph >= 0 ? header[forGraph + 2]?.text : undefined;
      return {
        kind: 'interpret',
        ...(def.queryName === undefined ? {} : { queryName: def.queryName }),
        ...(graph === undefined ? {} : { graph }),
        params: parseParams(tokens, def.paramsOpen, paramsClose),
      };
    }
  }
  if (is(tokens[0], 'RUN') && is(tokens[1], 'QUERY') && tokens[2]?.kind === 'identifier') {
    const rest = tokens.slice(3).map((t) => t.text);
    if (rest[rest.length - 1] === ';') rest.pop();
    if (rest.length === 0 || (rest.length === 2 && rest[0] === '(' && rest[1] === ')'))
      return { kind: 'runInstalled', queryName: tokens[2].text };
  }
  return { kind: 'statements' };
}

/** The name a `CREATE QUERY` text defines (what "Install" installs), or undefined. */
export function createdQueryName(text: string): string | undefined {
  const tokens = meaningfulTokens(text);
  return is(tokens[0], 'CREATE') ? queryDefinition(tokens)?.queryName : undefined;
}

/**
 * Statements sent to the GSQL server run in the chosen graph: a `USE GRAPH` line is put first
 * unless the text starts with one; `lineOffset` maps the server's line numbers back to the editor.
 */
export function statementsScript(text: string, graph: string): { script: string; lineOffset: number } {
  const tokens = meaningfulTokens(text);
  if (is(tokens[0], 'USE') && (is(tokens[1], 'GRAPH') || is(tokens[1], 'GLOBAL')))
    return { script: text, lineOffset: 0 };
  return { script: `USE GRAPH ${graph}\n${text}`, lineOffset: 1 };
}
