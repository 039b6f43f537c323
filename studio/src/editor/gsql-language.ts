/**
 * GSQL for CodeMirror 6: highlighting from the Studio's tokenizer (model/gsql-tokens.ts) through
 * CodeMirror's stream-language adapter, and completion of keywords, types, accumulators, functions
 * and the current graph's type and attribute names.
 */
import type {
  Completion,
  CompletionContext,
  CompletionResult,
  CompletionSource,
} from '@codemirror/autocomplete';
import { HighlightStyle, LanguageSupport, StreamLanguage } from '@codemirror/language';
import { tags } from '@lezer/highlight';
import { readToken, type LexState, type TokenKind } from '../model/gsql-tokens.js';
import { GSQL_ACCUMULATORS, GSQL_FUNCTIONS, GSQL_KEYWORDS, GSQL_TYPES } from '../model/gsql-words.js';
import type { SchemaInfo } from '../model/schema.js';

const TAG_NAMES: Record<TokenKind, string | null> = {
  keyword: 'keyword',
  type: 'typeName',
  accumulator: 'className',
  function: 'variableName.function',
  identifier: 'variableName',
  variable: 'variableName.special',
  number: 'number',
  string: 'string',
  comment: 'comment',
  operator: 'operator',
  punctuation: 'punctuation',
  whitespace: null,
  invalid: 'invalid',
};

const gsqlStream = StreamLanguage.define<LexState>({
  name: 'gsql',
  startState: () => ({ inBlockComment: false }),
  copyState: (s) => ({ ...s }),
  token(stream, state) {
    const t = readToken(stream.string, stream.pos, state);
    stream.pos = Math.max(t.end, stream.pos + 1);
    return TAG_NAMES[t.kind];
  },
  languageData: { commentTokens: { line: '//', block: { open: '/*', close: '*/' } } },
});

export const gsqlHighlight = HighlightStyle.define([
  { tag: tags.keyword, color: '#7a3e9d', fontWeight: '600' },
  { tag: tags.typeName, color: '#0b6e4f' },
  { tag: tags.className, color: '#0b6e4f', fontStyle: 'italic' },
  { tag: tags.function(tags.variableName), color: '#1d4ed8' },
  { tag: tags.special(tags.variableName), color: '#b45309' },
  { tag: tags.number, color: '#a21caf' },
  { tag: tags.string, color: '#b91c1c' },
  { tag: tags.comment, color: '#6b7280', fontStyle: 'italic' },
  { tag: tags.invalid, color: '#dc2626', textDecoration: 'underline' },
]);

const STATIC_COMPLETIONS: Completion[] = [
  ...GSQL_KEYWORDS.map((label) => ({ label, type: 'keyword' })),
  ...GSQL_TYPES.map((label) => ({ label, type: 'type' })),
  ...GSQL_ACCUMULATORS.map((label) => ({ label, type: 'class' })),
  ...GSQL_FUNCTIONS.map((label) => ({ label: `${label}`, type: 'function' })),
];

/** The completions a schema adds: vertex and edge types, and their attributes. */
export function schemaCompletions(schema: SchemaInfo | undefined): Completion[] {
  if (!schema) return [];
  const out: Completion[] = [];
  const attrs = new Set<string>();
  for (const v of schema.vertexTypes) {
    out.push({ label: v.name, type: 'type', detail: 'vertex type' });
    for (const a of v.attributes) attrs.add(a.name);
  }
  for (const e of schema.edgeTypes) {
    out.push({ label: e.name, type: 'type', detail: 'edge type' });
    if (e.reverseEdge) out.push({ label: e.reverseEdge, type: 'type', detail: 'reverse edge type' });
    for (const a of e.attributes) attrs.add(a.name);
  }
  for (const a of attrs) out.push({ label: a, type: 'property', detail: 'attribute' });
  return out;
}

/** Completes the word before the cursor from GSQL's words and `extra()` (read at each completion). */
export function gsqlCompletion(extra: () => Completion[]): CompletionSource {
  return (context: CompletionContext): CompletionResult | null => {
    const word = context.matchBefore(/[A-Za-z_][A-Za-z0-9_]*/);
    if (!word || (word.from === word.to && !context.explicit)) return null;
    return { from: word.from, options: [...extra(), ...STATIC_COMPLETIONS], validFor: /^[A-Za-z0-9_]*$/ };
  };
}

export function gsql(): LanguageSupport {
  return new LanguageSupport(gsqlStream);
}
