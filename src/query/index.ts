/**
 * The query layer's one front door: servers, the shell, GraphQL and tests outside `query/` import
 * from here only (a lint rule forbids deeper imports). Parse → bind → plan → execute happens
 * behind `compileQuery`; callers see compiled queries, their parameters, runs and errors.
 */
export {
  compileQuery,
  compileSubquery,
  type CompiledParam,
  type CompiledQuery,
  type CompiledSubquery,
  type CompileOptions,
  type QueryResolver,
  type RunOutcome,
} from './compile-query.js';
export type { DmlOp, RunOptions } from './context.js';
export { queryWrites, storedQueriesOf, storedQueryWrites, type StoredQueries } from './effects.js';
export { compileError, QueryCompileError, QueryRegistryError } from './errors.js';
export {
  createFunction,
  createPackage,
  dropFunctions,
  dropPackage,
  installFunctions,
  showFunctions,
  showPackages,
} from './gsql-functions.js';
export type { QueryDatabase, QueryGraph, QueryWriter } from './graph.js';
export { interpretQueryText, prepareInterpreted } from './interpret.js';
export { type QueryFile, writeQueryFiles } from './file-output.js';
export { decodeJsonParams, decodeQueryStringParams, decodeRunArgs, ParamError } from './params.js';
export { compileAttributePredicate, type AttributePredicate, type AttrReader } from './predicate.js';
export {
  CatalogQueryStore,
  MemoryQueryStore,
  QueryRegistry,
  registryFor,
  runInstalledQuery,
  type QueryStore,
  type StoredQuery,
} from './registry.js';
export { executeQuery, type QueryResult } from './run.js';
export { selectKernels } from './select-kernel.js';
export { hasAggregate } from './table-aggregate.js';
export { parallelSelect } from './parallel-plan.js';
export { helpParallelAccum } from './parallel-help.js';
export {
  splitsSelects,
  type AccumJob,
  type HelperOutcome,
  type ParallelHost,
} from './parallel.js';
export { shareRunArrays } from './run-buffers.js';
export { attrTypeToQ, typeText, type QType } from './types.js';
export { allowUdfPut, udfPutAllowed, type UdfFileName } from './udf.js';
export { checkUdfPutAllowed, getUdfFile, putUdfFile, putUdfMessage, udfFileName } from './udf-files.js';
export { QueryRuntimeError } from './values.js';
