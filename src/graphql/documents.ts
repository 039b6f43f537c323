/**
 * Parsed and validated documents of one schema, cached by their text (least recently used out
 * first), so a repeated query costs a map lookup. Parsing stops past MAX_TOKENS tokens, which
 * bounds the work graphql-js's validation can be made to do. Validation uses graphql-js's rules
 * with two changes: a variable of type `<T>OrderBy` may fill `order_by: [<T>OrderBy!]` (TigerGraph
 * publishes the single object type), and with introspection off `__schema`/`__type` are refused.
 */
import {
  GraphQLError,
  Kind,
  NoSchemaIntrospectionCustomRule,
  parse,
  type SelectionSetNode,
  specifiedRules,
  validate,
  VariablesInAllowedPositionRule,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

/** Tokens a document may have (GraphiQL's introspection query has about 1,000). */
export const MAX_TOKENS = 10_000;
/** Fields a document may write (before fragments expand; the introspection query has about 100). */
export const MAX_DOCUMENT_FIELDS = 2_000;
/** Fields of one response name one selection set may repeat (validation compares them pairwise). */
export const MAX_REPEATED_FIELDS = 50;
const CAPACITY = 500;
/** Longer documents are parsed every time (and their plans not kept). */
export const MAX_CACHED_CHARS = 64 * 1024;

const ORDER_BY_VARIABLE =
  /^Variable "\$[_A-Za-z][_0-9A-Za-z]*" of type "([_A-Za-z][_0-9A-Za-z]*OrderBy)!?" used in position expecting type "\[\1!\]"\.$/;

/** VariablesInAllowedPositionRule, letting a single `<T>OrderBy` variable fill an `order_by` list. */
function orderByVariables(context: ValidationContext): ReturnType<ValidationRule> {
  const lenient = Object.create(context) as ValidationContext;
  lenient.reportError = (e: GraphQLError) => {
    if (!ORDER_BY_VARIABLE.test(e.message)) context.reportError(e);
  };
  return VariablesInAllowedPositionRule(lenient);
}

export type Parsed = { document: DocumentNode } | { errors: readonly GraphQLError[] };

/**
 * A map that keeps about its `capacity` most recently used entries: an entry is moved to the newest
 * end when it is used after drifting into the older half, so a hot entry costs one lookup per use
 * (not a delete and a re-insert) and is never the next to go.
 */
export class Lru<V> {
  private readonly map = new Map<string, { v: V; at: number }>();
  /** Counts insertions and moves; `at` is an entry's count when it last went to the newest end. */
  private clock = 0;

  constructor(private readonly capacity: number) {}

  get(key: string): V | undefined {
    const e = this.map.get(key);
    if (e === undefined) return undefined;
    if (this.clock - e.at > this.capacity >> 1) {
      this.map.delete(key);
      e.at = ++this.clock;
      this.map.set(key, e);
    }
    return e.v;
  }

  set(key: string, v: V): void {
    this.map.delete(key);
    if (this.map.size >= this.capacity) this.map.delete(this.map.keys().next().value as string);
    this.map.set(key, { v, at: ++this.clock });
  }
}

export class DocumentCache {
  private readonly cache = new Lru<Parsed>(CAPACITY);
  private readonly rules: ValidationRule[];

  constructor(
    private readonly schema: GraphQLSchema,
    introspection: boolean,
  ) {
    this.rules = specifiedRules.map((r) => (r === VariablesInAllowedPositionRule ? orderByVariables : r));
    if (!introspection) this.rules.push(NoSchemaIntrospectionCustomRule);
  }

  get(text: string): Parsed {
    const hit = this.cache.get(text);
    if (hit) return hit;
    const parsed = this.parse(text);
    if (text.length <= MAX_CACHED_CHARS) this.cache.set(text, parsed);
    return parsed;
  }

  private parse(text: string): Parsed {
    let document: DocumentNode;
    try {
      document = parse(text, { maxTokens: MAX_TOKENS });
    } catch (e) {
      if (e instanceof GraphQLError) return { errors: [e] };
      throw e;
    }
    const tooBig = sizeProblem(
      document.definitions.flatMap((d) => ('selectionSet' in d && d.selectionSet ? [d.selectionSet] : [])),
    );
    if (tooBig) return { errors: [new GraphQLError(tooBig, { extensions: { code: 'GRAPHQL-FIELDS' } })] };
    const errors = validate(this.schema, document, this.rules, { maxErrors: 50 });
    return errors.length > 0 ? { errors } : { document };
  }
}

/**
 * Why a document is too big to validate, if it is: graphql-js's overlap check compares fields of
 * one response name pairwise, so thousands of them would keep it busy for seconds.
 */
function sizeProblem(sets: readonly SelectionSetNode[]): string | undefined {
  let fields = 0;
  const pending = [...sets];
  for (let set = pending.pop(); set; set = pending.pop()) {
    const names = new Map<string, number>();
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) {
        fields++;
        const key = s.alias?.value ?? s.name.value;
        const n = (names.get(key) ?? 0) + 1;
        names.set(key, n);
        if (n > MAX_REPEATED_FIELDS) {
          return `The document repeats the field '${key}' more than ${MAX_REPEATED_FIELDS} times in one selection.`;
        }
      }
      if ('selectionSet' in s && s.selectionSet) pending.push(s.selectionSet);
    }
    if (fields > MAX_DOCUMENT_FIELDS) return `The document has more than ${MAX_DOCUMENT_FIELDS} fields.`;
  }
  return undefined;
}
