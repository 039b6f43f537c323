/**
 * Schema change jobs: CREATE [GLOBAL] SCHEMA_CHANGE JOB stores the job's text (after checking it
 * against the current schema), RUN applies all its statements as one catalog change (all or
 * nothing), DROP JOB / SHOW JOB manage stored jobs.
 */
import {
  addAttributes,
  addIndex,
  dropAttributes,
  dropIndex,
  dropJobs,
  findJob,
  saveJob,
} from '../catalog/alter.js';
import { createEdgeType, createVertexType, dropEdgeTypes, dropVertexTypes } from '../catalog/ddl.js';
import { graphJobs } from '../catalog/lookup.js';
import type { Catalog } from '../catalog/types.js';
import type { SchemaChangeAction, Stmt } from '../gsql/ast.js';
import { GsqlSyntaxError } from '../gsql/lexer.js';
import { parseOne } from '../gsql/parser.js';
import { ShellError, atPos, requireGraph, type HandlerTable, type ShellContext } from './context.js';
import { attributeFromDecl, edgeFromDecl, vertexFromDecl } from './convert.js';

type JobStmt = Extract<Stmt, { kind: 'create_schema_change_job' }>;

/** Applies one job statement; returns the line TigerGraph prints for it. */
function applyAction(
  c: Catalog,
  a: SchemaChangeAction,
  graph: string | undefined,
): { next: Catalog; line: string } {
  const scope = graph === undefined ? '' : 'local ';
  return atPos(a, () => {
    switch (a.action) {
      case 'add_vertex':
        return {
          next: createVertexType(c, vertexFromDecl(a.vertex, graph)),
          line: `Trying to add ${scope}vertex type "${a.vertex.name}".`,
        };
      case 'add_edge':
        return {
          next: createEdgeType(c, edgeFromDecl(a.edge, graph)),
          line: `Trying to add ${scope}edge type "${a.edge.name}".`,
        };
      case 'drop_vertex':
        return {
          next: dropVertexTypes(c, a.names, { graph, mode: 'job' }),
          line: `Trying to drop ${scope}vertex type ${a.names.map((n) => `"${n}"`).join(', ')}.`,
        };
      case 'drop_edge':
        return {
          next: dropEdgeTypes(c, a.names, { graph, mode: 'job' }),
          line: `Trying to drop ${scope}edge type ${a.names.map((n) => `"${n}"`).join(', ')}.`,
        };
      case 'alter_add_attributes':
        return {
          next: addAttributes(c, a.target, a.typeName, a.attributes.map(attributeFromDecl), graph),
          line: `Trying to add attributes ${a.attributes.map((x) => `"${x.name}"`).join(', ')} to ${a.target} type "${a.typeName}".`,
        };
      case 'alter_drop_attributes':
        return {
          next: dropAttributes(c, a.target, a.typeName, a.names, graph),
          line: `Trying to drop attributes ${a.names.map((x) => `"${x}"`).join(', ')} from ${a.target} type "${a.typeName}".`,
        };
      case 'add_index':
        return {
          next: addIndex(c, a.typeName, a.indexName, a.attribute, graph),
          line: `Trying to add index "${a.indexName}" on "${a.typeName}.${a.attribute}".`,
        };
      case 'drop_index':
        return {
          next: dropIndex(c, a.typeName, a.indexName, graph),
          line: `Trying to drop index "${a.indexName}" of "${a.typeName}".`,
        };
    }
  });
}

function applyJob(c: Catalog, job: JobStmt, graph: string | undefined): { next: Catalog; lines: string[] } {
  let next = c;
  const lines: string[] = [];
  for (const a of job.actions) {
    const r = applyAction(next, a, graph);
    next = r.next;
    lines.push(r.line);
  }
  return { next, lines };
}

/** The graph a job belongs to: FOR GRAPH, else the graph in use; undefined for a global job. */
function jobGraph(s: JobStmt, ctx: ShellContext): string | undefined {
  if (s.global) {
    if (s.graph !== undefined) throw new ShellError('A GLOBAL schema change job cannot be FOR GRAPH.', s);
    return undefined;
  }
  return s.graph ?? requireGraph(ctx, s, 'A schema change job');
}

function reparse(text: string, name: string): JobStmt {
  try {
    const stmt = parseOne(text);
    if (stmt.kind === 'create_schema_change_job') return stmt;
  } catch (e) {
    if (!(e instanceof GsqlSyntaxError)) throw e;
  }
  throw new ShellError(`The stored job ${name} is not a schema change job.`);
}

export const schemaChangeHandlers: Pick<
  HandlerTable,
  'create_schema_change_job' | 'run_schema_change_job' | 'drop_job' | 'show_job'
> = {
  async create_schema_change_job(s, ctx) {
    const graph = jobGraph(s, ctx);
    const catalog = ctx.store.catalog;
    // Checked against the schema of now, as TigerGraph does; the job is stored, not applied.
    applyJob(catalog, s, graph);
    const kind = s.global ? 'global_schema_change' : 'schema_change';
    const job =
      graph === undefined
        ? { name: s.name, kind, text: s.text }
        : { name: s.name, graph, kind, text: s.text };
    await ctx.store.changeCatalog(atPos(s, () => saveJob(catalog, job as Parameters<typeof saveJob>[1])));
    ctx.print(`Successfully created ${s.global ? 'global ' : ''}schema change jobs: [${s.name}].`);
  },

  async run_schema_change_job(s, ctx) {
    const graph = s.global ? undefined : requireGraph(ctx, s, 'RUN SCHEMA_CHANGE JOB');
    const catalog = ctx.store.catalog;
    const stored = findJob(catalog, s.name, graph);
    if (!stored || stored.kind === 'loading') {
      const other = s.global ? undefined : findJob(catalog, s.name, undefined);
      throw new ShellError(
        other
          ? `The job ${s.name} is a global schema change job; run it with RUN GLOBAL SCHEMA_CHANGE JOB.`
          : `The schema change job ${s.name} does not exist${graph === undefined ? '' : ` in graph '${graph}'`}.`,
        s,
      );
    }
    const job = reparse(stored.text, s.name);
    const start = Date.now();
    let result: { next: Catalog; lines: string[] };
    try {
      result = applyJob(catalog, job, graph);
    } catch (e) {
      if (e instanceof ShellError) {
        throw new ShellError(
          `${e.message}\nFailed to run schema change job ${s.name}; the schema is unchanged.`,
          s,
        );
      }
      throw e;
    }
    ctx.print(`Kick off schema change job ${s.name}`);
    ctx.print(
      graph === undefined
        ? `Doing global schema change (current version: ${catalog.version})`
        : `Doing schema change on graph '${graph}' (current version: ${catalog.version})`,
    );
    for (const line of result.lines) ctx.print(line);
    const next = { ...result.next, version: catalog.version + 1 };
    await ctx.store.changeCatalog(next);
    ctx.print('');
    ctx.print(
      graph === undefined
        ? `Global schema updated to new version ${next.version}`
        : `Graph ${graph} updated to new version ${next.version}`,
    );
    ctx.print(`The job ${s.name} completes in ${((Date.now() - start) / 1000).toFixed(3)} seconds!`);
  },

  async drop_job(s, ctx) {
    const graph = ctx.session.graph;
    const names = s.names === '*' ? graphJobs(ctx.store.catalog, graph).map((j) => j.name) : s.names;
    await ctx.store.changeCatalog(atPos(s, () => dropJobs(ctx.store.catalog, s.names, graph)));
    ctx.print(
      graph === undefined
        ? `Successfully dropped jobs: [${names.join(', ')}].`
        : `Successfully dropped jobs on the graph '${graph}': [${names.join(', ')}].`,
    );
  },

  async show_job(s, ctx) {
    const jobs = graphJobs(ctx.store.catalog, ctx.session.graph);
    const shown = s.names === '*' ? jobs : s.names.map((n) => jobs.find((j) => j.name === n));
    shown.forEach((j, i) => {
      if (!j) throw new ShellError(`The job ${(s.names as string[])[i]} does not exist.`, s);
    });
    for (const j of shown) if (j) ctx.print(j.text);
  },
};
