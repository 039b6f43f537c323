/**
 * Work on a snapshot for a route (path finding, /builtins): on a worker of the database's pool when
 * it has one (the function named `fn` in server/workers/calls.ts, given `input`), otherwise here on
 * a snapshot of this thread (`local`). A worker's coded errors become the route's RestErrors.
 */
import type { ReadTx } from '../../engine/api.js';
import { poolFor, TaskStopped, WorkerCodedError } from '../../workers/index.js';
import type { ServerContext } from '../context.js';
import { RestError } from '../http/envelope.js';

/** Past GSQL-TIMEOUT, a worker that has not stopped by itself (its own budget) is stopped. */
const BACKSTOP_MS = 1000;

export async function onSnapshot<T>(
  ctx: ServerContext,
  fn: string,
  input: unknown,
  timeoutMs: number,
  local: (tx: ReadTx) => T | Promise<T>,
): Promise<T> {
  const pool = poolFor(ctx.db);
  if (!pool) {
    const tx = ctx.db.read();
    try {
      return await local(tx);
    } finally {
      tx.release();
    }
  }
  try {
    const r = await pool.run({ kind: 'call', fn, input }, { deadline: Date.now() + timeoutMs + BACKSTOP_MS });
    if (r.kind !== 'call') throw new Error('a worker call answered something else');
    return r.output as T;
  } catch (e) {
    if (e instanceof WorkerCodedError)
      throw new RestError(e.code, e.message, e.status !== undefined ? { status: e.status } : {});
    if (e instanceof TaskStopped) {
      if (e.reason === 'timeout')
        throw new RestError('REST-3000', `The request did not finish within its timeout of ${timeoutMs} ms.`);
      throw new RestError('REST-10005', e.message);
    }
    throw e;
  }
}
