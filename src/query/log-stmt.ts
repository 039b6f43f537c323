/**
 * `LOG(cond, a, b, …)`: when cond holds, one line in the server's log (stderr of `ocelot serve`),
 * the values written as `f.println` writes them. It changes nothing the query returns.
 */
import type { Stmt } from '../gsql/ast-query.js';
import { compileExpr, expectType } from './expr-support.js';
import { fieldText } from './file-output.js';
import { toJson } from './print.js';
import { Flow, type Cx, type RowStmt } from './scope.js';
import { T } from './types.js';

export function compileLog(cx: Cx, s: Stmt & { kind: 'log' }): RowStmt {
  const cond = compileExpr(cx, s.cond);
  expectType(cond, T.BOOL, s.cond.pos, 'the condition of LOG');
  const args = s.args.map((a) => compileExpr(cx, a));
  const vaccs = cx.vaccs;
  const prefix = `[ocelot] LOG query ${cx.queryName}: `;
  return (ctx) => {
    const log = ctx.opts.log;
    if (log && cond.f(ctx) === true)
      log(prefix + args.map((x) => fieldText(toJson(ctx, x.f(ctx), x.t, vaccs))).join(','));
    return Flow.Next;
  };
}
