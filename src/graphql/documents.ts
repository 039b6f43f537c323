/**
 * Parsed and validated documents of one schema, cached by their text (least recently used out
 * first), so a repeated query costs a map lookup. Parsing stops past MAX_TOKENS tokens, which
 * bounds the work graphql-js's validation can be made to do. Validation uses graphql-js's rules
 * with two changes: a variable of type `<T>OrderBy` may fill `order_by: [<T>OrderBy!]` (TigerGraph
 * publishes the single object type), and with introspection off `__schema`/`__type` are refused.
 */
import {
  GraphQLError,
  NoSchemaIntrospectionCustomRule,
  parse,
  specifiedRules,
  validate,
  VariablesInAllowedPositionRule,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

/** Tokens a document may have (GraphiQL's introspection query has about 1,000). */
export const MAX_TOKENS = 20_000;
const CAPACITY = 500;
const MAX_CACHED_CHARS = 64 * 1024;

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

export class DocumentCache {
  private readonly cache = new Map<string, Parsed>();
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
    if (hit) {
      this.cache.delete(text);
      this.cache.set(text, hit);
      return hit;
    }
    const parsed = this.parse(text);
    if (text.length <= MAX_CACHED_CHARS) {
      if (this.cache.size >= CAPACITY) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(text, parsed);
    }
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
    const errors = validate(this.schema, document, this.rules, { maxErrors: 50 });
    return errors.length > 0 ? { errors } : { document };
  }
}
