/**
 * Defining a loading job: a CREATE LOADING JOB text, checked against the schema, kept in the catalog
 * as its text (the shell's CREATE LOADING JOB and POST/PUT /gsql/v1/loading-jobs both come here).
 */
import { dropJobs, findJob, saveJob } from '../catalog/alter.js';
import type { Catalog } from '../catalog/types.js';
import { compileLoadingJob } from './compiler.js';
import { LoadingJobError } from './expressions.js';
import { parseLoadingJob } from './job.js';

/**
 * The catalog with the job of `text` added to `graph` (or replacing the job of that name with
 * `replace`), and the job's name. Throws the parser's, compiler's or catalog's error otherwise.
 */
export function defineLoadingJob(
  catalog: Catalog,
  text: string,
  graph: string,
  replace = false,
): { catalog: Catalog; name: string } {
  const ast = parseLoadingJob(text);
  if (ast.graph !== undefined && ast.graph !== graph) {
    throw new LoadingJobError(`The loading job ${ast.name} is for graph ${ast.graph}, not ${graph}.`);
  }
  compileLoadingJob(ast, graph, { catalog });
  const base = replace && findJob(catalog, ast.name, graph) ? dropJobs(catalog, [ast.name], graph) : catalog;
  return { catalog: saveJob(base, { name: ast.name, graph, kind: 'loading', text }), name: ast.name };
}
