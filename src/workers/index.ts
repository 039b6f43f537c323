/**
 * The worker layer's front door: the query worker pool (pool.ts), what a worker runs for queries
 * (query-task.ts, dml.ts) and the messages between them (protocol.ts, errors.ts). The worker
 * program itself is server/workers/thread.ts, which also runs the server's other snapshot functions.
 */
export { QueryAbort } from './abort.js';
export { DmlRecorder, replayDml, type DmlRecord } from './dml.js';
export { errorFromImage, errorImage, type ErrorImage, WorkerCodedError } from './errors.js';
export {
  QueryPool,
  queryStopError,
  TaskStopped,
  type PoolOptions,
  type StopReason,
  type TaskControl,
} from './pool.js';
export { LINK, LINK_END } from './protocol.js';
export type { FromWorker, HelpLink, PackedArg, RunSpec, TaskResult, TaskSpec, ToWorker } from './protocol.js';
export { serveLink, type ServedLink } from './help-loop.js';
export { QueryTasks } from './query-task.js';
export { WorkerParallelHost } from './parallel-host.js';
export {
  attachPool,
  poolFor,
  releasePool,
  runQuery,
  sharePool,
  type QueryRunOptions,
  type QueryRunResult,
  type QuerySource,
} from './run-query.js';
