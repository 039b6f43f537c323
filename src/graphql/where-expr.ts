/**
 * `whereExpr`: a GSQL boolean expression over the attributes of one vertex or edge type
 * (`name LIKE "San%" AND lower(gender) == "f"`), parsed by the GSQL expression parser and type
 * checked and compiled by the query compiler's attribute predicates.
 */
import type { Attribute, Catalog } from '../catalog/types.js';
import type { Expr } from '../gsql/ast-query.js';
import { GsqlSyntaxError, tokenize } from '../gsql/lexer.js';
import { parseExpr, TokenCursor } from '../gsql/parser-expr.js';
import {
  compileAttributePredicate,
  QueryCompileError,
  QueryRuntimeError,
  type AttributePredicate,
  type QueryGraph,
} from '../query/index.js';
import { GraphQLRequestError, type AttrReader } from './filter.js';

/** A compiled whereExpr, bound to one snapshot by `bind`. */
export interface WhereExpr {
  bind(graph: QueryGraph): (read: AttrReader) => boolean;
}

function invalid(text: string, what: string, detail: string): GraphQLRequestError {
  return new GraphQLRequestError(`Invalid whereExpr "${text}" on ${what}: ${detail}`);
}

/**
 * Compiles `text` over `attributes`; `what` names the type in messages (`vertex type 'city'`).
 * A syntax, name or type error is a GraphQLRequestError naming line, column and the problem.
 */
export function compileWhereExpr(
  text: string,
  attributes: readonly Attribute[],
  catalog: Catalog,
  graph: string,
  what: string,
): WhereExpr {
  let expr: Expr;
  try {
    // REST and GraphQL users write equality as `=` too; GSQL spells it `==`.
    const tokens = tokenize(text).map((t) =>
      t.kind === 'punct' && t.text === '=' ? { ...t, text: '==' } : t,
    );
    const c = TokenCursor.of(text, tokens);
    if (c.peek().kind === 'eof') throw c.error('expected an expression');
    expr = parseExpr(c);
    if (c.peek().kind !== 'eof') throw c.error('expected the end of the expression');
  } catch (e) {
    if (e instanceof GsqlSyntaxError)
      throw invalid(text, what, `line ${e.line}, column ${e.column}: ${e.detail}`);
    throw e;
  }
  let predicate: AttributePredicate;
  try {
    predicate = compileAttributePredicate(expr, text, attributes, catalog, graph);
  } catch (e) {
    if (e instanceof QueryCompileError)
      throw invalid(text, what, `line ${e.line}, column ${e.column}: ${e.detail}`);
    throw e;
  }
  return {
    bind(g) {
      const test = predicate.bind(g);
      return (read) => {
        try {
          return test(read);
        } catch (e) {
          if (e instanceof QueryRuntimeError) throw invalid(text, what, e.message);
          throw e;
        }
      };
    },
  };
}
