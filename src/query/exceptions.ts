/**
 * User-defined exceptions: `EXCEPTION name (code)` declarations, `RAISE name (message)`, and
 * `TRY … EXCEPTION WHEN name THEN … ELSE … END`. A RAISE no TRY catches ends the query with an
 * error envelope carrying the exception's code and message; nothing the query changed is committed.
 */
import type { Stmt } from '../gsql/ast-query.js';
import { compileExpr } from './expr-support.js';
import type { RunContext } from './context.js';
import { compileError } from './errors.js';
import { fieldText } from './file-output.js';
import { toJson } from './print.js';
import { Flow, type BodyStmt, type Cx, type RowStmt } from './scope.js';
import { QueryRuntimeError } from './values.js';

/** TigerGraph reserves the codes up to 40000 for its own errors. */
const MIN_USER_CODE = 40001;

export class RaisedException extends QueryRuntimeError {
  constructor(
    readonly exception: string,
    code: number,
    message: string,
  ) {
    super(message, String(code));
    this.name = 'RaisedException';
  }
}

export function declareException(cx: Cx, s: Stmt & { kind: 'exceptionDecl' }): void {
  if (cx.clause !== 'body' || cx.loopDepth > 0)
    throw compileError(s.pos, 'EXCEPTION must be declared at the beginning of the query body');
  if (cx.exceptions.has(s.name)) throw compileError(s.pos, `the exception "${s.name}" is already declared`);
  if (s.code < MIN_USER_CODE)
    throw compileError(s.pos, `the code of exception "${s.name}" must be greater than 40000, not ${s.code}`);
  cx.exceptions.set(s.name, s.code);
}

function codeOf(cx: Cx, name: string, pos: Stmt['pos']): number {
  const code = cx.exceptions.get(name);
  if (code === undefined) throw compileError(pos, `"${name}" is not a declared EXCEPTION`);
  return code;
}

export function compileRaise(cx: Cx, s: Stmt & { kind: 'raise' }): RowStmt {
  if (cx.clause !== 'body') throw compileError(s.pos, `RAISE is not allowed in ${cx.clause}`);
  const code = codeOf(cx, s.name, s.pos);
  const msg = s.message ? compileExpr(cx, s.message) : undefined;
  const vaccs = cx.vaccs;
  return (ctx) => {
    const text = msg ? fieldText(toJson(ctx, msg.f(ctx), msg.t, vaccs)) : `exception ${s.name} was raised`;
    throw new RaisedException(s.name, code, text);
  };
}

/** Compiles a TRY; `block` compiles and `run` runs a list of query-body statements. */
export function compileTry<L>(
  cx: Cx,
  s: Stmt & { kind: 'try' },
  block: (stmts: Stmt[]) => L,
  run: (ctx: RunContext, list: L) => Promise<Flow>,
): BodyStmt {
  const body = cx.nested(() => block(s.body));
  const handlers = new Map<string, L>();
  for (const h of s.handlers) {
    codeOf(cx, h.name, h.pos);
    if (handlers.has(h.name)) throw compileError(h.pos, `"${h.name}" has two WHEN branches in this TRY`);
    handlers.set(
      h.name,
      cx.nested(() => block(h.body)),
    );
  }
  const otherwise = s.otherwise ? cx.nested(() => block(s.otherwise!)) : undefined;
  return async (ctx) => {
    try {
      return await run(ctx, body);
    } catch (e) {
      if (!(e instanceof RaisedException)) throw e;
      const handler = handlers.get(e.exception) ?? otherwise;
      if (handler === undefined) throw e;
      return run(ctx, handler);
    }
  };
}
