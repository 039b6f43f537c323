/**
 * How a pool task ends without an answer: the reasons, the error the pool rejects the task with,
 * and the query runtime's error for it (the codes the REST++ layer maps to its envelope).
 */
import { QueryRuntimeError } from '../query/index.js';

/** Why a task ended without an answer. */
export type StopReason = 'timeout' | 'aborted' | 'memory' | 'crashed' | 'closed';

/** A task the pool stopped (the worker was told to stop or was terminated). */
export class TaskStopped extends Error {
  constructor(
    readonly reason: StopReason,
    message: string,
  ) {
    super(message);
    this.name = 'TaskStopped';
  }
}

/**
 * The pool's error for a task stopped for `reason`; a task that ran out of memory names its limit:
 * its own (`own` MiB, GSQL-QueryLocalMemLimitMB) or the workers' (`workersMb`, --query-memory-mb).
 */
export function taskStopped(reason: StopReason, own?: number, workersMb?: number): TaskStopped {
  const mb = own ?? workersMb;
  switch (reason) {
    case 'timeout':
      return new TaskStopped(reason, 'The task exceeded its time limit and was stopped.');
    case 'aborted':
      return new TaskStopped(reason, 'The task was aborted.');
    case 'memory':
      return new TaskStopped(
        reason,
        `The task ran out of memory${mb ? ` (the limit is ${mb} MB per query, ${own ? 'GSQL-QueryLocalMemLimitMB' : '--query-memory-mb'})` : ''} and was stopped.`,
      );
    case 'closed':
      return new TaskStopped(reason, 'The server is shutting down.');
    default:
      return new TaskStopped(reason, 'The worker thread running the task failed; the task was stopped.');
  }
}

/** The runtime's error for a query the pool stopped (the codes classifyQueryError knows). */
export function queryStopError(e: TaskStopped): QueryRuntimeError {
  switch (e.reason) {
    case 'timeout':
      return new QueryRuntimeError('The query exceeded its time limit and was stopped.', 'GSQL-7002');
    case 'aborted':
      return new QueryRuntimeError('The query was aborted.', 'GSQL-6500');
    case 'memory':
      // TigerGraph's code for a query past its memory limit.
      return new QueryRuntimeError(`Runtime Error: ${e.message.replaceAll('task', 'query')}`, 'SYS-0002');
    default:
      return new QueryRuntimeError(`Runtime Error: ${e.message.replaceAll('task', 'query')}`, 'GSQL-8001');
  }
}
