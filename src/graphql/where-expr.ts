/**
 * `whereExpr`: a GSQL boolean expression over the attributes of one vertex or edge type
 * (`name LIKE "San%" AND lower(gender) == "f"`), parsed by the GSQL expression parser and type
 * checked and compiled by the query compiler. Each attribute is bound as a read-only variable of its
 * GSQL type; only the attributes the expression names are read per element.
 */
import type { Attribute, Catalog } from '../catalog/types.js';
import type { Expr } from '../gsql/ast-query.js';
import { GsqlSyntaxError, tokenize } from '../gsql/lexer.js';
import { parseExpr, TokenCursor } from '../gsql/parser-expr.js';
import { compileExpr, fromStored } from '../query/compile-expr.js';
import { RunContext } from '../query/context.js';
import { compileError, QueryCompileError } from '../query/errors.js';
import type { QueryGraph } from '../query/graph.js';
import { Cx } from '../query/scope.js';
import { attrTypeToQ, typeText } from '../query/types.js';
import { QueryRuntimeError } from '../query/values.js';
import { GraphQLRequestError, type AttrReader } from './filter.js';

/** A compiled whereExpr, bound to one snapshot by `bind`. */
export interface WhereExpr {
  bind(graph: QueryGraph): (read: AttrReader) => boolean;
}

function invalid(text: string, what: string, detail: string): GraphQLRequestError {
  return new GraphQLRequestError(`Invalid whereExpr "${text}" on ${what}: ${detail}`);
}

/** Names the expression reads (attributes among them). */
function namesIn(node: unknown, out: Set<string>): void {
  if (Array.isArray(node)) {
    for (const n of node) namesIn(n, out);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const rec = node as Record<string, unknown>;
  if (rec.kind === 'name' && typeof rec.name === 'string') out.add(rec.name);
  for (const [k, v] of Object.entries(rec)) if (k !== 'pos' && k !== 'opPos') namesIn(v, out);
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
  const cx = new Cx('', text, catalog, graph, 'v2');
  cx.compileSelect = (_cx, _block, pos) => {
    throw compileError(pos, 'a SELECT block is not allowed in whereExpr');
  };
  const used = new Set<string>();
  namesIn(expr, used);
  const slots: { name: string; slot: number; type: Attribute['type'] }[] = [];
  for (const a of attributes) {
    const b = cx.declare(a.name, attrTypeToQ(a.type, catalog.tuples), expr.pos, true);
    if (used.has(a.name)) slots.push({ name: a.name, slot: b.slot, type: a.type });
  }
  let f: (ctx: RunContext) => unknown;
  try {
    const typed = compileExpr(cx, expr);
    if (typed.t.kind !== 'BOOL') {
      throw compileError(expr.pos, `the expression must be BOOL, but it is ${typeText(typed.t)}`);
    }
    f = typed.f;
  } catch (e) {
    if (e instanceof QueryCompileError)
      throw invalid(text, what, `line ${e.line}, column ${e.column}: ${e.detail}`);
    throw e;
  }
  const slotCount = cx.slots;
  return {
    bind(g) {
      const ctx = new RunContext(g, graph, slotCount);
      return (read) => {
        for (const s of slots) ctx.vars[s.slot] = fromStored(ctx, read(s.name), cx.tuples);
        try {
          return f(ctx) === true;
        } catch (e) {
          if (e instanceof QueryRuntimeError) throw invalid(text, what, e.message);
          throw e;
        }
      };
    },
  };
}
