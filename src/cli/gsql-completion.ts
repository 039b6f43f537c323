/**
 * Tab completion in the interactive `ocelot gsql`: GSQL keywords, and the names the server knows
 * (graphs, vertex, edge and tuple types, the current graph's queries and loading jobs), fetched
 * through the 4.x REST endpoints when first needed and again after each command. The word being
 * completed is matched case-insensitively; keywords are offered in the case it was typed in.
 */

export interface CompletionNames {
  graphs: string[];
  types: string[];
  queries: string[];
  jobs: string[];
}

export const NO_NAMES: CompletionNames = { graphs: [], types: [], queries: [], jobs: [] };

/** Statement and clause keywords, and the type names of attributes and parameters. */
export const KEYWORDS = [
  'ABORT',
  'ACCUM',
  'ADD',
  'ALL',
  'ALTER',
  'AND',
  'AS',
  'ASC',
  'BEGIN',
  'BOOL',
  'BY',
  'CASE',
  'CLEAR',
  'CREATE',
  'DATETIME',
  'DEFAULT',
  'DEFINE',
  'DELETE',
  'DESC',
  'DIRECTED',
  'DISTRIBUTED',
  'DO',
  'DOUBLE',
  'DROP',
  'EDGE',
  'ELSE',
  'END',
  'EXIT',
  'EXPORT',
  'FILENAME',
  'FLOAT',
  'FOR',
  'FOREACH',
  'FROM',
  'GLOBAL',
  'GRANT',
  'GRAPH',
  'HAVING',
  'HEADER',
  'HELP',
  'IF',
  'IMPORT',
  'IN',
  'INSERT',
  'INSTALL',
  'INT',
  'INTERPRET',
  'INTO',
  'JOB',
  'LIMIT',
  'LIST',
  'LOAD',
  'LOADING',
  'LS',
  'MAP',
  'NOT',
  'OR',
  'ORDER',
  'PASSWORD',
  'POST-ACCUM',
  'PRIMARY_ID',
  'PRINT',
  'PRIVILEGE',
  'QUERY',
  'QUIT',
  'REPLACE',
  'RESUME',
  'RETURNS',
  'REVERSE_EDGE',
  'REVOKE',
  'ROLE',
  'RUN',
  'SCHEMA_CHANGE',
  'SECRET',
  'SELECT',
  'SEPARATOR',
  'SET',
  'SHOW',
  'STATUS',
  'STORE',
  'STRING',
  'TEMP_TABLE',
  'THEN',
  'TO',
  'TOKEN',
  'TUPLE',
  'TYPEDEF',
  'UINT',
  'UNDIRECTED',
  'UPSERT',
  'USE',
  'USER',
  'USING',
  'VALUES',
  'VERSION',
  'VERTEX',
  'WHERE',
  'WHILE',
  'WITH',
];

/** Leading words after which only one kind of name fits. */
const CONTEXTS: [RegExp, keyof CompletionNames][] = [
  [/\b(?:USE|DROP|SHOW|EXPORT)\s+GRAPH\s+$|\bFOR\s+GRAPH\s+$/i, 'graphs'],
  [/\b(?:RUN|INSTALL|DROP|SHOW|INTERPRET)\s+QUERY\s+$/i, 'queries'],
  [/\bRUN\s+LOADING\s+JOB\s+(?:-noprint\s+)?$|\b(?:DROP|SHOW)\s+JOB\s+$/i, 'jobs'],
  [/\b(?:TO|DROP|SHOW)\s+(?:VERTEX|EDGE|TUPLE)\s+$|\b(?:FROM|TO)\s+$/i, 'types'],
];

/** Completions of the word before the cursor: readline's [candidates, word]. */
export function complete(line: string, names: CompletionNames): [string[], string] {
  const word = /[A-Za-z0-9_.-]*$/.exec(line)?.[0] ?? '';
  const before = line.slice(0, line.length - word.length);
  const context = CONTEXTS.find(([re]) => re.test(before))?.[1];
  const lower = word.toLowerCase();
  const matching = (list: readonly string[]) => list.filter((c) => c.toLowerCase().startsWith(lower));
  if (context) return [unique(matching(names[context])), word];
  const keywordCase =
    word !== '' && word === word.toLowerCase() ? (k: string) => k.toLowerCase() : (k: string) => k;
  const all = [
    ...matching(KEYWORDS).map(keywordCase),
    ...matching([...names.graphs, ...names.types, ...names.queries, ...names.jobs]),
  ];
  return [unique(all), word];
}

function unique(list: string[]): string[] {
  return [...new Set(list)].sort();
}

/** What completion needs from the session: a GET of a GSQL server path (undefined on any failure). */
export type JsonGetter = (path: string) => Promise<unknown>;

/** The server's names, read at most once between two commands. */
export class CompletionSource {
  private cached: Promise<CompletionNames> | undefined;

  constructor(
    private readonly get: JsonGetter,
    private readonly currentGraph: () => string | undefined,
  ) {}

  /** A command ran: names may have changed. */
  invalidate(): void {
    this.cached = undefined;
  }

  names(): Promise<CompletionNames> {
    this.cached ??= this.fetch().catch(() => NO_NAMES);
    return this.cached;
  }

  private async fetch(): Promise<CompletionNames> {
    const graph = this.currentGraph();
    const q = graph === undefined ? '' : `?graph=${encodeURIComponent(graph)}`;
    const [graphs, global, tuples, queries, jobs] = await Promise.all([
      this.get('/gsql/v1/schema/graphs'),
      this.get('/gsql/v1/schema'),
      this.get('/gsql/v1/udt/tuples'),
      graph === undefined ? undefined : this.get(`/gsql/v1/queries${q}`),
      graph === undefined ? undefined : this.get(`/gsql/v1/loading-jobs${q}`),
    ]);
    const summaries =
      field<{ graphName?: string; vertices?: string[]; edges?: string[] }[]>(graphs, 'graphs') ?? [];
    const schema = field<{ VertexTypes?: { Name?: string }[]; EdgeTypes?: { Name?: string }[] }>(
      global,
      'results',
    );
    const types = [
      ...summaries.flatMap((g) => [...(g.vertices ?? []), ...(g.edges ?? [])]),
      ...(schema?.VertexTypes ?? []).map((t) => t.Name),
      ...(schema?.EdgeTypes ?? []).map((t) => t.Name),
      ...(field<{ name?: string }[]>(tuples, 'results') ?? []).map((t) => t.name),
    ];
    return {
      graphs: strings(summaries.map((g) => g.graphName)),
      types: strings(types),
      queries: strings(field<unknown[]>(queries, 'results') ?? []),
      jobs: strings(field<unknown[]>(jobs, 'jobNames') ?? []),
    };
  }
}

function field<T>(doc: unknown, key: string): T | undefined {
  return doc !== null && typeof doc === 'object'
    ? ((doc as Record<string, unknown>)[key] as T | undefined)
    : undefined;
}

function strings(list: readonly unknown[]): string[] {
  return [...new Set(list.filter((v): v is string => typeof v === 'string' && v !== ''))];
}
